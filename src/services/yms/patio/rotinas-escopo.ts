import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { E } from './errors.ts';
import type { ExecucaoRow } from './execucao.ts';
import { execucaoEmAndamento, execucaoOf } from './execucao-consultas.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import { area, planta } from './tables/plantas.ts';
import { motorista, veiculo } from './tables/veiculos.ts';

// What a condition or command runs against (docs/patio.md "Conditions and commands"): the scope
// (escopoRotina) as sent, the scope resolved (Alcance), and the 422 a built-in answers when the scope
// lacks what it needs.

/** escopoRotina (spec 000 §6 names it without fields): what a routine runs against. */
export interface Escopo {
  execucaoCircuitoId?: string | undefined;
  agendaId?: string | undefined;
  veiculoId?: string | undefined;
  motoristaId?: string | undefined;
  plantaId?: string | undefined;
  areaId?: string | undefined;
  sequenciaCircuitoId?: string | undefined;
  ws_users?: string | undefined;
}

/** The scope resolved: the execution it names (or the vehicle's or agenda's running one) fills the gaps. */
export interface Alcance {
  escopo: Escopo;
  execucao: ExecucaoRow | undefined;
  veiculoId: string | undefined;
  motoristaId: string | undefined;
  plantaId: string | undefined;
  areaId: string | undefined;
  sequenciaCircuitoId: string | undefined;
  /** The variables sent with the request; they win over the execution's. */
  variaveis: Map<string, string>;
  /** The routine being run, for history origins and messages. */
  rotina: string;
}

export function precisa<T>(value: T | undefined, rotinaNome: string, falta: string, campo: string): T {
  if (value === undefined || value === null) throw E.escopoIncompleto({ rotina: rotinaNome, falta, campo });
  return value;
}
export const execucaoDo = (a: Alcance) =>
  precisa(a.execucao, a.rotina, 'uma execução de circuito', 'execucaoCircuitoId');
export const veiculoDo = (a: Alcance) => precisa(a.veiculoId, a.rotina, 'um veículo', 'veiculoId');

/**
 * Resolves escopoRotina: the execution named (404), or else the running one of the agenda or the
 * vehicle; every id given must exist (422 naming it) and agree with the execution's (422).
 */
export async function resolverEscopo(
  ctx: Ctx,
  escopo: Escopo,
  variaveis: Map<string, string> = new Map(),
): Promise<Alcance> {
  let execucao: ExecucaoRow | undefined;
  if (escopo.execucaoCircuitoId) execucao = await execucaoOf(ctx, escopo.execucaoCircuitoId);
  else if (escopo.agendaId) execucao = await execucaoEmAndamento(ctx, { agendaId: escopo.agendaId });
  else if (escopo.veiculoId) execucao = await execucaoEmAndamento(ctx, { veiculoId: escopo.veiculoId });
  const confere = (campo: 'veiculoId' | 'motoristaId' | 'agendaId') => {
    const dado = escopo[campo];
    const daExecucao = execucao?.[campo];
    if (dado && daExecucao && dado !== daExecucao)
      throw E.escopoDivergente({ campo, valor: dado, execucaoId: execucao!.id, daExecucao });
  };
  confere('veiculoId');
  confere('motoristaId');
  confere('agendaId');
  const existe = async (
    table: typeof veiculo | typeof motorista | typeof area | typeof planta,
    campo: string,
    id?: string,
  ) => {
    if (!id) return;
    const [row] = await ctx.store.select(table, eq(table.id, id));
    if (!row) throw E.referenceNotFound({ record: campo.replace('Id', ''), id, field: `escopo.${campo}` });
  };
  await existe(veiculo, 'veiculoId', escopo.veiculoId);
  await existe(motorista, 'motoristaId', escopo.motoristaId);
  await existe(area, 'areaId', escopo.areaId);
  await existe(planta, 'plantaId', escopo.plantaId);
  let sequenciaCircuitoId = execucao?.sequenciaAtualId ?? undefined;
  let areaDaEtapa: string | undefined;
  if (escopo.sequenciaCircuitoId) {
    const [s] = await ctx.store.select(
      sequenciaCircuito,
      eq(sequenciaCircuito.id, escopo.sequenciaCircuitoId),
    );
    if (!s)
      throw E.referenceNotFound({
        record: 'sequência',
        id: escopo.sequenciaCircuitoId,
        field: 'escopo.sequenciaCircuitoId',
      });
    sequenciaCircuitoId = s.id;
    areaDaEtapa = s.areaId;
  } else if (sequenciaCircuitoId) {
    const [s] = await ctx.store.select(sequenciaCircuito, eq(sequenciaCircuito.id, sequenciaCircuitoId));
    areaDaEtapa = s?.areaId;
  }
  const areaId = escopo.areaId ?? areaDaEtapa;
  let plantaId = escopo.plantaId;
  if (!plantaId && execucao) {
    const [c] = await ctx.store.select(circuito, eq(circuito.id, execucao.circuitoId));
    plantaId = c?.plantaId;
  }
  if (!plantaId && areaId) {
    const [a] = await ctx.store.select(area, eq(area.id, areaId));
    plantaId = a?.plantaId;
  }
  return {
    escopo,
    execucao,
    veiculoId: escopo.veiculoId ?? execucao?.veiculoId ?? undefined,
    motoristaId: escopo.motoristaId ?? execucao?.motoristaId ?? undefined,
    plantaId,
    areaId,
    sequenciaCircuitoId,
    variaveis,
    rotina: '',
  };
}
