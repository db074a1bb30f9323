import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { seed } from '../../erp_agr/com_comum/fixtures.ts';
import { sku } from '../../erp_agr/com_comum/tables/produtos.ts';
import { outboxOf } from '../../yms/patio/fixtures.ts';
import { cotApi, makeItem } from './fixtures.ts';

// criarCotacao and cancelarCotacao (spec 001 §4.1, §2.2, §8; docs/cot_cotacao.md): the limits at
// and past the bound, the SKU and attachment checks, one open quotation per need, cancellation
// recorded per need, the outbox events, the read-only entity, tenants and the public scope.

let t: TestApp;
let acme: ReturnType<typeof cotApi>;
let pub: ReturnType<typeof cotApi>;
let globex: ReturnType<typeof cotApi>;

const audit = { createdBy: 'test', lastModifiedBy: 'test' };

beforeAll(async () => {
  t = await testApp();
  acme = cotApi(t, 'acme', await t.tenant('acme'));
  globex = cotApi(t, 'globex', await t.tenant('globex'));
  pub = cotApi(t, 'acme', (await t.key('acme', 'public')).apiKey);
  await seed(t, 'acme', sku, [
    { ...audit, codigo: 'S'.repeat(30), descricao: 'Parafuso', codigoUnidadeMedida: 'UN' },
  ]);
  await seed(t, 'globex', sku, [
    { ...audit, codigo: 'SO-GLOBEX', descricao: 'Porca', codigoUnidadeMedida: 'UN' },
  ]);
});

const path = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

const x = (n: number) => 'x'.repeat(n);

describe('criarCotacao', () => {
  it('stores a quotation (public key), readable as the entity, and appends cotacaoCriada', async () => {
    const item = makeItem({
      codigoSKU: 'S'.repeat(30),
      complemento: 'zincado',
      enderecoEntrega: { codigoEmpresa: '1', codigoFilial: '1', endereco: 'Rua A, 1', cep: '80000000' },
      detalhesUsuario: { email: 'compras@acme.com' },
    });
    const res = await pub.criar([item, makeItem()]);
    expect(res.statusCode, res.body).toBe(200);
    const { idCotacao } = res.json();
    expect(idCotacao).toHaveLength(36);
    const got = await acme.entity('GET', `cotacao/${idCotacao}`);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json()).toMatchObject({ id: idCotacao, situacao: 'Aberta', quantidadeItens: 2 });
    expect(got.json().itens[0]).toMatchObject({ ...item, situacao: 'Aberta' });
    const events = (await outboxOf(t, 'acme')).filter((e) => e.topic === 'erp_sup/cot_cotacao/cotacaoCriada');
    expect(events.at(-1)!.payload).toMatchObject({ idCotacao, cotacao: [item, expect.any(Object)] });
  });

  const limits: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['idNecessidadeCompra', { idNecessidadeCompra: x(36) }, { idNecessidadeCompra: x(37) }],
    ['codigoUnidadeMedida', { codigoUnidadeMedida: 'KGS' }, { codigoUnidadeMedida: 'KGSS' }],
    ['anexos', {}, { anexos: [{ id: x(37), nomeArquivo: 'a.pdf', versaoArquivo: '1' }] }],
    ['anexos', {}, { anexos: [{ id: x(36), nomeArquivo: x(101), versaoArquivo: '1' }] }],
    ['anexos', {}, { anexos: [{ id: x(36), nomeArquivo: 'a.pdf', versaoArquivo: x(51) }] }],
    ['codigoSKU', {}, { codigoSKU: 'S'.repeat(31) }],
    ['quantidade', {}, { quantidade: 'muito' }],
    ['numeroNecessidadeCompra', {}, { numeroNecessidadeCompra: undefined }],
  ];
  it.each(limits)('%s: past the bound 400 naming it, nothing changed', async (field, ok, bad) => {
    if (Object.keys(ok).length) expect((await acme.criar([makeItem(ok)])).statusCode).toBe(200);
    const before = await tableCounts(t.db);
    const res = await acme.criar([makeItem({ ...ok, ...bad })]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'BAD_REQUEST', message: expect.stringContaining(field) });
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('400 for no item at all and for one need twice', async () => {
    expect((await acme.criar([])).statusCode).toBe(400);
    expect((await acme.op('actions/criarCotacao', {})).statusCode).toBe(400);
    const twice = await acme.criar([
      makeItem({ idNecessidadeCompra: 'DUP' }),
      makeItem({ idNecessidadeCompra: 'DUP' }),
    ]);
    expect(twice.statusCode, twice.body).toBe(400);
    expect(twice.json().message).toContain('cotacao[1].idNecessidadeCompra');
  });

  it('refuses a SKU the catalogue does not know (422), also another tenant’s', async () => {
    for (const codigoSKU of ['NOPE', 'SO-GLOBEX']) {
      const res = await acme.criar([makeItem(), makeItem({ codigoSKU })]);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toMatch(new RegExp(`cotacao\\[1\\]\\.codigoSKU: SKU ${codigoSKU}`));
    }
  });

  it('accepts an uploaded attachment; refuses one never uploaded (422)', async () => {
    const up = await pub.op('actions/obterUrlUploadAnexo', { nomeArquivo: 'especificacao.pdf' });
    expect(up.statusCode, up.body).toBe(200);
    const { id, url } = up.json();
    const anexo = { id, nomeArquivo: 'especificacao.pdf', versaoArquivo: '1' };
    const antes = await acme.criar([makeItem({ anexos: [anexo] })]);
    expect(antes.statusCode, antes.body).toBe(422);
    expect(antes.json().message).toContain('cotacao[0].anexos[0].id');
    const put = await t.app.inject({
      method: 'PUT',
      url: path(url),
      headers: { 'content-type': 'application/pdf' },
      payload: Buffer.from('%PDF-1.4'),
    });
    expect(put.statusCode, put.body).toBeLessThan(300);
    expect((await acme.criar([makeItem({ anexos: [anexo] })])).statusCode).toBe(200);
    // Another tenant's upload is not this tenant's.
    expect((await globex.criar([makeItem({ anexos: [anexo] })])).statusCode).toBe(422);
  });

  it('a need is in one open quotation at most (409), and again once cancelled', async () => {
    const item = makeItem();
    const first = await acme.criar([item]);
    expect(first.statusCode).toBe(200);
    const again = await acme.criar([makeItem(), item]);
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().message).toContain(first.json().idCotacao);
    expect((await acme.cancelar([String(item.idNecessidadeCompra)])).statusCode).toBe(200);
    expect((await acme.criar([item])).statusCode).toBe(200);
    // Another tenant's needs are its own.
    expect((await globex.criar([item])).statusCode).toBe(200);
  });
});

