import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { quem } from './common.ts';
import { E } from './errors.ts';
import { type ExecCtx, type ExecucaoRow, origemManual } from './execucao.ts';
import { etapaAberta, execucaoEmAndamento, ramoEmAndamento, sequenciasDe } from './execucao-consultas.ts';
import { mover, registrarEtapa } from './execucao-etapas.ts';
import { circuito } from './tables/circuitos.ts';
import { execucaoCircuito, historicoExecucaoCircuito } from './tables/execucoes.ts';
import { area, vaga } from './tables/plantas.ts';
import { motorista, veiculo } from './tables/veiculos.ts';
import { travarVeiculoMotorista } from './travas.ts';
import { vagaDoVeiculoRepetida } from './vagas.ts';

// Putting a vehicle and a driver to work (docs/patio.md "Executions"): starting an execution, a
// branch of one (ramoExecucao), and changing the driver of one. A vehicle and a driver are in one
// running execution at most: each start decides under their lock (travas.ts).

/** 409 naming the running execution, when the vehicle or the driver is already in one. */
async function livreParaExecutar(ctx: ExecCtx, veiculoId: string | null, motoristaId: string | null) {
  if (veiculoId) {
    const atual = await execucaoEmAndamento(ctx, { veiculoId });
    if (atual) {
      const [v] = await ctx.store.select(veiculo, eq(veiculo.id, veiculoId));
      throw E.veiculoEmExecucao({ placa: v?.placa ?? veiculoId, execucaoId: atual.id });
    }
  }
  if (motoristaId) {
    const atual = await execucaoEmAndamento(ctx, { motoristaId });
    if (atual) {
      const [m] = await ctx.store.select(motorista, eq(motorista.id, motoristaId));
      throw E.motoristaEmExecucao({ nome: m?.nome ?? motoristaId, execucaoId: atual.id });
    }
  }
}

/** A unique-index violation of the running-execution indexes becomes the 409 it stands for. */
function conflitoDeExecucao(err: unknown, veiculoId: string | null, motoristaId: string | null): never {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const code = e.cause?.code ?? e.code;
  const constraint = e.cause?.constraint ?? e.constraint ?? '';
  if (code === '23505' && constraint.includes('motorista'))
    throw E.motoristaEmExecucao({
      nome: motoristaId ?? '?',
      execucaoId: '(iniciada agora por outra chamada)',
    });
  if (code === '23505')
    throw E.veiculoEmExecucao({ placa: veiculoId ?? '?', execucaoId: '(iniciada agora por outra chamada)' });
  throw err;
}

/** Inserts a running execution at its initial sequence, with the INICIADA step of its history. */
async function novaExecucao(
  ctx: ExecCtx,
  values: Pick<
    typeof execucaoCircuito.$inferInsert,
    | 'circuitoId'
    | 'veiculoId'
    | 'motoristaId'
    | 'composicaoVeiculoId'
    | 'agendaId'
    | 'execucaoPaiId'
    | 'ramoEtapaN'
  >,
  inicialId: string,
  origem: string,
): Promise<ExecucaoRow> {
  const now = ctx.now();
  const who = quem(ctx as Ctx);
  const [row] = (await ctx.store
    .insert(execucaoCircuito, [
      {
        ...values,
        sequenciaAtualId: inicialId,
        sequenciaAtualDesde: now,
        situacao: 'EXECUTANDO',
        iniciadaEm: now,
        createdBy: who,
        lastModifiedBy: who,
      },
    ])
    .returning()) as [ExecucaoRow];
  await registrarEtapa(ctx, row.id, { sequenciaCircuitoId: inicialId, acao: 'INICIADA', origem }, now);
  return row;
}

