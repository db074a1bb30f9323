CREATE TABLE "event_cursors" (
	"consumer" text NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"last_id" bigint DEFAULT 0 NOT NULL,
	"lease_token" uuid,
	"lease_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_cursors_consumer_tenant_pk" PRIMARY KEY("consumer","tenant")
);
--> statement-breakpoint
ALTER TABLE "event_cursors" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"topic" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"subscription_id" uuid NOT NULL,
	"event_id" bigint NOT NULL,
	"topic" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"response_code" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "webhook_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"url" text NOT NULL,
	"topics" jsonb NOT NULL,
	"description" text,
	"secret" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"from_event_id" bigint DEFAULT 0 NOT NULL,
	"lease_token" uuid,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_subscription_id_webhook_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."webhook_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_tenant_id_idx" ON "outbox" USING btree ("tenant","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_head_idx" ON "webhook_deliveries" USING btree ("subscription_id","event_id") WHERE state = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_subscription_event_key" ON "webhook_deliveries" USING btree ("subscription_id","event_id");--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_tenant_idx" ON "webhook_subscriptions" USING btree ("tenant","created_at");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "event_cursors" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("event_cursors"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("event_cursors"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "outbox" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("outbox"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("outbox"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "webhook_deliveries" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("webhook_deliveries"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("webhook_deliveries"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "webhook_subscriptions" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("webhook_subscriptions"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("webhook_subscriptions"."tenant" = current_setting('ponte.tenant', true));