CREATE TABLE "agenda_anexo" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"nome" text NOT NULL,
	"versao" bigint NOT NULL,
	"agenda_id" uuid,
	"parceiro_id" uuid,
	"pasta" text NOT NULL,
	"descricao" text,
	"tamanho" bigint,
	"content_type" text,
	"sha256" text,
	"enviado_em" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "agenda_anexo" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "agenda_external_tenant" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"codigo" text NOT NULL,
	"nome" text NOT NULL,
	"ativo" boolean DEFAULT true NOT NULL,
	"permite_edicao_motorista" boolean DEFAULT true NOT NULL,
	"nao_permite_criar_agendamentos_agrupado" boolean DEFAULT false NOT NULL,
	"pre_agenda_habilitada" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agenda_external_tenant" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "agenda_external_user" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"email" text NOT NULL,
	"nome" text NOT NULL,
	"ativo" boolean DEFAULT true NOT NULL,
	"parceiro_ids" uuid[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agenda_external_user" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "agenda_parceiro_veiculo" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"parceiro_id" uuid NOT NULL,
	"veiculo_id" uuid NOT NULL,
	"placa" text NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agenda_parceiro_veiculo" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "agenda_anexo" ADD CONSTRAINT "agenda_anexo_agenda_id_agenda_id_fk" FOREIGN KEY ("agenda_id") REFERENCES "public"."agenda"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agenda_parceiro_veiculo" ADD CONSTRAINT "agenda_parceiro_veiculo_parceiro_id_agenda_external_tenant_id_fk" FOREIGN KEY ("parceiro_id") REFERENCES "public"."agenda_external_tenant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agenda_anexo_versao" ON "agenda_anexo" USING btree ("tenant","pasta","nome","versao");--> statement-breakpoint
CREATE INDEX "agenda_anexo_agenda" ON "agenda_anexo" USING btree ("tenant","agenda_id");--> statement-breakpoint
CREATE UNIQUE INDEX "agenda_external_tenant_codigo" ON "agenda_external_tenant" USING btree ("tenant","codigo");--> statement-breakpoint
CREATE INDEX "agenda_external_tenant_nome_trgm" ON "agenda_external_tenant" USING gin ("nome" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "agenda_external_user_email" ON "agenda_external_user" USING btree ("tenant","email");--> statement-breakpoint
CREATE INDEX "agenda_external_user_parceiros" ON "agenda_external_user" USING gin ("parceiro_ids");--> statement-breakpoint
CREATE UNIQUE INDEX "agenda_parceiro_veiculo_key" ON "agenda_parceiro_veiculo" USING btree ("tenant","parceiro_id","veiculo_id");--> statement-breakpoint
CREATE INDEX "agenda_parceiro_veiculo_veiculo" ON "agenda_parceiro_veiculo" USING btree ("tenant","veiculo_id");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "agenda_anexo" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("agenda_anexo"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("agenda_anexo"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "agenda_external_tenant" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("agenda_external_tenant"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("agenda_external_tenant"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "agenda_external_user" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("agenda_external_user"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("agenda_external_user"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "agenda_parceiro_veiculo" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("agenda_parceiro_veiculo"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("agenda_parceiro_veiculo"."tenant" = current_setting('ponte.tenant', true));