/** Occupies one given spot for the vehicle (the agenda's initial spot), locking it; 422 unless free. */
async function ocuparVaga(
  ctx: ExecCtx,
  vagaId: string,
  veiculo: { id: string; placa: string },
  plantaId: string,
) {
  const veiculoId = veiculo.id;
  const [v] = await ctx.tx
    .select()
    .from(vaga)
    .where(ctx.store.scope(vaga, eq(vaga.id, vagaId)))
    .for('update');
  if (v?.veiculoId === veiculoId) return;
  if (!v || v.ocupada || !v.ativo || v.bloqueio) throw E.vagaIndisponivel({ id: vagaId });
  const [a] = await ctx.store.select(area, eq(area.id, v.areaId));
  if (a?.plantaId !== plantaId)
    throw E.areaDeOutraPlanta({ areaId: v.areaId, field: 'vagaInicialId', plantaId });
  const [atual] = await ctx.store.select(vaga, eq(vaga.veiculoId, veiculoId));
  if (atual)
    throw E.veiculoJaEmVaga({
      placa: veiculo.placa,
      rua: atual.rua,
      numero: atual.numero,
      areaId: atual.areaId,
    });
  try {
    await ctx.store.update(
      vaga,
      {
        ocupada: true,
        veiculoId,
        ocupadaEm: ctx.now(),
        lastModifiedBy: 'patio',
        lastModifiedDate: ctx.now(),
      },
      eq(vaga.id, vagaId),
    );
  } catch (err) {
    // The vehicle took a spot in an area at the same time (alocarVaga): the unique index keeps one.
    vagaDoVeiculoRepetida(err, veiculo.placa);
  }
}

export interface InicioExecucao {
  circuitoId: string;
  agendaId?: string | undefined;
  veiculoId: string;
  motoristaId?: string | undefined;
  composicaoVeiculoId?: string | undefined;
  /** The sequence to start at; default the circuit's first. */
  sequenciaInicialId?: string | undefined;
  /** A spot the vehicle takes now (the agenda's initial spot). */
  vagaInicialId?: string | undefined;
  /** Who starts it (history origem); default MANUAL:<caller>. */
  origem?: string | undefined;
}

/**
 * Starts an execution of a circuit for a vehicle (and driver, agenda), at its first or the given
 * sequence, in the caller's transaction (yms/agenda's informarIntegracao starts one through it).
 * The circuit must exist and be active and have sequences; a vehicle or a driver already in a
 * running execution is 409 (a unique index keeps two concurrent starts from both succeeding).
 */
export async function iniciarExecucao(ctx: ExecCtx, input: InicioExecucao): Promise<ExecucaoRow> {
  // FOR KEY SHARE: a delete of the circuit (its row FOR UPDATE, then its sequences) waits for this
  // start, or this read waits for the delete and finds nothing (404); never a circuit read before
  // the delete with its sequences read after it.
  const [c] = await ctx.tx
    .select()
    .from(circuito)
    .where(ctx.store.scope(circuito, eq(circuito.id, input.circuitoId)))
    .for('key share');
  if (!c) throw E.circuitoNotFound({ id: input.circuitoId });
  if (!c.ativo) throw E.circuitoInativo({ codigo: c.codigo, id: c.id });
  const sequencias = await sequenciasDe(ctx, c.id);
  if (sequencias.length === 0) throw E.circuitoSemSequencias({ codigo: c.codigo, id: c.id });
  const inicial = input.sequenciaInicialId
    ? sequencias.find((s) => s.id === input.sequenciaInicialId)
    : sequencias[0];
  if (!inicial)
    throw E.sequenciaDeOutroCircuito({
      id: String(input.sequenciaInicialId),
      field: 'sequenciaInicialId',
      circuitoId: c.id,
    });
  const [v] = await ctx.store.select(veiculo, eq(veiculo.id, input.veiculoId));
  if (!v) throw E.veiculoNotFound({ id: input.veiculoId });
  if (input.motoristaId) {
    const [m] = await ctx.store.select(motorista, eq(motorista.id, input.motoristaId));
    if (!m) throw E.motoristaNotFound({ id: input.motoristaId });
  }
  const motoristaId = input.motoristaId ?? null;
  // Decided under the lock of the vehicle and the driver (travas.ts): a concurrent start of either,
  // here or through yms/agenda, waits until this transaction ends and then sees this execution.
  await travarVeiculoMotorista(ctx, { veiculoId: v.id, motoristaId });
  await livreParaExecutar(ctx, v.id, motoristaId);
  let row: ExecucaoRow;
  try {
    row = await novaExecucao(
      ctx,
      {
        circuitoId: c.id,
        veiculoId: v.id,
        motoristaId,
        composicaoVeiculoId: input.composicaoVeiculoId ?? null,
        agendaId: input.agendaId ?? null,
      },
      inicial.id,
      input.origem ?? origemManual(ctx),
    );
  } catch (err) {
    conflitoDeExecucao(err, v.placa, motoristaId);
  }
  if (input.vagaInicialId) await ocuparVaga(ctx, input.vagaInicialId, v, c.plantaId);
  return row;
}

