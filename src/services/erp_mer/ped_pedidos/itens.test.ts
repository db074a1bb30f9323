import { describe, expect, it } from 'vitest';
import type { ItemPedidoVendaLido, PedidoVendaLido } from '../../erp_isl/int_pedidovenda/contract.ts';
import { itensEmAberto, itensParcelaveis } from './itens.ts';

// What of an order is split into installments, as a table: the whole order (itensParcelaveis)
// and what is still to receive (itensEmAberto, calcularFluxoCaixa).

const produto = (
  sequenciaItem: number,
  quantidade: number,
  quantidadeAberta = quantidade,
  situacaoPedidoVenda: ItemPedidoVendaLido['situacaoPedidoVenda'] = 'AbertoTotal',
): ItemPedidoVendaLido => ({
  produto: true,
  sequenciaItem,
  quantidade,
  quantidadeAberta,
  quantidadeCancelada: Math.max(0, quantidade - quantidadeAberta),
  valorUnitario: null,
  valorDesconto: null,
  valorLiquido: null,
  valorTotal: null,
  situacaoPedidoVenda,
});

const servico = (sequenciaItem: number, valorTotal: number): ItemPedidoVendaLido => ({
  produto: false,
  sequenciaItem,
  quantidade: 1,
  quantidadeAberta: 1,
  quantidadeCancelada: 0,
  valorUnitario: valorTotal,
  valorDesconto: 0,
  valorLiquido: valorTotal,
  valorTotal,
  situacaoPedidoVenda: null,
});

const pedido = (
  valorTotal: number,
  itens: ItemPedidoVendaLido[],
  situacaoPedidoVenda: PedidoVendaLido['situacaoPedidoVenda'] = 'AbertoParcial',
): PedidoVendaLido => ({
  id: 'x',
  codigoEmpresa: 1,
  codigoFilial: 1,
  numeroPedidoVenda: 1,
  sequenciaPedidoVenda: 1,
  dataEmissao: '2026-11-30',
  codigoCliente: 1,
  codigoRepresentante: null,
  valorLiquido: valorTotal,
  valorTotal,
  codigoCondicaoPagamento: null,
  situacaoPedidoVenda,
  itens,
});

const valores = (p: PedidoVendaLido, f = itensEmAberto) =>
  f(p).map((i) => [i.produto, i.sequenciaItem, i.valor]);

describe('itensEmAberto', () => {
  it.each([
    ['nothing cancelled: the whole order', pedido(1000, [produto(1, 100)]), [[true, 1, 1000]]],
    ['10 of 100 open', pedido(1000, [produto(1, 100, 10)]), [[true, 1, 100]]],
    ['a third of 0.10 open rounds to the cent', pedido(0.1, [produto(1, 3, 1)]), [[true, 1, 0.03]]],
    ['half a cent rounds up', pedido(0.01, [produto(1, 2, 1)]), [[true, 1, 0.01]]],
    ['nothing open: left out', pedido(1000, [produto(1, 100, 0), produto(2, 100)]), [[true, 2, 500]]],
    [
      'Cancelado whatever its numbers',
      pedido(100, [produto(1, 1, 1, 'Cancelado'), produto(2, 1)]),
      [[true, 2, 50]],
    ],
    ['more open than ordered counts the whole item', pedido(100, [produto(1, 5, 7)]), [[true, 1, 100]]],
    [
      'quantity 0 (equal shares): open',
      pedido(10, [produto(1, 0, 0), produto(2, 0, 0)]),
      [
        [true, 1, 5],
        [true, 2, 5],
      ],
    ],
    [
      'service items count whole',
      pedido(150, [produto(1, 4, 1), servico(7, 50)]),
      [
        [true, 1, 25],
        [false, 7, 50],
      ],
    ],
    ['a Cancelado order: nothing', pedido(100, [produto(1, 1)], 'Cancelado'), []],
  ])('%s', (_, p, esperado) => {
    expect(valores(p)).toEqual(esperado);
  });

  it('without the cash flow every item counts whole', () => {
    const p = pedido(1000, [produto(1, 100, 10), produto(2, 100, 0, 'Cancelado')], 'Cancelado');
    expect(valores(p, itensParcelaveis)).toEqual([
      [true, 1, 500],
      [true, 2, 500],
    ]);
  });
});
