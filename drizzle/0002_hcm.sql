CREATE TABLE "license_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text NOT NULL,
	"locked" boolean NOT NULL,
	"changed_by" text NOT NULL,
	"request_id" text,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "license_changes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "integration_entities" (
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"service_name" text NOT NULL,
	"collection_name" text NOT NULL,
	"entity_id" text NOT NULL,
	"class_name" text NOT NULL,
	"data" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integration_entities_tenant_service_name_collection_name_entity_id_pk" PRIMARY KEY("tenant","service_name","collection_name","entity_id")
);
--> statement-breakpoint
ALTER TABLE "integration_entities" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE INDEX "license_changes_tenant_idx" ON "license_changes" USING btree ("tenant","changed_at");--> statement-breakpoint
CREATE INDEX "integration_entities_class_idx" ON "integration_entities" USING btree ("tenant","class_name");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "integration_entities" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("integration_entities"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("integration_entities"."tenant" = current_setting('ponte.tenant', true));