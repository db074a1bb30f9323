import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { EMPRESA, FAMILIA, skuApi } from './fixtures.ts';

// gerarSku (spec 001 §4.9; docs/sku_produto.md "Generating a SKU"): every kind of mask, the
// composition in the items' order and the components' sequencia order, the refusals (inactive,
// missing value, too long, exhausted, duplicate) with nothing changed, and the SKU stored in the
// tenant's catalogue that erp_agr/com_comum and erp_sup/cot_cotacao read.

let t: TestApp;
let acme: ReturnType<typeof skuApi>;
let globex: ReturnType<typeof skuApi>;
let acmeKey: string;

beforeAll(async () => {
  t = await testApp();
  acmeKey = await t.tenant('acme');
  acme = skuApi(t, 'acme', acmeKey);
  globex = skuApi(t, 'globex', await t.tenant('globex'));
});

const numerica = (overrides: Record<string, unknown> = {}) =>
  acme.mascara({ tipoComposicao: 'Numerico', autoIncrementavel: 'Sim', quantidadePosicoes: 4, ...overrides });

describe('gerarSku', () => {
  it('numbers an auto-increment mask from ultimaSequencia by valorIncremento, zero-padded', async () => {
    const m = await numerica({ valorIncremento: 5, ultimaSequencia: 10 });
    const codes = [];
    for (let i = 0; i < 3; i++) {
      const res = await acme.gerar([{ codigoMascara: String(m.codigo) }]);
      expect(res.statusCode, res.body).toBe(200);
      codes.push(res.json().sku);
    }
    expect(codes).toEqual(['0015', '0020', '0025']);
    expect((await acme.entity('GET', `mascaraSku/${m.id}`)).json().ultimaSequencia).toBe(25);
  });

  it('counts by 1 when valorIncremento is left out or 0', async () => {
    const m = await numerica({ valorIncremento: 0 });
    expect((await acme.gerar([{ codigoMascara: String(m.codigo) }])).json().sku).toBe('0001');
    expect((await acme.gerar([{ codigoMascara: String(m.codigo) }])).json().sku).toBe('0002');
  });

  it('composes components (by sequencia), a value, a fixed text and a number, in the items’ order', async () => {
    const cor = await acme.mascara({ utilizaComponentes: 'Sim', quantidadePosicoes: 4 });
    await acme.componente(cor.id, { codigo: 'AZ', sequencia: 2, abreviatura: 'AZUL' });
    await acme.componente(cor.id, { codigo: 'CL', sequencia: 1, abreviatura: 'CLARO' });
    const modelo = await acme.mascara({ tipoComposicao: 'Alfanumerico', quantidadePosicoes: 5 });
    const fixa = await acme.mascara({
      tipoComposicao: 'SequenciaFixa',
      sequenciaFixa: 'X',
      abreviatura: 'EXP',
      quantidadePosicoes: 1,
    });
    const num = await numerica({ quantidadePosicoes: 3, abreviatura: 'N' });
    const res = await acme.gerar([
      { codigoMascara: String(modelo.codigo), valor: 'POLO' },
      { codigoMascara: String(cor.codigo), valor: 'AZ, CL' },
      { codigoMascara: String(fixa.codigo) },
      { codigoMascara: String(num.codigo) },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ sku: 'POLOCLAZX001', descricao: 'POLO CLARO AZUL EXP N' });
  });

  it('stores the SKU in the shared catalogue (com_comum sku, cot_cotacao obterSku)', async () => {
    const m = await acme.mascara({ quantidadePosicoes: 8 });
    const res = await acme.gerar([{ codigoMascara: String(m.codigo), valor: 'CATALOGO' }], {
      codigoUnidadeMedida: 'PC',
      tipoProduto: 'Mercadoria',
    });
    expect(res.statusCode, res.body).toBe(200);
    const list = await t.app.inject({
      method: 'GET',
      url: `/t/acme/bridge/1.0/rest/erp_agr/com_comum/entities/sku?filter=${encodeURIComponent("codigo eq 'CATALOGO'")}`,
      headers: { authorization: acmeKey },
    });
    expect(list.json()).toMatchObject([
      { codigo: 'CATALOGO', descricao: 'CATALOGO', codigoUnidadeMedida: 'PC', tipoProduto: 'Mercadoria' },
    ]);
  });

  it('refuses the same SKU twice (409) and rolls its counter back', async () => {
    const alfa = await acme.mascara({ quantidadePosicoes: 3 });
    const num = await numerica({ quantidadePosicoes: 2 });
    const itens = [
      { codigoMascara: String(alfa.codigo), valor: 'DUP' },
      { codigoMascara: String(num.codigo) },
    ];
    expect((await acme.gerar(itens)).json().sku).toBe('DUP01');
    await acme.entity('PATCH', `mascaraSku/${num.id}`, { ultimaSequencia: 0 });
    const again = await acme.gerar(itens);
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().message).toMatch(/SKU DUP01 already exists/);
    expect((await acme.entity('GET', `mascaraSku/${num.id}`)).json().ultimaSequencia).toBe(0);
  });

  it('400 naming the item when a value is missing, and nothing changes', async () => {
    const num = await numerica();
    const alfa = await acme.mascara();
    const before = await tableCounts(t.db);
    const res = await acme.gerar([
      { codigoMascara: String(num.codigo) },
      { codigoMascara: String(alfa.codigo) },
    ]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      reason: 'BAD_REQUEST',
      message: expect.stringContaining('itens[1].valor'),
    });
    expect(await tableCounts(t.db)).toEqual(before);
    expect((await acme.entity('GET', `mascaraSku/${num.id}`)).json().ultimaSequencia).toBe(0);
  });

  it('refuses bad items: none, repeated, unknown, inactive, too long, not digits, unknown or inactive component', async () => {
    const alfa = await acme.mascara({ quantidadePosicoes: 3 });
    const inativa = await acme.mascara({ situacao: 'Inativo' });
    const digitos = await acme.mascara({ tipoComposicao: 'Numerico', quantidadePosicoes: 3 });
    const comp = await acme.mascara({ utilizaComponentes: 'Sim' });
    await acme.componente(comp.id, { codigo: 'OFF', situacao: 'Inativo' });
    const a = String(alfa.codigo);
    const cases: Array<[unknown, number, RegExp]> = [
      [[], 400, /itens/],
      [undefined, 400, /itens/],
      [
        [
          { codigoMascara: a, valor: 'A' },
          { codigoMascara: a, valor: 'B' },
        ],
        400,
        /itens\[1\]\.codigoMascara/,
      ],
      [[{ codigoMascara: 'NOPE', valor: 'A' }], 404, /itens\[0\]\.codigoMascara/],
      [[{ codigoMascara: String(inativa.codigo), valor: 'A' }], 422, /inactive/],
      [[{ codigoMascara: a, valor: 'ABCD' }], 422, /itens\[0\]\.valor.*3 positions/],
      [[{ codigoMascara: String(digitos.codigo), valor: '1A' }], 400, /itens\[0\]\.valor/],
      [[{ codigoMascara: String(comp.codigo), valor: 'ZZ' }], 422, /component ZZ/],
      [[{ codigoMascara: String(comp.codigo), valor: 'OFF' }], 422, /component OFF .* inactive/],
      [[{ codigoMascara: String(comp.codigo), valor: ' , ' }], 400, /itens\[0\]\.valor/],
    ];
    for (const [itens, status, message] of cases) {
      const res = await acme.op('actions/gerarSku', {
        codigoEmpresa: EMPRESA,
        codigoFamilia: FAMILIA,
        itens,
      });
      expect(res.statusCode, `${JSON.stringify(itens)} ${res.body}`).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    // Numerico without auto-increment takes digits and pads them.
    expect((await acme.gerar([{ codigoMascara: String(digitos.codigo), valor: '7' }])).json().sku).toBe(
      '007',
    );
  });

  it('refuses a mask whose sequence is exhausted (422), at the bound and past it', async () => {
    const m = await numerica({ ultimaSequencia: 999_999_998, quantidadePosicoes: 9 });
    expect((await acme.gerar([{ codigoMascara: String(m.codigo) }])).json().sku).toBe('999999999');
    const res = await acme.gerar([{ codigoMascara: String(m.codigo) }]);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toMatch(/no number left/);
  });

  it('refuses a number that outgrows the mask (422)', async () => {
    const m = await numerica({ ultimaSequencia: 99, quantidadePosicoes: 2 });
    const res = await acme.gerar([{ codigoMascara: String(m.codigo) }]);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toMatch(/100 has 3 characters/);
  });

  it('another tenant does not see the masks (404)', async () => {
    const m = await acme.mascara();
    const res = await globex.gerar([{ codigoMascara: String(m.codigo), valor: 'A' }]);
    expect(res.statusCode, res.body).toBe(404);
  });

  it('a public key is refused (403): gerarSku is PRIVATE', async () => {
    const m = await acme.mascara();
    const pub = skuApi(t, 'acme', (await t.key('acme', 'public')).apiKey);
    const res = await pub.gerar([{ codigoMascara: String(m.codigo), valor: 'A' }]);
    expect(res.statusCode, res.body).toBe(403);
  });
});
