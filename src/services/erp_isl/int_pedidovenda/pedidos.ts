import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { E } from './errors.ts';
import type { SituacaoPedidoVenda } from './situacoes.ts';
import { historicoPedidoVenda, itemLote, itemProduto, itemServico, pedidoVenda } from './tables.ts';

// Reading and recording an order inside an action's transaction (docs/int_pedidovenda.md): the
// order's row is locked before anything of it is read to be changed, so two changes of one order
// run one after the other; every change is a history row and an outbox event in that transaction.

export type Pedido = typeof pedidoVenda.$inferSelect;
export type ItemPro = typeof itemProduto.$inferSelect;
export type Chave = { codigoEmpresa: number; codigoFilial: number; numeroPedidoVenda: number };

export const TOPICO = 'erp_isl/int_pedidovenda';

/** The audit name of the caller, as the entity engine writes it. */
export const quem = (ctx: Ctx) =>
  ctx.caller.keyId ? `${ctx.caller.kind}:${ctx.caller.keyId}` : ctx.caller.kind;

const chaveDe = (k: Chave) => ({
  codigoEmpresa: k.codigoEmpresa,
  codigoFilial: k.codigoFilial,
  numeroPedidoVenda: k.numeroPedidoVenda,
});

/** The order of this key, its row locked until commit; undefined when the tenant has none. */
export async function travarPedido(ctx: Ctx, k: Chave): Promise<Pedido | undefined> {
  const [row] = await ctx.tx
    .select()
    .from(pedidoVenda)
    .where(
      ctx.store.scope(
        pedidoVenda,
        and(
          eq(pedidoVenda.codigoEmpresa, k.codigoEmpresa),
          eq(pedidoVenda.codigoFilial, k.codigoFilial),
          eq(pedidoVenda.numeroPedidoVenda, k.numeroPedidoVenda),
        ),
      ),
    )
    .for('update');
  return row;
}

/** The order of this key, locked; 404 when the tenant has none. */
export async function pedidoOu404(ctx: Ctx, k: Chave): Promise<Pedido> {
  const row = await travarPedido(ctx, k);
  if (!row) throw E.pedidoNaoEncontrado(chaveDe(k));
  return row;
}

export async function itensProduto(ctx: Ctx, pedidoId: string): Promise<ItemPro[]> {
  return ctx.tx
    .select()
    .from(itemProduto)
    .where(ctx.store.scope(itemProduto, eq(itemProduto.pedidoVendaId, pedidoId)))
    .orderBy(asc(itemProduto.sequenciaItem));
}

/** Drops nulls, the tenant and the audit columns: a record as events and queries show it. */
function limpo(row: Record<string, unknown>, sem: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === null || v === undefined || k === 'tenant' || sem.includes(k)) continue;
    out[k] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}
const AUDIT = ['createdBy', 'createdDate', 'lastModifiedBy', 'lastModifiedDate'];

/** The order as events and obterPedidoVenda show it: header, product items with lots, service items. */
export async function retrato(ctx: Ctx, pedido: Pedido): Promise<Record<string, unknown>> {
  const [pro, ser] = await Promise.all([
    itensProduto(ctx, pedido.id),
    ctx.tx
      .select()
      .from(itemServico)
      .where(ctx.store.scope(itemServico, eq(itemServico.pedidoVendaId, pedido.id)))
      .orderBy(asc(itemServico.sequenciaItem)),
  ]);
  const lotes = pro.length
    ? await ctx.tx
        .select()
        .from(itemLote)
        .where(
          ctx.store.scope(
            itemLote,
            inArray(
              itemLote.itemId,
              pro.map((i) => i.id),
            ),
          ),
        )
        .orderBy(asc(itemLote.createdDate), asc(itemLote.id))
    : [];
  return {
    ...limpo(pedido, AUDIT),
    itensPro: pro.map((i) => ({
      ...limpo(i, [...AUDIT, 'pedidoVendaId']),
      recItensLotes: lotes.filter((l) => l.itemId === i.id).map((l) => limpo(l, [...AUDIT, 'itemId', 'id'])),
    })),
    itensSer: ser.map((i) => limpo(i, [...AUDIT, 'pedidoVendaId'])),
  };
}

