import { and, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.ts';
import { DateTime, Enum, Record as SpecRecord, Type } from '../../../platform/schema.ts';
import { quem } from './common.ts';
import { E } from './errors.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import {
  execucaoCircuito,
  execucaoCircuitoImagem,
  execucaoCircuitoVariavel,
  historicoExecucaoCircuito,
} from './tables/execucoes.ts';
import { area, vaga } from './tables/plantas.ts';
import { motorista, veiculo } from './tables/veiculos.ts';
import { travarVeiculoMotorista } from './travas.ts';
import { vagaDoVeiculoRepetida } from './vagas.ts';

// The circuit execution record and its rules (docs/patio.md "Executions"): starting one, moving it
// through its sequences (advance, revert, finish, cancel) with a history row per step, and reading it
// in the execucaoCircuito shape. These run in the caller's transaction; the operations over them are
// in execucoes.ts, the yard events that move them in eventos.ts.

export type ExecucaoRow = typeof execucaoCircuito.$inferSelect;
/** What the execution functions need of a context: the caller's transaction, as its tenant, a clock and who calls. */
export type ExecCtx = Pick<Ctx, 'tx' | 'store' | 'now' | 'caller' | 'emit'>;

export const SITUACOES = ['EXECUTANDO', 'FINALIZADO', 'CANCELADO'] as const;
export type Situacao = (typeof SITUACOES)[number];
export const ACOES_HISTORICO = [
  'INICIADA',
  'AVANCOU',
  'RETORNOU',
  'RAMIFICOU',
  'MOTORISTA_ALTERADO',
  'FINALIZADA',
  'CANCELADA',
] as const;

/** Who or what moved an execution: `MANUAL:<caller>`, `COMANDO:<name>`, `EVENTO:<yard event>`. */
export const origemManual = (ctx: ExecCtx) => `MANUAL:${quem(ctx as Ctx)}`;
export const origemEvento = (evento: string) => `EVENTO:${evento}`;

const Uuid = (description: string) => Type.String({ format: 'uuid', description });

export const ExecucaoCircuito = SpecRecord(
  'execucaoCircuito',
  Type.Object({
    id: Uuid('the execution'),
    circuitoId: Uuid('the circuit it runs'),
    agendaId: Type.Optional(Uuid('the agenda (yms/agenda) it serves')),
    veiculoId: Type.Optional(Uuid('the vehicle')),
    composicaoVeiculoId: Type.Optional(Uuid('the vehicle composition')),
    motoristaId: Type.Optional(Uuid('the driver')),
    sequenciaAtualId: Type.Optional(Uuid('the sequence it is at (the last one once finished)')),
    sequenciaAtualDesde: Type.Optional(DateTime({ description: 'since when it is at that sequence' })),
    status: Enum(SITUACOES, { description: 'EXECUTANDO (running), FINALIZADO, CANCELADO' }),
    variaveis: Type.Array(
      Type.Object({
        alvoId: Type.String({ description: 'a sequence or area id' }),
        chave: Type.String(),
        valor: Type.String(),
        tipoCaptura: Type.Optional(Type.String({ description: 'how it was captured (addVariavelCircuito)' })),
      }),
      { description: 'one value per (alvoId, chave): a key added again overwrites it' },
    ),
    imagens: Type.Array(
      Type.Object({
        alvoId: Type.String(),
        cameraIp: Type.String(),
        imagemUrl: Type.String(),
        capturadaEm: DateTime(),
      }),
    ),
    historico: Type.Array(
      Type.Object({
        sequenciaCircuitoId: Type.Optional(Uuid('the sequence of the step')),
        acao: Enum(ACOES_HISTORICO),
        origem: Type.String({ description: 'MANUAL:<caller>, COMANDO:<name> or EVENTO:<yard event>' }),
        entradaEm: DateTime({ description: 'when the step began' }),
        saidaEm: Type.Optional(DateTime({ description: 'when it ended (absent: current step)' })),
      }),
      { description: 'every step, oldest first' },
    ),
    inicio: DateTime(),
    fim: Type.Optional(DateTime({ description: 'when it finished or was cancelled' })),
    motivoCancelamento: Type.Optional(Type.String()),
    execucaoPaiId: Type.Optional(
      Uuid('for a branch (ramoExecucao): the execution it returns to when it finishes'),
    ),
  }),
);

const skipNull = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as T;

