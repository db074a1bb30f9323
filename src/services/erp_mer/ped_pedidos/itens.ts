import { dividir, type ItemParcelavel } from '../../erp_agr/com_comum/contract.ts';
import type { PedidoVendaLido } from '../../erp_isl/int_pedidovenda/contract.ts';

// What of an order is split into installments (docs/ped_pedidos.md "Values"): the spec gives values
// to service items only (recItensSer.valorTotal); a product item (recItensPro) has a quantity and
// no value. So the service items keep their valorTotal, and the rest of the order's valorTotal is
// shared among its product items in proportion to their quantities (equally when every quantity
// is 0), to the cent: the installments of an order add up to its valorTotal exactly whenever it
// has a product item (with none, they add up to its service items).

const centavos = (v: number) => Math.round(v * 100);

export function itensParcelaveis(pedido: PedidoVendaLido): ItemParcelavel[] {
  const servicos = pedido.itens.filter((i) => !i.produto);
  const produtos = pedido.itens.filter((i) => i.produto);
  const out: ItemParcelavel[] = [];
  let totalServicos = 0;
  for (const s of servicos) {
    const valor = centavos(s.valorTotal ?? 0) / 100;
    totalServicos += centavos(valor);
    out.push({ sequenciaItem: s.sequenciaItem, produto: false, valor });
  }
  if (produtos.length > 0) {
    // Never negative: services worth more than the order leave its products nothing.
    const resto = Math.max(0, centavos(pedido.valorTotal) - totalServicos) / 100;
    const quantidades = produtos.map((p) => Math.max(0, p.quantidade));
    const pesos = quantidades.some((q) => q > 0) ? quantidades : produtos.map(() => 1);
    // A weight of 0 is a share of 0 (dividir).
    const partes = dividir(resto, pesos);
    produtos.forEach((p, i) => {
      out.unshift({ sequenciaItem: p.sequenciaItem, produto: true, valor: partes[i]! });
    });
  }
  // Product items first, then service items, each by sequenciaItem (as int_pedidovenda lists them).
  return out.sort((a, b) => Number(b.produto) - Number(a.produto) || a.sequenciaItem - b.sequenciaItem);
}

/**
 * What of an order is still to receive (calcularFluxoCaixa, docs/ped_pedidos.md): each item's value
 * above for its open quantity only, rounded to the cent. int_pedidovenda keeps quantidadeAberta as
 * the quantity less what was cancelled (the ERP's alterarPedidoVenda, a cancelled item or order, a
 * pre-invoice's cancelaSaldoPedido) and less what pre-invoices attend (from there the invoice,
 * not the order, is what is received). An item with nothing open, a Cancelado item and every
 * item of a Cancelado order are left out; service items carry no such quantities and count whole.
 */
export function itensEmAberto(pedido: PedidoVendaLido): ItemParcelavel[] {
  if (pedido.situacaoPedidoVenda === 'Cancelado') return [];
  const chave = (produto: boolean, sequenciaItem: number) => `${produto}/${sequenciaItem}`;
  const itens = new Map(pedido.itens.map((i) => [chave(i.produto, i.sequenciaItem), i]));
  return itensParcelaveis(pedido).flatMap((parcelavel) => {
    const item = itens.get(chave(parcelavel.produto, parcelavel.sequenciaItem))!;
    if (item.situacaoPedidoVenda === 'Cancelado') return [];
    // An item of quantity 0 (its share came from equal weights) has nothing cancelled: all open.
    if (item.quantidade <= 0) return [parcelavel];
    const aberta = Math.min(item.quantidade, Math.max(0, item.quantidadeAberta));
    if (aberta <= 0) return [];
    // Divided last, so a share that is a whole number of cents comes out exact.
    const valor = Math.round((centavos(parcelavel.valor) * aberta) / item.quantidade) / 100;
    return [{ ...parcelavel, valor }];
  });
}
