import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { rowsOf } from '../../../platform/core/db/database.ts';
import { comCall, seed } from './fixtures.ts';
import { produtor, produtorVinculo } from './tables/produtores.ts';
import { sku, skuUnidadeMedida } from './tables/produtos.ts';

// The actions of com_comum and their state rules (spec 001 §4.8; docs/com_comum.md).

let t: TestApp;
let acme: ReturnType<typeof comCall>;
let globex: ReturnType<typeof comCall>;
const ids: Record<string, number> = {};
const audit = { createdBy: 'test', lastModifiedBy: 'test' };

beforeAll(async () => {
  t = await testApp();
  acme = comCall(t, 'acme', await t.tenant('acme'));
  globex = comCall(t, 'globex', await t.tenant('globex'));
  const skus = await seed(t, 'acme', sku, [
    { ...audit, codigo: 'SOJA-SC', descricao: 'Soja em saca', codigoUnidadeMedida: 'SC' },
    { ...audit, codigo: 'MILHO-SC', descricao: 'Milho em saca', codigoUnidadeMedida: 'SC' },
  ]);
  for (const s of skus) ids[s.codigo] = Number(s.id);
  // Ids are numbered per tenant: globex's first rows have acme's ids too. An id only globex holds:
  const [foreignSku] = await seed(t, 'globex', sku, [
    { ...audit, id: 900_001, codigo: 'SOJA-SC', descricao: 'Soja', codigoUnidadeMedida: 'SC' },
  ]);
  ids.globexSku = Number(foreignSku!.id);
  await seed(t, 'acme', skuUnidadeMedida, [
    { codigoSku: 'SOJA-SC', codigoUnidadeMedida: 'KG', fatorConversao: 0.0166667 },
    { codigoSku: 'SOJA-SC', codigoUnidadeMedida: 'TON', fatorConversao: 16.6667 },
    { codigoSku: 'MILHO-SC', codigoUnidadeMedida: 'KG', fatorConversao: 0.0166667 },
  ]);
  await seed(t, 'globex', skuUnidadeMedida, [
    { codigoSku: 'SOJA-SC', codigoUnidadeMedida: 'KG', fatorConversao: 1 },
  ]);
  const produtores = await seed(t, 'acme', produtor, [
    { codigo: 'A', codigoPessoa: 'PA' },
    { codigo: 'B', codigoPessoa: 'PB' },
    { codigo: 'C', codigoPessoa: 'PC' },
  ]);
  for (const p of produtores) ids[p.codigo] = p.id;
  const [foreign] = await seed(t, 'globex', produtor, [{ id: 900_001, codigo: 'A', codigoPessoa: 'PA' }]);
  ids.globexProdutor = foreign!.id;
});

const links = (tenant = 'acme', table = 'com_sku_unidade_medida') =>
  t.db.tenant(tenant, async (tx) =>
    rowsOf<Record<string, string>>(await tx.execute(sql.raw(`select * from ${table} order by id`))),
  );

describe('deletarSkuUnidadeMedida', () => {
  it('deletes every unit link of that SKU and only of it', async () => {
    const res = await acme('actions/deletarSkuUnidadeMedida', { id: ids['SOJA-SC'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ dummy: true });
    expect((await links()).map((l) => `${l.codigo_sku}/${l.codigo_unidade_medida}`)).toEqual(['MILHO-SC/KG']);
    expect(await links('globex')).toHaveLength(1);
  });

  it('answers true again for a SKU with no link left', async () => {
    expect((await acme('actions/deletarSkuUnidadeMedida', { id: ids['SOJA-SC'] })).json()).toEqual({
      dummy: true,
    });
  });

  it('is 404 for a SKU that does not exist, or is another tenant’s, changing nothing', async () => {
    const before = await tableCounts(t.db);
    for (const id of [999_999, ids.globexSku!]) {
      const res = await acme('actions/deletarSkuUnidadeMedida', { id });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: `SKU ${id} not found`, reason: 'OBJECT_NOT_FOUND' });
    }
    expect(await tableCounts(t.db)).toEqual(before);
  });
});

