CREATE TABLE "sku_mascara_componente" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"mascara_id" uuid NOT NULL,
	"codigo" text NOT NULL,
	"sequencia" bigint NOT NULL,
	"descricao" text NOT NULL,
	"abreviatura" text NOT NULL,
	"situacao" text NOT NULL,
	"agrupamento" bigint,
	CONSTRAINT "sku_mascara_componente_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "sku_mascara_componente" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "sku_mascara" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"codigo" text NOT NULL,
	"descricao" text NOT NULL,
	"abreviatura" text NOT NULL,
	"quantidade_posicoes" bigint NOT NULL,
	"utiliza_componentes" text NOT NULL,
	"tipo_composicao" text NOT NULL,
	"auto_incrementavel" text NOT NULL,
	"situacao" text NOT NULL,
	"empresa" jsonb NOT NULL,
	"codigo_empresa" bigint NOT NULL,
	"codigo_familia" text NOT NULL,
	"sequencia_fixa" text,
	"selecionavel_pelo_usuario" text,
	"valor_incremento" bigint,
	"ultima_sequencia" bigint,
	CONSTRAINT "sku_mascara_tenant_id_pk" PRIMARY KEY("tenant","id"),
	CONSTRAINT "sku_mascara_ultima_sequencia" CHECK ("sku_mascara"."ultima_sequencia" between 0 and 999999999)
);
--> statement-breakpoint
ALTER TABLE "sku_mascara" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "cot_cotacao" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"situacao" text DEFAULT 'Aberta' NOT NULL,
	"quantidade_itens" bigint NOT NULL,
	"cancelada_em" timestamp with time zone,
	"itens" jsonb NOT NULL,
	CONSTRAINT "cot_cotacao_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "cot_cotacao" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "cot_cotacao_item" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"cotacao_id" uuid NOT NULL,
	"id_necessidade_compra" text NOT NULL,
	"numero_necessidade_compra" bigint NOT NULL,
	"quantidade" double precision NOT NULL,
	"codigo_empresa" text NOT NULL,
	"codigo_filial" text NOT NULL,
	"codigo_unidade_medida" text NOT NULL,
	"codigo_sku" text,
	"complemento" text,
	"observacao" text,
	"endereco_entrega" jsonb,
	"endereco_faturamento" jsonb,
	"anexos" jsonb,
	"detalhes_usuario" jsonb,
	"situacao" text DEFAULT 'Aberta' NOT NULL,
	"cancelada_em" timestamp with time zone,
	"cancelada_por" text,
	CONSTRAINT "cot_cotacao_item_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "cot_cotacao_item" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "com_sku" ADD COLUMN "tipo_produto" text DEFAULT 'NaoClassificado' NOT NULL;--> statement-breakpoint
ALTER TABLE "sku_mascara_componente" ADD CONSTRAINT "sku_mascara_componente_mascara_fk" FOREIGN KEY ("tenant","mascara_id") REFERENCES "public"."sku_mascara"("tenant","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cot_cotacao_item" ADD CONSTRAINT "cot_cotacao_item_cotacao_fk" FOREIGN KEY ("tenant","cotacao_id") REFERENCES "public"."cot_cotacao"("tenant","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sku_mascara_componente_codigo" ON "sku_mascara_componente" USING btree ("tenant","mascara_id","codigo");--> statement-breakpoint
CREATE INDEX "sku_mascara_componente_sequencia" ON "sku_mascara_componente" USING btree ("tenant","mascara_id","sequencia");--> statement-breakpoint
CREATE UNIQUE INDEX "sku_mascara_codigo" ON "sku_mascara" USING btree ("tenant","codigo_empresa","codigo_familia","codigo");--> statement-breakpoint
CREATE INDEX "cot_cotacao_situacao" ON "cot_cotacao" USING btree ("tenant","situacao");--> statement-breakpoint
CREATE INDEX "cot_cotacao_item_cotacao" ON "cot_cotacao_item" USING btree ("tenant","cotacao_id");--> statement-breakpoint
CREATE INDEX "cot_cotacao_item_necessidade" ON "cot_cotacao_item" USING btree ("tenant","id_necessidade_compra");--> statement-breakpoint
CREATE UNIQUE INDEX "cot_cotacao_item_necessidade_aberta" ON "cot_cotacao_item" USING btree ("tenant","id_necessidade_compra") WHERE situacao = 'Aberta';--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "sku_mascara_componente" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("sku_mascara_componente"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("sku_mascara_componente"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "sku_mascara" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("sku_mascara"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("sku_mascara"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "cot_cotacao" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("cot_cotacao"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("cot_cotacao"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "cot_cotacao_item" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("cot_cotacao_item"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("cot_cotacao_item"."tenant" = current_setting('ponte.tenant', true));