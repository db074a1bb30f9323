CREATE TABLE "blobs" (
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"key" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"content_type" text NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blobs_tenant_key_pk" PRIMARY KEY("tenant","key")
);
--> statement-breakpoint
ALTER TABLE "blobs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "platform_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "platform_secrets" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "blobs" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("blobs"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("blobs"."tenant" = current_setting('ponte.tenant', true));