describe('cancelarCotacao', () => {
  it('cancels per need: the quotation stays open until its last item is cancelled; events say so', async () => {
    const [a, b] = [makeItem(), makeItem()];
    const { idCotacao } = (await pub.criar([a, b])).json();
    const ida = String(a.idNecessidadeCompra);
    const idb = String(b.idNecessidadeCompra);
    expect((await pub.cancelar([ida])).statusCode).toBe(200);
    let got = (await acme.entity('GET', `cotacao/${idCotacao}`)).json();
    expect(got.situacao).toBe('Aberta');
    expect(got.itens.map((i: { situacao: string }) => i.situacao)).toEqual(['Cancelada', 'Aberta']);
    expect((await pub.cancelar([idb, ida])).statusCode).toBe(200);
    got = (await acme.entity('GET', `cotacao/${idCotacao}`)).json();
    expect(got).toMatchObject({ situacao: 'Cancelada', canceladaEm: expect.any(String) });
    const events = (await outboxOf(t, 'acme'))
      .filter((e) => e.topic === 'erp_sup/cot_cotacao/cotacaoCancelada')
      .map((e) => e.payload);
    expect(events.slice(-2)).toEqual([
      { idCotacao, idNecessidadeCompra: [ida], cotacaoCancelada: false },
      { idCotacao, idNecessidadeCompra: [idb], cotacaoCancelada: true },
    ]);
    // Already cancelled: 200, nothing changes, no event.
    const before = await tableCounts(t.db);
    expect((await pub.cancelar([ida, idb])).statusCode).toBe(200);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('404 for a need never quoted (or another tenant’s), nothing changed; 400 for none or too long', async () => {
    const item = makeItem();
    await acme.criar([item]);
    const before = await tableCounts(t.db);
    const res = await acme.cancelar([String(item.idNecessidadeCompra), 'NUNCA']);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().message).toContain('idNecessidadeCompra[1]');
    expect(await tableCounts(t.db)).toEqual(before);
    expect((await globex.cancelar([String(item.idNecessidadeCompra)])).statusCode).toBe(404);
    expect((await acme.cancelar([])).statusCode).toBe(400);
    expect((await acme.cancelar([x(37)])).statusCode).toBe(400);
    expect((await acme.cancelar(['y'.repeat(36)])).statusCode).toBe(404);
  });
});

describe('the cotacao entity', () => {
  it('is read-only (405), filterable, invisible to other tenants, PRIVATE', async () => {
    const item = makeItem();
    const { idCotacao } = (await acme.criar([item])).json();
    for (const [method, path] of [
      ['POST', 'cotacao'],
      ['DELETE', `cotacao/${idCotacao}`],
    ] as const) {
      const res = await acme.entity(method, path, {});
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('GET');
      expect(res.json().message).toMatch(/criarCotacao creates them, cancelarCotacao cancels them/);
    }
    const list = await t.call('acme', `erp_sup/cot_cotacao/entities/cotacao`, undefined, {
      method: 'GET',
      auth: (await t.key('acme')).apiKey,
      query: { filter: `id eq '${idCotacao}'` },
    });
    expect(list.json().map((c: { id: string }) => c.id)).toEqual([idCotacao]);
    expect((await globex.entity('GET', `cotacao/${idCotacao}`)).statusCode).toBe(404);
    expect((await pub.entity('GET', `cotacao/${idCotacao}`)).statusCode).toBe(403);
    expect((await pub.op('queries/getMetadata')).statusCode).toBe(403);
    expect((await pub.op('queries/getDependencies')).statusCode).toBe(403);
    expect((await acme.op('queries/getDependencies', undefined, { method: 'GET' })).statusCode).toBe(200);
  });
});