/** Changes the driver of a running execution, with a history row; 409 if the new one is in another. */
export async function trocarMotorista(
  ctx: ExecCtx,
  row: ExecucaoRow,
  motoristaNovoId: string,
  origem: string,
): Promise<ExecucaoRow> {
  const [m] = await ctx.store.select(motorista, eq(motorista.id, motoristaNovoId));
  if (!m) throw E.motoristaNotFound({ id: motoristaNovoId });
  if (row.motoristaId === motoristaNovoId) return row;
  // The new driver is put to work: under its lock, as every start (travas.ts).
  await travarVeiculoMotorista(ctx, { motoristaId: motoristaNovoId });
  await livreParaExecutar(ctx, null, motoristaNovoId);
  let updated: ExecucaoRow;
  try {
    updated = await mover(ctx, row, { motoristaId: motoristaNovoId });
  } catch (err) {
    conflitoDeExecucao(err, null, m.nome);
  }
  const quando = ctx.now();
  await ctx.store.insert(historicoExecucaoCircuito, [
    {
      execucaoCircuitoId: row.id,
      sequenciaCircuitoId: row.sequenciaAtualId,
      acao: 'MOTORISTA_ALTERADO',
      origem,
      entradaEm: quando,
      saidaEm: quando,
    },
  ]);
  return updated;
}

/**
 * Branches a running execution into a sub-circuit of its plant (ramoExecucao): a child execution of
 * the same vehicle, driver and agenda starts at the sub-circuit's first sequence, tied to the
 * parent's current step visit; the parent records RAMIFICOU and stays at its step until the branch
 * finishes (then it moves on) or is cancelled (then it stays). One running branch at a time (409).
 */
export async function iniciarRamo(
  ctx: ExecCtx,
  pai: ExecucaoRow,
  subCircuitoId: string,
  origem: string,
): Promise<ExecucaoRow> {
  if (pai.situacao !== 'EXECUTANDO') throw E.execucaoNaoEmAndamento({ id: pai.id, situacao: pai.situacao });
  const emCurso = await ramoEmAndamento(ctx, pai);
  if (emCurso) throw E.ramoEmAndamento({ id: pai.id, ramoId: emCurso.id });
  const [principal] = await ctx.store.select(circuito, eq(circuito.id, pai.circuitoId));
  const [sub] = await ctx.store.select(circuito, eq(circuito.id, subCircuitoId));
  if (!sub || sub.id === pai.circuitoId || sub.plantaId !== principal?.plantaId)
    throw E.subCircuitoInvalido({ id: subCircuitoId });
  if (!sub.ativo) throw E.circuitoInativo({ codigo: sub.codigo, id: sub.id });
  const [inicial] = await sequenciasDe(ctx, sub.id);
  if (!inicial) throw E.circuitoSemSequencias({ codigo: sub.codigo, id: sub.id });
  const n = await etapaAberta(ctx, pai.id);
  const ramo = await novaExecucao(
    ctx,
    {
      circuitoId: sub.id,
      veiculoId: pai.veiculoId,
      motoristaId: pai.motoristaId,
      composicaoVeiculoId: pai.composicaoVeiculoId,
      agendaId: pai.agendaId,
      execucaoPaiId: pai.id,
      ramoEtapaN: n ?? null,
    },
    inicial.id,
    origem,
  );
  const now = ramo.iniciadaEm;
  await ctx.store.insert(historicoExecucaoCircuito, [
    {
      execucaoCircuitoId: pai.id,
      sequenciaCircuitoId: pai.sequenciaAtualId,
      acao: 'RAMIFICOU',
      origem,
      entradaEm: now,
      saidaEm: now,
    },
  ]);
  return ramo;
}
