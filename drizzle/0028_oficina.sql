CREATE TABLE "oficina_centro_custo" (
	"id" bigint DEFAULT ponte_next_id('oficina_centro_custo') NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"cd_centro_custo" bigint NOT NULL,
	"ds_centro_custo" text,
	"in_exibe_painel_ofi" bigint,
	CONSTRAINT "oficina_centro_custo_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "oficina_centro_custo" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "oficina_filial" (
	"id" bigint DEFAULT ponte_next_id('oficina_filial') NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"cd_empresa" bigint NOT NULL,
	"ds_empresa" text,
	CONSTRAINT "oficina_filial_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "oficina_filial" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "oficina_manutencao" (
	"id" bigint DEFAULT ponte_next_id('oficina_manutencao') NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"cd_manutencao" text NOT NULL,
	"ds_manutencao" text,
	"veiculo" bigint,
	"qt_tempo_previsto" double precision,
	"qt_tempo_realizado" double precision,
	"nr_os" bigint,
	"cd_empresa" bigint,
	"cd_plano_servico" bigint,
	"dt_abertura_os" timestamp with time zone,
	"dt_inicio" timestamp with time zone,
	"in_status" text,
	"setor" bigint,
	CONSTRAINT "oficina_manutencao_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "oficina_manutencao" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "oficina_pendencia" (
	"id" bigint DEFAULT ponte_next_id('oficina_pendencia') NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"cd_pendencia_pk" text NOT NULL,
	"cd_pendencia" bigint,
	"cd_empresa" bigint,
	"ds_pendencia" text,
	"veiculo" bigint,
	"qt_tempo_previsto" text,
	"in_prioridade" bigint,
	"in_notificacao" bigint,
	"dt_abertura" timestamp with time zone,
	"setor" bigint,
	CONSTRAINT "oficina_pendencia_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "oficina_pendencia" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "oficina_revisao" (
	"id" bigint DEFAULT ponte_next_id('oficina_revisao') NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"cd_revisao" text NOT NULL,
	"ds_revisao" text,
	"veiculo" bigint,
	"qt_tempo_previsto" text,
	"qt_km_aviso" bigint,
	"nr_dias" bigint,
	"in_condicao" bigint,
	"nr_hod_hor" double precision,
	"nr_hodometro" double precision,
	"dt_previsao" timestamp with time zone,
	"cd_empresa" bigint,
	"setor" bigint,
	CONSTRAINT "oficina_revisao_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "oficina_revisao" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "oficina_setor" (
	"id" bigint DEFAULT ponte_next_id('oficina_setor') NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"cd_setor" bigint NOT NULL,
	"ds_setor" text,
	CONSTRAINT "oficina_setor_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "oficina_setor" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "oficina_veiculo" (
	"id" bigint DEFAULT ponte_next_id('oficina_veiculo') NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"cd_veiculo" bigint NOT NULL,
	"nr_placa" text,
	"centro_custo" bigint,
	"ds_status_oficina" text,
	"ds_status" text,
	"cd_empresa" bigint,
	"ds_movimentacao" text,
	"hr_movimentacao" timestamp with time zone,
	"nr_hodometro" double precision,
	CONSTRAINT "oficina_veiculo_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "oficina_veiculo" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE UNIQUE INDEX "oficina_centro_custo_cd" ON "oficina_centro_custo" USING btree ("tenant","cd_centro_custo");--> statement-breakpoint
CREATE UNIQUE INDEX "oficina_filial_cd" ON "oficina_filial" USING btree ("tenant","cd_empresa");--> statement-breakpoint
CREATE UNIQUE INDEX "oficina_manutencao_cd" ON "oficina_manutencao" USING btree ("tenant","cd_manutencao");--> statement-breakpoint
CREATE INDEX "oficina_manutencao_veiculo" ON "oficina_manutencao" USING btree ("tenant","veiculo","in_status");--> statement-breakpoint
CREATE INDEX "oficina_manutencao_setor" ON "oficina_manutencao" USING btree ("tenant","setor");--> statement-breakpoint
CREATE UNIQUE INDEX "oficina_pendencia_cd" ON "oficina_pendencia" USING btree ("tenant","cd_pendencia_pk");--> statement-breakpoint
CREATE INDEX "oficina_pendencia_veiculo" ON "oficina_pendencia" USING btree ("tenant","veiculo");--> statement-breakpoint
CREATE INDEX "oficina_pendencia_setor" ON "oficina_pendencia" USING btree ("tenant","setor");--> statement-breakpoint
CREATE UNIQUE INDEX "oficina_revisao_cd" ON "oficina_revisao" USING btree ("tenant","cd_revisao");--> statement-breakpoint
CREATE INDEX "oficina_revisao_veiculo" ON "oficina_revisao" USING btree ("tenant","veiculo");--> statement-breakpoint
CREATE INDEX "oficina_revisao_setor" ON "oficina_revisao" USING btree ("tenant","setor");--> statement-breakpoint
CREATE UNIQUE INDEX "oficina_setor_cd" ON "oficina_setor" USING btree ("tenant","cd_setor");--> statement-breakpoint
CREATE UNIQUE INDEX "oficina_veiculo_cd" ON "oficina_veiculo" USING btree ("tenant","cd_veiculo");--> statement-breakpoint
CREATE UNIQUE INDEX "oficina_veiculo_placa" ON "oficina_veiculo" USING btree ("tenant","nr_placa") WHERE "oficina_veiculo"."nr_placa" is not null;--> statement-breakpoint
CREATE INDEX "oficina_veiculo_empresa" ON "oficina_veiculo" USING btree ("tenant","cd_empresa");--> statement-breakpoint
CREATE INDEX "oficina_veiculo_centro" ON "oficina_veiculo" USING btree ("tenant","centro_custo");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "oficina_centro_custo" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("oficina_centro_custo"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("oficina_centro_custo"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "oficina_filial" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("oficina_filial"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("oficina_filial"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "oficina_manutencao" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("oficina_manutencao"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("oficina_manutencao"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "oficina_pendencia" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("oficina_pendencia"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("oficina_pendencia"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "oficina_revisao" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("oficina_revisao"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("oficina_revisao"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "oficina_setor" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("oficina_setor"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("oficina_setor"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "oficina_veiculo" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("oficina_veiculo"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("oficina_veiculo"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
SELECT ponte_number_ids('oficina_filial');--> statement-breakpoint
SELECT ponte_number_ids('oficina_centro_custo');--> statement-breakpoint
SELECT ponte_number_ids('oficina_setor');--> statement-breakpoint
SELECT ponte_number_ids('oficina_veiculo');--> statement-breakpoint
SELECT ponte_number_ids('oficina_pendencia');--> statement-breakpoint
SELECT ponte_number_ids('oficina_revisao');--> statement-breakpoint
SELECT ponte_number_ids('oficina_manutencao');
