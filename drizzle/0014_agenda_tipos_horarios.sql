CREATE TABLE "agenda_tipo_agendamento" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"codigo" text NOT NULL,
	"descricao" text NOT NULL,
	"operacao" text NOT NULL,
	"planta_id" uuid NOT NULL,
	"circuito_id" uuid,
	"duracao_slot_minutos" integer NOT NULL,
	"minutos_por_unidade" double precision,
	"capacidade_por_slot" integer NOT NULL,
	"antecedencia_minutos" integer DEFAULT 0 NOT NULL,
	"ativo" boolean DEFAULT true NOT NULL,
	"bloqueado" boolean DEFAULT false NOT NULL,
	"motivo_bloqueio" text
);
--> statement-breakpoint
ALTER TABLE "agenda_tipo_agendamento" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP INDEX "agenda_tipo";--> statement-breakpoint
ALTER TABLE "agenda" ADD COLUMN "associacao_agendamento" jsonb;--> statement-breakpoint
ALTER TABLE "agenda" ADD COLUMN "fim_previsto" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "agenda_tipo_agendamento_codigo" ON "agenda_tipo_agendamento" USING btree ("tenant","codigo");--> statement-breakpoint
CREATE INDEX "agenda_tipo_agendamento_planta" ON "agenda_tipo_agendamento" USING btree ("tenant","planta_id");--> statement-breakpoint
CREATE INDEX "agenda_tipo" ON "agenda" USING btree ("tenant","tipo_agendamento_id","data_esperada");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "agenda_tipo_agendamento" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("agenda_tipo_agendamento"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("agenda_tipo_agendamento"."tenant" = current_setting('ponte.tenant', true));