/** The execution in the execucaoCircuito shape, with its variables, images and history. */
export async function lerExecucao(ctx: ExecCtx, row: ExecucaoRow) {
  const [variaveis, imagens, historico] = await Promise.all([
    ctx.tx
      .select()
      .from(execucaoCircuitoVariavel)
      .where(
        ctx.store.scope(execucaoCircuitoVariavel, eq(execucaoCircuitoVariavel.execucaoCircuitoId, row.id)),
      )
      .orderBy(asc(execucaoCircuitoVariavel.alvoId), asc(execucaoCircuitoVariavel.chave)),
    ctx.tx
      .select()
      .from(execucaoCircuitoImagem)
      .where(ctx.store.scope(execucaoCircuitoImagem, eq(execucaoCircuitoImagem.execucaoCircuitoId, row.id)))
      .orderBy(asc(execucaoCircuitoImagem.capturadaEm), asc(execucaoCircuitoImagem.id)),
    ctx.tx
      .select()
      .from(historicoExecucaoCircuito)
      .where(
        ctx.store.scope(historicoExecucaoCircuito, eq(historicoExecucaoCircuito.execucaoCircuitoId, row.id)),
      )
      .orderBy(asc(historicoExecucaoCircuito.n)),
  ]);
  return skipNull({
    id: row.id,
    circuitoId: row.circuitoId,
    agendaId: row.agendaId,
    veiculoId: row.veiculoId,
    composicaoVeiculoId: row.composicaoVeiculoId,
    motoristaId: row.motoristaId,
    sequenciaAtualId: row.sequenciaAtualId,
    sequenciaAtualDesde: row.sequenciaAtualDesde,
    status: row.situacao as Situacao,
    variaveis: variaveis.map((v) =>
      skipNull({ alvoId: v.alvoId, chave: v.chave, valor: v.valor, tipoCaptura: v.tipoCaptura }),
    ),
    imagens: imagens.map((i) => ({
      alvoId: i.alvoId,
      cameraIp: i.cameraIp,
      imagemUrl: i.imagemUrl,
      capturadaEm: i.capturadaEm,
    })),
    historico: historico.map((h) =>
      skipNull({
        sequenciaCircuitoId: h.sequenciaCircuitoId,
        acao: h.acao as (typeof ACOES_HISTORICO)[number],
        origem: h.origem,
        entradaEm: h.entradaEm,
        saidaEm: h.saidaEm,
      }),
    ),
    inicio: row.iniciadaEm,
    fim: row.finalizadaEm,
    motivoCancelamento: row.motivoCancelamento,
    execucaoPaiId: row.execucaoPaiId,
  }) as unknown as import('typebox').Static<typeof ExecucaoCircuito>;
}

/** The execution, or 404. */
export async function execucaoOf(ctx: ExecCtx, id: string): Promise<ExecucaoRow> {
  const [row] = await ctx.store.select(execucaoCircuito, eq(execucaoCircuito.id, id));
  if (!row) throw E.execucaoNotFound({ id });
  return row;
}

/** The execution, locked for the change about to be made, and running; 404 or 409 otherwise. */
export async function execucaoEmAndamentoOf(ctx: ExecCtx, id: string): Promise<ExecucaoRow> {
  const [row] = await ctx.tx
    .select()
    .from(execucaoCircuito)
    .where(ctx.store.scope(execucaoCircuito, eq(execucaoCircuito.id, id)))
    .for('update');
  if (!row) throw E.execucaoNotFound({ id });
  if (row.situacao !== 'EXECUTANDO') throw E.execucaoNaoEmAndamento({ id, situacao: row.situacao });
  return row;
}

const emAndamento = (where: SQL) =>
  and(where, eq(execucaoCircuito.situacao, 'EXECUTANDO'), isNull(execucaoCircuito.execucaoPaiId)) as SQL;

/** The running (main) execution of a vehicle, of a driver or of an agenda, if any. */
export async function execucaoEmAndamento(
  ctx: ExecCtx,
  by: { veiculoId: string } | { motoristaId: string } | { agendaId: string },
): Promise<ExecucaoRow | undefined> {
  const where =
    'veiculoId' in by
      ? eq(execucaoCircuito.veiculoId, by.veiculoId)
      : 'motoristaId' in by
        ? eq(execucaoCircuito.motoristaId, by.motoristaId)
        : eq(execucaoCircuito.agendaId, by.agendaId);
  const [row] = await ctx.tx
    .select()
    .from(execucaoCircuito)
    .where(ctx.store.scope(execucaoCircuito, emAndamento(where)))
    .orderBy(desc(execucaoCircuito.iniciadaEm))
    .limit(1);
  return row;
}

/** How many running (main) executions a vehicle or driver is in (0 or 1, by the unique indexes). */
export async function quantidadeEmAndamento(
  ctx: ExecCtx,
  by: { veiculoId: string } | { motoristaId: string },
): Promise<number> {
  const where =
    'veiculoId' in by
      ? eq(execucaoCircuito.veiculoId, by.veiculoId)
      : eq(execucaoCircuito.motoristaId, by.motoristaId);
  const [row] = await ctx.tx
    .select({ n: count() })
    .from(execucaoCircuito)
    .where(ctx.store.scope(execucaoCircuito, emAndamento(where)));
  return row?.n ?? 0;
}

