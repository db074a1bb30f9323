import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../../../test/harness.ts';
import { integrationEntities } from '../../../services/hcm/platform_integration/tables.ts';
import { type Database, rowsOf } from './database.ts';
import { selectPage } from './reads.ts';
import { statement } from './statement.ts';
import { Store } from './store.ts';

// The tenant guarantee with transactions opened together with their first statement (session.ts)
// and statements prepared once (statement.ts): every statement of a tenant's work runs with that
// tenant's setting and role, whatever the connection ran before, and nothing of them is left on the
// connection afterwards. One connection (poolSize 1), so every transaction here reuses it.

let db: Database;

/** A query without the store's tenant condition: only row-level security stands between tenants. */
const everyOwner = statement('test.session.everyOwner', (b) =>
  b.db.select({ tenant: integrationEntities.tenant }).from(integrationEntities),
);
const ownersLike = statement('test.session.ownersLike', (b) =>
  b.raw(sql`select tenant from integration_entities where entity_id like ${b.param('pattern')}`),
);

const settings = async () =>
  rowsOf<{ tenant: string | null; role: string; readOnly: string }>(
    await db.db.execute(
      sql`select current_setting('ponte.tenant', true) as tenant, current_user as role,
                 current_setting('transaction_read_only') as "readOnly"`,
    ),
  )[0]!;

/** drizzle wraps the server's error: its cause is PostgreSQL's. */
const failedWith = (message: RegExp) => ({
  cause: expect.objectContaining({ message: expect.stringMatching(message) }),
});

const tenantsSeen = (rows: Array<{ tenant: string }>) => [...new Set(rows.map((r) => r.tenant))].sort();

beforeAll(async () => {
  db = await openTestDb({ poolSize: 1 });
  for (const tenant of ['acme', 'globex'])
    await db.tenant(tenant, (tx) =>
      new Store(tx, tenant).insert(integrationEntities, [
        { serviceName: 's', collectionName: 'c', entityId: `id-${tenant}`, className: 'X', data: {} },
      ]),
    );
});

describe('a tenant’s statements', () => {
  for (const reads of [false, true]) {
    const mode = reads ? 'a read (no BEGIN on a server)' : 'a transaction';
    it(`see only their tenant’s rows without the store’s condition, in ${mode}`, async () => {
      for (const tenant of ['acme', 'globex', 'acme']) {
        const seen = await db.tenant(
          tenant,
          async (tx) => ({
            built: tenantsSeen(await everyOwner.run(tx, {})),
            raw: tenantsSeen(rowsOf(await ownersLike.run(tx, { pattern: 'id-%' }))),
            // The second and later statements of the work carry the tenant too.
            again: tenantsSeen(await everyOwner.run(tx, {})),
            adHoc: tenantsSeen(
              rowsOf<{ tenant: string }>(await tx.execute(sql`select tenant from integration_entities`)),
            ),
          }),
          { reads },
        );
        expect(seen).toEqual({ built: [tenant], raw: [tenant], again: [tenant], adHoc: [tenant] });
      }
    });

    it(`leave nothing on the connection after ${mode}, committed or failed`, async () => {
      await db.tenant('acme', (tx) => everyOwner.run(tx, {}), { reads });
      expect(await settings()).toMatchObject({ tenant: expect.toSatisfy((t) => !t), readOnly: 'off' });
      expect((await settings()).role).not.toBe('ponte_app');
      await expect(
        db.tenant(
          'acme',
          async (tx) => {
            await everyOwner.run(tx, {});
            await tx.execute(sql`select 1 / 0`);
          },
          { reads },
        ),
      ).rejects.toMatchObject(failedWith(/division by zero/));
      expect(await settings()).toMatchObject({ tenant: expect.toSatisfy((t) => !t), readOnly: 'off' });
      expect((await settings()).role).not.toBe('ponte_app');
    });
  }

  it('run as their own tenant whatever the connection set before', async () => {
    // A session-level setting of another tenant on the (only) connection: the work's own wins.
    await db.db.execute(sql`select set_config('ponte.tenant', 'globex', false)`);
    try {
      for (const reads of [false, true]) {
        const seen = await db.tenant('acme', async (tx) => tenantsSeen(await everyOwner.run(tx, {})), {
          reads,
        });
        expect(seen).toEqual(['acme']);
      }
    } finally {
      await db.db.execute(sql`select set_config('ponte.tenant', '', false)`);
    }
  });

  it('cannot write in a read', async () => {
    await expect(
      db.tenant(
        'acme',
        (tx) =>
          tx.execute(
            sql`insert into integration_entities (service_name, collection_name, entity_id, class_name, data)
                values ('s', 'c', 'read-write', 'X', '{}')`,
          ),
        { reads: true },
      ),
    ).rejects.toMatchObject(failedWith(/read-only transaction/));
    const written = await db.system(async (tx) =>
      rowsOf(await tx.execute(sql`select 1 from integration_entities where entity_id = 'read-write'`)),
    );
    expect(written).toEqual([]);
  });

  it('send nothing when the work runs no statement', async () => {
    // Nothing was begun, so nothing is committed: the connection is as it was.
    expect(await db.tenant('acme', async () => 'answered')).toBe('answered');
    expect(await db.tenant('acme', async () => 'answered', { reads: true })).toBe('answered');
    expect((await settings()).role).not.toBe('ponte_app');
  });
});

describe.skipIf(!process.env.DATABASE_URL)('a read that asks for its generic plan (PostgreSQL)', () => {
  /** What PostgreSQL counts of the named statements of `integration_entities` on the connection. */
  const plans = async () =>
    rowsOf<{ generic: number; custom: number }>(
      await db.db.execute(
        sql`select coalesce(sum(generic_plans), 0)::int as generic, coalesce(sum(custom_plans), 0)::int as custom
              from pg_prepared_statements
             where name like 'ponte_r_%' and statement like '%integration_entities%entity_id%'`,
      ),
    )[0]!;
  const pageOf = (tenant: string, pattern: string, plan?: 'generic') =>
    db.tenant(
      tenant,
      async (tx) =>
        // No store condition: row-level security alone keeps the other tenant out.
        (
          await selectPage<{ tenant: string }>(tx, integrationEntities, sql`entity_id like ${pattern}`, {
            limit: 10,
            orderBy: [sql`entity_id`],
            plan,
          })
        ).rows,
      { reads: true },
    );

  it('runs its one plan, as its own tenant, and leaves the setting behind', async () => {
    const before = await plans();
    for (const tenant of ['acme', 'globex', 'acme'])
      expect(tenantsSeen(await pageOf(tenant, 'id-%', 'generic'))).toEqual([tenant]);
    const after = await plans();
    // The page and its count, three times each: planned once each, the runs after reuse the plan.
    expect(after.generic - before.generic).toBe(6);
    expect(after.custom - before.custom).toBe(0);
    // The statement after it, on the same connection, is planned as usual.
    expect(
      rowsOf<{ mode: string }>(
        await db.db.execute(sql`select current_setting('plan_cache_mode') as mode`),
      )[0],
    ).toEqual({ mode: 'auto' });
    await pageOf('acme', 'id-%');
    expect((await plans()).custom - after.custom).toBe(2);
  });
});
