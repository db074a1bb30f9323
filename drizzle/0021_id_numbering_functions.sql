-- Integer ids numbered per tenant and table (docs/platform.md "Storage and tenant isolation"):
-- tenant B's creates, explicit ids or bulk ranges can never take, exhaust or shift tenant A's
-- numbers. Each (tenant, table) has a row in id_counters (created by the next migration, from the
-- schema): the last id that tenant holds in that table. Written by hand; the functions come first
-- because the next migration makes them the ids' defaults. PostgreSQL 15 and PGlite alike.

-- An id's default: the next number of the transaction's tenant (the setting every tenant
-- transaction makes) in `counter` (the table's name). The upsert locks the counter row until
-- commit, so one tenant's creates in one table take turns; other tenants and tables never wait.
CREATE FUNCTION ponte_next_id(counter text) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  t text := current_setting('ponte.tenant', true);
  v bigint;
BEGIN
  IF t IS NULL OR t = '' THEN
    RAISE EXCEPTION 'ponte_next_id(%): ponte.tenant is not set: whose number is it?', counter;
  END IF;
  INSERT INTO id_counters AS c (tenant, name, last) VALUES (t, counter, 1)
  ON CONFLICT (tenant, name) DO UPDATE SET last = c.last + 1
  RETURNING c.last INTO v;
  RETURN v;
END
$$;
--> statement-breakpoint
-- BEFORE INSERT, once per statement: locks (or creates) the tenant's counter row before any row is
-- written. Without it, a statement with explicit ids would write its rows first and wait for the
-- counter only after (ponte_bump_ids), while a transaction holding the counter could be about to
-- take one of those ids: each would wait for the other. Without a tenant setting (platform work
-- writing rows of named tenants) there is nothing to lock; ponte_bump_ids still keeps count.
CREATE FUNCTION ponte_lock_ids() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  t text := current_setting('ponte.tenant', true);
BEGIN
  IF t IS NOT NULL AND t <> '' THEN
    -- ON CONFLICT DO UPDATE locks the existing row even when its WHERE holds for none.
    INSERT INTO id_counters AS c (tenant, name, last) VALUES (t, TG_TABLE_NAME, 0)
    ON CONFLICT (tenant, name) DO UPDATE SET last = c.last WHERE false;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- AFTER INSERT, once per statement, with the inserted rows: moves each tenant's counter past the
-- ids it was given explicitly (an entity created with its id, an import keeping its ids), so the
-- next default never collides with them. Ids taken from the counter leave it as it is (no write).
CREATE FUNCTION ponte_bump_ids() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO id_counters AS c (tenant, name, last)
  SELECT n.tenant, TG_TABLE_NAME, max(n.id) FROM inserted n GROUP BY n.tenant
  ON CONFLICT (tenant, name) DO UPDATE SET last = excluded.last WHERE c.last < excluded.last;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Numbers the ids of `tbl`, whose id column defaults to ponte_next_id('<its name>'): attaches the
-- two triggers and starts each tenant's counter at the highest id it holds. A migration adding such
-- a table calls it once (src/platform/db/keys.test.ts fails for a table left out).
CREATE FUNCTION ponte_number_ids(tbl regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format(
    'CREATE TRIGGER ponte_lock_ids BEFORE INSERT ON %s FOR EACH STATEMENT EXECUTE FUNCTION ponte_lock_ids()',
    tbl);
  EXECUTE format(
    'CREATE TRIGGER ponte_bump_ids AFTER INSERT ON %s REFERENCING NEW TABLE AS inserted '
    'FOR EACH STATEMENT EXECUTE FUNCTION ponte_bump_ids()',
    tbl);
  EXECUTE format(
    'INSERT INTO id_counters AS c (tenant, name, last) SELECT tenant, %L, max(id) FROM %s GROUP BY tenant '
    'ON CONFLICT (tenant, name) DO UPDATE SET last = greatest(c.last, excluded.last)',
    (SELECT relname FROM pg_class WHERE oid = tbl), tbl);
END
$$;
