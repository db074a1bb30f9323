CREATE TABLE "patio_fila_item" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"area_id" uuid NOT NULL,
	"n" bigint NOT NULL,
	"veiculo_id" uuid NOT NULL,
	"placa" text NOT NULL,
	"motorista_id" uuid,
	"execucao_circuito_id" uuid,
	"agenda_id" uuid,
	"origem" text,
	"desde" timestamp with time zone NOT NULL,
	CONSTRAINT "patio_fila_item_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "patio_fila_item" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "patio_area" ADD COLUMN "ws_users" text;--> statement-breakpoint
ALTER TABLE "patio_fila_item" ADD CONSTRAINT "patio_fila_item_area_fk" FOREIGN KEY ("tenant","area_id") REFERENCES "public"."patio_area"("tenant","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_fila_item" ADD CONSTRAINT "patio_fila_item_veiculo_fk" FOREIGN KEY ("tenant","veiculo_id") REFERENCES "public"."patio_veiculo"("tenant","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_fila_item" ADD CONSTRAINT "patio_fila_item_motorista_fk" FOREIGN KEY ("tenant","motorista_id") REFERENCES "public"."patio_motorista"("tenant","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patio_fila_item" ADD CONSTRAINT "patio_fila_item_execucao_circuito_fk" FOREIGN KEY ("tenant","execucao_circuito_id") REFERENCES "public"."patio_execucao_circuito"("tenant","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "patio_fila_item_ordem" ON "patio_fila_item" USING btree ("tenant","area_id","n");--> statement-breakpoint
CREATE UNIQUE INDEX "patio_fila_item_veiculo" ON "patio_fila_item" USING btree ("tenant","veiculo_id");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "patio_fila_item" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("patio_fila_item"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("patio_fila_item"."tenant" = current_setting('ponte.tenant', true));