CREATE TABLE "agenda" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"codigo" bigint NOT NULL,
	"chave_integracao" text,
	"codigo_agrupador" text,
	"descricao" text,
	"data_esperada" timestamp with time zone NOT NULL,
	"planta_id" uuid NOT NULL,
	"tipo_agendamento_id" uuid NOT NULL,
	"veiculo_id" uuid,
	"composicao_veiculo_id" uuid,
	"motorista_id" uuid,
	"parceiro_id" uuid,
	"observacao" text,
	"custom" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"unscheduled" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'AGENDADO' NOT NULL,
	"circuito_id" uuid,
	"sequencia_inicial_id" uuid,
	"vaga_inicial_id" uuid,
	"servico_integracao" text,
	"motivo_de_falha" text,
	"inicio_execucao" text,
	"execucao_circuito_id" uuid
);
--> statement-breakpoint
ALTER TABLE "agenda" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "agenda_contador" (
	"tenant" text PRIMARY KEY DEFAULT current_setting('ponte.tenant') NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agenda_contador" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "agenda_historico" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"agenda_id" uuid NOT NULL,
	"de" text,
	"para" text NOT NULL,
	"quem" text NOT NULL,
	"quando" timestamp with time zone NOT NULL,
	"motivo" text
);
--> statement-breakpoint
ALTER TABLE "agenda_historico" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE UNIQUE INDEX "agenda_codigo" ON "agenda" USING btree ("tenant","codigo");--> statement-breakpoint
CREATE UNIQUE INDEX "agenda_chave_integracao" ON "agenda" USING btree ("tenant","chave_integracao") WHERE "agenda"."chave_integracao" is not null;--> statement-breakpoint
CREATE INDEX "agenda_data_esperada" ON "agenda" USING btree ("tenant","data_esperada","codigo");--> statement-breakpoint
CREATE INDEX "agenda_planta_data" ON "agenda" USING btree ("tenant","planta_id","data_esperada");--> statement-breakpoint
CREATE INDEX "agenda_status_data" ON "agenda" USING btree ("tenant","status","data_esperada");--> statement-breakpoint
CREATE INDEX "agenda_tipo" ON "agenda" USING btree ("tenant","tipo_agendamento_id");--> statement-breakpoint
CREATE INDEX "agenda_veiculo" ON "agenda" USING btree ("tenant","veiculo_id");--> statement-breakpoint
CREATE INDEX "agenda_motorista" ON "agenda" USING btree ("tenant","motorista_id");--> statement-breakpoint
CREATE INDEX "agenda_parceiro" ON "agenda" USING btree ("tenant","parceiro_id");--> statement-breakpoint
CREATE INDEX "agenda_agrupador" ON "agenda" USING btree ("tenant","codigo_agrupador");--> statement-breakpoint
CREATE INDEX "agenda_inicio_execucao" ON "agenda" USING btree ("tenant","inicio_execucao") WHERE "agenda"."inicio_execucao" = 'PENDENTE';--> statement-breakpoint
CREATE INDEX "agenda_descricao_trgm" ON "agenda" USING gin ("descricao" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "agenda_historico_agenda" ON "agenda_historico" USING btree ("tenant","agenda_id","quando");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "agenda" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("agenda"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("agenda"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "agenda_contador" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("agenda_contador"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("agenda_contador"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "agenda_historico" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("agenda_historico"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("agenda_historico"."tenant" = current_setting('ponte.tenant', true));