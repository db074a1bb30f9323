import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { rowsOf } from '../../../platform/core/db/database.ts';
import { parseIds, planBatch } from './batch.ts';

const SAVE = 'hcm/platform_integration/actions/integrationSaveBatch';

let t: TestApp;
let acme: string;
let globex: string;

beforeAll(async () => {
  t = await testApp();
  acme = await t.tenant('acme');
  globex = await t.tenant('globex');
});

const batch = (overrides: Record<string, unknown> = {}) => ({
  className: 'com.example.Employee',
  serviceName: 'payroll',
  collectionName: 'employee',
  jsonText: JSON.stringify([
    { id: 'e1', nome: 'Ana', salario: 5000 },
    { nome: 'Bruno', salario: 4200 },
  ]),
  ids: 'e1,e2',
  ...overrides,
});

/** What a tenant's own transaction sees: row-level security hides the others. */
const saved = (tenant: string) =>
  t.db.tenant(tenant, async (tx) =>
    rowsOf<{ entity_id: string; data: Record<string, unknown>; version: number; class_name: string }>(
      await tx.execute(
        sql`select entity_id, data, version, class_name from integration_entities order by entity_id`,
      ),
    ),
  );

describe('integrationSaveBatch', () => {
  it('saves every entity under its id and reports success per id', async () => {
    const res = await t.call('acme', SAVE, batch(), { auth: acme });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      results: [
        { id: 'e1', success: true, errorMessage: '' },
        { id: 'e2', success: true, errorMessage: '' },
      ],
    });
    const rows = await saved('acme');
    expect(rows.map((r) => [r.entity_id, r.data.nome, r.version, r.class_name])).toEqual([
      ['e1', 'Ana', 1, 'com.example.Employee'],
      ['e2', 'Bruno', 1, 'com.example.Employee'],
    ]);
  });

  it('saves the good ones and reports each bad one with its reason', async () => {
    const res = await t.call(
      'acme',
      SAVE,
      batch({
        jsonText: JSON.stringify([
          { id: 'e3', nome: 'Caio' },
          'not an object',
          { id: 'zz', nome: 'Davi' },
          { nome: 'Eva' },
        ]),
        ids: '["e3","e4","e5","e3"]',
      }),
      { auth: acme },
    );
    expect(res.statusCode).toBe(200);
    const results = res.json().results as Array<{ id: string; success: boolean; errorMessage: string }>;
    expect(results.map((r) => [r.id, r.success])).toEqual([
      ['e3', true],
      ['e4', false],
      ['e5', false],
      ['e3', false],
    ]);
    expect(results[1]!.errorMessage).toMatch(/not a JSON object/);
    expect(results[2]!.errorMessage).toMatch(/has id zz, which differs from identifier e5/);
    expect(results[3]!.errorMessage).toMatch(/repeated/);
    expect((await saved('acme')).map((r) => r.entity_id)).toEqual(['e1', 'e2', 'e3']);
  });

  it('overwrites an id saved before and counts its versions', async () => {
    await t.call('acme', SAVE, batch({ jsonText: JSON.stringify([{ nome: 'Ana Maria' }]), ids: 'e1' }), {
      auth: acme,
    });
    const e1 = (await saved('acme')).find((r) => r.entity_id === 'e1')!;
    expect(e1.data).toEqual({ nome: 'Ana Maria' });
    expect(e1.version).toBe(2);
  });

  it('accepts a single entity object for a single id', async () => {
    const res = await t.call('acme', SAVE, batch({ jsonText: '{"nome":"Fabio"}', ids: 'e6' }), {
      auth: acme,
    });
    expect(res.json().results).toEqual([{ id: 'e6', success: true, errorMessage: '' }]);
  });

  it('rejects jsonText that is not JSON with 400, saving nothing', async () => {
    const before = await tableCounts(t.db);
    const res = await t.call('acme', SAVE, batch({ jsonText: '[{"id": "x"' }), { auth: acme });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Invalid field 'jsonText': not valid JSON/);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('rejects ids that name nothing', async () => {
    const res = await t.call('acme', SAVE, batch({ ids: ' , ' }), { auth: acme });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Invalid field 'ids'/);
  });

  it('keeps tenants apart: the same ids in another tenant are other records', async () => {
    await t.call('globex', SAVE, batch({ jsonText: JSON.stringify([{ nome: 'Gil' }]), ids: 'e1' }), {
      auth: globex,
    });
    expect((await saved('globex')).map((r) => [r.entity_id, r.data.nome, r.version])).toEqual([
      ['e1', 'Gil', 1],
    ]);
    expect((await saved('acme')).find((r) => r.entity_id === 'e1')!.data.nome).toBe('Ana Maria');
  });
});

describe('batch planning', () => {
  it.each([
    ['a,b , c', ['a', 'b', 'c']],
    ['["a", "b"]', ['a', 'b']],
    ['[1, 2]', ['1', '2']],
  ])('parses ids %s', (ids, expected) => {
    expect(parseIds(ids)).toEqual(expected);
  });

  it('reports entities beyond the ids', () => {
    const { save, results } = planBatch(['a'], [{ x: 1 }, { id: 'b' }]);
    expect(save).toHaveLength(1);
    expect(results[1]).toEqual({
      id: 'b',
      success: false,
      errorMessage: 'entity at position 1 of jsonText has no identifier in ids',
    });
  });

  it('reports ids beyond the entities', () => {
    const { results } = planBatch(['a', 'b'], [{}]);
    expect(results[1]).toMatchObject({ id: 'b', success: false });
    expect(results[1]!.errorMessage).toMatch(/no entity at position 1/);
  });
});
