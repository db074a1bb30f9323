import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { emEspera, LIBRE_MS, portao } from '../../../../test/corrida.ts';
import { openTestDb } from '../../../../test/harness.ts';
import { type Database, rowsOf, type Tx } from './database.ts';

// The keys of tenant data, read from the migrated schema itself (DESIGN.md "Persistence";
// docs/platform.md "Storage and tenant isolation"): a table or a migration added later that
// forgets the tenant in a key, a reference or the numbering of an int64 id fails here.

let db: Database;
const onServer = inject('template').engine === 'postgres';

const q = <T>(query: ReturnType<typeof sql>) => db.system(async (tx) => rowsOf<T>(await tx.execute(query)));

/** Tables of tenant data: those under the tenant_isolation policy. */
const TENANT_TABLES = sql`
  select c.oid, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and c.relkind = 'r'
    and exists (select 1 from pg_policy p where p.polrelid = c.oid and p.polname = 'tenant_isolation')`;

/**
 * Every table with a tenant column, in any schema but the catalogue's: with the policy or not (a
 * platform table that only system transactions reach holds tenant data too).
 */
const TENANT_COLUMN_TABLES = sql`
  select c.oid, n.nspname || '.' || c.relname as relname from pg_class c
  join pg_namespace n on n.oid = c.relnamespace
  join pg_attribute a on a.attrelid = c.oid and a.attname = 'tenant' and not a.attisdropped
  where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
    and n.nspname not like 'pg\_%'`;

/**
 * Tables with a tenant column whose keys leave it out by design, and why. Credentials are looked
 * up by what a client presents (an access key, a token's hash) before any tenant is trusted, so
 * each must name exactly one row across tenants; their ids and those values are random, made by
 * the server, never chosen by a client, so no tenant can collide with, block or find another's.
 */
const GLOBAL: Record<string, string> = {
  'public.api_keys':
    'credentials: `<accessKey>.<secret>` names one key, hence one tenant (auth/credentials.ts)',
  'public.sessions': 'credentials: a bearer or refresh token’s hash names one session, hence one tenant',
};

beforeAll(async () => {
  db = await openTestDb();
});

describe('keys of every table with a tenant column', () => {
  it('lists as global only tables that exist and have the column', async () => {
    const tables = (await q<{ relname: string }>(TENANT_COLUMN_TABLES)).map((t) => t.relname);
    expect(tables.length).toBeGreaterThan(40);
    expect(tables).toEqual(expect.arrayContaining(Object.keys(GLOBAL)));
  });

  it('gives each a primary key that holds the tenant', async () => {
    const rows = await q<{ table: string; pk: string[] | null }>(sql`
      with t as (${TENANT_COLUMN_TABLES})
      select t.relname as table,
        (select array_agg(a.attname::text order by k.ord) from pg_constraint x
           cross join unnest(x.conkey) with ordinality k(attnum, ord)
           join pg_attribute a on a.attrelid = x.conrelid and a.attnum = k.attnum
         where x.conrelid = t.oid and x.contype = 'p') as pk
      from t order by 1`);
    const wrong = rows.filter((r) => !GLOBAL[r.table] && !r.pk?.includes('tenant'));
    expect(wrong, 'tables whose primary key is missing or leaves the tenant out').toEqual([]);
  });

  it('puts the tenant in each unique index and unique constraint', async () => {
    // A unique or primary key constraint is enforced by a unique index: one list holds them all.
    const rows = await q<{ table: string; index: string; columns: string[] }>(sql`
      with t as (${TENANT_COLUMN_TABLES})
      select t.relname as table, i.indexrelid::regclass::text as index,
        array(select a.attname::text from unnest(i.indkey) k(attnum)
              join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum) as columns
      from pg_index i join t on t.oid = i.indrelid where i.indisunique order by 1, 2`);
    expect(rows.length).toBeGreaterThan(80);
    const wrong = rows.filter((r) => !GLOBAL[r.table] && !r.columns.includes('tenant'));
    expect(wrong, 'unique indexes that leave the tenant out').toEqual([]);
  });
});

