import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { empresaExiste, inserirSku, skuPorCodigo, skusExistentes } from './contract.ts';
import { seed } from './fixtures.ts';
import { empresa } from './tables/empresas.ts';
import { sku } from './tables/produtos.ts';

// contract.ts is SQL over com_sku and com_empresa (a contract brings no tables along): held here to
// those tables, and to the tenant, on both engines.

let t: TestApp;

beforeAll(async () => {
  t = await testApp();
  await t.tenant('acme');
  await t.tenant('globex');
  await seed(t, 'acme', empresa, [{ codigo: '1', nome: 'Empresa 1' }]);
  await seed(t, 'acme', sku, [
    {
      codigo: 'A1',
      descricao: 'Um',
      codigoUnidadeMedida: 'UN',
      createdBy: 't',
      lastModifiedBy: 't',
      codigoProduto: 'P9',
    },
  ]);
});

const as = <T>(tenant: string, work: Parameters<TestApp['db']['tenant']>[1]) =>
  t.db.tenant(tenant, work) as Promise<T>;

describe('com_comum contract', () => {
  it('reads a SKU and the codes it holds, of the tenant only', async () => {
    const got = await as<Awaited<ReturnType<typeof skuPorCodigo>>>('acme', (tx) =>
      skuPorCodigo(tx, 'acme', 'A1'),
    );
    expect(got).toMatchObject({
      codigo: 'A1',
      descricao: 'Um',
      codigoProduto: 'P9',
      tipoProduto: 'NaoClassificado',
      ativo: true,
    });
    expect(typeof got?.id).toBe('number');
    expect(await as('globex', (tx) => skuPorCodigo(tx, 'globex', 'A1'))).toBeUndefined();
    expect([
      ...(await as<Set<string>>('acme', (tx) => skusExistentes(tx, 'acme', ['A1', 'B2', 'A1']))),
    ]).toEqual(['A1']);
    expect((await as<Set<string>>('acme', (tx) => skusExistentes(tx, 'acme', []))).size).toBe(0);
  });

  it('inserts a SKU once: a second insert of the code answers undefined', async () => {
    const novo = {
      codigo: 'N1',
      descricao: 'Novo',
      codigoUnidadeMedida: 'UN',
      tipoProduto: 'Servico' as const,
      quem: 'test',
      agora: new Date(),
    };
    const id = await as<number | undefined>('acme', (tx) => inserirSku(tx, 'acme', novo));
    expect(typeof id).toBe('number');
    expect(await as('acme', (tx) => inserirSku(tx, 'acme', novo))).toBeUndefined();
    expect(await as('globex', (tx) => inserirSku(tx, 'globex', novo))).toEqual(expect.any(Number));
    expect(await as('acme', (tx) => skuPorCodigo(tx, 'acme', 'N1'))).toMatchObject({
      id,
      tipoProduto: 'Servico',
    });
  });

  it('knows the companies of the tenant', async () => {
    expect(await as('acme', (tx) => empresaExiste(tx, 'acme', '1'))).toBe(true);
    expect(await as('acme', (tx) => empresaExiste(tx, 'acme', '2'))).toBe(false);
    expect(await as('globex', (tx) => empresaExiste(tx, 'globex', '1'))).toBe(false);
  });
});
