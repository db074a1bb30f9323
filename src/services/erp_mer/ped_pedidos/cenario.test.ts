import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';

// End to end over HTTP only: a payment condition and a holiday in com_comum, an order sent by the
// ERP to int_pedidovenda, its installments asked of ped_pedidos; then an item cancelled through
// int_pedidovenda changes the cash flow, and the order cancelled leaves nothing to receive.

let t: TestApp;
let key: string;
const TODAY = new Date('2026-11-25T15:00:00Z');

const call = (address: string, body: unknown) => t.call('acme', address, body, { auth: key });
const ok = async (address: string, body: unknown) => {
  const res = await call(address, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const chave = { codigoEmpresa: 1, codigoFilial: 2, numeroPedidoVenda: 3001 };
const pedir = (calcularFluxoCaixa: boolean) =>
  ok('erp_mer/ped_pedidos/queries/obterParcelasPedidoVenda', {
    calcularFluxoCaixa,
    pedidoVenda: [{ empresa: 1, filial: 2, pedidoVenda: 3001, _discriminator: 'recPedidoVenda' }],
  });

beforeAll(async () => {
  t = await testApp({ now: () => TODAY });
  key = await t.tenant('acme');
  await ok('erp_agr/com_comum/entities/condicaoPagamento', { codigo: '28', descricao: '0/28 dias' });
  for (const [sequencia, dias] of [
    [1, 0],
    [2, 28],
  ])
    await ok('erp_agr/com_comum/entities/condicaoPagamentoParcela', {
      codigoCondicaoPagamento: '28',
      sequencia,
      dias,
      percentual: 50,
    });
  await ok('erp_agr/com_comum/entities/feriado', { data: '2026-12-25', descricao: 'Natal' });
});

describe('an order from the ERP to its installments', () => {
  it('answers the installments of the order int_pedidovenda stored, and follows its changes', async () => {
    const item = {
      sequenciaEmbalagem: 1,
      sequenciaConteudo: 1,
      volume: 1,
      pesoBruto: 1,
      pesoLiquido: 1,
      obsProduto: '',
    };
    await ok('erp_isl/int_pedidovenda/actions/inserirPedidoVenda', {
      ...chave,
      sequenciaPedidoVenda: 1,
      data_emissao: '2026-11-27',
      codigo_cliente: 9,
      valorLiquido: 1000.01,
      valorTotal: 1000.01,
      codigoCondicaoPagamento: '28',
      itensPro: [
        { ...item, quantidade: 3 },
        { ...item, quantidade: 1 },
      ],
      itensSer: [
        {
          sequenciaItem: 1,
          codigoServico: 'FR',
          servico: 'Frete',
          quantidade: 1,
          valorUnitario: 0.01,
          valorDesconto: 0,
          valorLiquido: 0.01,
          valorTotal: 0.01,
        },
      ],
    });
    const [pedido] = (await pedir(false)).pedidosVendaComParcelas;
    const parcelas = pedido.parcelasPedido as Array<{
      valor: number;
      produto: boolean;
      sequenciaItem: number;
      vencimentoUtil: string;
    }>;
    expect(parcelas).toHaveLength(6);
    expect(Math.round(parcelas.reduce((a, p) => a + p.valor * 100, 0))).toBe(100001);
    // 1000.00 of products by 3:1 → 750 and 250; due 11-27 (Friday) and 12-25 (Christmas, a Friday) → 12-28
    expect(
      parcelas.filter((p) => p.produto && p.sequenciaItem === 1).map((p) => [p.valor, p.vencimentoUtil]),
    ).toEqual([
      [375, '2026-11-27'],
      [375, '2026-12-28'],
    ]);
    expect(parcelas.filter((p) => !p.produto).map((p) => p.valor)).toEqual([0, 0.01]);

    // The ERP cancels product item 2: nothing of it is to be received any more.
    await ok('erp_isl/int_pedidovenda/actions/alterarItemSitPedidoVenda', {
      ...chave,
      sequenciaPedidoVenda: 2,
      situacaoPedidoVenda: 'Cancelado',
    });
    const fluxo = (await pedir(true)).pedidosVendaComParcelas[0].parcelasPedido;
    expect(
      fluxo.filter((p: { produto: boolean; sequenciaItem: number }) => p.produto && p.sequenciaItem === 2),
    ).toEqual([]);
    expect(
      fluxo.filter((p: { produto: boolean; sequenciaItem: number }) => p.produto && p.sequenciaItem === 1),
    ).toHaveLength(2);

    // The whole order cancelled: no cash flow; its installments are still there without calcularFluxoCaixa.
    await ok('erp_isl/int_pedidovenda/actions/alterarSitPedidoVenda', {
      ...chave,
      situacaoPedidoVenda: 'Cancelado',
    });
    expect((await pedir(true)).pedidosVendaComParcelas[0].parcelasPedido).toEqual([]);
    expect((await pedir(false)).pedidosVendaComParcelas[0].parcelasPedido).toHaveLength(6);
  });
});
