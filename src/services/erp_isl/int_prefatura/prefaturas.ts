import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { uuid5 } from '../../../platform/core/uuid5.ts';
import { atenderItemPedidoVenda, travarPedidosVenda } from '../int_pedidovenda/contract.ts';
import { E } from './errors.ts';
import type { SituacaoPreFatura } from './situacoes.ts';
import { historicoPreFatura, itemPreFatura, lotePreFatura, preFatura } from './tables.ts';

// Reading and recording a pre-invoice inside an action's transaction (docs/int_prefatura.md): the
// pre-invoice's row is locked before anything of it is changed; every change is a history row and
// an outbox event in that transaction; an item's quantity held of an order item follows it there.

export type PreFatura = typeof preFatura.$inferSelect;
export type Item = typeof itemPreFatura.$inferSelect;
export type Chave = {
  codigoEmpresa: number;
  codigoFilial: number;
  analiseEmbarque: number;
  numeroPreFatura: number;
};
export type Alteracoes = Record<string, { de: unknown; para: unknown }>;
export interface Mudanca {
  sequenciaPreFatura?: number;
  situacaoAnterior?: SituacaoPreFatura;
  situacaoNova?: SituacaoPreFatura;
  alteracoes: Alteracoes;
}

export const TOPICO = 'erp_isl/int_prefatura';
export const quem = (ctx: Ctx) =>
  ctx.caller.keyId ? `${ctx.caller.kind}:${ctx.caller.keyId}` : ctx.caller.kind;
export const chaveDe = (k: Chave): Chave => ({
  codigoEmpresa: k.codigoEmpresa,
  codigoFilial: k.codigoFilial,
  analiseEmbarque: k.analiseEmbarque,
  numeroPreFatura: k.numeroPreFatura,
});
/** The pre-invoice's id: the name-based UUID of its key (docs "Ids"). */
export const idDaPreFatura = (k: Chave) =>
  uuid5(`${TOPICO}/preFatura/${k.codigoEmpresa}/${k.codigoFilial}/${k.analiseEmbarque}/${k.numeroPreFatura}`);

const porChave = (k: Chave) =>
  and(
    eq(preFatura.codigoEmpresa, k.codigoEmpresa),
    eq(preFatura.codigoFilial, k.codigoFilial),
    eq(preFatura.analiseEmbarque, k.analiseEmbarque),
    eq(preFatura.numeroPreFatura, k.numeroPreFatura),
  );

export async function travar(ctx: Ctx, k: Chave): Promise<PreFatura | undefined> {
  const [row] = await ctx.tx
    .select()
    .from(preFatura)
    .where(ctx.store.scope(preFatura, porChave(k)))
    .for('update');
  return row;
}
export async function travarOu404(ctx: Ctx, k: Chave): Promise<PreFatura> {
  const row = await travar(ctx, k);
  if (!row) throw E.preFaturaNaoEncontrada(chaveDe(k));
  return row;
}
export async function ler(ctx: Ctx, k: Chave): Promise<PreFatura | undefined> {
  const [row] = await ctx.store.select(preFatura, porChave(k));
  return row;
}

export async function itens(ctx: Ctx, id: string): Promise<Item[]> {
  return ctx.tx
    .select()
    .from(itemPreFatura)
    .where(ctx.store.scope(itemPreFatura, eq(itemPreFatura.preFaturaId, id)))
    .orderBy(asc(itemPreFatura.sequenciaPreFatura));
}

function limpo(row: Record<string, unknown>, sem: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (
      v === null ||
      k === 'tenant' ||
      sem.includes(k) ||
      k.startsWith('created') ||
      k.startsWith('lastModified')
    )
      continue;
    out[k] = v;
  }
  return out;
}

