import type { Ctx } from '../../../platform/core/declarations.ts';
import {
  diferencas,
  gravarItem,
  gravarSituacaoPedido,
  type ItemPro,
  type Mudanca,
  type Pedido,
} from './pedidos.ts';
import { itemSegueOPedido, situacaoPedido } from './regras.ts';
import type { SituacaoPedidoVenda } from './situacoes.ts';

// Changing an order's or an item's situation, with what follows from it (docs/int_pedidovenda.md
// "Situations"). The caller holds the order's row lock and has refused what the rules forbid.

/** Cancels an item: what was open is cancelled. Answers the change, if any. */
export async function cancelarItem(ctx: Ctx, item: ItemPro): Promise<Mudanca | undefined> {
  if (item.situacaoPedidoVenda === 'Cancelado') return undefined;
  const depois = {
    quantidadeAberta: 0,
    quantidadeCancelada: item.quantidadeCancelada + item.quantidadeAberta,
    situacaoPedidoVenda: 'Cancelado' as const,
  };
  const alteracoes = diferencas(item, depois);
  await gravarItem(ctx, item, depois);
  Object.assign(item, depois);
  return {
    sequenciaItem: item.sequenciaItem,
    situacaoAnterior: alteracoes.situacaoPedidoVenda?.de as SituacaoPedidoVenda,
    situacaoNova: 'Cancelado',
    alteracoes,
  };
}

/**
 * Sets the order's situation as the ERP asks: Cancelado cancels every item; another situation
 * takes the items that are not Cancelado along (regras.ts itemSegueOPedido), and an open one is
 * then what the items make it. `itens` are updated in place.
 */
export async function definirSituacaoPedido(
  ctx: Ctx,
  pedido: Pedido,
  itens: ItemPro[],
  nova: SituacaoPedidoVenda,
): Promise<{ pedido: Pedido; mudancas: Mudanca[] }> {
  const mudancas: Mudanca[] = [];
  for (const item of itens) {
    if (nova === 'Cancelado') {
      const m = await cancelarItem(ctx, item);
      if (m) mudancas.push(m);
      continue;
    }
    const situ = itemSegueOPedido(item, nova);
    if (situ !== item.situacaoPedidoVenda) {
      mudancas.push({
        sequenciaItem: item.sequenciaItem,
        situacaoAnterior: item.situacaoPedidoVenda,
        situacaoNova: situ,
        alteracoes: { situacaoPedidoVenda: { de: item.situacaoPedidoVenda, para: situ } },
      });
      await gravarItem(ctx, item, { situacaoPedidoVenda: situ });
      item.situacaoPedidoVenda = situ;
    }
  }
  const final = nova === 'Cancelado' ? nova : situacaoPedido(nova, itens);
  return { pedido: await mudarPedido(ctx, pedido, final, mudancas), mudancas };
}

/** Stores the order's situation `nova` and adds the header's change to `mudancas`. */
export async function mudarPedido(
  ctx: Ctx,
  pedido: Pedido,
  nova: SituacaoPedidoVenda,
  mudancas: Mudanca[],
): Promise<Pedido> {
  if (nova === pedido.situacaoPedidoVenda) return pedido;
  mudancas.unshift({
    situacaoAnterior: pedido.situacaoPedidoVenda,
    situacaoNova: nova,
    alteracoes: { situacaoPedidoVenda: { de: pedido.situacaoPedidoVenda, para: nova } },
  });
  return gravarSituacaoPedido(ctx, pedido, nova);
}

/** After its items changed, the order takes the situation they make it (regras.ts situacaoPedido). */
export async function seguirItens(
  ctx: Ctx,
  pedido: Pedido,
  itens: ItemPro[],
  mudancas: Mudanca[],
): Promise<Pedido> {
  return mudarPedido(ctx, pedido, situacaoPedido(pedido.situacaoPedidoVenda, itens), mudancas);
}
