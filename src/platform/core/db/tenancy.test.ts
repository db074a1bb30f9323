import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { integrationEntities } from '../../../services/hcm/platform_integration/tables.ts';
import { rowsOf } from './database.ts';
import { Store } from './store.ts';

// The two walls of tenant isolation: the store layer scopes every query, and row-level security
// stops whatever gets past it (raw SQL in a handler, a forgotten condition).

let t: TestApp;

beforeAll(async () => {
  t = await testApp();
  for (const tenant of ['acme', 'globex']) {
    await t.db.tenant(tenant, (tx) =>
      new Store(tx, tenant).insert(integrationEntities, [
        {
          serviceName: 's',
          collectionName: 'c',
          entityId: 'same-id',
          className: 'X',
          data: { owner: tenant },
        },
      ]),
    );
  }
});

describe('row-level security', () => {
  it('hides other tenants’ rows from raw SQL run as a tenant', async () => {
    const rows = await t.db.tenant('acme', async (tx) =>
      rowsOf<{ tenant: string }>(await tx.execute(sql`select tenant from integration_entities`)),
    );
    expect(rows).toEqual([{ tenant: 'acme' }]);
  });

  it('refuses to write a row into another tenant', async () => {
    await expect(
      t.db.tenant('acme', (tx) =>
        tx.execute(sql`insert into integration_entities (tenant, service_name, collection_name, entity_id, class_name, data)
                       values ('globex', 's', 'c', 'x', 'X', '{}')`),
      ),
    ).rejects.toThrow();
    await expect(
      t.db.tenant('acme', (tx) =>
        tx.execute(sql`update integration_entities set data = '{}' where tenant = 'globex'`),
      ),
    ).resolves.toBeDefined();
    const globex = await t.db.tenant('globex', async (tx) =>
      rowsOf<{ data: { owner: string } }>(await tx.execute(sql`select data from integration_entities`)),
    );
    expect(globex).toEqual([{ data: { owner: 'globex' } }]);
  });

  it('gives a tenant transaction no access to credentials or the tenant registry', async () => {
    const seen = await t.db.tenant('acme', async (tx) => ({
      tenants: rowsOf(await tx.execute(sql`select * from tenants`)).length,
      keys: rowsOf(await tx.execute(sql`select * from api_keys`)).length,
      sessions: rowsOf(await tx.execute(sql`select * from sessions`)).length,
    }));
    expect(seen).toEqual({ tenants: 0, keys: 0, sessions: 0 });
  });

  it('fills the tenant column from the transaction', async () => {
    await t.db.tenant('globex', (tx) =>
      tx.execute(sql`insert into integration_entities (service_name, collection_name, entity_id, class_name, data)
                     values ('s', 'c', 'auto', 'X', '{}')`),
    );
    const [row] = await t.db.system(async (tx) =>
      rowsOf<{ tenant: string }>(
        await tx.execute(sql`select tenant from integration_entities where entity_id = 'auto'`),
      ),
    );
    expect(row!.tenant).toBe('globex');
  });

  it('has a tenant_isolation policy on every table with a tenant column, and RLS on every table', async () => {
    const tables = await t.db.system(async (tx) =>
      rowsOf<{ table: string; rls: boolean; has_tenant: boolean; has_policy: boolean }>(
        await tx.execute(sql`
          select c.relname as table, c.relrowsecurity as rls,
                 exists (select 1 from information_schema.columns k
                         where k.table_schema = 'public' and k.table_name = c.relname and k.column_name = 'tenant'
                           and k.column_default like '%ponte.tenant%') as has_tenant,
                 exists (select 1 from pg_policies p where p.tablename = c.relname and p.policyname = 'tenant_isolation') as has_policy
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'r'`),
      ),
    );
    expect(tables.length).toBeGreaterThan(4);
    for (const table of tables) {
      expect(table.rls, table.table).toBe(true);
      if (table.has_tenant) expect(table.has_policy, table.table).toBe(true);
    }
  });
});

describe('views', () => {
  // A view runs with its owner's rights, so row-level security does not apply through it: every
  // view must carry the policy's own condition (com_comum's search views, docs/com_comum.md).
  it('filter every view by the transaction tenant', async () => {
    const views = await t.db.system(async (tx) =>
      rowsOf<{ name: string; definition: string }>(
        await tx.execute(sql`select viewname as name, definition from pg_views where schemaname = 'public'`),
      ),
    );
    for (const view of views) {
      expect(view.definition, view.name).toMatch(/tenant = current_setting\('ponte\.tenant'::text, true\)/);
    }
  });
});

describe('store layer', () => {
  it('scopes reads, updates and deletes to its tenant even as the platform role', async () => {
    // A system transaction bypasses row-level security: only the store's own condition applies.
    const result = await t.db.system(async (tx) => {
      const store = new Store(tx, 'acme');
      const read = await store.select(integrationEntities);
      await store.update(integrationEntities, { className: 'Changed' });
      return read.map((r) => r.tenant);
    });
    expect(result).toEqual(['acme']);
    const classes = await t.db.system(async (tx) =>
      rowsOf<{ tenant: string; class_name: string }>(
        await tx.execute(
          sql`select tenant, class_name from integration_entities where entity_id = 'same-id' order by tenant`,
        ),
      ),
    );
    expect(classes).toEqual([
      { tenant: 'acme', class_name: 'Changed' },
      { tenant: 'globex', class_name: 'X' },
    ]);
  });
});