/** The pre-invoice as events and obterPreFatura show it: header and items with their lots. */
export async function retrato(ctx: Ctx, p: PreFatura): Promise<Record<string, unknown>> {
  const list = await itens(ctx, p.id);
  const lotes = list.length
    ? await ctx.tx
        .select()
        .from(lotePreFatura)
        .where(
          ctx.store.scope(
            lotePreFatura,
            inArray(
              lotePreFatura.itemId,
              list.map((i) => i.id),
            ),
          ),
        )
        .orderBy(asc(lotePreFatura.createdDate), asc(lotePreFatura.id))
    : [];
  return {
    ...limpo(p, []),
    itens: list.map((i) => ({
      ...limpo(i, ['preFaturaId']),
      recItensLotes: lotes.filter((l) => l.itemId === i.id).map((l) => limpo(l, ['itemId', 'id'])),
    })),
  };
}

export async function registrar(
  ctx: Ctx,
  p: PreFatura,
  operacao: string,
  antes: SituacaoPreFatura,
  mudancas: Mudanca[],
) {
  if (mudancas.length === 0) return;
  const who = quem(ctx);
  const now = ctx.now();
  await ctx.store.insert(
    historicoPreFatura,
    mudancas.map((m) => ({
      preFaturaId: p.id,
      sequenciaPreFatura: m.sequenciaPreFatura ?? null,
      operacao,
      situacaoAnterior: m.situacaoAnterior ?? null,
      situacaoNova: m.situacaoNova ?? null,
      alteracoes: m.alteracoes,
      createdBy: who,
      createdDate: now,
      lastModifiedBy: who,
      lastModifiedDate: now,
    })),
  );
  const atual = await retrato(ctx, p);
  await ctx.emit(
    `${TOPICO}/${operacao === 'inserirPreFatura' ? 'preFaturaItemInserido' : 'preFaturaAlterada'}`,
    {
      operacao,
      ...chaveDe(p),
      id: p.id,
      situacaoAnterior: antes,
      situacaoPreFatura: p.situacaoPreFatura,
      alteracoes: mudancas.map((m) => ({
        ...(m.sequenciaPreFatura ? { sequenciaPreFatura: m.sequenciaPreFatura } : {}),
        ...m.alteracoes,
      })),
      preFatura: atual,
    },
  );
  if (p.situacaoPreFatura === 'AguardandoIntWMS' && antes !== 'AguardandoIntWMS')
    await ctx.emit(`${TOPICO}/preFaturaAguardandoIntWMS`, { ...chaveDe(p), id: p.id, preFatura: atual });
}

/** Locks the orders these items name, in key order, before any is attended (travarPedidosVenda). */
export async function travarPedidosDe(ctx: Ctx, p: PreFatura, itens: Item[]): Promise<void> {
  await travarPedidosVenda(
    ctx,
    itens.flatMap((i) =>
      i.numeroPedidoVenda == null
        ? []
        : [
            {
              codigoEmpresa: p.codigoEmpresa,
              codigoFilial: p.codigoFilial,
              numeroPedidoVenda: i.numeroPedidoVenda,
            },
          ],
    ),
  );
}

/**
 * Moves what `item` holds of its order item to `quantidade` (0 to let it all go, giving back the
 * balance it cancelled too); no-op for an item that names no order Ponte holds.
 */
export async function acertarPedido(
  ctx: Ctx,
  p: PreFatura,
  item: Item,
  quantidade: number,
  field: string,
  operacao: string,
): Promise<void> {
  if (item.numeroPedidoVenda == null || item.sequenciaPedidoVenda == null) return;
  const libera = quantidade === 0;
  const r = await atenderItemPedidoVenda(ctx, {
    chave: {
      codigoEmpresa: p.codigoEmpresa,
      codigoFilial: p.codigoFilial,
      numeroPedidoVenda: item.numeroPedidoVenda,
    },
    sequenciaItem: item.sequenciaPedidoVenda,
    atender: quantidade - item.quantidadePedido,
    ...(libera ? { devolverCancelado: item.saldoCancelado } : {}),
    field,
    operacao: `int_prefatura/${operacao}`,
  });
  if (!r) return;
  const set = { quantidadePedido: quantidade, ...(libera ? { saldoCancelado: 0 } : {}) };
  await ctx.store.update(itemPreFatura, set, eq(itemPreFatura.id, item.id));
  Object.assign(item, set);
}
