import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';

// calcularFluxoCaixa over HTTP only: orders sent to int_pedidovenda, quantities cancelled by the ERP
// (alterarPedidoVenda) or attended by pre-invoices (int_prefatura), and what ped_pedidos then
// answers as still to receive: each item's value for its open quantity, to the cent. Without
// calcularFluxoCaixa the installments stay those of the whole order.

let t: TestApp;
let key: string;
const TODAY = new Date('2026-11-25T15:00:00Z');

const call = (address: string, body: unknown) => t.call('acme', address, body, { auth: key });
const ok = async (address: string, body: unknown) => {
  const res = await call(address, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

type P = { sequenciaParcela: number; valor: number; produto: boolean; sequenciaItem: number };
const chave = (numeroPedidoVenda: number) => ({ codigoEmpresa: 1, codigoFilial: 1, numeroPedidoVenda });
const parcelas = async (numero: number, calcularFluxoCaixa: boolean): Promise<P[]> =>
  (
    await ok('erp_mer/ped_pedidos/queries/obterParcelasPedidoVenda', {
      calcularFluxoCaixa,
      pedidoVenda: [{ empresa: 1, filial: 1, pedidoVenda: numero, _discriminator: 'recPedidoVenda' }],
    })
  ).pedidosVendaComParcelas[0].parcelasPedido;
const valores = (ps: P[]) => ps.map((p) => [p.produto, p.sequenciaItem, p.valor]);
const cents = (ps: P[]) => Math.round(ps.reduce((a, p) => a + p.valor * 100, 0));

const produto = (quantidade: number) => ({
  quantidade,
  sequenciaEmbalagem: 1,
  sequenciaConteudo: 1,
  volume: 1,
  pesoBruto: 1,
  pesoLiquido: 1,
  obsProduto: '',
});

/** An order emitted 2026-11-30 (a Monday, after TODAY): every installment is still due. */
const inserir = (numero: number, valorTotal: number, quantidades: number[], extra: object = {}) =>
  ok('erp_isl/int_pedidovenda/actions/inserirPedidoVenda', {
    ...chave(numero),
    sequenciaPedidoVenda: 1,
    data_emissao: '2026-11-30',
    codigo_cliente: 9,
    valorLiquido: valorTotal,
    valorTotal,
    itensPro: quantidades.map(produto),
    ...extra,
  });

const alterarItens = (numero: number, itensPro: object[]) =>
  ok('erp_isl/int_pedidovenda/actions/alterarPedidoVenda', { ...chave(numero), itensPro });

beforeAll(async () => {
  t = await testApp({ now: () => TODAY });
  key = await t.tenant('acme');
  await ok('erp_agr/com_comum/entities/condicaoPagamento', {
    codigo: '3X',
    descricao: '3 vezes',
    quantidadeParcelas: 3,
    diasPrimeiraParcela: 30,
    intervaloDias: 30,
  });
});

describe('obterParcelasPedidoVenda with calcularFluxoCaixa', () => {
  it('nothing cancelled: the cash flow is the whole order, as without it', async () => {
    await inserir(9001, 500, [1, 4], { codigoCondicaoPagamento: '3X' });
    const todas = await parcelas(9001, false);
    expect(todas).toHaveLength(6);
    expect(cents(todas)).toBe(50000);
    expect(await parcelas(9001, true)).toEqual(todas);
  });

  it('90 of 100 cancelled: the cash flow is the 10 still open (100 of 1000); without it, 1000', async () => {
    await inserir(9002, 1000, [100]);
    expect(valores(await parcelas(9002, true))).toEqual([[true, 1, 1000]]);
    await alterarItens(9002, [
      {
        sequenciaItem: 1,
        quantidadeAberta: 10,
        quantidadeCancelada: 90,
        situacaoPedidoVenda: 'AbertoParcial',
      },
    ]);
    expect(valores(await parcelas(9002, true))).toEqual([[true, 1, 100]]);
    expect(valores(await parcelas(9002, false))).toEqual([[true, 1, 1000]]);
  });

  it('part cancelled under a plan: each item’s open share split to the cent; services whole', async () => {
    // 1000.01 less a 100.00 service: 900.01 by 3:7 → 270.00 and 630.01
    await inserir(9003, 1000.01, [3, 7], {
      codigoCondicaoPagamento: '3X',
      itensSer: [
        {
          sequenciaItem: 1,
          codigoServico: 'FR',
          servico: 'Frete',
          quantidade: 1,
          valorUnitario: 100,
          valorDesconto: 0,
          valorLiquido: 100,
          valorTotal: 100,
        },
      ],
    });
    await alterarItens(9003, [
      { sequenciaItem: 1, quantidadeAberta: 1, quantidadeCancelada: 2, situacaoPedidoVenda: 'AbertoParcial' },
      { sequenciaItem: 2, quantidadeAberta: 5, quantidadeCancelada: 2, situacaoPedidoVenda: 'AbertoParcial' },
    ]);
    const fluxo = await parcelas(9003, true);
    // 270.00 × 1/3 = 90.00; 630.01 × 5/7 = 450.007 → 450.01; each in 3, the last takes the rest
    expect(valores(fluxo)).toEqual([
      [true, 1, 30],
      [true, 1, 30],
      [true, 1, 30],
      [true, 2, 150],
      [true, 2, 150],
      [true, 2, 150.01],
      [false, 1, 33.33],
      [false, 1, 33.33],
      [false, 1, 33.34],
    ]);
    expect(cents(fluxo)).toBe(64001);
    const todas = await parcelas(9003, false);
    expect(todas).toHaveLength(9);
    expect(cents(todas)).toBe(100001);
  });

  it('a fully cancelled item leaves nothing of it, told by its situation or by its quantities alone', async () => {
    await inserir(9004, 300, [1, 1, 1]);
    await alterarItens(9004, [
      { sequenciaItem: 1, quantidadeAberta: 0, quantidadeCancelada: 1, situacaoPedidoVenda: 'AbertoParcial' },
      { sequenciaItem: 2, quantidadeAberta: 1, quantidadeCancelada: 0, situacaoPedidoVenda: 'Cancelado' },
    ]);
    expect(valores(await parcelas(9004, true))).toEqual([[true, 3, 100]]);
    expect(valores(await parcelas(9004, false))).toEqual([
      [true, 1, 100],
      [true, 2, 100],
      [true, 3, 100],
    ]);
    // The whole order cancelled: nothing to receive; the installments stay without calcularFluxoCaixa.
    await ok('erp_isl/int_pedidovenda/actions/alterarSitPedidoVenda', {
      ...chave(9004),
      situacaoPedidoVenda: 'Cancelado',
    });
    expect(await parcelas(9004, true)).toEqual([]);
    expect(cents(await parcelas(9004, false))).toBe(30000);
  });

  it('what pre-invoices attend is no longer the order’s to receive; a cancelled balance neither', async () => {
    await inserir(9005, 1000, [100]);
    const preFatura = (sequenciaPreFatura: number, qtdItemPreFatura: number, cancelaSaldoPedido: boolean) =>
      ok('erp_isl/int_prefatura/actions/inserirPreFatura', {
        codigoEmpresa: 1,
        codigoFilial: 1,
        analiseEmbarque: 1,
        numeroPreFatura: 77,
        sequenciaPreFatura,
        codigoDepositoItem: 'D1',
        qtdItemPreFatura,
        cancelaSaldoPedido,
        numeroPedidoVenda: 9005,
        sequenciaPedidoVenda: 1,
      });
    await preFatura(1, 40, false);
    expect(valores(await parcelas(9005, true))).toEqual([[true, 1, 600]]);
    await preFatura(2, 10, true); // 10 more attended, the other 50 cancelled
    expect(await parcelas(9005, true)).toEqual([]);
    expect(valores(await parcelas(9005, false))).toEqual([[true, 1, 1000]]);
  });
});