describe('keys of tenant data', () => {
  it('has tenant tables to check', async () => {
    expect((await q(TENANT_TABLES)).length).toBeGreaterThan(40);
  });

  it('puts the tenant in every primary key, and an id-keyed table’s key is (tenant, id)', async () => {
    const rows = await q<{ table: string; pk: string[] | null; has_id: boolean }>(sql`
      with t as (${TENANT_TABLES})
      select t.relname as table,
        (select array_agg(a.attname::text order by k.ord) from pg_constraint x
           cross join unnest(x.conkey) with ordinality k(attnum, ord)
           join pg_attribute a on a.attrelid = x.conrelid and a.attnum = k.attnum
         where x.conrelid = t.oid and x.contype = 'p') as pk,
        exists (select 1 from pg_attribute a where a.attrelid = t.oid and a.attname = 'id' and not a.attisdropped) as has_id
      from t order by 1`);
    for (const row of rows) {
      if (row.has_id) expect(row.pk, row.table).toEqual(['tenant', 'id']);
      else if (row.pk) expect(row.pk, row.table).toContain('tenant');
    }
  });

  it('puts the tenant in every unique index', async () => {
    const rows = await q<{ index: string; columns: string[] }>(sql`
      with t as (${TENANT_TABLES})
      select i.indexrelid::regclass::text as index,
        array(select a.attname::text from unnest(i.indkey) k(attnum)
              join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum) as columns
      from pg_index i join t on t.oid = i.indrelid where i.indisunique`);
    expect(rows.length).toBeGreaterThan(80);
    for (const row of rows) expect(row.columns, row.index).toContain('tenant');
  });

  it('makes every reference from a tenant table (tenant, ref) → (tenant, id)', async () => {
    const rows = await q<{ fk: string; pairs: string[] }>(sql`
      with t as (${TENANT_TABLES})
      select x.conname as fk,
        array(select a.attname || '→' || b.attname
              from unnest(x.conkey, x.confkey) k(col, ref)
              join pg_attribute a on a.attrelid = x.conrelid and a.attnum = k.col
              join pg_attribute b on b.attrelid = x.confrelid and b.attnum = k.ref) as pairs
      from pg_constraint x join t on t.oid = x.conrelid where x.contype = 'f'`);
    expect(rows.length).toBeGreaterThan(25);
    for (const row of rows) expect(row.pairs, row.fk).toContain('tenant→tenant');
  });

  it('numbers every integer id per tenant: the counter default and both triggers', async () => {
    const rows = await q<{ table: string; default: string | null; identity: string; triggers: string[] }>(sql`
      with t as (${TENANT_TABLES})
      select t.relname as table, pg_get_expr(d.adbin, d.adrelid) as default, a.attidentity as identity,
        array(select g.tgname || ':' || g.tgtype || ':' || p.proname || ':' || coalesce(g.tgnewtable, '')
              from pg_trigger g join pg_proc p on p.oid = g.tgfoid
              -- the ids' own (a service may add its triggers: tms/oficina's counts)
              where g.tgrelid = t.oid and not g.tgisinternal and left(p.proname, 6) = 'ponte_'
              order by g.tgname) as triggers
      from t join pg_attribute a on a.attrelid = t.oid and a.attname = 'id'
      left join pg_attrdef d on d.adrelid = t.oid and d.adnum = a.attnum
      where a.atttypid in ('int2'::regtype, 'int4'::regtype, 'int8'::regtype)
        -- Event ids: one sequence for every tenant, on purpose (events/tables.ts); no tenant picks one.
        and t.relname <> 'outbox'`);
    expect(rows.length).toBeGreaterThanOrEqual(21);
    for (const row of rows) {
      expect(row.identity, row.table).toBe('');
      expect(row.default, row.table).toBe(`ponte_next_id('${row.table}'::text)`);
      // tgtype: 2 = BEFORE, 4 = INSERT; 0 = AFTER; no ROW bit (1): once per statement.
      expect(row.triggers, row.table).toEqual([
        'ponte_bump_ids:4:ponte_bump_ids:inserted',
        'ponte_lock_ids:6:ponte_lock_ids:',
      ]);
    }
  });
});

/** Creates a moeda in `tx` (its id from the counter, or `id`); answers its id. */
async function moeda(tx: Tx, codigo: string, id?: number): Promise<number> {
  const result = await tx.execute(sql`
    insert into com_moeda (${sql.raw(id === undefined ? '' : 'id, ')}created_by, last_modified_by, codigo, nome)
    values (${id === undefined ? sql`` : sql`${id}, `}'test', 'test', ${codigo}, ${codigo}) returning id`);
  return Number(rowsOf<{ id: string }>(result)[0]!.id);
}