describe('criarVinculo, removerVinculo, pesquisarVinculo', () => {
  let vinculoId: number;

  it('links two producers and answers the link', async () => {
    const res = await acme('actions/criarVinculo', {
      produtorId: ids.A,
      produtorVinculadoId: ids.B,
      nomeVinculo: 'Cônjuge',
    });
    expect(res.statusCode).toBe(200);
    const { produtorVinculo } = res.json();
    expect(produtorVinculo).toEqual({
      id: expect.any(Number),
      produtorId: ids.A,
      produtorVinculadoId: ids.B,
      codigoProdutor: 'A',
      codigoProdutorVinculado: 'B',
      nomeVinculo: 'Cônjuge',
    });
    vinculoId = produtorVinculo.id;
  });

  it('refuses a second link of the same pair with 409, whatever its name', async () => {
    const res = await acme('actions/criarVinculo', {
      produtorId: ids.A,
      produtorVinculadoId: ids.B,
      nomeVinculo: 'Sócio',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: `Producer ${ids.A} is already linked to producer ${ids.B}`,
      reason: 'UNPROCESSABLE',
    });
    expect(await links('acme', 'com_produtor_vinculo')).toHaveLength(1);
  });

  it('allows the reverse link: links are directed', async () => {
    const res = await acme('actions/criarVinculo', { produtorId: ids.B, produtorVinculadoId: ids.A });
    expect(res.statusCode).toBe(200);
    expect(res.json().produtorVinculo).not.toHaveProperty('nomeVinculo');
  });

  it('refuses a link to itself with 422', async () => {
    const res = await acme('actions/criarVinculo', { produtorId: ids.C, produtorVinculadoId: ids.C });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/cannot be linked to itself/);
  });

  it('is 404 when either producer does not exist in the tenant', async () => {
    const before = await tableCounts(t.db);
    for (const [produtorId, produtorVinculadoId, missing] of [
      [ids.A, 999_999, 999_999],
      [999_998, ids.A, 999_998],
      [ids.A, ids.globexProdutor, ids.globexProdutor],
    ] as Array<[number, number, number]>) {
      const res = await acme('actions/criarVinculo', { produtorId, produtorVinculadoId });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(`Producer (produtor) ${missing} not found`);
    }
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('bounds nomeVinculo to 20 characters', async () => {
    const res = await acme('actions/criarVinculo', {
      produtorId: ids.A,
      produtorVinculadoId: ids.C,
      nomeVinculo: 'x'.repeat(21),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/field 'nomeVinculo' must have at most 20 characters/);
  });

  it('lists a producer’s links in both directions', async () => {
    const res = await acme('queries/pesquisarVinculo', { produtorId: ids.A });
    expect(res.statusCode).toBe(200);
    expect(res.json().vinculos.map((v: { codigoProdutor: string }) => v.codigoProdutor)).toEqual(['A', 'B']);
    expect((await acme('queries/pesquisarVinculo', { produtorId: ids.C })).json()).toEqual({ vinculos: [] });
    expect((await acme('queries/pesquisarVinculo', { produtorId: ids.globexProdutor })).statusCode).toBe(404);
  });

  it('removes a link, answering its id; removing it again is 404', async () => {
    const res = await acme('actions/removerVinculo', { produtorId: ids.A, produtorVinculadoId: ids.B });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ vinculoId });
    const again = await acme('actions/removerVinculo', { produtorId: ids.A, produtorVinculadoId: ids.B });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(`Producer ${ids.A} has no link to producer ${ids.B}`);
    // The reverse link stays.
    const remaining = await acme('queries/pesquisarVinculo', { produtorId: ids.A });
    expect(remaining.json().vinculos).toHaveLength(1);
  });

  it('is 404 to remove a link of a missing producer, of another tenant, or to itself', async () => {
    expect(
      (await acme('actions/removerVinculo', { produtorId: ids.B, produtorVinculadoId: 999_999 })).statusCode,
    ).toBe(404);
    expect(
      (await globex('actions/removerVinculo', { produtorId: ids.B, produtorVinculadoId: ids.A })).statusCode,
    ).toBe(404);
    expect(
      (await acme('actions/removerVinculo', { produtorId: ids.C, produtorVinculadoId: ids.C })).statusCode,
    ).toBe(404);
    expect(await links('acme', 'com_produtor_vinculo')).toHaveLength(1);
  });

  it('links the pair again after removal', async () => {
    const res = await acme('actions/criarVinculo', { produtorId: ids.A, produtorVinculadoId: ids.B });
    expect(res.statusCode).toBe(200);
    expect(res.json().produtorVinculo.id).not.toBe(vinculoId);
  });

  it('keeps one link when the same pair is requested concurrently', async () => {
    const results = await Promise.all(
      [0, 1, 2].map(() => acme('actions/criarVinculo', { produtorId: ids.C, produtorVinculadoId: ids.A })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const rows = await t.db.tenant('acme', (tx) =>
      tx.select().from(produtorVinculo).where(sql`${produtorVinculo.codigoProdutor} = 'C'`),
    );
    expect(rows).toHaveLength(1);
  });
});

describe('criarVinculoTransacao, excluirVinculoTransacao, pesquisarVinculoTransacao', () => {
  it('links a transaction to a process once (409 the second time)', async () => {
    const res = await acme('actions/criarVinculoTransacao', {
      transacaoId: '90100',
      processo: 'RecebimentoProducao',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().vinculoTransacao).toEqual({
      id: expect.any(Number),
      transacaoId: '90100',
      processo: 'RecebimentoProducao',
    });
    await acme('actions/criarVinculoTransacao', { transacaoId: '90100', processo: 'CompraProducao' });
    await globex('actions/criarVinculoTransacao', { transacaoId: '90100', processo: 'CompraProducao' });
    const dup = await acme('actions/criarVinculoTransacao', {
      transacaoId: '90100',
      processo: 'CompraProducao',
    });
    expect(dup.statusCode).toBe(409);
  });

  it('lists links by transaction and by process', async () => {
    const all = await acme('queries/pesquisarVinculoTransacao', { transacaoId: '90100' });
    expect(all.json().vinculos.map((v: { processo: string }) => v.processo)).toEqual([
      'CompraProducao',
      'RecebimentoProducao',
    ]);
    const byProcess = await acme('queries/pesquisarVinculoTransacao', { processo: 'RecebimentoProducao' });
    expect(byProcess.json().vinculos).toHaveLength(1);
  });

  it('removes only the link of that transaction to that process', async () => {
    const res = await acme('actions/excluirVinculoTransacao', {
      transacaoId: '90100',
      processo: 'CompraProducao',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    const left = await links('acme', 'com_vinculo_transacao');
    expect(left.map((l) => l.processo)).toEqual(['RecebimentoProducao']);
    expect(await links('globex', 'com_vinculo_transacao')).toHaveLength(1);
  });

  it('is 404 when the link does not exist (again, or in another tenant)', async () => {
    const again = await acme('actions/excluirVinculoTransacao', {
      transacaoId: '90100',
      processo: 'CompraProducao',
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('Transaction 90100 is not linked to process CompraProducao');
    const other = await globex('actions/excluirVinculoTransacao', {
      transacaoId: '90100',
      processo: 'RecebimentoProducao',
    });
    expect(other.statusCode).toBe(404);
    expect(await links('acme', 'com_vinculo_transacao')).toHaveLength(1);
    const bad = await acme('actions/excluirVinculoTransacao', { transacaoId: '90100', processo: 'Colheita' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/field 'processo' must be one of RecebimentoProducao/);
  });
});
