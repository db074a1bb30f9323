CREATE TABLE "exports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"service" text NOT NULL,
	"kind" text NOT NULL,
	"format" text NOT NULL,
	"filter" text,
	"fields" jsonb NOT NULL,
	"delimiter" text DEFAULT ',' NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"file_key" text,
	"size" bigint,
	"sha256" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "exports" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_endereco" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"planta_id" uuid NOT NULL,
	"logradouro" text NOT NULL,
	"numero" text,
	"complemento" text,
	"bairro" text,
	"cidade" text NOT NULL,
	"uf" text NOT NULL,
	"cep" text,
	"pais" text DEFAULT 'BR' NOT NULL,
	"latitude" double precision,
	"longitude" double precision
);
--> statement-breakpoint
ALTER TABLE "patio_endereco" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_tipo_veiculo" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"codigo" text NOT NULL,
	"descricao" text NOT NULL,
	"categoria" text NOT NULL,
	"eixos" integer,
	"peso_maximo_kg" double precision,
	"ativo" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patio_tipo_veiculo" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "patio_endereco" ADD CONSTRAINT "patio_endereco_planta_id_patio_planta_id_fk" FOREIGN KEY ("planta_id") REFERENCES "public"."patio_planta"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exports_tenant_idx" ON "exports" USING btree ("tenant","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "patio_endereco_planta" ON "patio_endereco" USING btree ("tenant","planta_id");--> statement-breakpoint
CREATE UNIQUE INDEX "patio_tipo_veiculo_codigo" ON "patio_tipo_veiculo" USING btree ("tenant","codigo");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "exports" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("exports"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("exports"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_endereco" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_endereco"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_endereco"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_tipo_veiculo" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_tipo_veiculo"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_tipo_veiculo"."tenant" = current_setting('ponte.tenant', true));