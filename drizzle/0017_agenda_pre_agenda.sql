CREATE TABLE "configuracao_aprovacao_agenda" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"planta_id" uuid,
	"tipo_agendamento_id" uuid,
	"exige_aprovacao" boolean DEFAULT true NOT NULL,
	"niveis" bigint DEFAULT 1 NOT NULL,
	"aprovadores" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"descricao" text,
	CONSTRAINT "configuracao_aprovacao_agenda_escopo" UNIQUE NULLS NOT DISTINCT("tenant","planta_id","tipo_agendamento_id")
);
--> statement-breakpoint
ALTER TABLE "configuracao_aprovacao_agenda" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "custom_table" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"entidade" text NOT NULL,
	"chave" text NOT NULL,
	"rotulo" text NOT NULL,
	"tipo" text NOT NULL,
	"obrigatorio" boolean DEFAULT false NOT NULL,
	"opcoes" jsonb,
	"tamanho_maximo" bigint
);
--> statement-breakpoint
ALTER TABLE "custom_table" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "historico_aprovacao_agenda" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "historico_aprovacao_agenda_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"pre_agenda_id" uuid NOT NULL,
	"configuracao_id" uuid,
	"niveis" bigint NOT NULL,
	"aprovadores" jsonb NOT NULL,
	"nivel_atual" bigint NOT NULL,
	"status" text NOT NULL,
	"inicio" timestamp with time zone NOT NULL,
	"fim" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "historico_aprovacao_agenda" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "historico_aprovacao_agenda_item" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "historico_aprovacao_agenda_item_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"historico_aprovacao_id" uuid NOT NULL,
	"nivel" bigint NOT NULL,
	"aprovador" text NOT NULL,
	"decisao" text NOT NULL,
	"comentario" text,
	"quem" text NOT NULL,
	"quando" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "historico_aprovacao_agenda_item" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "pre_agenda" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"planta_id" uuid NOT NULL,
	"tipo_agendamento_id" uuid NOT NULL,
	"external_tenant_id" uuid,
	"cliente_id" uuid,
	"descricao" text,
	"data_esperada" timestamp with time zone NOT NULL,
	"veiculo_id" uuid,
	"composicao_veiculo_id" uuid,
	"motorista_id" uuid,
	"observacao" text,
	"custom" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'PENDENTE' NOT NULL,
	"motivo" text,
	"cod_agenda" bigint,
	"agenda_id" uuid
);
--> statement-breakpoint
ALTER TABLE "pre_agenda" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "pre_agenda_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "pre_agenda_log_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"pre_agenda_id" uuid NOT NULL,
	"acao" text NOT NULL,
	"de" text,
	"para" text,
	"alteracoes" jsonb,
	"motivo" text,
	"quem" text NOT NULL,
	"quando" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pre_agenda_log" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE UNIQUE INDEX "custom_table_chave" ON "custom_table" USING btree ("tenant","entidade","chave");--> statement-breakpoint
CREATE INDEX "historico_aprovacao_agenda_pre" ON "historico_aprovacao_agenda" USING btree ("tenant","pre_agenda_id","seq");--> statement-breakpoint
CREATE INDEX "historico_aprovacao_agenda_item_hist" ON "historico_aprovacao_agenda_item" USING btree ("tenant","historico_aprovacao_id","seq");--> statement-breakpoint
CREATE INDEX "pre_agenda_criacao" ON "pre_agenda" USING btree ("tenant","created_date","id");--> statement-breakpoint
CREATE INDEX "pre_agenda_data_esperada" ON "pre_agenda" USING btree ("tenant","data_esperada","id");--> statement-breakpoint
CREATE INDEX "pre_agenda_planta_data" ON "pre_agenda" USING btree ("tenant","planta_id","data_esperada");--> statement-breakpoint
CREATE INDEX "pre_agenda_status_criacao" ON "pre_agenda" USING btree ("tenant","status","created_date");--> statement-breakpoint
CREATE INDEX "pre_agenda_tipo" ON "pre_agenda" USING btree ("tenant","tipo_agendamento_id");--> statement-breakpoint
CREATE INDEX "pre_agenda_parceiro" ON "pre_agenda" USING btree ("tenant","external_tenant_id","created_date");--> statement-breakpoint
CREATE INDEX "pre_agenda_cliente" ON "pre_agenda" USING btree ("tenant","cliente_id","created_date");--> statement-breakpoint
CREATE UNIQUE INDEX "pre_agenda_cod_agenda" ON "pre_agenda" USING btree ("tenant","cod_agenda") WHERE "pre_agenda"."cod_agenda" is not null;--> statement-breakpoint
CREATE INDEX "pre_agenda_descricao_trgm" ON "pre_agenda" USING gin ("descricao" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pre_agenda_log_pre" ON "pre_agenda_log" USING btree ("tenant","pre_agenda_id","seq");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "configuracao_aprovacao_agenda" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("configuracao_aprovacao_agenda"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("configuracao_aprovacao_agenda"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "custom_table" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("custom_table"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("custom_table"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "historico_aprovacao_agenda" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("historico_aprovacao_agenda"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("historico_aprovacao_agenda"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "historico_aprovacao_agenda_item" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("historico_aprovacao_agenda_item"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("historico_aprovacao_agenda_item"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "pre_agenda" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("pre_agenda"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("pre_agenda"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "pre_agenda_log" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("pre_agenda_log"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("pre_agenda_log"."tenant" = current_setting('ponte.tenant', true));