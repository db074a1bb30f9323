-- The application role that handlers run as (SET LOCAL ROLE per transaction): row-level security
-- policies apply to it, so a handler can only ever see its own tenant's rows. Roles are global to a
-- PostgreSQL cluster, so creating it is idempotent.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ponte_app') THEN
    CREATE ROLE ponte_app NOLOGIN;
  END IF;
END
$$;
--> statement-breakpoint
GRANT ponte_app TO CURRENT_USER;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO ponte_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ponte_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ponte_app;
