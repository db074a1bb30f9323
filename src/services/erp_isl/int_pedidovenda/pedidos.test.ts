import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { chave, itemPro, makePedido, PEDIDOS } from './fixtures.ts';

// erp_isl/int_pedidovenda's actions through HTTP: keys, 409 with nothing changed, 404, bad enums,
// the situation rules (docs/int_pedidovenda.md "Situations"), the history, tenants apart.

let t: TestApp;
let key: string;
let other: string;

beforeAll(async () => {
  t = await testApp();
  key = await t.tenant('acme');
  other = await t.tenant('globex');
});

const act = (op: string, body: unknown, auth = key, tenant = 'acme') =>
  t.call(tenant, `${PEDIDOS}/actions/${op}`, body, { auth });
const obter = async (numero: number, auth = key, tenant = 'acme') =>
  t.call(tenant, `${PEDIDOS}/queries/obterPedidoVenda`, chave(numero), { auth });
const pedido = async (numero: number) => {
  const res = await obter(numero);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    pedidoVenda: Record<string, unknown> & {
      itensPro: Array<Record<string, unknown>>;
      itensSer: Array<Record<string, unknown>>;
    };
    historico: Array<Record<string, unknown>>;
  };
};
const ok = async (op: string, body: unknown) => {
  const res = await act(op, body);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({});
};

describe('inserirPedidoVenda', () => {
  it('stores the order, its product items numbered 1..n with everything open, and its service items', async () => {
    await ok('inserirPedidoVenda', makePedido(1, { codigo_representante: 9, textoObservacao: 'urgente' }));
    const { pedidoVenda, historico } = await pedido(1);
    expect(pedidoVenda).toMatchObject({
      ...chave(1),
      sequenciaPedidoVenda: 1,
      data_emissao: '2026-11-20',
      codigo_cliente: 501,
      codigo_representante: 9,
      valorLiquido: 1000,
      valorTotal: 1050,
      textoObservacao: 'urgente',
      situacaoPedidoVenda: 'AbertoTotal',
    });
    expect(pedidoVenda.itensPro.map((i) => [i.sequenciaItem, i.quantidade, i.quantidadeAberta])).toEqual([
      [1, 10, 10],
      [2, 4, 4],
    ]);
    expect(pedidoVenda.itensPro[0]).toMatchObject({
      quantidadeCancelada: 0,
      quantidadeAtendida: 0,
      situacaoPedidoVenda: 'AbertoTotal',
      recItensLotes: [],
    });
    expect(pedidoVenda.itensSer).toEqual([expect.objectContaining({ sequenciaItem: 1, valorTotal: 50 })]);
    expect(historico).toEqual([
      expect.objectContaining({
        operacao: 'inserirPedidoVenda',
        situacaoNova: 'AbertoTotal',
        createdBy: expect.any(String),
      }),
    ]);
  });

  it('answers 409 for a key that exists, changing nothing', async () => {
    const before = await tableCounts(t.db);
    const res = await act('inserirPedidoVenda', makePedido(1, { valorTotal: 1 }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      reason: 'UNPROCESSABLE',
      message: expect.stringContaining('1/1/1 already exists'),
    });
    expect(await tableCounts(t.db)).toEqual(before);
    expect((await pedido(1)).pedidoVenda.valorTotal).toBe(1050);
  });

  it('refuses bad input with 400 naming the field, changing nothing', async () => {
    const before = await tableCounts(t.db);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ numeroPedidoVenda: 0 }, 'numeroPedidoVenda'],
      [{ data_emissao: '2026-02-30' }, 'data_emissao'],
      [{ valorTotal: -1 }, 'valorTotal'],
      [{ itensPro: [itemPro({ quantidade: 'dez' })] }, 'itensPro[0].quantidade'],
      [{ itensSer: [{ sequenciaItem: 1 }] }, 'itensSer[0].codigoServico'],
      [
        {
          itensSer: [makePedido(0).itensSer[0], makePedido(0).itensSer[0]],
        },
        'itensSer[1].sequenciaItem',
      ],
    ];
    for (const [over, field] of cases) {
      const res = await act('inserirPedidoVenda', makePedido(50, over));
      expect(res.statusCode, field).toBe(400);
      expect(res.json().message).toContain(`'${field}'`);
    }
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it("keeps tenants apart: the same key in another tenant is another order, and one tenant's is 404 to the other", async () => {
    await ok('inserirPedidoVenda', makePedido(2));
    expect((await obter(2, other, 'globex')).statusCode).toBe(404);
    const res = await act(
      'alterarSitPedidoVenda',
      { ...chave(2), situacaoPedidoVenda: 'Suspenso' },
      other,
      'globex',
    );
    expect(res.statusCode).toBe(404);
    expect(res.json().reason).toBe('OBJECT_NOT_FOUND');
    expect(
      (await act('inserirPedidoVenda', makePedido(2, { valorTotal: 7 }), other, 'globex')).statusCode,
    ).toBe(200);
    expect((await pedido(2)).pedidoVenda.valorTotal).toBe(1050);
  });
});

