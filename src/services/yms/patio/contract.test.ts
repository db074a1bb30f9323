import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { rowsOf } from '../../../platform/core/db/database.ts';
import { ComposicaoVeiculo, codigoDaPlanta, NovaComposicaoVeiculo, plantasPorCodigo } from './contract.ts';
import { composicaoVeiculo } from './entities.ts';
import { makePlanta, seed } from './fixtures.ts';
import { planta } from './tables/plantas.ts';

// What yms/patio publishes to other services (contract.ts) is what its own entity and table hold.

let t: TestApp;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await testApp();
  // Both tenants have a plant P1 (different ids); only acme has P2.
  for (const tenant of ['acme', 'globex']) {
    await t.tenant(tenant);
    const rows = await seed(t, tenant, planta, [
      makePlanta({ codigo: 'P1' }),
      ...(tenant === 'acme' ? [makePlanta({ codigo: 'P2' })] : []),
    ]);
    for (const r of rows) ids[`${tenant}:${r.codigo}`] = r.id;
  }
});

describe("the composition's schemas", () => {
  it("are the entity's output and input", () => {
    expect(JSON.parse(JSON.stringify(ComposicaoVeiculo))).toEqual(
      JSON.parse(JSON.stringify(composicaoVeiculo.schema)),
    );
    expect(JSON.parse(JSON.stringify(NovaComposicaoVeiculo))).toEqual(
      JSON.parse(JSON.stringify(composicaoVeiculo.input)),
    );
  });
});

describe("the plant's code", () => {
  it('plantasPorCodigo answers the ids of the known codes in the tenant only', async () => {
    const acme = await t.db.tenant('acme', (tx) => plantasPorCodigo(tx, 'acme', ['P1', 'P2', 'P9']));
    expect(Object.fromEntries(acme)).toEqual({ P1: ids['acme:P1'], P2: ids['acme:P2'] });
    const globex = await t.db.tenant('globex', (tx) => plantasPorCodigo(tx, 'globex', ['P1', 'P2']));
    expect(Object.fromEntries(globex)).toEqual({ P1: ids['globex:P1'] });
    expect((await t.db.tenant('acme', (tx) => plantasPorCodigo(tx, 'acme', []))).size).toBe(0);
  });

  it('codigoDaPlanta is the code of a plant id, null for an unknown one', async () => {
    const codigo = (id: string) =>
      t.db.tenant('acme', async (tx) => {
        const [row] = rowsOf<{ codigo: string | null }>(
          await tx.execute(sql`select ${codigoDaPlanta(sql`${id}::uuid`)} as codigo`),
        );
        return row!.codigo;
      });
    expect(await codigo(ids['acme:P2']!)).toBe('P2');
    expect(await codigo('00000000-0000-4000-8000-000000000999')).toBeNull();
  });
});