/** The sequences of a circuit, in ordem. */
export function sequenciasDe(ctx: ExecCtx, circuitoId: string) {
  return ctx.tx
    .select()
    .from(sequenciaCircuito)
    .where(ctx.store.scope(sequenciaCircuito, eq(sequenciaCircuito.circuitoId, circuitoId)))
    .orderBy(asc(sequenciaCircuito.ordem));
}

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

/** Closes the open step of the history and opens the next one, at `quando`. */
async function registrarEtapa(
  ctx: ExecCtx,
  execucaoId: string,
  step: { sequenciaCircuitoId: string | null; acao: (typeof ACOES_HISTORICO)[number]; origem: string },
  quando: Date,
  fechaAoAbrir = false,
) {
  await ctx.store.update(
    historicoExecucaoCircuito,
    { saidaEm: quando },
    and(
      eq(historicoExecucaoCircuito.execucaoCircuitoId, execucaoId),
      isNull(historicoExecucaoCircuito.saidaEm),
    ),
  );
  await ctx.store.insert(historicoExecucaoCircuito, [
    { execucaoCircuitoId: execucaoId, ...step, entradaEm: quando, saidaEm: fechaAoAbrir ? quando : null },
  ]);
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
  const [c] = await ctx.store.select(circuito, eq(circuito.id, input.circuitoId));
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

async function mover(
  ctx: ExecCtx,
  row: ExecucaoRow,
  set: Partial<typeof execucaoCircuito.$inferInsert>,
): Promise<ExecucaoRow> {
  const [updated] = await ctx.store
    .update(
      execucaoCircuito,
      { ...set, lastModifiedBy: quem(ctx as Ctx), lastModifiedDate: ctx.now() },
      eq(execucaoCircuito.id, row.id),
    )
    .returning();
  return updated!;
}

/** Finishes a running execution at its current sequence (FINALIZADO). */
export async function finalizarExecucao(
  ctx: ExecCtx,
  row: ExecucaoRow,
  origem: string,
  quando = ctx.now(),
): Promise<ExecucaoRow> {
  await registrarEtapa(
    ctx,
    row.id,
    { sequenciaCircuitoId: row.sequenciaAtualId, acao: 'FINALIZADA', origem },
    quando,
    true,
  );
  const finalizada = await mover(ctx, row, { situacao: 'FINALIZADO', finalizadaEm: quando });
  // yms/agenda concludes the agenda of a main execution on it (docs/patio.md "Executions").
  await ctx.emit('yms/patio/execucaoCircuitoFinalizada', {
    execucaoCircuitoId: row.id,
    circuitoId: row.circuitoId,
    ...(row.agendaId ? { agendaId: row.agendaId } : {}),
    ...(row.veiculoId ? { veiculoId: row.veiculoId } : {}),
    ...(row.motoristaId ? { motoristaId: row.motoristaId } : {}),
    ...(row.execucaoPaiId ? { execucaoPaiId: row.execucaoPaiId } : {}),
    finalizadaEm: quando.toISOString(),
  });
  return finalizada;
}

/**
 * Moves a running execution to its next sequence by ordem (or to `para`, a sequence of its circuit);
 * past the last sequence it finishes. One history row per step, with its times.
 */
export async function avancarEtapa(
  ctx: ExecCtx,
  row: ExecucaoRow,
  origem: string,
  options: { para?: string; quando?: Date } = {},
): Promise<ExecucaoRow> {
  if (row.situacao !== 'EXECUTANDO') throw E.execucaoNaoEmAndamento({ id: row.id, situacao: row.situacao });
  const quando = options.quando ?? ctx.now();
  const sequencias = await sequenciasDe(ctx, row.circuitoId);
  const i = sequencias.findIndex((s) => s.id === row.sequenciaAtualId);
  const proxima = options.para ? sequencias.find((s) => s.id === options.para) : sequencias[i + 1];
  if (options.para && !proxima)
    throw E.sequenciaDeOutroCircuito({ id: options.para, field: 'para', circuitoId: row.circuitoId });
  if (!proxima) return finalizarExecucao(ctx, row, origem, quando);
  await registrarEtapa(ctx, row.id, { sequenciaCircuitoId: proxima.id, acao: 'AVANCOU', origem }, quando);
  return mover(ctx, row, { sequenciaAtualId: proxima.id, sequenciaAtualDesde: quando });
}

/** Moves a running execution back to its previous sequence by ordem; 409 at the first. */
export async function retornarEtapa(
  ctx: ExecCtx,
  row: ExecucaoRow,
  origem: string,
  quando = ctx.now(),
): Promise<ExecucaoRow> {
  if (row.situacao !== 'EXECUTANDO') throw E.execucaoNaoEmAndamento({ id: row.id, situacao: row.situacao });
  const sequencias = await sequenciasDe(ctx, row.circuitoId);
  const i = sequencias.findIndex((s) => s.id === row.sequenciaAtualId);
  const anterior = i > 0 ? sequencias[i - 1] : undefined;
  if (!anterior) throw E.semEtapaAnterior({ id: row.id });
  await registrarEtapa(ctx, row.id, { sequenciaCircuitoId: anterior.id, acao: 'RETORNOU', origem }, quando);
  return mover(ctx, row, { sequenciaAtualId: anterior.id, sequenciaAtualDesde: quando });
}

/** Cancels a running execution with its reason (CANCELADO); the caller frees the spot and emits. */
export async function cancelarExecucao(
  ctx: ExecCtx,
  row: ExecucaoRow,
  motivo: string | null,
  origem: string,
): Promise<ExecucaoRow> {
  if (row.situacao !== 'EXECUTANDO') throw E.execucaoNaoEmAndamento({ id: row.id, situacao: row.situacao });
  const quando = ctx.now();
  await registrarEtapa(
    ctx,
    row.id,
    { sequenciaCircuitoId: row.sequenciaAtualId, acao: 'CANCELADA', origem },
    quando,
    true,
  );
  return mover(ctx, row, { situacao: 'CANCELADO', finalizadaEm: quando, motivoCancelamento: motivo });
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

/** Sets (or overwrites) variables of an execution on one target. */
export async function gravarVariaveis(
  ctx: ExecCtx,
  execucaoId: string,
  alvoId: string,
  valores: Array<[string, string]>,
  extra: { tipoCaptura?: string | null; rotina?: string | null } = {},
) {
  if (valores.length === 0) return;
  const v = execucaoCircuitoVariavel;
  await ctx.store
    .insert(
      v,
      valores.map(([chave, valor]) => ({
        execucaoCircuitoId: execucaoId,
        alvoId,
        chave,
        valor,
        tipoCaptura: extra.tipoCaptura ?? null,
        rotina: extra.rotina ?? null,
        alteradaEm: ctx.now(),
      })),
    )
    .onConflictDoUpdate({
      target: [v.tenant, v.execucaoCircuitoId, v.alvoId, v.chave],
      set: {
        valor: sql`excluded.valor`,
        tipoCaptura: sql`excluded.tipo_captura`,
        rotina: sql`excluded.rotina`,
        alteradaEm: sql`excluded.alterada_em`,
      },
    });
}

/** The open step of an execution's history: its row number identifies the current step visit. */
export async function etapaAberta(ctx: ExecCtx, execucaoId: string): Promise<number | undefined> {
  const [row] = await ctx.tx
    .select({ n: historicoExecucaoCircuito.n })
    .from(historicoExecucaoCircuito)
    .where(
      ctx.store.scope(
        historicoExecucaoCircuito,
        and(
          eq(historicoExecucaoCircuito.execucaoCircuitoId, execucaoId),
          isNull(historicoExecucaoCircuito.saidaEm),
        ),
      ),
    )
    .orderBy(desc(historicoExecucaoCircuito.n))
    .limit(1);
  return row?.n ?? undefined;
}

/** The branch started from the execution's current step visit, if any (running or not). */
export async function ramoDaEtapa(ctx: ExecCtx, pai: ExecucaoRow): Promise<ExecucaoRow | undefined> {
  const n = await etapaAberta(ctx, pai.id);
  if (n === undefined) return undefined;
  const [row] = await ctx.store.select(
    execucaoCircuito,
    and(eq(execucaoCircuito.execucaoPaiId, pai.id), eq(execucaoCircuito.ramoEtapaN, n)),
  );
  return row;
}

/** The running branch of an execution, if any (one at a time). */
export async function ramoEmAndamento(ctx: ExecCtx, pai: ExecucaoRow): Promise<ExecucaoRow | undefined> {
  const [row] = await ctx.store.select(
    execucaoCircuito,
    and(eq(execucaoCircuito.execucaoPaiId, pai.id), eq(execucaoCircuito.situacao, 'EXECUTANDO')),
  );
  return row;
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

/** The running branch at the bottom of an execution (itself when it has none). */
export async function execucaoAtiva(ctx: ExecCtx, row: ExecucaoRow): Promise<ExecucaoRow> {
  let atual = row;
  for (let depth = 0; depth < 10; depth++) {
    const ramo = await ramoEmAndamento(ctx, atual);
    if (!ramo) return atual;
    atual = ramo;
  }
  return atual;
}