describe('alterarPedidoVenda', () => {
  it('changes quantities, situation and lots of items; the order follows its items; all in the history', async () => {
    await ok('inserirPedidoVenda', makePedido(10));
    const lote = {
      sequenciaPedidoVenda: 1,
      codigoProduto: 'P1',
      codigoDerivacao: 'D',
      codigoDeposito: 'DEP1',
      dataEmissao: '2026-11-21',
      quantidade: 6,
      codigoLote: 'L-01',
    };
    await ok('alterarPedidoVenda', {
      ...chave(10),
      itensPro: [
        {
          sequenciaItem: 1,
          quantidadeAberta: 6,
          quantidadeCancelada: 4,
          situacaoPedidoVenda: 'AbertoParcial',
          recItensLotes: [lote],
        },
      ],
    });
    const { pedidoVenda, historico } = await pedido(10);
    expect(pedidoVenda.situacaoPedidoVenda).toBe('AbertoParcial');
    expect(pedidoVenda.itensPro[0]).toMatchObject({
      quantidadeAberta: 6,
      quantidadeCancelada: 4,
      situacaoPedidoVenda: 'AbertoParcial',
      recItensLotes: [expect.objectContaining({ codigoLote: 'L-01', quantidade: 6 })],
    });
    expect(historico.map((h) => [h.operacao, h.sequenciaItem ?? null, h.situacaoNova ?? null])).toEqual([
      ['inserirPedidoVenda', null, 'AbertoTotal'],
      ['alterarPedidoVenda', null, 'AbertoParcial'],
      ['alterarPedidoVenda', 1, 'AbertoParcial'],
    ]);
    expect(historico[2]!.alteracoes).toMatchObject({
      quantidadeAberta: { de: 10, para: 6 },
      quantidadeCancelada: { de: 0, para: 4 },
    });
  });

  it('cancels an item by moving its open quantity to cancelled; all items cancelled cancel the order', async () => {
    await ok('inserirPedidoVenda', makePedido(11));
    const cancel = (seq: number) => ({
      sequenciaItem: seq,
      quantidadeAberta: seq === 1 ? 10 : 4,
      quantidadeCancelada: 0,
      situacaoPedidoVenda: 'Cancelado',
    });
    await ok('alterarPedidoVenda', { ...chave(11), itensPro: [cancel(1)] });
    let p = (await pedido(11)).pedidoVenda;
    expect(p.situacaoPedidoVenda).toBe('AbertoParcial');
    expect(p.itensPro[0]).toMatchObject({
      quantidadeAberta: 0,
      quantidadeCancelada: 10,
      situacaoPedidoVenda: 'Cancelado',
    });
    await ok('alterarPedidoVenda', { ...chave(11), itensPro: [cancel(2)] });
    p = (await pedido(11)).pedidoVenda;
    expect(p.situacaoPedidoVenda).toBe('Cancelado');
  });

  it('answers 404 for an unknown order or item, 400 for a situation outside the enum, 422 for quantities past the item', async () => {
    await ok('inserirPedidoVenda', makePedido(12));
    const before = await tableCounts(t.db);
    const alt = (over: Record<string, unknown>) => ({
      sequenciaItem: 1,
      quantidadeAberta: 1,
      quantidadeCancelada: 0,
      situacaoPedidoVenda: 'AbertoParcial',
      ...over,
    });
    const unknown = await act('alterarPedidoVenda', { ...chave(999), situacaoPedidoVenda: 'Suspenso' });
    expect(unknown.statusCode).toBe(404);
    const item = await act('alterarPedidoVenda', { ...chave(12), itensPro: [alt({ sequenciaItem: 3 })] });
    expect(item.statusCode).toBe(404);
    expect(item.json().message).toContain('itensPro[0].sequenciaItem');
    const bad = await act('alterarPedidoVenda', { ...chave(12), situacaoPedidoVenda: 'Fechado' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("'situacaoPedidoVenda' must be one of AbertoTotal");
    const badItem = await act('alterarPedidoVenda', {
      ...chave(12),
      itensPro: [alt({ situacaoPedidoVenda: 'x' })],
    });
    expect(badItem.statusCode).toBe(400);
    expect(badItem.json().message).toContain("'itensPro[0].situacaoPedidoVenda'");
    const over = await act('alterarPedidoVenda', {
      ...chave(12),
      itensPro: [alt({ quantidadeAberta: 8, quantidadeCancelada: 3 })],
    });
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toContain("'itensPro[0].quantidadeAberta'");
    const wrongLot = await act('alterarPedidoVenda', {
      ...chave(12),
      itensPro: [
        alt({
          recItensLotes: [
            {
              sequenciaPedidoVenda: 2,
              codigoProduto: 'P',
              codigoDerivacao: 'D',
              codigoDeposito: 'X',
              dataEmissao: '2026-11-21',
              quantidade: 1,
            },
          ],
        }),
      ],
    });
    expect(wrongLot.statusCode).toBe(400);
    expect(wrongLot.json().message).toContain("'itensPro[0].recItensLotes[0].sequenciaPedidoVenda'");
    expect(await tableCounts(t.db)).toEqual(before);
  });
});

describe('alterarItemSitPedidoVenda and alterarSitPedidoVenda', () => {
  it('an item change makes the order follow; a WMS situation takes the live items along', async () => {
    await ok('inserirPedidoVenda', makePedido(20));
    await ok('alterarItemSitPedidoVenda', {
      ...chave(20),
      sequenciaPedidoVenda: 2,
      situacaoPedidoVenda: 'Cancelado',
    });
    let p = (await pedido(20)).pedidoVenda;
    expect(p.situacaoPedidoVenda).toBe('AbertoParcial');
    expect(p.itensPro[1]).toMatchObject({
      situacaoPedidoVenda: 'Cancelado',
      quantidadeCancelada: 4,
      quantidadeAberta: 0,
    });

    await ok('alterarSitPedidoVenda', { ...chave(20), situacaoPedidoVenda: 'AguardandoIntegracaoWms' });
    p = (await pedido(20)).pedidoVenda;
    expect(p.situacaoPedidoVenda).toBe('AguardandoIntegracaoWms');
    expect(p.itensPro.map((i) => i.situacaoPedidoVenda)).toEqual(['AguardandoIntegracaoWms', 'Cancelado']);

    // Back to open: the items take what their quantities give, and the order what its items give.
    await ok('alterarSitPedidoVenda', { ...chave(20), situacaoPedidoVenda: 'AbertoTotal' });
    p = (await pedido(20)).pedidoVenda;
    expect(p.itensPro.map((i) => i.situacaoPedidoVenda)).toEqual(['AbertoTotal', 'Cancelado']);
    expect(p.situacaoPedidoVenda).toBe('AbertoParcial');
  });

  it('a Cancelado order cancels its items, is not reopened, and no item of it changes (409, nothing changed)', async () => {
    await ok('inserirPedidoVenda', makePedido(21));
    await ok('alterarSitPedidoVenda', { ...chave(21), situacaoPedidoVenda: 'Cancelado' });
    const { pedidoVenda: p, historico } = await pedido(21);
    expect(p.itensPro.map((i) => [i.situacaoPedidoVenda, i.quantidadeCancelada])).toEqual([
      ['Cancelado', 10],
      ['Cancelado', 4],
    ]);
    const before = await tableCounts(t.db);
    for (const [op, body] of [
      ['alterarSitPedidoVenda', { ...chave(21), situacaoPedidoVenda: 'AbertoTotal' }],
      [
        'alterarItemSitPedidoVenda',
        { ...chave(21), sequenciaPedidoVenda: 1, situacaoPedidoVenda: 'AbertoTotal' },
      ],
      [
        'alterarPedidoVenda',
        {
          ...chave(21),
          itensPro: [
            {
              sequenciaItem: 1,
              quantidadeAberta: 1,
              quantidadeCancelada: 0,
              situacaoPedidoVenda: 'AbertoParcial',
            },
          ],
        },
      ],
    ] as const) {
      const res = await act(op, body);
      expect(res.statusCode, op).toBe(409);
      expect(res.json().message).toContain('Cancelado');
    }
    // Asking again for what already holds changes nothing and is no error.
    await ok('alterarSitPedidoVenda', { ...chave(21), situacaoPedidoVenda: 'Cancelado' });
    expect(await tableCounts(t.db)).toEqual(before);
    expect(historico.at(-1)).toMatchObject({ operacao: 'alterarSitPedidoVenda', situacaoNova: 'Cancelado' });
  });

  it('answers 404 for an unknown order or item and 400 outside the enum', async () => {
    await ok('inserirPedidoVenda', makePedido(22));
    const item = await act('alterarItemSitPedidoVenda', {
      ...chave(22),
      sequenciaPedidoVenda: 9,
      situacaoPedidoVenda: 'Suspenso',
    });
    expect(item.statusCode).toBe(404);
    expect(item.json().message).toContain('sequenciaPedidoVenda');
    expect(
      (
        await act('alterarItemSitPedidoVenda', {
          ...chave(998),
          sequenciaPedidoVenda: 1,
          situacaoPedidoVenda: 'Suspenso',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await act('alterarSitPedidoVenda', { ...chave(998), situacaoPedidoVenda: 'Suspenso' })).statusCode,
    ).toBe(404);
    const bad = await act('alterarSitPedidoVenda', { ...chave(22), situacaoPedidoVenda: 'Liquidado' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("'situacaoPedidoVenda'");
  });
});

describe('the read-only entities', () => {
  it('list orders with filter and orderby, items and history by pedidoVendaId; writes are 405', async () => {
    const list = await t.call('acme', `${PEDIDOS}/entities/pedidoVenda`, undefined, {
      auth: key,
      method: 'GET',
      query: { filter: "situacaoPedidoVenda eq 'Cancelado'", orderby: 'numeroPedidoVenda desc' },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().map((p: { numeroPedidoVenda: number }) => p.numeroPedidoVenda)).toEqual([21, 11]);
    const id = list.json()[0].id;
    const itens = await t.call('acme', `${PEDIDOS}/entities/itemProdutoPedidoVenda`, undefined, {
      auth: key,
      method: 'GET',
      query: { filter: `pedidoVendaId eq '${id}'`, orderby: 'sequenciaItem' },
    });
    expect(itens.json().map((i: { quantidadeCancelada: number }) => i.quantidadeCancelada)).toEqual([10, 4]);
    const hist = await t.call('acme', `${PEDIDOS}/entities/historicoPedidoVenda`, undefined, {
      auth: key,
      method: 'GET',
      query: { filter: `pedidoVendaId eq '${id}'` },
    });
    expect(hist.json().length).toBeGreaterThanOrEqual(2);
    const get = await t.call('acme', `${PEDIDOS}/entities/pedidoVenda/${id}`, undefined, {
      auth: key,
      method: 'GET',
    });
    expect(get.json()).toMatchObject({ numeroPedidoVenda: 21, situacaoPedidoVenda: 'Cancelado' });
    expect(
      (
        await t.call('globex', `${PEDIDOS}/entities/pedidoVenda/${id}`, undefined, {
          auth: other,
          method: 'GET',
        })
      ).statusCode,
    ).toBe(404);

    const before = await tableCounts(t.db);
    const { itensPro: _p, itensSer: _s, ...header } = makePedido(30);
    const post = await t.call(
      'acme',
      `${PEDIDOS}/entities/pedidoVenda`,
      { ...header, situacaoPedidoVenda: 'AbertoTotal' },
      {
        auth: key,
      },
    );
    expect(post.statusCode, post.body).toBe(405);
    expect(post.json().message).toContain('read-only');
    const del = await t.call('acme', `${PEDIDOS}/entities/pedidoVenda/${id}`, undefined, {
      auth: key,
      method: 'DELETE',
    });
    expect(del.statusCode).toBe(405);
    expect(await tableCounts(t.db)).toEqual(before);
  });
});