describe('numbering of integer ids', () => {
  it('numbers each tenant from 1, and an explicit id moves only its own tenant past it', async () => {
    expect(await db.tenant('n1', (tx) => moeda(tx, 'AAA'))).toBe(1);
    expect(await db.tenant('n2', (tx) => moeda(tx, 'AAA'))).toBe(1);
    expect(await db.tenant('n2', (tx) => moeda(tx, 'BBB', 1_000_000))).toBe(1_000_000);
    expect(await db.tenant('n2', (tx) => moeda(tx, 'CCC'))).toBe(1_000_001);
    expect(await db.tenant('n1', (tx) => moeda(tx, 'BBB'))).toBe(2);
    // A free explicit id below the counter leaves it where it was.
    expect(await db.tenant('n2', (tx) => moeda(tx, 'DDD', 500))).toBe(500);
    expect(await db.tenant('n2', (tx) => moeda(tx, 'EEE'))).toBe(1_000_002);
  });

  it('keeps the counter of a statement that failed, as if it never ran', async () => {
    await expect(db.tenant('n3', (tx) => moeda(tx, 'DUP', 7).then(() => moeda(tx, 'DUP')))).rejects.toThrow();
    expect(await db.tenant('n3', (tx) => moeda(tx, 'DDD'))).toBe(1);
  });

  it('numbers a transaction’s statements on, past its explicit ids, and forgets what a savepoint undid', async () => {
    const ids = await db.tenant('n6', async (tx) => {
      const out = [await moeda(tx, 'AAA'), await moeda(tx, 'BBB', 10), await moeda(tx, 'CCC')];
      await tx.execute(sql`savepoint s`);
      out.push(await moeda(tx, 'DDD'));
      await tx.execute(sql`rollback to savepoint s`);
      out.push(await moeda(tx, 'EEE'));
      return out;
    });
    expect(ids).toEqual([1, 10, 11, 12, 12]);
    expect(await db.tenant('n6', (tx) => moeda(tx, 'FFF'))).toBe(13);
  });

  it('numbers the rows of one large statement in order, and counts them all', async () => {
    const rows = await db.tenant('n7', async (tx) =>
      rowsOf<{ id: string }>(
        await tx.execute(sql`insert into com_moeda (created_by, last_modified_by, codigo, nome)
          select 'test', 'test', 'M' || i, 'M' from generate_series(1, 5000) i returning id`),
      ),
    );
    expect(rows.map((r) => Number(r.id))).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    expect(await db.tenant('n7', (tx) => moeda(tx, 'ZZZ'))).toBe(5001);
  });

  it('refuses a default id without a tenant setting instead of numbering for nobody', async () => {
    await expect(
      db.system((tx) =>
        tx.execute(sql`insert into com_moeda (tenant, created_by, last_modified_by, codigo, nome)
                       values ('n4', 'test', 'test', 'EEE', 'E')`),
      ),
    ).rejects.toThrow();
  });

  it('moves the counter past explicit ids written by platform work for a named tenant', async () => {
    await db.system((tx) =>
      tx.execute(sql`insert into com_moeda (tenant, id, created_by, last_modified_by, codigo, nome)
                     values ('n5', 40, 'test', 'test', 'FFF', 'F')`),
    );
    expect(await db.tenant('n5', (tx) => moeda(tx, 'GGG'))).toBe(41);
  });
});

describe.skipIf(!onServer)('numbering under concurrency (PostgreSQL)', () => {
  it('makes a tenant’s second creator wait for the first, and no other tenant', async () => {
    const hold = portao();
    const first = db.tenant('c1', async (tx) => {
      const id = await moeda(tx, 'AAA');
      await hold.opened;
      return id;
    });
    await new Promise((r) => setTimeout(r, 100));
    const other = db.tenant('c2', (tx) => moeda(tx, 'AAA'));
    expect(await emEspera(other, LIBRE_MS)).toBe('done');
    const second = db.tenant('c1', (tx) => moeda(tx, 'BBB'));
    expect(await emEspera(second)).toBe('waiting');
    hold.open();
    expect([await first, await second, await other]).toEqual([1, 2, 1]);
  });

  it('makes an explicit id wait for the counter’s holder, then refuses it if taken (no deadlock)', async () => {
    const hold = portao();
    const first = db.tenant('c3', async (tx) => {
      const a = await moeda(tx, 'AAA');
      await hold.opened;
      // The counter hands out 2 now: the explicit 2 below was not written in the meantime.
      return [a, await moeda(tx, 'BBB')];
    });
    await new Promise((r) => setTimeout(r, 100));
    const explicit = db.tenant('c3', (tx) => moeda(tx, 'CCC', 2));
    expect(await emEspera(explicit)).toBe('waiting');
    hold.open();
    expect(await first).toEqual([1, 2]);
    await expect(explicit).rejects.toMatchObject({ cause: { code: '23505' } });
  });
});
