CREATE TABLE "user_function_versions" (
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"function_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"file_name" text NOT NULL,
	"blob_key" text NOT NULL,
	"state" text NOT NULL,
	"size" integer,
	"sha256" text,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"uploaded_date" timestamp with time zone,
	CONSTRAINT "user_function_versions_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "user_function_versions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "user_functions" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"domain_name" text NOT NULL,
	"service_name" text NOT NULL,
	"primitive_name" text NOT NULL,
	"stage" text DEFAULT 'DRAFT' NOT NULL,
	"description" text,
	"timeout_ms" integer DEFAULT 200 NOT NULL,
	"memory_limit_mb" integer DEFAULT 16 NOT NULL,
	"current_version" integer,
	"last_version" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "user_functions_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "user_functions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "functions_consultant" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"company" text,
	"phone" text,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "functions_consultant_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "functions_consultant" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "functions_developer" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"created_by" text NOT NULL,
	"created_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_by" text NOT NULL,
	"last_modified_date" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"login" text,
	"phone" text,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "functions_developer_tenant_id_pk" PRIMARY KEY("tenant","id")
);
--> statement-breakpoint
ALTER TABLE "functions_developer" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "user_function_versions" ADD CONSTRAINT "user_function_versions_function" FOREIGN KEY ("tenant","function_id") REFERENCES "public"."user_functions"("tenant","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_function_versions_number" ON "user_function_versions" USING btree ("tenant","function_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "user_functions_name" ON "user_functions" USING btree ("tenant","name");--> statement-breakpoint
CREATE UNIQUE INDEX "user_functions_primitive" ON "user_functions" USING btree ("tenant","domain_name","service_name","primitive_name");--> statement-breakpoint
CREATE UNIQUE INDEX "functions_consultant_email" ON "functions_consultant" USING btree ("tenant","email");--> statement-breakpoint
CREATE UNIQUE INDEX "functions_developer_email" ON "functions_developer" USING btree ("tenant","email");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "user_function_versions" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("user_function_versions"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("user_function_versions"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "user_functions" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("user_functions"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("user_functions"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "functions_consultant" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("functions_consultant"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("functions_consultant"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "functions_developer" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("functions_developer"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("functions_developer"."tenant" = current_setting('ponte.tenant', true));