import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { E } from './errors.ts';
import { externalTenant } from './tables/parceiros.ts';
import { tipoAgendamento as tipoTable } from './tables/tipos.ts';

// References to other records, checked where an operation takes their ids (docs/agenda.md
// "References"): the yard's plant, circuit, sequence and spot, asked to yms/patio through its PRIVATE
// query referenciasDoPatio (this service imports none of the yard's tables), and this service's own
// appointment types and partners. Each is looked up in the caller's tenant only, so another tenant's
// id gets exactly the answer of an id that exists nowhere: 422 naming the field and the id.

type NoPatio = {
  planta?: { id: string; codigo: string };
  circuito?: { id: string; codigo: string; plantaId: string; ativo: boolean };
  sequencia?: { id: string; circuitoId: string };
  vaga?: { id: string; areaId: string; plantaId: string };
};

const noPatio = (
  ctx: Ctx,
  ids: { plantaId?: string; circuitoId?: string; sequenciaId?: string; vagaId?: string },
) =>
  ctx.call<NoPatio>(
    'yms/patio/queries/referenciasDoPatio',
    Object.fromEntries(Object.entries(ids).filter(([, v]) => v)),
  );

/** The plant must exist in yms/patio (422 naming plantaId). */
export async function exigirPlanta(ctx: Ctx, plantaId: string): Promise<void> {
  const { planta } = await noPatio(ctx, { plantaId });
  if (!planta) throw E.plantaInexistente({ id: plantaId });
}

/**
 * What aguardarIntegracao records (spec 000 §3: "the circuit, initial sequence and optional initial
 * spot are recorded for later execution") must be there to execute: the circuit exists and runs at
 * the agenda's plant, the sequence is one of that circuit, and the spot is in an area of that plant,
 * where yms/patio will occupy it when the execution starts (docs/patio.md "Executions").
 */
export async function exigirEntrega(
  ctx: Ctx,
  agenda: { plantaId: string },
  input: { circuito: string; sequenciaInicial: string; vagaInicial?: string | undefined },
): Promise<void> {
  const { circuito, sequencia, vaga } = await noPatio(ctx, {
    circuitoId: input.circuito,
    sequenciaId: input.sequenciaInicial,
    ...(input.vagaInicial ? { vagaId: input.vagaInicial } : {}),
  });
  if (!circuito) throw E.circuitoInexistente({ campo: 'circuito', id: input.circuito });
  if (circuito.plantaId !== agenda.plantaId)
    throw E.circuitoOutraPlanta({
      campo: 'circuito',
      id: circuito.id,
      codigo: circuito.codigo,
      plantaCircuito: circuito.plantaId,
      planta: agenda.plantaId,
    });
  if (!sequencia) throw E.sequenciaInexistente({ campo: 'sequenciaInicial', id: input.sequenciaInicial });
  if (sequencia.circuitoId !== circuito.id)
    throw E.sequenciaOutroCircuito({
      campo: 'sequenciaInicial',
      id: sequencia.id,
      circuitoSequencia: sequencia.circuitoId,
      circuito: circuito.id,
    });
  if (!input.vagaInicial) return;
  if (!vaga) throw E.vagaInexistente({ campo: 'vagaInicial', id: input.vagaInicial });
  if (vaga.plantaId !== circuito.plantaId)
    throw E.vagaOutraPlanta({
      campo: 'vagaInicial',
      id: vaga.id,
      plantaVaga: vaga.plantaId,
      planta: circuito.plantaId,
    });
}

/** A type's plant exists, and its circuit, when it names one, exists and runs at that plant. */
export async function exigirPlantaECircuito(
  ctx: Ctx,
  tipo: { plantaId: string; circuitoId?: string | null },
): Promise<void> {
  const { planta, circuito } = await noPatio(ctx, {
    plantaId: tipo.plantaId,
    ...(tipo.circuitoId ? { circuitoId: tipo.circuitoId } : {}),
  });
  if (!planta) throw E.plantaInexistente({ id: tipo.plantaId });
  if (!tipo.circuitoId) return;
  if (!circuito) throw E.circuitoInexistente({ campo: 'circuitoId', id: tipo.circuitoId });
  if (circuito.plantaId !== tipo.plantaId)
    throw E.circuitoOutraPlanta({
      campo: 'circuitoId',
      id: circuito.id,
      codigo: circuito.codigo,
      plantaCircuito: circuito.plantaId,
      planta: tipo.plantaId,
    });
}

export type TipoRow = typeof tipoTable.$inferSelect;

/** The appointment type of this id in the tenant (422 naming tipoAgendamentoId otherwise). */
export async function tipoExistente(ctx: Ctx, id: string): Promise<TipoRow> {
  const [row] = await ctx.store.select(tipoTable, eq(tipoTable.id, id.toLowerCase()));
  if (!row) throw E.tipoInexistente({ id });
  return row;
}

/** The type exists and is one of the plant's (422 otherwise). */
export async function exigirTipoDaPlanta(ctx: Ctx, tipoId: string, plantaId: string): Promise<TipoRow> {
  const tipo = await tipoExistente(ctx, tipoId);
  if (tipo.plantaId !== plantaId)
    throw E.tipoOutraPlanta({ codigo: tipo.codigo, plantaTipo: tipo.plantaId, planta: plantaId });
  return tipo;
}

/** clienteId names a partner (externalTenant) of the tenant: the customer the load belongs to. */
export async function exigirCliente(ctx: Ctx, clienteId: string): Promise<void> {
  const [row] = await ctx.store.select(externalTenant, eq(externalTenant.id, clienteId.toLowerCase()));
  if (!row) throw E.clienteInexistente({ id: clienteId });
}

/**
 * A pre-agenda names its plant (yms/patio), its type (an active one of that plant's) and its
 * customer (a partner of the tenant). On an edit only what changed is checked: a pre-agenda saved before these
 * checks can still be edited in its other fields.
 */
export async function exigirReferenciasDaPreAgenda(
  ctx: Ctx,
  next: Record<string, unknown>,
  previous?: Record<string, unknown>,
): Promise<void> {
  const mudou = (f: string) => !previous || (next[f] ?? null) !== (previous[f] ?? null);
  if (mudou('plantaId')) await exigirPlanta(ctx, String(next.plantaId));
  if (mudou('plantaId') || mudou('tipoAgendamentoId')) {
    const tipo = await exigirTipoDaPlanta(ctx, String(next.tipoAgendamentoId), String(next.plantaId));
    if (!tipo.ativo) throw E.tipoInativo({ codigo: tipo.codigo });
  }
  if (next.clienteId && mudou('clienteId')) await exigirCliente(ctx, String(next.clienteId));
}
