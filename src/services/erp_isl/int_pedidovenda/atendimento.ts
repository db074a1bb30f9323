import type { Ctx } from '../../../platform/core/declarations.ts';
import { E } from './errors.ts';
import {
  diferencas,
  gravarItem,
  itensProduto,
  publicarAlteracao,
  registrarHistorico,
  travarPedido,
} from './pedidos.ts';
import { EPS, situacaoItem } from './regras.ts';
import { seguirItens } from './situacao.ts';

// Pre-invoices attending order items (docs/int_prefatura.md "Orders"): erp_isl/int_prefatura calls
// this, through contract.ts, in its own action's transaction. The order's row is locked first, as
// every change of an order does, so attending and the ERP's changes of one order run one at a time.

export interface Atendimento {
  chave: { codigoEmpresa: number; codigoFilial: number; numeroPedidoVenda: number };
  sequenciaItem: number;
  /** Quantity the pre-invoice item attends now, more (> 0) or less (< 0) than before. */
  atender: number;
  /** Cancels what is left open of the item (the pre-invoice's cancelaSaldoPedido). */
  cancelarSaldo?: boolean;
  /** Cancelled balance given back to open (a cancelled pre-invoice undoing its cancelaSaldoPedido). */
  devolverCancelado?: number;
  /** The field of the caller's input that names the order item, for messages. */
  field: string;
  /** The caller's operation (`int_prefatura/inserirPreFatura`), in the order's history. */
  operacao: string;
}

/**
 * Locks the orders of these keys (those Ponte holds), in key order, until commit. A caller that
 * attends items of several orders takes them all first: two pre-invoices whose items name the same
 * orders in opposite orders then take turns instead of deadlocking.
 */
export async function travarPedidosVenda(ctx: Ctx, chaves: Atendimento['chave'][]): Promise<void> {
  const unicas = [...new Map(chaves.map((k) => [idChave(k), k])).entries()].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  for (const [, k] of unicas) await travarPedido(ctx, k);
}

/** An order key as one string that sorts like the key (numbers padded). */
const idChave = (k: Atendimento['chave']) =>
  [k.codigoEmpresa, k.codigoFilial, k.numeroPedidoVenda].map((n) => String(n).padStart(20, '0')).join('/');

/**
 * Applies an attendance to an order item Ponte holds; undefined when the tenant holds no order of
 * that key (nothing to keep consistent). 404 when the order is held but the item is not, 409 when
 * the order or the item is Cancelado and more would be attended, 422 past the open quantity.
 * Answers the open balance it cancelled.
 */
export async function atenderItemPedidoVenda(
  ctx: Ctx,
  a: Atendimento,
): Promise<{ saldoCancelado: number } | undefined> {
  let pedido = await travarPedido(ctx, a.chave);
  if (!pedido) return undefined;
  const antes = pedido.situacaoPedidoVenda;
  // A cancelled order is final: what a pre-invoice gives back stays cancelled with it.
  if (antes === 'Cancelado' && a.atender <= EPS) return { saldoCancelado: 0 };
  const itens = await itensProduto(ctx, pedido.id);
  const item = itens.find((i) => i.sequenciaItem === a.sequenciaItem);
  const info = { ...a.chave, sequencia: a.sequenciaItem, field: a.field };
  if (!item) throw E.itemNaoEncontrado(info);
  if (a.atender > EPS && (antes === 'Cancelado' || item.situacaoPedidoVenda === 'Cancelado'))
    throw antes === 'Cancelado' ? E.pedidoCancelado(a.chave) : E.itemCancelado(info);
  const devolver = Math.min(a.devolverCancelado ?? 0, item.quantidadeCancelada);
  let aberta = item.quantidadeAberta + devolver - a.atender;
  if (aberta < -EPS)
    throw E.atendimentoExcede({
      ...info,
      quantidade: a.atender,
      aberta: item.quantidadeAberta + devolver,
    });
  aberta = Math.max(0, aberta);
  const saldoCancelado = a.cancelarSaldo ? aberta : 0;
  const depois = {
    quantidadeAberta: aberta - saldoCancelado,
    quantidadeCancelada: item.quantidadeCancelada - devolver + saldoCancelado,
    quantidadeAtendida: Math.max(0, item.quantidadeAtendida + a.atender),
    situacaoPedidoVenda: item.situacaoPedidoVenda,
  };
  // A cancelled item given its quantities back reopens only through them (regras.ts situacaoItem).
  const base = item.situacaoPedidoVenda === 'Cancelado' ? 'AbertoTotal' : item.situacaoPedidoVenda;
  depois.situacaoPedidoVenda = situacaoItem({ ...item, ...depois, situacaoPedidoVenda: base });
  const alteracoes = diferencas(item, depois);
  if (Object.keys(alteracoes).length === 0) return { saldoCancelado };
  const situacaoAnterior = item.situacaoPedidoVenda;
  await gravarItem(ctx, item, depois);
  Object.assign(item, depois);
  const mudancas = [
    {
      sequenciaItem: item.sequenciaItem,
      situacaoAnterior,
      situacaoNova: item.situacaoPedidoVenda,
      alteracoes,
    },
  ];
  pedido = await seguirItens(ctx, pedido, itens, mudancas);
  await registrarHistorico(ctx, pedido.id, a.operacao, mudancas);
  await publicarAlteracao(ctx, a.operacao, antes, pedido, mudancas);
  return { saldoCancelado };
}