export type Alteracoes = Record<string, { de: unknown; para: unknown }>;

/** The fields of `antes` that `depois` changes, as {de, para}. */
export function diferencas(antes: Record<string, unknown>, depois: Record<string, unknown>): Alteracoes {
  const out: Alteracoes = {};
  for (const [k, v] of Object.entries(depois)) {
    if (v === undefined) continue;
    const de = antes[k] ?? null;
    if (JSON.stringify(de) !== JSON.stringify(v)) out[k] = { de, para: v };
  }
  return out;
}

export interface Mudanca {
  sequenciaItem?: number | undefined;
  situacaoAnterior?: SituacaoPedidoVenda | undefined;
  situacaoNova?: SituacaoPedidoVenda | undefined;
  alteracoes: Alteracoes;
}

/** Writes the history rows of one operation on an order (one per changed part). */
export async function registrarHistorico(ctx: Ctx, pedidoId: string, operacao: string, mudancas: Mudanca[]) {
  if (mudancas.length === 0) return;
  const usuario = quem(ctx);
  const dataHora = ctx.now();
  await ctx.store.insert(
    historicoPedidoVenda,
    mudancas.map((m) => ({
      pedidoVendaId: pedidoId,
      sequenciaItem: m.sequenciaItem ?? null,
      operacao,
      situacaoAnterior: m.situacaoAnterior ?? null,
      situacaoNova: m.situacaoNova ?? null,
      alteracoes: m.alteracoes,
      createdBy: usuario,
      createdDate: dataHora,
      lastModifiedBy: usuario,
      lastModifiedDate: dataHora,
    })),
  );
}

/**
 * The events of a change (docs "Events"): pedidoVendaAlterado with the order as it now stands and
 * what changed, and pedidoVendaAguardandoIntegracaoWms when the order entered that situation.
 */
export async function publicarAlteracao(
  ctx: Ctx,
  operacao: string,
  antes: SituacaoPedidoVenda,
  pedido: Pedido,
  mudancas: Mudanca[],
) {
  if (mudancas.length === 0) return;
  const pedidoVendaAtual = await retrato(ctx, pedido);
  await ctx.emit(`${TOPICO}/pedidoVendaAlterado`, {
    operacao,
    ...chaveDe(pedido),
    id: pedido.id,
    situacaoAnterior: antes,
    situacaoPedidoVenda: pedido.situacaoPedidoVenda,
    alteracoes: mudancas.map((m) => ({
      ...(m.sequenciaItem ? { sequenciaItem: m.sequenciaItem } : {}),
      ...m.alteracoes,
    })),
    pedidoVenda: pedidoVendaAtual,
  });
  if (pedido.situacaoPedidoVenda === 'AguardandoIntegracaoWms' && antes !== 'AguardandoIntegracaoWms') {
    await ctx.emit(`${TOPICO}/pedidoVendaAguardandoIntegracaoWms`, {
      ...chaveDe(pedido),
      id: pedido.id,
      pedidoVenda: pedidoVendaAtual,
    });
  }
}

/** Stores the header's new situation (and audit fields) when it changed. */
export async function gravarSituacaoPedido(
  ctx: Ctx,
  pedido: Pedido,
  nova: SituacaoPedidoVenda,
): Promise<Pedido> {
  if (pedido.situacaoPedidoVenda === nova) return pedido;
  const [row] = await ctx.store
    .update(
      pedidoVenda,
      { situacaoPedidoVenda: nova, lastModifiedBy: quem(ctx), lastModifiedDate: ctx.now() },
      eq(pedidoVenda.id, pedido.id),
    )
    .returning();
  return row!;
}

/** Stores an item's new quantities and situation. */
export async function gravarItem(
  ctx: Ctx,
  item: ItemPro,
  set: Partial<
    Pick<ItemPro, 'quantidadeAberta' | 'quantidadeCancelada' | 'quantidadeAtendida' | 'situacaoPedidoVenda'>
  >,
) {
  await ctx.store.update(
    itemProduto,
    { ...set, lastModifiedBy: quem(ctx), lastModifiedDate: ctx.now() },
    eq(itemProduto.id, item.id),
  );
}
