import type { SituacaoPedidoVenda } from './situacoes.ts';

// The situation rules of an order and its product items (docs/int_pedidovenda.md "Situations"). The
// spec gives the values (enumSituacaoPedidoVenda) and no rule; these are the ERP's conventions as
// the project designed them, pure functions so they are tested as a table (regras.test.ts).

/** The situations an order or item takes from its quantities (the rest are set by the ERP or the WMS). */
const POR_QUANTIDADE: ReadonlySet<SituacaoPedidoVenda> = new Set([
  'AbertoTotal',
  'AbertoParcial',
  'PreparacaoAnaliseOuNf',
]);

/** Tolerance of the quantities' sums (doubles). */
export const EPS = 1e-9;

export interface QuantidadesItem {
  quantidade: number;
  quantidadeAberta: number;
  quantidadeCancelada: number;
  quantidadeAtendida: number;
  situacaoPedidoVenda: SituacaoPedidoVenda;
}

/**
 * The situation of a product item after its quantities changed: an item whose situation follows
 * its quantities becomes Cancelado when nothing is open or attended, PreparacaoAnaliseOuNf when
 * nothing is open and something was attended (it is in a pre-invoice), AbertoParcial when part was
 * cancelled or attended, AbertoTotal otherwise. Any other situation (set by the ERP) is kept.
 */
export function situacaoItem(item: QuantidadesItem): SituacaoPedidoVenda {
  if (!POR_QUANTIDADE.has(item.situacaoPedidoVenda)) return item.situacaoPedidoVenda;
  if (item.quantidadeAberta <= EPS) {
    if (item.quantidadeAtendida > EPS) return 'PreparacaoAnaliseOuNf';
    return item.quantidadeCancelada > EPS ? 'Cancelado' : 'AbertoTotal';
  }
  return item.quantidadeCancelada > EPS || item.quantidadeAtendida > EPS ? 'AbertoParcial' : 'AbertoTotal';
}

/**
 * The order's situation as its items make it: every product item Cancelado makes the order
 * Cancelado, whatever it was; an order whose situation follows its quantities (AbertoTotal,
 * AbertoParcial, PreparacaoAnaliseOuNf) becomes PreparacaoAnaliseOuNf when every live item is,
 * AbertoTotal when every live item is, and AbertoParcial otherwise. A situation the ERP set
 * (Suspenso, AguardandoIntegracaoWms, EmTransmissao, NaoFechado) is kept.
 */
export function situacaoPedido(
  atual: SituacaoPedidoVenda,
  itens: ReadonlyArray<{ situacaoPedidoVenda: SituacaoPedidoVenda }>,
): SituacaoPedidoVenda {
  if (atual === 'Cancelado') return atual;
  if (itens.length > 0 && itens.every((i) => i.situacaoPedidoVenda === 'Cancelado')) return 'Cancelado';
  if (!POR_QUANTIDADE.has(atual) || itens.length === 0) return atual;
  const vivos = itens.filter((i) => i.situacaoPedidoVenda !== 'Cancelado');
  if (vivos.every((i) => i.situacaoPedidoVenda === 'PreparacaoAnaliseOuNf')) return 'PreparacaoAnaliseOuNf';
  if (vivos.length === itens.length && vivos.every((i) => i.situacaoPedidoVenda === 'AbertoTotal'))
    return 'AbertoTotal';
  return 'AbertoParcial';
}

/**
 * The situation an item takes when the ERP sets the order's situation: an item that is not
 * Cancelado follows the order into a situation the ERP sets (Suspenso, AguardandoIntegracaoWms,
 * EmTransmissao, NaoFechado, PreparacaoAnaliseOuNf); back to an open situation, it takes the one
 * its quantities give.
 */
export function itemSegueOPedido(item: QuantidadesItem, pedido: SituacaoPedidoVenda): SituacaoPedidoVenda {
  if (item.situacaoPedidoVenda === 'Cancelado') return 'Cancelado';
  if (pedido === 'AbertoTotal' || pedido === 'AbertoParcial')
    return situacaoItem({ ...item, situacaoPedidoVenda: 'AbertoTotal' });
  return pedido;
}
