CREATE TABLE "gct_execucao_processo" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"empresa" bigint NOT NULL,
	"filial" bigint NOT NULL,
	"processo" text NOT NULL,
	"chave_execucao" text,
	"data_inicio" date NOT NULL,
	"data_final" date NOT NULL,
	"inicio_processamento" timestamp with time zone NOT NULL,
	"fim_processamento" timestamp with time zone,
	"situacao" text DEFAULT 'Iniciado' NOT NULL,
	"motivo" text,
	CONSTRAINT "gct_execucao_processo_tenant_id_pk" PRIMARY KEY("tenant","id"),
	CONSTRAINT "gct_execucao_processo_periodo_ok" CHECK ("gct_execucao_processo"."data_final" >= "gct_execucao_processo"."data_inicio"),
	CONSTRAINT "gct_execucao_processo_situacao" CHECK ("gct_execucao_processo"."situacao" in ('Iniciado', 'Finalizado', 'Interrompido'))
);
--> statement-breakpoint
ALTER TABLE "gct_execucao_processo" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "ctr_contrato_venda" (
	"id" bigint DEFAULT ponte_next_id('ctr_contrato_venda') NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"empresa" bigint NOT NULL,
	"filial" bigint NOT NULL,
	"contrato_venda" bigint NOT NULL,
	"codigo_cliente" bigint,
	"condicao_pagamento" text,
	"data_base" date NOT NULL,
	"situacao" text DEFAULT 'Ativo' NOT NULL,
	"itens" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "ctr_contrato_venda_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "ctr_contrato_venda" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "com_condicao_pagamento_parcela" (
	"id" bigint DEFAULT ponte_next_id('com_condicao_pagamento_parcela') NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"codigo_condicao_pagamento" text NOT NULL,
	"sequencia" integer NOT NULL,
	"dias" integer NOT NULL,
	"percentual" double precision NOT NULL,
	CONSTRAINT "com_condicao_pagamento_parcela_tenant_id_pk" PRIMARY KEY("tenant","id"),
	CONSTRAINT "com_condicao_pagamento_parcela_percentual" CHECK ("com_condicao_pagamento_parcela"."percentual" > 0 and "com_condicao_pagamento_parcela"."percentual" <= 100),
	CONSTRAINT "com_condicao_pagamento_parcela_dias" CHECK ("com_condicao_pagamento_parcela"."dias" >= 0)
);
--> statement-breakpoint
ALTER TABLE "com_condicao_pagamento_parcela" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "com_feriado" (
	"id" bigint DEFAULT ponte_next_id('com_feriado') NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"data" date NOT NULL,
	"descricao" text NOT NULL,
	CONSTRAINT "com_feriado_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "com_feriado" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE UNIQUE INDEX "gct_execucao_processo_chave" ON "gct_execucao_processo" USING btree ("tenant","empresa","filial","processo","chave_execucao");--> statement-breakpoint
CREATE INDEX "gct_execucao_processo_periodo" ON "gct_execucao_processo" USING btree ("tenant","empresa","filial","processo","data_inicio");--> statement-breakpoint
CREATE UNIQUE INDEX "ctr_contrato_venda_chave" ON "ctr_contrato_venda" USING btree ("tenant","empresa","filial","contrato_venda");--> statement-breakpoint
CREATE UNIQUE INDEX "com_condicao_pagamento_parcela_seq" ON "com_condicao_pagamento_parcela" USING btree ("tenant","codigo_condicao_pagamento","sequencia");--> statement-breakpoint
CREATE UNIQUE INDEX "com_feriado_data" ON "com_feriado" USING btree ("tenant","data");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "gct_execucao_processo" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("gct_execucao_processo"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("gct_execucao_processo"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "ctr_contrato_venda" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("ctr_contrato_venda"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("ctr_contrato_venda"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "com_condicao_pagamento_parcela" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("com_condicao_pagamento_parcela"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("com_condicao_pagamento_parcela"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "com_feriado" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("com_feriado"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("com_feriado"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
SELECT ponte_number_ids('com_condicao_pagamento_parcela');--> statement-breakpoint
SELECT ponte_number_ids('com_feriado');--> statement-breakpoint
SELECT ponte_number_ids('ctr_contrato_venda');
