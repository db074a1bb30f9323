-- Integer ids numbered per tenant and table (docs/platform.md "Storage and tenant isolation"):
-- tenant B's creates, explicit ids or bulk ranges can never take, exhaust or shift tenant A's
-- numbers. Each (tenant, table) has a row in id_counters (created by the next migration, from the
-- schema): the last id that tenant holds in that table. Written by hand; the functions come first
-- because the next migration makes them the ids' defaults. PostgreSQL 15 and PGlite alike.

-- The counter row of (t, counter), locked until the transaction ends (created at 0 if new). Its next
-- number goes to the transaction's cache, the setting `ponte.id_<counter>` = '<tenant>:<next>'
-- (local to the transaction, and rolled back with a savepoint like the row itself): the ids of a
-- statement are then taken from the cache, and the row is written once per statement
-- (ponte_bump_ids), not once per row. Writing one row once per row of a large statement piles up
-- its versions in one transaction, which measured quadratic (40,000 rows: 11 s against 0.4 s).
CREATE FUNCTION ponte_take_ids(t text, counter text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  SELECT last INTO v FROM id_counters WHERE tenant = t AND name = counter FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO id_counters (tenant, name, last) VALUES (t, counter, 0) ON CONFLICT DO NOTHING;
    SELECT last INTO v FROM id_counters WHERE tenant = t AND name = counter FOR UPDATE;
  END IF;
  PERFORM set_config('ponte.id_' || counter, t || ':' || (v + 1), true);
  RETURN v + 1;
END
$$;
--> statement-breakpoint
-- An id's default: the next number of the transaction's tenant (the setting every tenant
-- transaction makes) in `counter` (the table's name), from the cache, or from the counter row the
-- first time in the transaction. Holding that row until commit makes one tenant's creators of one
-- table take turns; other tenants and tables never wait.
CREATE FUNCTION ponte_next_id(counter text) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  t text := current_setting('ponte.tenant', true);
  cached text := current_setting('ponte.id_' || counter, true);
  v bigint;
BEGIN
  IF t IS NULL OR t = '' THEN
    RAISE EXCEPTION 'ponte_next_id(%): ponte.tenant is not set: whose number is it?', counter;
  END IF;
  IF cached IS NOT NULL AND split_part(cached, ':', 1) = t THEN
    v := split_part(cached, ':', 2)::bigint;
  ELSE
    v := ponte_take_ids(t, counter);
  END IF;
  PERFORM set_config('ponte.id_' || counter, t || ':' || (v + 1), true);
  RETURN v;
END
$$;
--> statement-breakpoint
-- BEFORE INSERT, once per statement: takes the tenant's counter row before any row is written (a
-- no-op when this transaction holds it already). Without it, a statement with explicit ids would
-- write its rows first and wait for the counter only after (ponte_bump_ids), while a transaction
-- holding the counter could be about to take one of those ids: each would wait for the other.
-- Without a tenant setting (platform work writing rows of named tenants) there is nothing to take;
-- ponte_bump_ids still keeps count.
CREATE FUNCTION ponte_lock_ids() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  t text := current_setting('ponte.tenant', true);
  cached text := current_setting('ponte.id_' || TG_TABLE_NAME, true);
BEGIN
  IF t IS NOT NULL AND t <> '' AND (cached IS NULL OR split_part(cached, ':', 1) <> t) THEN
    PERFORM ponte_take_ids(t, TG_TABLE_NAME);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- AFTER INSERT, once per statement, with the inserted rows: moves each tenant's counter to the
-- highest id the statement wrote, taken from the cache or given explicitly (an entity created with
-- its id, a file keeping its ids), and the cache past it, so the next default never collides. Numbers
-- the cache handed out to rows that were not inserted (an upsert that updated) are simply unused.
CREATE FUNCTION ponte_bump_ids() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cached text := current_setting('ponte.id_' || TG_TABLE_NAME, true);
  top bigint;
BEGIN
  INSERT INTO id_counters AS c (tenant, name, last)
  SELECT n.tenant, TG_TABLE_NAME, max(n.id) FROM inserted n GROUP BY n.tenant
  ON CONFLICT (tenant, name) DO UPDATE SET last = excluded.last WHERE c.last < excluded.last;
  IF cached IS NOT NULL AND cached <> '' THEN
    SELECT max(n.id) INTO top FROM inserted n WHERE n.tenant = split_part(cached, ':', 1);
    IF top >= split_part(cached, ':', 2)::bigint THEN
      PERFORM set_config('ponte.id_' || TG_TABLE_NAME, split_part(cached, ':', 1) || ':' || (top + 1), true);
    END IF;
  END IF;
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
