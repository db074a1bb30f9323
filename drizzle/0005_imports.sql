CREATE TABLE "import_errors" (
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"import_id" uuid NOT NULL,
	"row" integer NOT NULL,
	"field" text,
	"message" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_errors" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"service" text NOT NULL,
	"kind" text NOT NULL,
	"file_key" text NOT NULL,
	"format" text NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"size" bigint NOT NULL,
	"bytes_read" bigint DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"succeeded" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "imports" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE INDEX "import_errors_import_idx" ON "import_errors" USING btree ("tenant","import_id","row");--> statement-breakpoint
CREATE INDEX "imports_tenant_idx" ON "imports" USING btree ("tenant","created_at");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "import_errors" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("import_errors"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("import_errors"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "imports" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("imports"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("imports"."tenant" = current_setting('ponte.tenant', true));