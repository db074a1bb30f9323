CREATE TABLE "blob_chunks" (
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"version" uuid NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blob_chunks_tenant_version_seq_pk" PRIMARY KEY("tenant","version","seq")
);
--> statement-breakpoint
ALTER TABLE "blob_chunks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "blob_objects" (
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"key" text NOT NULL,
	"version" uuid NOT NULL,
	"size" bigint NOT NULL,
	"chunks" integer NOT NULL,
	CONSTRAINT "blob_objects_tenant_key_pk" PRIMARY KEY("tenant","key")
);
--> statement-breakpoint
ALTER TABLE "blob_objects" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "blob_chunks" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("blob_chunks"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("blob_chunks"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "blob_objects" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("blob_objects"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("blob_objects"."tenant" = current_setting('ponte.tenant', true));