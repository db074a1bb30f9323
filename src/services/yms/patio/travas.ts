import { asc, inArray } from 'drizzle-orm';
import { advisoryLocks, lockName } from '../../../platform/core/db/locks.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { area } from './tables/plantas.ts';

// The lock of a vehicle's and a driver's running state, published by yms/patio (the owner of
// vehicles and drivers, in its contract.ts) for every path that puts one of them to work: yms/agenda's
// iniciarAgendamento (with or without a circuit), patio's start of a circuit execution (by hand, for
// an agenda, by the agenda's start job) and a driver taking over a running execution. Each path
// checks "is it already running?" and then writes; DESIGN.md "Persistence" wants that decided under
// a lock, never read-then-write across transactions. A running execution is also kept unique by
// partial unique indexes, but an agenda running without a circuit has no row such an index could
// hold, so the check itself must be serialized (docs/platform.md "Contended decisions").

/** The vehicle and the driver about to be put to work; either may be absent. */
export interface Ocupantes {
  veiculoId?: string | null | undefined;
  motoristaId?: string | null | undefined;
}

/**
 * Takes the transaction-scoped advisory locks of the vehicle and the driver, in the caller's
 * transaction, waiting for any other transaction that holds one of them to end. Callers take it
 * before they read whether the vehicle or driver is free, so the read sees every start that
 * committed before. The locks are 'yms/patio/veiculo' and 'yms/patio/motorista' of the tenant and
 * the id (core/db/locks.ts), always taken in one statement in sorted order, so two paths that lock
 * both never deadlock.
 * Taking a lock the transaction already holds again is free: nested paths (an agenda's start
 * calling the yard's) just call it again.
 */
export async function travarVeiculoMotorista(ctx: Pick<Ctx, 'tx' | 'store'>, o: Ocupantes): Promise<void> {
  const chaves = [
    o.veiculoId ? lockName('yms/patio/veiculo', ctx.store.tenant, o.veiculoId.toLowerCase()) : undefined,
    o.motoristaId
      ? lockName('yms/patio/motorista', ctx.store.tenant, o.motoristaId.toLowerCase())
      : undefined,
  ].filter((k): k is string => k !== undefined);
  await advisoryLocks(ctx.tx, chaves);
}

/**
 * Locks the areas' rows (FOR NO KEY UPDATE: a reference to the area, as an arrival's, does not
 * wait on it), in id order so that two transactions locking the same areas cannot deadlock. The
 * arrivals into an area, its queue and the edits of its spots are decided under it (fila.ts).
 */
export async function travarAreas(
  ctx: Pick<Ctx, 'tx' | 'store'>,
  ids: Array<string | null | undefined>,
): Promise<void> {
  const unicos = [...new Set(ids.filter((id): id is string => !!id))].sort();
  if (unicos.length === 0) return;
  await ctx.tx
    .select({ id: area.id })
    .from(area)
    .where(ctx.store.scope(area, inArray(area.id, unicos)))
    .orderBy(asc(area.id))
    .for('no key update');
}
