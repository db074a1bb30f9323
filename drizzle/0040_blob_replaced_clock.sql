-- Written by hand (docs/platform.md "Blobs"): the trigger of 0039 dates the versions it lists in
-- blob_replaced on the platform's clock when the transaction carries it (`ponte.now`, set by
-- src/platform/blobs/facts.ts), the clock the prune counts the keep time on; on the database's
-- otherwise, as before.
CREATE OR REPLACE FUNCTION ponte_blob_replaced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  at timestamptz := coalesce(nullif(current_setting('ponte.now', true), '')::timestamptz, now());
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.version IS NOT DISTINCT FROM OLD.version THEN
    RETURN NULL;
  END IF;
  IF OLD.version IS NOT NULL THEN
    INSERT INTO blob_replaced (tenant, version, replaced_at) VALUES (OLD.tenant, OLD.version, at)
      ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO blob_replaced (tenant, version, legacy_key, replaced_at)
      VALUES (OLD.tenant, gen_random_uuid(), OLD.key, at);
  END IF;
  RETURN NULL;
END
$$;
