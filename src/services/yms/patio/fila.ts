import { and, asc, count, eq, gt, lt, sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { query } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { FilaItem } from './automacao-schemas.ts';
import { E } from './errors.ts';
import { filaItem } from './tables/filas.ts';
import { area, vaga } from './tables/plantas.ts';
import { travarAreas } from './travas.ts';
import { liberarVaga, tomarVagaLivre, type VagaRow } from './vagas.ts';

// The queues of the yard (spec 000 §2.4 filaItem, §4.3 wsFilaItem; docs/patio.md "Queues"). A
// vehicle reported into an area whose spots are all taken waits in the area's queue, first come
// first served; when a spot of the area frees, the first one waiting takes it in the same
// transaction. Every change of a queue is published as yms/patio/wsFilaItem.
//
// Who waits and who gets a spot is decided under the area's row lock (travarAreas): the arrivals
// into an area, the spots it frees and its queue are serialized there, so a spot freed while a
// truck joins the queue cannot be missed, tickets (n) follow the order in which the lock was
// granted, and the unique indexes (one ticket per area, one queue per vehicle) are the last wall.

/** What the queue functions need of a context: the caller's transaction, a clock, the outbox. */
export type FilaCtx = Pick<Ctx, 'tx' | 'store' | 'now' | 'emit' | 'transactionLocal'>;
type ItemRow = typeof filaItem.$inferSelect;
type Operacao = 'CRIADO' | 'ALTERADO' | 'REMOVIDO';

/** A vehicle that left a queue with a spot: its step automation runs as for an arrival. */
export interface Entrega {
  veiculoId: string;
  areaId: string;
  vagaId: string;
  quando: Date;
}

/**
 * Spots handed on in a transaction whose arrival automation has not run yet (rotinas-etapas.ts
 * atenderEntregas runs it): a spot may be freed deep inside a routine's command, which cannot
 * reach the automation without an import cycle.
 */
const PENDENTES = Symbol('yms/patio: entregas pendentes');
const pendentes = (ctx: Pick<Ctx, 'transactionLocal'>) =>
  ctx.transactionLocal(PENDENTES, (): Entrega[] => []);

/** Takes the spots handed on in the context's transaction that await their automation. */
export function tomarEntregas(ctx: Pick<Ctx, 'transactionLocal'>): Entrega[] {
  return pendentes(ctx).splice(0);
}

/** Whether the area has spots at all (an area without spots has no queue). */
export async function temVagas(ctx: FilaCtx, areaId: string): Promise<boolean> {
  const [row] = await ctx.tx
    .select({ id: vaga.id })
    .from(vaga)
    .where(ctx.store.scope(vaga, eq(vaga.areaId, areaId)))
    .limit(1);
  return !!row;
}

/** The queue item of the vehicle, if it waits somewhere. */
export async function itemDoVeiculo(ctx: FilaCtx, veiculoId: string): Promise<ItemRow | undefined> {
  const [row] = await ctx.store.select(filaItem, eq(filaItem.veiculoId, veiculoId));
  return row;
}

/** The area's queue, first first. */
const itensDa = (ctx: FilaCtx, areaId: string, depoisDe?: number) =>
  ctx.tx
    .select()
    .from(filaItem)
    .where(
      ctx.store.scope(
        filaItem,
        and(eq(filaItem.areaId, areaId), depoisDe === undefined ? undefined : gt(filaItem.n, depoisDe)),
      ),
    )
    .orderBy(asc(filaItem.n));

/** Whether nobody waits in the area's queue. */
export async function filaVazia(ctx: FilaCtx, areaId: string): Promise<boolean> {
  return (await itensDa(ctx, areaId).limit(1)).length === 0;
}

/** The queue item in the filaItem shape. */
function filaItemDe(row: ItemRow, posicao: number) {
  const out: Record<string, unknown> = {
    id: row.id,
    posicao,
    placa: row.placa,
    veiculoId: row.veiculoId,
    desde: row.desde.toISOString(),
  };
  if (row.motoristaId) out.motoristaId = row.motoristaId;
  if (row.agendaId) out.agendaId = row.agendaId;
  if (row.execucaoCircuitoId) out.execucaoCircuitoId = row.execucaoCircuitoId;
  return out;
}

/** Publishes a change of the area's queue to the area's recipients (every console when none). */
async function publicar(ctx: FilaCtx, operacao: Operacao, itens: Array<[ItemRow, number]>) {
  if (itens.length === 0) return;
  const [a] = await ctx.store.select(area, eq(area.id, itens[0]![0].areaId));
  const wsUsers = a?.ws_users?.trim();
  for (const [row, posicao] of itens)
    await ctx.emit('yms/patio/wsFilaItem', {
      operacao,
      fila: row.areaId,
      filaItem: filaItemDe(row, posicao),
      ...(wsUsers ? { ws_users: wsUsers } : {}),
    });
}

/**
 * The vehicle joins the area's queue, last. The caller holds the area's lock (travarAreas): the
 * ticket is the area's next number, taken in the insert itself.
 */
export async function esperar(
  ctx: FilaCtx,
  item: Omit<typeof filaItem.$inferInsert, 'tenant' | 'id' | 'n'>,
): Promise<ItemRow> {
  const proximo = sql`(select coalesce(max(f.n), 0) + 1 from patio_fila_item f
    where f.tenant = current_setting('ponte.tenant') and f.area_id = ${item.areaId})`;
  const [row] = await ctx.store.insert(filaItem, [{ ...item, n: proximo as never }]).returning();
  const [antes] = await ctx.tx
    .select({ n: count() })
    .from(filaItem)
    .where(ctx.store.scope(filaItem, and(eq(filaItem.areaId, item.areaId), lt(filaItem.n, row!.n))));
  await publicar(ctx, 'CRIADO', [[row!, (antes?.n ?? 0) + 1]]);
  return row!;
}

/** Takes the item out of its queue: REMOVIDO for it, ALTERADO for each one behind (one place up). */
async function remover(ctx: FilaCtx, row: ItemRow): Promise<void> {
  await ctx.store.delete(filaItem, eq(filaItem.id, row.id));
  const [antes] = await ctx.tx
    .select({ n: count() })
    .from(filaItem)
    .where(ctx.store.scope(filaItem, and(eq(filaItem.areaId, row.areaId), lt(filaItem.n, row.n))));
  const posicao = (antes?.n ?? 0) + 1;
  await publicar(ctx, 'REMOVIDO', [[row, posicao]]);
  const atras = await itensDa(ctx, row.areaId, row.n);
  await publicar(
    ctx,
    'ALTERADO',
    atras.map((r, i) => [r, posicao + i]),
  );
}

/**
 * The vehicle leaves the queue it waits in, if any (reported in another area, out of the yard).
 * The caller holds that area's lock.
 */
export async function sairDaFila(ctx: FilaCtx, veiculoId: string): Promise<ItemRow | undefined> {
  const row = await itemDoVeiculo(ctx, veiculoId);
  if (row) await remover(ctx, row);
  return row;
}

/**
 * Hands the area's free spots to the vehicles first in its queue, one by one, in the caller's
 * transaction (which holds the area's lock). A vehicle that meanwhile holds a spot elsewhere (a
 * routine gave it one) no longer waits: it leaves the queue. The vehicles served are kept for
 * their arrival automation (tomarEntregas).
 */
export async function entregarVagas(ctx: FilaCtx, areaId: string): Promise<Entrega[]> {
  const entregues: Entrega[] = [];
  for (;;) {
    const [primeiro] = await itensDa(ctx, areaId).limit(1);
    if (!primeiro) break;
    const [outra] = await ctx.store.select(vaga, eq(vaga.veiculoId, primeiro.veiculoId));
    if (outra) {
      await remover(ctx, primeiro);
      continue;
    }
    const v = await tomarVagaLivre(ctx, areaId, primeiro.veiculoId, primeiro.placa, { esperar: true });
    if (!v) break;
    await remover(ctx, primeiro);
    entregues.push({ veiculoId: primeiro.veiculoId, areaId, vagaId: v.id, quando: ctx.now() });
  }
  pendentes(ctx).push(...entregues);
  return entregues;
}

/**
 * Frees the vehicle's spot, if any, under its area's lock, and hands it to the first vehicle
 * waiting there. Returns the spot freed.
 */
export async function liberarVagaDoVeiculo(ctx: FilaCtx, veiculoId: string): Promise<VagaRow | undefined> {
  const [atual] = await ctx.store.select(vaga, eq(vaga.veiculoId, veiculoId));
  if (!atual) return undefined;
  await travarAreas(ctx, [atual.areaId]);
  const livre = await liberarVaga(ctx, veiculoId);
  if (livre) await entregarVagas(ctx, livre.areaId);
  return livre;
}

/**
 * Hands on the free spots of every queue of the plant: spots freed without a hand-over that did not
 * go through the vaga entity (imports) go to those waiting (reprocessarRotinasPlanta).
 */
export async function entregarVagasDaPlanta(ctx: FilaCtx, plantaId: string): Promise<void> {
  const areas = await ctx.tx
    .selectDistinct({ id: filaItem.areaId })
    .from(filaItem)
    .innerJoin(area, and(eq(area.tenant, filaItem.tenant), eq(area.id, filaItem.areaId)))
    .where(ctx.store.scope(filaItem, eq(area.plantaId, plantaId)));
  const ids = areas.map((a) => a.id).sort();
  await travarAreas(ctx, ids);
  for (const id of ids) await entregarVagas(ctx, id);
}

const Uuid = (description: string) => Type.String({ format: 'uuid', description });

export const filas = {
  buscarFilaArea: query({
    description:
      'The queue of an area: the vehicles reported into it while its spots were all taken, first first, ' +
      'with their position, plate and since when they wait. fila is the queue id (the area id)',
    get: true,
    input: Type.Object({ areaId: Uuid('the area') }),
    output: Type.Object({
      fila: Type.String({ description: 'the queue id: the area id' }),
      content: Type.Array(FilaItem),
    }),
    handler: async (ctx, input) => {
      const [a] = await ctx.store.select(area, eq(area.id, input.areaId));
      if (!a) throw E.areaNotFound({ id: input.areaId });
      const rows = await itensDa(ctx, a.id);
      return { fila: a.id, content: rows.map((r, i) => filaItemDe(r, i + 1)) as never };
    },
  }),
};
