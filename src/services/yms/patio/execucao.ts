import { asc, eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { DateTime, Enum, Record as SpecRecord, Type } from '../../../platform/core/schema.ts';
import { quem } from './common.ts';
import {
  type execucaoCircuito,
  execucaoCircuitoImagem,
  execucaoCircuitoVariavel,
  historicoExecucaoCircuito,
} from './tables/execucoes.ts';

// The circuit execution record and its rules (docs/patio.md "Executions"): starting one, moving it
// through its sequences (advance, revert, finish, cancel) with a history row per step, and reading it
// in the execucaoCircuito shape. These run in the caller's transaction; the operations over them are
// in execucoes.ts, the yard events that move them in eventos.ts.
// Here: the record, its states and history actions, who moved it, and its shape. Reading it:
// execucao-consultas.ts; starting one: execucao-inicio.ts; moving it: execucao-etapas.ts.

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
