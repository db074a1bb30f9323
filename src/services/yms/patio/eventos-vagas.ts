import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { execucaoEmAndamento } from './execucao-consultas.ts';
import { entregarVagas, esperar, filaVazia, itemDoVeiculo, sairDaFila, temVagas } from './fila.ts';
import { vaga } from './tables/plantas.ts';
import { travarAreas } from './travas.ts';
import { liberarVaga, tomarVagaLivre } from './vagas.ts';

// A yard event's spot and queue (docs/patio.md "Yard events", "Queues"), decided under the locks of
// the areas involved (travas.ts). What the vehicle holds is read under those locks: another
// transaction's hand-over (fila.ts entregarVagas, under its area's lock) may give it a spot between
// a read and the lock, and a repeated report of the same truck may have taken its spot or place.

/** What a report says of the vehicle: who, when, by which device. */
export interface Relato {
  veiculo: { id: string; placa: string };
  quando: Date;
  origem: string | null;
}

/**
 * The vehicle's spot and queue place, read under the locks of their areas and of `alem` (the area
 * it is reported into): read, lock what was read, read again, until what is read is all locked.
 * Locks already held are taken again for free; a second round (a hand-over into another area in
 * between) is rare.
 */
async function vagaEFilaTravadas(ctx: Ctx, veiculoId: string, alem?: string) {
  const travadas = new Set<string>();
  for (;;) {
    const [atual] = await ctx.store.select(vaga, eq(vaga.veiculoId, veiculoId));
    const item = await itemDoVeiculo(ctx, veiculoId);
    const faltam = [atual?.areaId, item?.areaId, alem].filter(
      (id): id is string => !!id && !travadas.has(id),
    );
    if (faltam.length === 0) return { atual, item };
    await travarAreas(ctx, [...travadas, ...faltam]);
    for (const id of faltam) travadas.add(id);
  }
}

/**
 * The vehicle leaves its spot and its queue (out of the yard), under the locks of their areas:
 * the spot goes to the first vehicle waiting there.
 */
export async function sairDeVagaEFila(ctx: Ctx, veiculoId: string) {
  const { atual, item } = await vagaEFilaTravadas(ctx, veiculoId);
  if (item) await sairDaFila(ctx, veiculoId);
  if (atual && (await liberarVaga(ctx, veiculoId))) await entregarVagas(ctx, atual.areaId);
}

/**
 * The spot of a vehicle reported into an area (docs/patio.md "Queues"): it keeps the spot or the
 * place in the queue it holds there; otherwise it leaves its spot and its queue elsewhere, and in
 * an area with spots it takes the first free one, or, with none free or others waiting, joins the
 * area's queue. A report is never refused for lack of room. Decided under the locks of the areas
 * involved, taken in one order. Answers whether the vehicle waits in the area's queue.
 */
export async function ocuparOuEsperar(ctx: Ctx, f: Relato, areaId: string, motoristaId: string | null) {
  // The area itself is locked too: repeated reports of one truck into it take turns, and the later
  // ones find the spot or the place the first one took.
  const { atual, item } = await vagaEFilaTravadas(ctx, f.veiculo.id, areaId);
  if (atual?.areaId === areaId) return false;
  if (item?.areaId === areaId) return true;
  const comVagas = await temVagas(ctx, areaId);
  if (item) await sairDaFila(ctx, f.veiculo.id);
  if (atual && (await liberarVaga(ctx, f.veiculo.id))) await entregarVagas(ctx, atual.areaId);
  if (!comVagas) return false;
  // Spots freed without a hand-over (a spot created, unblocked) go to those already waiting first.
  await entregarVagas(ctx, areaId);
  if (
    (await filaVazia(ctx, areaId)) &&
    (await tomarVagaLivre(ctx, areaId, f.veiculo.id, f.veiculo.placa, { esperar: true }))
  )
    return false;
  const exec = await execucaoEmAndamento(ctx, { veiculoId: f.veiculo.id });
  await esperar(ctx, {
    areaId,
    veiculoId: f.veiculo.id,
    placa: f.veiculo.placa,
    motoristaId: motoristaId ?? exec?.motoristaId ?? null,
    execucaoCircuitoId: exec?.id ?? null,
    agendaId: exec?.agendaId ?? null,
    origem: f.origem,
    desde: f.quando,
  });
  return true;
}
