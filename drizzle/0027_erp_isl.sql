CREATE TABLE "isl_ligacao_historico" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"ligacao_id" uuid NOT NULL,
	"codigo_empresa" bigint NOT NULL,
	"codigo_produto" text NOT NULL,
	"codigo_derivacao" text NOT NULL,
	"codigo_deposito" text NOT NULL,
	"operacao" text NOT NULL,
	"alteracoes" jsonb NOT NULL,
	CONSTRAINT "isl_ligacao_historico_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "isl_ligacao_historico" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "isl_ligacao_produto_deposito" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"codigo_empresa" bigint NOT NULL,
	"codigo_produto" text NOT NULL,
	"codigo_derivacao" text NOT NULL,
	"codigo_deposito" text NOT NULL,
	"estoque_negativo" boolean,
	"estoque_reposicao" double precision,
	"quantidade_min_dias" bigint,
	"quantidade_max_dias" bigint,
	"data_validade" date,
	"prazo_ressuprimento" bigint,
	"capacidade_estoque" double precision,
	"calculo_necessidades" boolean,
	"ligacao_especial" boolean,
	"situacao" text NOT NULL,
	"codigo_enderecamento" text,
	"codigo_motivo" bigint,
	"observacao_motivo" text,
	CONSTRAINT "isl_ligacao_produto_deposito_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "isl_ligacao_produto_deposito" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "isl_pedido_venda_historico" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"pedido_venda_id" uuid NOT NULL,
	"sequencia_item" bigint,
	"operacao" text NOT NULL,
	"situacao_anterior" text,
	"situacao_nova" text,
	"alteracoes" jsonb NOT NULL,
	CONSTRAINT "isl_pedido_venda_historico_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "isl_pedido_venda_historico" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "isl_pedido_venda_lote" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"item_id" uuid NOT NULL,
	"sequencia_pedido_venda" bigint NOT NULL,
	"codigo_produto" text NOT NULL,
	"codigo_derivacao" text NOT NULL,
	"codigo_deposito" text NOT NULL,
	"data_emissao" date NOT NULL,
	"quantidade" double precision NOT NULL,
	"codigo_lote" text,
	"valor_dimensao1" double precision,
	"valor_dimensao2" double precision,
	"valor_dimensao3" double precision,
	"valor_dimensao4" double precision,
	"valor_dimensao5" double precision,
	"valor_dimensao6" double precision,
	"data_fabricacao" date,
	CONSTRAINT "isl_pedido_venda_lote_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "isl_pedido_venda_lote" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "isl_pedido_venda_item_pro" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"pedido_venda_id" uuid NOT NULL,
	"sequencia_item" bigint NOT NULL,
	"sequencia_embalagem" bigint NOT NULL,
	"sequencia_conteudo" bigint NOT NULL,
	"quantidade" double precision NOT NULL,
	"volume" double precision NOT NULL,
	"peso_bruto" double precision NOT NULL,
	"peso_liquido" double precision NOT NULL,
	"obs_produto" text NOT NULL,
	"quantidade_aberta" double precision NOT NULL,
	"quantidade_cancelada" double precision DEFAULT 0 NOT NULL,
	"quantidade_atendida" double precision DEFAULT 0 NOT NULL,
	"situacao_pedido_venda" text DEFAULT 'AbertoTotal' NOT NULL,
	CONSTRAINT "isl_pedido_venda_item_pro_tenant_id_pk" PRIMARY KEY("tenant","id"),
	CONSTRAINT "isl_pedido_venda_item_pro_qtd" CHECK ("isl_pedido_venda_item_pro"."quantidade_aberta" >= 0 and "isl_pedido_venda_item_pro"."quantidade_cancelada" >= 0)
);
--> statement-breakpoint
ALTER TABLE "isl_pedido_venda_item_pro" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "isl_pedido_venda_item_ser" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"pedido_venda_id" uuid NOT NULL,
	"sequencia_item" bigint NOT NULL,
	"codigo_servico" text NOT NULL,
	"servico" text NOT NULL,
	"quantidade" double precision NOT NULL,
	"valor_unitario" double precision NOT NULL,
	"valor_desconto" double precision NOT NULL,
	"valor_liquido" double precision NOT NULL,
	"valor_total" double precision NOT NULL,
	CONSTRAINT "isl_pedido_venda_item_ser_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "isl_pedido_venda_item_ser" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "isl_pedido_venda" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"codigo_empresa" bigint NOT NULL,
	"codigo_filial" bigint NOT NULL,
	"numero_pedido_venda" bigint NOT NULL,
	"sequencia_pedido_venda" bigint NOT NULL,
	"data_emissao" date NOT NULL,
	"codigo_cliente" bigint NOT NULL,
	"valor_liquido" double precision NOT NULL,
	"valor_total" double precision NOT NULL,
	"transacao_produto" text,
	"transacao_servico" text,
	"codigo_representante" bigint,
	"texto_observacao" text,
	"codigo_condicao_pagamento" text,
	"situacao_pedido_venda" text DEFAULT 'AbertoTotal' NOT NULL,
	CONSTRAINT "isl_pedido_venda_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "isl_pedido_venda" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "isl_pre_fatura_historico" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"pre_fatura_id" uuid NOT NULL,
	"sequencia_pre_fatura" bigint,
	"operacao" text NOT NULL,
	"situacao_anterior" text,
	"situacao_nova" text,
	"alteracoes" jsonb NOT NULL,
	CONSTRAINT "isl_pre_fatura_historico_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "isl_pre_fatura_historico" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "isl_pre_fatura_item" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"pre_fatura_id" uuid NOT NULL,
	"sequencia_pre_fatura" bigint NOT NULL,
	"codigo_deposito_item" text NOT NULL,
	"qtd_item_pre_fatura" double precision NOT NULL,
	"quantidade_atendida" double precision NOT NULL,
	"cancela_saldo_pedido" boolean NOT NULL,
	"texto_observacao" text,
	"situacao_pre_fatura" text DEFAULT 'EmAnalise' NOT NULL,
	"numero_pedido_venda" bigint,
	"sequencia_pedido_venda" bigint,
	"quantidade_pedido" double precision DEFAULT 0 NOT NULL,
	"saldo_cancelado" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "isl_pre_fatura_item_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "isl_pre_fatura_item" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "isl_pre_fatura_lote" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"item_id" uuid NOT NULL,
	"sequencia_pedido_venda" bigint NOT NULL,
	"codigo_produto" text NOT NULL,
	"codigo_derivacao" text NOT NULL,
	"codigo_deposito" text NOT NULL,
	"data_emissao" date NOT NULL,
	"quantidade" double precision NOT NULL,
	"codigo_lote" text NOT NULL,
	"data_fabricacao" date NOT NULL,
	CONSTRAINT "isl_pre_fatura_lote_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "isl_pre_fatura_lote" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "isl_pre_fatura" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"codigo_empresa" bigint NOT NULL,
	"codigo_filial" bigint NOT NULL,
	"analise_embarque" double precision NOT NULL,
	"numero_pre_fatura" bigint NOT NULL,
	"situacao_pre_fatura" text DEFAULT 'EmAnalise' NOT NULL,
	"texto_observacao" text,
	CONSTRAINT "isl_pre_fatura_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "isl_pre_fatura" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "isl_pedido_venda_historico" ADD CONSTRAINT "isl_pedido_venda_historico_pedido_fk" FOREIGN KEY ("tenant","pedido_venda_id") REFERENCES "public"."isl_pedido_venda"("tenant","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "isl_pedido_venda_lote" ADD CONSTRAINT "isl_pedido_venda_lote_item_fk" FOREIGN KEY ("tenant","item_id") REFERENCES "public"."isl_pedido_venda_item_pro"("tenant","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "isl_pedido_venda_item_pro" ADD CONSTRAINT "isl_pedido_venda_item_pro_pedido_fk" FOREIGN KEY ("tenant","pedido_venda_id") REFERENCES "public"."isl_pedido_venda"("tenant","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "isl_pedido_venda_item_ser" ADD CONSTRAINT "isl_pedido_venda_item_ser_pedido_fk" FOREIGN KEY ("tenant","pedido_venda_id") REFERENCES "public"."isl_pedido_venda"("tenant","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "isl_pre_fatura_historico" ADD CONSTRAINT "isl_pre_fatura_historico_pre_fatura_fk" FOREIGN KEY ("tenant","pre_fatura_id") REFERENCES "public"."isl_pre_fatura"("tenant","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "isl_pre_fatura_item" ADD CONSTRAINT "isl_pre_fatura_item_pre_fatura_fk" FOREIGN KEY ("tenant","pre_fatura_id") REFERENCES "public"."isl_pre_fatura"("tenant","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "isl_pre_fatura_lote" ADD CONSTRAINT "isl_pre_fatura_lote_item_fk" FOREIGN KEY ("tenant","item_id") REFERENCES "public"."isl_pre_fatura_item"("tenant","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "isl_ligacao_historico_ligacao" ON "isl_ligacao_historico" USING btree ("tenant","ligacao_id","created_date");--> statement-breakpoint
CREATE INDEX "isl_ligacao_historico_chave" ON "isl_ligacao_historico" USING btree ("tenant","codigo_empresa","codigo_produto","codigo_derivacao","codigo_deposito");--> statement-breakpoint
CREATE UNIQUE INDEX "isl_ligacao_produto_deposito_chave" ON "isl_ligacao_produto_deposito" USING btree ("tenant","codigo_empresa","codigo_produto","codigo_derivacao","codigo_deposito");--> statement-breakpoint
CREATE INDEX "isl_ligacao_produto_deposito_deposito" ON "isl_ligacao_produto_deposito" USING btree ("tenant","codigo_empresa","codigo_deposito");--> statement-breakpoint
CREATE INDEX "isl_pedido_venda_historico_pedido" ON "isl_pedido_venda_historico" USING btree ("tenant","pedido_venda_id","created_date");--> statement-breakpoint
CREATE INDEX "isl_pedido_venda_lote_item" ON "isl_pedido_venda_lote" USING btree ("tenant","item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "isl_pedido_venda_item_pro_seq" ON "isl_pedido_venda_item_pro" USING btree ("tenant","pedido_venda_id","sequencia_item");--> statement-breakpoint
CREATE UNIQUE INDEX "isl_pedido_venda_item_ser_seq" ON "isl_pedido_venda_item_ser" USING btree ("tenant","pedido_venda_id","sequencia_item");--> statement-breakpoint
CREATE UNIQUE INDEX "isl_pedido_venda_chave" ON "isl_pedido_venda" USING btree ("tenant","codigo_empresa","codigo_filial","numero_pedido_venda");--> statement-breakpoint
CREATE INDEX "isl_pedido_venda_situacao" ON "isl_pedido_venda" USING btree ("tenant","situacao_pedido_venda");--> statement-breakpoint
CREATE INDEX "isl_pedido_venda_emissao" ON "isl_pedido_venda" USING btree ("tenant","data_emissao");--> statement-breakpoint
CREATE INDEX "isl_pre_fatura_historico_pre_fatura" ON "isl_pre_fatura_historico" USING btree ("tenant","pre_fatura_id","created_date");--> statement-breakpoint
CREATE UNIQUE INDEX "isl_pre_fatura_item_seq" ON "isl_pre_fatura_item" USING btree ("tenant","pre_fatura_id","sequencia_pre_fatura");--> statement-breakpoint
CREATE INDEX "isl_pre_fatura_item_pedido" ON "isl_pre_fatura_item" USING btree ("tenant","numero_pedido_venda");--> statement-breakpoint
CREATE INDEX "isl_pre_fatura_lote_item" ON "isl_pre_fatura_lote" USING btree ("tenant","item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "isl_pre_fatura_chave" ON "isl_pre_fatura" USING btree ("tenant","codigo_empresa","codigo_filial","analise_embarque","numero_pre_fatura");--> statement-breakpoint
CREATE INDEX "isl_pre_fatura_situacao" ON "isl_pre_fatura" USING btree ("tenant","situacao_pre_fatura");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "isl_ligacao_historico" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("isl_ligacao_historico"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("isl_ligacao_historico"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "isl_ligacao_produto_deposito" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("isl_ligacao_produto_deposito"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("isl_ligacao_produto_deposito"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "isl_pedido_venda_historico" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("isl_pedido_venda_historico"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("isl_pedido_venda_historico"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "isl_pedido_venda_lote" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("isl_pedido_venda_lote"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("isl_pedido_venda_lote"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "isl_pedido_venda_item_pro" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("isl_pedido_venda_item_pro"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("isl_pedido_venda_item_pro"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "isl_pedido_venda_item_ser" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("isl_pedido_venda_item_ser"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("isl_pedido_venda_item_ser"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "isl_pedido_venda" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("isl_pedido_venda"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("isl_pedido_venda"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "isl_pre_fatura_historico" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("isl_pre_fatura_historico"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("isl_pre_fatura_historico"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "isl_pre_fatura_item" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("isl_pre_fatura_item"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("isl_pre_fatura_item"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "isl_pre_fatura_lote" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("isl_pre_fatura_lote"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("isl_pre_fatura_lote"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "isl_pre_fatura" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("isl_pre_fatura"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("isl_pre_fatura"."tenant" = current_setting('ponte.tenant', true));