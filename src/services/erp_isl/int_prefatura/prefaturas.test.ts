import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { chave as chavePedido, makePedido, PEDIDOS } from '../int_pedidovenda/fixtures.ts';

// erp_isl/int_prefatura through HTTP: keys, 409/404/400 with nothing changed, the situation rules,
// the history, tenants apart, and the order items it attends kept consistent (docs/int_prefatura.md).

const S = 'erp_isl/int_prefatura';
let t: TestApp;
let key: string;
let other: string;

beforeAll(async () => {
  t = await testApp();
  key = await t.tenant('acme');
  other = await t.tenant('globex');
});

const chave = (n: number) => ({
  codigoEmpresa: 1,
  codigoFilial: 1,
  analiseEmbarque: 7.5,
  numeroPreFatura: n,
});
const item = (n: number, seq: number, over: Record<string, unknown> = {}) => ({
  ...chave(n),
  sequenciaPreFatura: seq,
  codigoDepositoItem: 'DEP01',
  qtdItemPreFatura: 3,
  cancelaSaldoPedido: false,
  ...over,
});
const act = (op: string, body: unknown, auth = key, tenant = 'acme') =>
  t.call(tenant, `${S}/actions/${op}`, body, { auth });
const ok = async (op: string, body: unknown) => {
  const res = await act(op, body);
  expect(res.statusCode, `${op}: ${res.body}`).toBe(200);
};
const obter = async (n: number) => {
  const res = await t.call('acme', `${S}/queries/obterPreFatura`, chave(n), { auth: key });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const itemPedido = async (numero: number, seq: number) => {
  const res = await t.call('acme', `${PEDIDOS}/queries/obterPedidoVenda`, chavePedido(numero), { auth: key });
  const p = res.json().pedidoVenda;
  return { pedido: p, item: p.itensPro.find((i: { sequenciaItem: number }) => i.sequenciaItem === seq) };
};
const lote = {
  sequenciaPedidoVenda: 1,
  codigoProduto: 'P1',
  codigoDerivacao: '',
  codigoDeposito: 'DEP01',
  dataEmissao: '2026-11-22',
  quantidade: 2,
  codigoLote: 'L1',
  dataFabricacao: '2026-10-01',
};

describe('inserirPreFatura and the other actions', () => {
  it('stores items of a pre-invoice, refuses an item twice (409), changes them, all in the history', async () => {
    await ok('inserirPreFatura', item(1, 1, { textoObservacao: 'doca 3' }));
    await ok('inserirPreFatura', item(1, 2));
    const before = await tableCounts(t.db);
    const dup = await act('inserirPreFatura', item(1, 2, { qtdItemPreFatura: 9 }));
    expect(dup.statusCode).toBe(409);
    expect(await tableCounts(t.db)).toEqual(before);

    await ok('alterarPreFatura', {
      ...chave(1),
      situacaoPreFatura: 'EmPreparacao',
      itensPro: [{ sequenciaItem: 1, quantidadeAtendida: 2, recItensLotes: [lote] }],
    });
    await ok('alterarItemSitPreFatura', {
      ...chave(1),
      sequenciaPreFatura: 2,
      situacaoPreFatura: 'AguardandoIntWMS',
    });
    const { preFatura, historico } = await obter(1);
    expect(preFatura).toMatchObject({
      ...chave(1),
      situacaoPreFatura: 'EmPreparacao',
      textoObservacao: 'doca 3',
    });
    expect(
      preFatura.itens.map((i: Record<string, unknown>) => [
        i.sequenciaPreFatura,
        i.quantidadeAtendida,
        i.situacaoPreFatura,
      ]),
    ).toEqual([
      [1, 2, 'EmPreparacao'],
      [2, 3, 'AguardandoIntWMS'],
    ]);
    expect(preFatura.itens[0].recItensLotes).toEqual([expect.objectContaining({ codigoLote: 'L1' })]);
    expect([...new Set(historico.map((h: Record<string, unknown>) => h.operacao))]).toEqual([
      'inserirPreFatura',
      'alterarPreFatura',
      'alterarItemSitPreFatura',
    ]);
    const itemUm = historico.filter((h: Record<string, unknown>) => h.sequenciaPreFatura === 1);
    expect(itemUm.map((h: { alteracoes: object }) => h.alteracoes)).toContainEqual(
      expect.objectContaining({ quantidadeAtendida: { de: 3, para: 2 } }),
    );
  });

  it('answers 404 for an unknown pre-invoice or item, 400 outside the enum or without lots, 409 once Cancelada; tenants apart', async () => {
    await ok('inserirPreFatura', item(2, 1));
    const before = await tableCounts(t.db);
    expect(
      (await act('alterarSitPreFatura', { ...chave(99), situacaoPreFatura: 'Faturada' })).statusCode,
    ).toBe(404);
    expect(
      (await act('alterarSitPreFatura', { ...chave(2), situacaoPreFatura: 'Faturada' }, other, 'globex'))
        .statusCode,
    ).toBe(404);
    const semItem = await act('alterarItemSitPreFatura', {
      ...chave(2),
      sequenciaPreFatura: 5,
      situacaoPreFatura: 'Faturada',
    });
    expect(semItem.statusCode).toBe(404);
    expect(semItem.json().message).toContain('sequenciaPreFatura');
    const bad = await act('alterarSitPreFatura', { ...chave(2), situacaoPreFatura: 'Emitida' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("'situacaoPreFatura' must be one of EmAnalise");
    const semLotes = await act('alterarPreFatura', {
      ...chave(2),
      itensPro: [{ sequenciaItem: 1, quantidadeAtendida: 1, recItensLotes: [] }],
    });
    expect(semLotes.statusCode).toBe(400);
    expect(semLotes.json().message).toContain("'itensPro[0].recItensLotes' must have at least 1 item");
    const meio = await act('inserirPreFatura', item(3, 1, { numeroPedidoVenda: 5 }));
    expect(meio.statusCode).toBe(400);
    expect(meio.json().message).toContain("'sequenciaPedidoVenda'");
    expect(await tableCounts(t.db)).toEqual(before);

    await ok('alterarSitPreFatura', { ...chave(2), situacaoPreFatura: 'Cancelada' });
    expect(
      (await act('alterarSitPreFatura', { ...chave(2), situacaoPreFatura: 'EmAnalise' })).statusCode,
    ).toBe(409);
    expect((await act('inserirPreFatura', item(2, 2))).statusCode).toBe(409);
    expect((await obter(2)).preFatura.itens[0].situacaoPreFatura).toBe('Cancelada');
  });
});

describe('the order items a pre-invoice attends', () => {
  it('attends the order item, cancels its balance when asked, follows changes, and gives all back when cancelled', async () => {
    await t.call('acme', `${PEDIDOS}/actions/inserirPedidoVenda`, makePedido(500), { auth: key });
    // Item 1 of order 500 has 10; the pre-invoice attends 6 and cancels the rest of the balance.
    await ok(
      'inserirPreFatura',
      item(10, 1, {
        qtdItemPreFatura: 6,
        cancelaSaldoPedido: true,
        numeroPedidoVenda: 500,
        sequenciaPedidoVenda: 1,
      }),
    );
    let { pedido, item: i1 } = await itemPedido(500, 1);
    expect(i1).toMatchObject({
      quantidadeAtendida: 6,
      quantidadeAberta: 0,
      quantidadeCancelada: 4,
      situacaoPedidoVenda: 'PreparacaoAnaliseOuNf',
    });
    expect(pedido.situacaoPedidoVenda).toBe('AbertoParcial');

    // Item 2 (4 units): a second pre-invoice item may not attend more than is open.
    const demais = await act(
      'inserirPreFatura',
      item(10, 2, { qtdItemPreFatura: 5, numeroPedidoVenda: 500, sequenciaPedidoVenda: 2 }),
    );
    expect(demais.statusCode).toBe(422);
    expect(demais.json().message).toContain("'sequenciaPedidoVenda'");
    const semItem = await act(
      'inserirPreFatura',
      item(10, 2, { numeroPedidoVenda: 500, sequenciaPedidoVenda: 9 }),
    );
    expect(semItem.statusCode).toBe(404);
    await ok(
      'inserirPreFatura',
      item(10, 2, { qtdItemPreFatura: 4, numeroPedidoVenda: 500, sequenciaPedidoVenda: 2 }),
    );
    ({ pedido } = await itemPedido(500, 2));
    expect(pedido.situacaoPedidoVenda).toBe('PreparacaoAnaliseOuNf');

    // The warehouse attended less of item 1: the difference is open again.
    await ok('alterarPreFatura', {
      ...chave(10),
      itensPro: [{ sequenciaItem: 1, quantidadeAtendida: 5, recItensLotes: [lote] }],
    });
    ({ item: i1 } = await itemPedido(500, 1));
    expect(i1).toMatchObject({
      quantidadeAtendida: 5,
      quantidadeAberta: 1,
      quantidadeCancelada: 4,
      situacaoPedidoVenda: 'AbertoParcial',
    });

    // Cancelling the pre-invoice gives back what it held and the balance it cancelled.
    await ok('alterarSitPreFatura', { ...chave(10), situacaoPreFatura: 'Cancelada' });
    const depois = await itemPedido(500, 1);
    expect(depois.item).toMatchObject({
      quantidadeAtendida: 0,
      quantidadeAberta: 10,
      quantidadeCancelada: 0,
      situacaoPedidoVenda: 'AbertoTotal',
    });
    expect(depois.pedido.situacaoPedidoVenda).toBe('AbertoTotal');
    const hist = (
      await t.call('acme', `${PEDIDOS}/queries/obterPedidoVenda`, chavePedido(500), { auth: key })
    ).json().historico;
    expect(hist.map((h: { operacao: string }) => h.operacao)).toContain('int_prefatura/alterarSitPreFatura');
  });

  it('names an order Ponte does not hold without touching anything of the orders', async () => {
    await ok('inserirPreFatura', item(11, 1, { numeroPedidoVenda: 404404, sequenciaPedidoVenda: 1 }));
    const { preFatura } = await obter(11);
    expect(preFatura.itens[0]).toMatchObject({ numeroPedidoVenda: 404404, quantidadePedido: 0 });
  });
});
