CREATE TABLE "patio_area" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"planta_id" uuid NOT NULL,
	"codigo" text NOT NULL,
	"descricao" text NOT NULL,
	"tipo" text NOT NULL,
	"ativo" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patio_area" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_circuito" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"planta_id" uuid NOT NULL,
	"tipo_agendamento_id" uuid,
	"codigo" text NOT NULL,
	"descricao" text NOT NULL,
	"ativo" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patio_circuito" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_composicao_veiculo" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"descricao" text,
	"cavalo_id" uuid NOT NULL,
	"reboque_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"bloqueado" boolean DEFAULT false NOT NULL,
	"motivo_bloqueio" text
);
--> statement-breakpoint
ALTER TABLE "patio_composicao_veiculo" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_controle_area" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"area_id" uuid NOT NULL,
	"veiculo_id" uuid,
	"motorista_id" uuid,
	"execucao_circuito_id" uuid,
	"agenda_id" uuid,
	"placa" text NOT NULL,
	"chegada_em" timestamp with time zone NOT NULL,
	"saida_em" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "patio_controle_area" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_execucao_circuito" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"circuito_id" uuid NOT NULL,
	"veiculo_id" uuid,
	"composicao_veiculo_id" uuid,
	"motorista_id" uuid,
	"agenda_id" uuid,
	"sequencia_atual_id" uuid,
	"situacao" text DEFAULT 'EXECUTANDO' NOT NULL,
	"execucao_pai_id" uuid,
	"iniciada_em" timestamp with time zone NOT NULL,
	"finalizada_em" timestamp with time zone,
	"motivo_cancelamento" text
);
--> statement-breakpoint
ALTER TABLE "patio_execucao_circuito" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_execucao_circuito_imagem" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"execucao_circuito_id" uuid NOT NULL,
	"alvo_id" text NOT NULL,
	"camera_ip" text NOT NULL,
	"imagem_url" text NOT NULL,
	"capturada_em" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patio_execucao_circuito_imagem" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_execucao_circuito_variavel" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"execucao_circuito_id" uuid NOT NULL,
	"alvo_id" text NOT NULL,
	"chave" text NOT NULL,
	"valor" text NOT NULL,
	"alterada_em" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patio_execucao_circuito_variavel" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_historico_execucao_circuito" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"execucao_circuito_id" uuid NOT NULL,
	"sequencia_circuito_id" uuid,
	"acao" text NOT NULL,
	"origem" text NOT NULL,
	"entrada_em" timestamp with time zone NOT NULL,
	"saida_em" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "patio_historico_execucao_circuito" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_motorista" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"documento" text NOT NULL,
	"nome" text NOT NULL,
	"cnh" text,
	"telefone" text,
	"bloqueado" boolean DEFAULT false NOT NULL,
	"motivo_bloqueio" text
);
--> statement-breakpoint
ALTER TABLE "patio_motorista" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_planta" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"codigo" text NOT NULL,
	"nome" text NOT NULL,
	"cnpj" text,
	"fuso_horario" text DEFAULT 'America/Sao_Paulo' NOT NULL,
	"ativo" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patio_planta" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_sequencia_circuito" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"circuito_id" uuid NOT NULL,
	"ordem" integer NOT NULL,
	"area_id" uuid NOT NULL,
	"descricao" text,
	"sub_circuito_id" uuid
);
--> statement-breakpoint
ALTER TABLE "patio_sequencia_circuito" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_turno" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"planta_id" uuid NOT NULL,
	"data" date NOT NULL,
	"hora_inicio" text NOT NULL,
	"hora_fim" text NOT NULL,
	"descricao" text
);
--> statement-breakpoint
ALTER TABLE "patio_turno" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_vaga" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"area_id" uuid NOT NULL,
	"rua" bigint NOT NULL,
	"numero" bigint NOT NULL,
	"descricao" text,
	"ocupada" boolean DEFAULT false NOT NULL,
	"ativo" boolean DEFAULT true NOT NULL,
	"bloqueio" boolean DEFAULT false NOT NULL,
	"motivo_bloqueio" text,
	"veiculo_id" uuid,
	"ocupada_em" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "patio_vaga" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "patio_veiculo" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"placa" text NOT NULL,
	"tipo_veiculo" text NOT NULL,
	"descricao" text,
	"renavam" text,
	"bloqueado" boolean DEFAULT false NOT NULL,
	"motivo_bloqueio" text
);
--> statement-breakpoint
ALTER TABLE "patio_veiculo" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "patio_area" ADD CONSTRAINT "patio_area_planta_id_patio_planta_id_fk" FOREIGN KEY ("planta_id") REFERENCES "public"."patio_planta"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_circuito" ADD CONSTRAINT "patio_circuito_planta_id_patio_planta_id_fk" FOREIGN KEY ("planta_id") REFERENCES "public"."patio_planta"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_composicao_veiculo" ADD CONSTRAINT "patio_composicao_veiculo_cavalo_id_patio_veiculo_id_fk" FOREIGN KEY ("cavalo_id") REFERENCES "public"."patio_veiculo"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_controle_area" ADD CONSTRAINT "patio_controle_area_area_id_patio_area_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."patio_area"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_controle_area" ADD CONSTRAINT "patio_controle_area_veiculo_id_patio_veiculo_id_fk" FOREIGN KEY ("veiculo_id") REFERENCES "public"."patio_veiculo"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_controle_area" ADD CONSTRAINT "patio_controle_area_motorista_id_patio_motorista_id_fk" FOREIGN KEY ("motorista_id") REFERENCES "public"."patio_motorista"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_controle_area" ADD CONSTRAINT "patio_controle_area_execucao_circuito_id_patio_execucao_circuito_id_fk" FOREIGN KEY ("execucao_circuito_id") REFERENCES "public"."patio_execucao_circuito"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_execucao_circuito" ADD CONSTRAINT "patio_execucao_circuito_circuito_id_patio_circuito_id_fk" FOREIGN KEY ("circuito_id") REFERENCES "public"."patio_circuito"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_execucao_circuito" ADD CONSTRAINT "patio_execucao_circuito_veiculo_id_patio_veiculo_id_fk" FOREIGN KEY ("veiculo_id") REFERENCES "public"."patio_veiculo"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_execucao_circuito" ADD CONSTRAINT "patio_execucao_circuito_composicao_veiculo_id_patio_composicao_veiculo_id_fk" FOREIGN KEY ("composicao_veiculo_id") REFERENCES "public"."patio_composicao_veiculo"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_execucao_circuito" ADD CONSTRAINT "patio_execucao_circuito_motorista_id_patio_motorista_id_fk" FOREIGN KEY ("motorista_id") REFERENCES "public"."patio_motorista"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_execucao_circuito" ADD CONSTRAINT "patio_execucao_circuito_sequencia_atual_id_patio_sequencia_circuito_id_fk" FOREIGN KEY ("sequencia_atual_id") REFERENCES "public"."patio_sequencia_circuito"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_execucao_circuito_imagem" ADD CONSTRAINT "patio_execucao_circuito_imagem_execucao_circuito_id_patio_execucao_circuito_id_fk" FOREIGN KEY ("execucao_circuito_id") REFERENCES "public"."patio_execucao_circuito"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_execucao_circuito_variavel" ADD CONSTRAINT "patio_execucao_circuito_variavel_execucao_circuito_id_patio_execucao_circuito_id_fk" FOREIGN KEY ("execucao_circuito_id") REFERENCES "public"."patio_execucao_circuito"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_historico_execucao_circuito" ADD CONSTRAINT "patio_historico_execucao_circuito_execucao_circuito_id_patio_execucao_circuito_id_fk" FOREIGN KEY ("execucao_circuito_id") REFERENCES "public"."patio_execucao_circuito"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_historico_execucao_circuito" ADD CONSTRAINT "patio_historico_execucao_circuito_sequencia_circuito_id_patio_sequencia_circuito_id_fk" FOREIGN KEY ("sequencia_circuito_id") REFERENCES "public"."patio_sequencia_circuito"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_sequencia_circuito" ADD CONSTRAINT "patio_sequencia_circuito_circuito_id_patio_circuito_id_fk" FOREIGN KEY ("circuito_id") REFERENCES "public"."patio_circuito"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_sequencia_circuito" ADD CONSTRAINT "patio_sequencia_circuito_area_id_patio_area_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."patio_area"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_sequencia_circuito" ADD CONSTRAINT "patio_sequencia_circuito_sub_circuito_id_patio_circuito_id_fk" FOREIGN KEY ("sub_circuito_id") REFERENCES "public"."patio_circuito"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_turno" ADD CONSTRAINT "patio_turno_planta_id_patio_planta_id_fk" FOREIGN KEY ("planta_id") REFERENCES "public"."patio_planta"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_vaga" ADD CONSTRAINT "patio_vaga_area_id_patio_area_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."patio_area"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_vaga" ADD CONSTRAINT "patio_vaga_veiculo_id_patio_veiculo_id_fk" FOREIGN KEY ("veiculo_id") REFERENCES "public"."patio_veiculo"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "patio_area_codigo" ON "patio_area" USING btree ("tenant","planta_id","codigo");--> statement-breakpoint
CREATE INDEX "patio_area_descricao_trgm" ON "patio_area" USING gin ("descricao" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "patio_circuito_codigo" ON "patio_circuito" USING btree ("tenant","planta_id","codigo");--> statement-breakpoint
CREATE INDEX "patio_circuito_tipo" ON "patio_circuito" USING btree ("tenant","planta_id","tipo_agendamento_id");--> statement-breakpoint
CREATE INDEX "patio_composicao_veiculo_cavalo" ON "patio_composicao_veiculo" USING btree ("tenant","cavalo_id");--> statement-breakpoint
CREATE INDEX "patio_composicao_veiculo_reboques" ON "patio_composicao_veiculo" USING gin ("reboque_ids");--> statement-breakpoint
CREATE INDEX "patio_controle_area_chegada" ON "patio_controle_area" USING btree ("tenant","area_id","chegada_em","id");--> statement-breakpoint
CREATE INDEX "patio_execucao_circuito_veiculo" ON "patio_execucao_circuito" USING btree ("tenant","veiculo_id","situacao");--> statement-breakpoint
CREATE INDEX "patio_execucao_circuito_motorista" ON "patio_execucao_circuito" USING btree ("tenant","motorista_id","situacao");--> statement-breakpoint
CREATE INDEX "patio_execucao_circuito_agenda" ON "patio_execucao_circuito" USING btree ("tenant","agenda_id");--> statement-breakpoint
CREATE INDEX "patio_execucao_circuito_sequencia" ON "patio_execucao_circuito" USING btree ("tenant","sequencia_atual_id");--> statement-breakpoint
CREATE INDEX "patio_execucao_circuito_imagem_execucao" ON "patio_execucao_circuito_imagem" USING btree ("tenant","execucao_circuito_id","capturada_em");--> statement-breakpoint
CREATE UNIQUE INDEX "patio_execucao_circuito_variavel_chave" ON "patio_execucao_circuito_variavel" USING btree ("tenant","execucao_circuito_id","alvo_id","chave");--> statement-breakpoint
CREATE INDEX "patio_historico_execucao_circuito_execucao" ON "patio_historico_execucao_circuito" USING btree ("tenant","execucao_circuito_id","entrada_em");--> statement-breakpoint
CREATE UNIQUE INDEX "patio_motorista_documento" ON "patio_motorista" USING btree ("tenant","documento");--> statement-breakpoint
CREATE INDEX "patio_motorista_nome_trgm" ON "patio_motorista" USING gin ("nome" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "patio_planta_codigo" ON "patio_planta" USING btree ("tenant","codigo");--> statement-breakpoint
CREATE INDEX "patio_planta_nome_trgm" ON "patio_planta" USING gin ("nome" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "patio_sequencia_circuito_ordem" ON "patio_sequencia_circuito" USING btree ("tenant","circuito_id","ordem");--> statement-breakpoint
CREATE UNIQUE INDEX "patio_turno_janela" ON "patio_turno" USING btree ("tenant","planta_id","data","hora_inicio","hora_fim");--> statement-breakpoint
CREATE UNIQUE INDEX "patio_vaga_posicao" ON "patio_vaga" USING btree ("tenant","area_id","rua","numero");--> statement-breakpoint
CREATE INDEX "patio_vaga_livre" ON "patio_vaga" USING btree ("tenant","area_id","rua","numero") WHERE not "patio_vaga"."ocupada" and "patio_vaga"."ativo" and not "patio_vaga"."bloqueio";--> statement-breakpoint
CREATE UNIQUE INDEX "patio_vaga_veiculo" ON "patio_vaga" USING btree ("tenant","veiculo_id") WHERE "patio_vaga"."veiculo_id" is not null;--> statement-breakpoint
CREATE INDEX "patio_vaga_descricao_trgm" ON "patio_vaga" USING gin ("descricao" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "patio_veiculo_placa" ON "patio_veiculo" USING btree ("tenant","placa");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_area" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_area"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_area"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_circuito" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_circuito"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_circuito"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_composicao_veiculo" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_composicao_veiculo"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_composicao_veiculo"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_controle_area" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_controle_area"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_controle_area"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_execucao_circuito" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_execucao_circuito"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_execucao_circuito"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_execucao_circuito_imagem" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_execucao_circuito_imagem"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_execucao_circuito_imagem"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_execucao_circuito_variavel" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_execucao_circuito_variavel"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_execucao_circuito_variavel"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_historico_execucao_circuito" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_historico_execucao_circuito"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_historico_execucao_circuito"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_motorista" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_motorista"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_motorista"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_planta" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_planta"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_planta"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_sequencia_circuito" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_sequencia_circuito"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_sequencia_circuito"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_turno" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_turno"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_turno"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_vaga" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_vaga"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_vaga"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_veiculo" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_veiculo"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_veiculo"."tenant" = current_setting('ponte.tenant', true));