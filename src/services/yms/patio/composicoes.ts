import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Tx } from '../../../platform/core/db/database.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { E } from './errors.ts';
import { composicaoVeiculo, veiculo } from './tables/veiculos.ts';

// Which vehicle may take which place of a composition (docs/patio.md "Compositions"). The spec shows
// no field of composicaoVeiculo or veiculo; what decides is this project's vehicle category
// (veiculo.tipoVeiculo), which says what pulls and what is pulled, and no more: a trailer or
// semi-trailer has no engine, so it is never the head (cavaloId); a tractor, a truck or a utility
// vehicle moves by itself, so it is never a trailer (reboqueIds). OUTRO says neither and takes
// either place. Rules the category does not give (a semi-trailer behind a truck, how many trailers
// a tractor may pull, axles and weights) are not invented here.

export type Posicao = 'cavalo' | 'reboque';

/** Categories that move by themselves: the head of a composition, never a trailer. */
const TRACIONA: ReadonlySet<string> = new Set(['CAVALO_MECANICO', 'CAMINHAO', 'UTILITARIO']);
/** Categories without an engine: a trailer, never the head. */
const REBOCADO: ReadonlySet<string> = new Set(['REBOQUE', 'SEMIRREBOQUE']);

/** Whether a vehicle of category `tipo` cannot take `posicao` in a composition. */
export const foraDePosicao = (tipo: string, posicao: Posicao): boolean =>
  posicao === 'cavalo' ? REBOCADO.has(tipo) : TRACIONA.has(tipo);

export interface Peca {
  id: string;
  placa: string;
  tipoVeiculo: string;
  bloqueado: boolean;
}

/** 422 for the first part out of its place: the head, then the trailers in coupling order. */
export function conferirPosicoes(cavalo: Peca, reboques: Peca[]): void {
  if (foraDePosicao(cavalo.tipoVeiculo, 'cavalo'))
    throw E.cavaloRebocado({ placa: cavalo.placa, tipo: cavalo.tipoVeiculo });
  reboques.forEach((r, i) => {
    if (foraDePosicao(r.tipoVeiculo, 'reboque'))
      throw E.reboqueTracionado({ i, placa: r.placa, tipo: r.tipoVeiculo });
  });
}

/** Every place the vehicles `ids` hold in the tenant's compositions. */
async function lugaresDoVeiculo(
  tx: Tx,
  tenant: string,
  ids: string[],
): Promise<Array<{ composicaoId: string; veiculoId: string; posicao: Posicao }>> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({
      id: composicaoVeiculo.id,
      cavaloId: composicaoVeiculo.cavaloId,
      reboqueIds: composicaoVeiculo.reboqueIds,
    })
    .from(composicaoVeiculo)
    .where(
      and(
        eq(composicaoVeiculo.tenant, tenant),
        or(
          inArray(composicaoVeiculo.cavaloId, ids),
          sql`${composicaoVeiculo.reboqueIds} && ${sql.param(ids)}::uuid[]`,
        ),
      ),
    )
    .orderBy(composicaoVeiculo.id);
  return rows.flatMap((c) =>
    ids.flatMap((id) => [
      ...(c.cavaloId === id ? [{ composicaoId: c.id, veiculoId: id, posicao: 'cavalo' as const }] : []),
      ...(c.reboqueIds.includes(id)
        ? [{ composicaoId: c.id, veiculoId: id, posicao: 'reboque' as const }]
        : []),
    ]),
  );
}

/**
 * The vehicle entity's rule: a change of category that the vehicle's place in a composition does not
 * take is 422 naming the composition. The caller holds the vehicle's row lock (the entity's update),
 * and a composition's write reads its parts FOR SHARE: one waits for the other, so a composition
 * written meanwhile is seen here, or sees the new category.
 */
export async function conferirNovaCategoria(
  ctx: Ctx,
  id: string,
  placa: string,
  tipo: string,
): Promise<void> {
  const impedido = (await lugaresDoVeiculo(ctx.tx, ctx.store.tenant, [id])).find((l) =>
    foraDePosicao(tipo, l.posicao),
  );
  if (impedido)
    throw E.categoriaEmComposicao({ placa, tipo, posicao: impedido.posicao, id: impedido.composicaoId });
}

/**
 * The Veiculo import's rule, for one batch: the existing vehicles of these plates, locked FOR UPDATE
 * (as the entity's update locks its row), and for each plate whose category changes to one its place
 * in a composition does not take, that composition and place.
 */
export async function lugaresImpedidos(
  tx: Tx,
  tenant: string,
  novos: Map<string, string>,
): Promise<Map<string, { composicaoId: string; posicao: Posicao }>> {
  if (novos.size === 0) return new Map();
  const existentes = await tx
    .select({ id: veiculo.id, placa: veiculo.placa, tipoVeiculo: veiculo.tipoVeiculo })
    .from(veiculo)
    .where(and(eq(veiculo.tenant, tenant), inArray(veiculo.placa, [...novos.keys()])))
    .orderBy(veiculo.id)
    .for('update');
  const mudam = existentes.filter((v) => novos.get(v.placa) !== v.tipoVeiculo);
  const placaDe = new Map(mudam.map((v) => [v.id, v.placa]));
  const impedidos = new Map<string, { composicaoId: string; posicao: Posicao }>();
  for (const l of await lugaresDoVeiculo(tx, tenant, [...placaDe.keys()])) {
    const placa = placaDe.get(l.veiculoId)!;
    if (!impedidos.has(placa) && foraDePosicao(novos.get(placa)!, l.posicao))
      impedidos.set(placa, { composicaoId: l.composicaoId, posicao: l.posicao });
  }
  return impedidos;
}
