import { query } from '../../../platform/core/registry.ts';
import { dateIn } from '../../../platform/core/time.ts';
import { calcularParcelas } from '../../erp_agr/com_comum/contract.ts';
import { pedidosVenda } from '../../erp_isl/int_pedidovenda/contract.ts';
import { fluxoDeCaixa } from '../ctr_contratos/contract.ts';
import { E } from './errors.ts';
import { itensEmAberto, itensParcelaveis } from './itens.ts';
import { ObterParcelasPedidoVendaInput, ObterParcelasPedidoVendaOutput } from './schemas.ts';

// obterParcelasPedidoVenda (spec 001 §4.6; docs/ped_pedidos.md): each order asked for, as
// int_pedidovenda stores it, with the installments of its items under its payment condition from
// its emission date, computed by com_comum's engine. Two reads for the orders (int_pedidovenda's
// contract), three for the conditions, plans and holidays, whatever the number of orders.

export const obterParcelasPedidoVenda = query({
  description:
    'The installments of each sales order asked for (as int_pedidovenda stores it), from its items, its payment condition and its emission date; an unknown order is 404 naming it',
  declares401: false,
  get: true,
  input: ObterParcelasPedidoVendaInput,
  output: ObterParcelasPedidoVendaOutput,
  handler: async (ctx, input) => {
    const lidos = await pedidosVenda(
      ctx.tx,
      ctx.store.tenant,
      input.pedidoVenda.map((p) => ({
        codigoEmpresa: p.empresa,
        codigoFilial: p.filial,
        numeroPedidoVenda: p.pedidoVenda,
      })),
    );
    const pedidos = lidos.map((pedido, index) => {
      if (!pedido) throw E.pedidoNotFound({ index, ...input.pedidoVenda[index]! });
      return pedido;
    });
    // The cash flow splits only what is still to receive of each item (itens.ts itensEmAberto).
    const aReceber = input.calcularFluxoCaixa ? itensEmAberto : itensParcelaveis;
    const parcelas = await calcularParcelas(
      ctx,
      pedidos.map((p) => ({
        condicaoPagamento: p.codigoCondicaoPagamento,
        dataBase: p.dataEmissao,
        itens: aReceber(p),
      })),
    );
    const hoje = dateIn(ctx.tenant.timeZone, ctx.now());
    return {
      pedidosVendaComParcelas: input.pedidoVenda.map((p, i) => {
        const parcelasPedido = input.calcularFluxoCaixa ? fluxoDeCaixa(parcelas[i]!, hoje) : parcelas[i]!;
        return {
          empresa: p.empresa,
          filial: p.filial,
          pedidoVenda: p.pedidoVenda,
          _discriminator: p._discriminator,
          parcelasPedido,
        };
      }),
    };
  },
});
