import { eq } from 'drizzle-orm';
import { inSavepoint } from '../../../platform/core/db/savepoint.ts';
import type { Ctx, SubscriptionDeclaration } from '../../../platform/core/declarations.ts';
import { ApiError } from '../../../platform/core/errors.ts';
import type { EventRecord } from '../../../platform/core/outbox.ts';
import { requireReferenced } from '../../../platform/core/references.ts';
import { action } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { agenda as agendaEntity } from './entities.ts';
import { E } from './errors.ts';
import { exigirLivres } from './ocupacao.ts';
import { verificarReserva } from './reserva.ts';
import {
  type AgendaRow,
  agendaParaAlterar,
  compact,
  mudarEstado,
  pedirInicioAoPatio,
  type StatusAgendamento,
} from './states.ts';
import { agenda } from './tables/agendas.ts';
import { tipoAgendamento } from './tables/tipos.ts';

// The state actions after the hand-over (spec 000 §3, §4.5; docs/agenda.md "Starting, finishing,
// cancelling"): iniciarAgendamento, finalizarAgendamento and the two reactions to a cancelled
// circuit, plus the subscription that runs the cancellation when yms/patio cancels an execution.
// Each one locks the agenda, checks its source state (ORIGENS) and writes its history row.

const PATIO = 'yms/patio';
const Agenda = agendaEntity.schema;
const AgendaUuid = Type.String({ format: 'uuid', description: 'the agenda (its id)' });
const AgendaRef = Type.String({ minLength: 1, maxLength: 36, description: 'the agenda: its id or its code' });
const Motivo = Type.Optional(Type.String({ maxLength: 255, description: 'why, for the history' }));

/**
 * The source states of each action (design: the spec does not show them). iniciarAgendamento also
 * accepts EXECUTANDO when the start of its execution FALHOU (the retry); the cancellation actions
 * leave AGENDADO alone (nothing was handed to the yard), and a circuit-cancelled agenda (CANCELADO)
 * may still be restarted.
 */
export const ORIGENS = {
  iniciarAgendamento: ['AGENDADO', 'AGUARDANDO_INTEGRACAO', 'ERRO_INTEGRACAO', 'EXECUTANDO'],
  finalizarAgendamento: ['EXECUTANDO'],
  cancelarAgendamentoPorCancelamentoCircuito: ['AGUARDANDO_INTEGRACAO', 'EXECUTANDO', 'ERRO_INTEGRACAO'],
  reiniciarAgendamentoPorCancelamentoCircuito: [
    'AGUARDANDO_INTEGRACAO',
    'EXECUTANDO',
    'ERRO_INTEGRACAO',
    'CANCELADO',
  ],
} as const satisfies Record<string, readonly StatusAgendamento[]>;
type Operacao = keyof typeof ORIGENS;

const ESPERADO: Record<Operacao, string> = {
  iniciarAgendamento: 'AGENDADO, AGUARDANDO_INTEGRACAO, ERRO_INTEGRACAO ou EXECUTANDO com início FALHOU',
  finalizarAgendamento: 'EXECUTANDO',
  cancelarAgendamentoPorCancelamentoCircuito: 'AGUARDANDO_INTEGRACAO, EXECUTANDO ou ERRO_INTEGRACAO',
  reiniciarAgendamentoPorCancelamentoCircuito:
    'AGUARDANDO_INTEGRACAO, EXECUTANDO, ERRO_INTEGRACAO ou CANCELADO',
};

/** 409 unless the locked agenda is in a source state of `operacao`. */
function exigirOrigem(atual: AgendaRow, operacao: Operacao): void {
  const origens: readonly string[] = ORIGENS[operacao];
  if (!origens.includes(atual.status))
    throw E.estadoInvalido({
      codigo: atual.codigo,
      status: atual.status,
      operacao,
      esperado: ESPERADO[operacao],
    });
}

/** The hand-over fields: recorded by aguardarIntegracao and the start, cleared by a restart. */
const SEM_ENTREGA = {
  circuitoId: null,
  sequenciaInicialId: null,
  vagaInicialId: null,
  servicoIntegracao: null,
  motivoDeFalha: null,
  inicioExecucao: null,
  execucaoCircuitoId: null,
} satisfies Partial<AgendaRow>;

/** The running yard execution of the agenda (asked to yms/patio), if any. */
async function execucaoEmAndamento(ctx: Ctx, atual: AgendaRow): Promise<string | undefined> {
  const { controlador } = await ctx.call<{ controlador: { execucaoCircuitoId?: string } }>(
    `${PATIO}/queries/buscaControladorAtivo`,
    { agendaId: atual.id },
  );
  return controlador.execucaoCircuitoId;
}

/** 409 while the yard still runs an execution of the agenda. */
async function exigirSemExecucao(ctx: Ctx, atual: AgendaRow, operacao: Operacao): Promise<void> {
  const execucaoId = await execucaoEmAndamento(ctx, atual);
  if (execucaoId) throw E.execucaoEmAndamento({ codigo: atual.codigo, execucaoId, operacao });
}

/**
 * Starts the yard execution of an agenda that knows its circuit, in the caller's transaction; a
 * refusal of the yard (4xx) is a 409 with its reason, and nothing of the start is kept.
 */
async function iniciarNoPatio(ctx: Ctx, atual: AgendaRow): Promise<string> {
  if (!atual.veiculoId)
    throw E.circuitoSemVeiculo({ codigo: atual.codigo, circuitoId: String(atual.circuitoId) });
  try {
    return await pedirInicioAoPatio(ctx, atual);
  } catch (err) {
    if (err instanceof ApiError && err.status < 500)
      throw E.patioRecusou({ codigo: atual.codigo, motivo: err.message });
    throw err;
  }
}

/** The yard circuit the agenda's appointment type names, if any. */
async function circuitoDoTipo(ctx: Ctx, tipoAgendamentoId: string): Promise<string | null> {
  const [tipo] = await ctx.store.select(tipoAgendamento, eq(tipoAgendamento.id, tipoAgendamentoId));
  return tipo?.circuitoId ?? null;
}

/** iniciarAgendamento on a locked agenda (docs/agenda.md "iniciarAgendamento"). */
export async function iniciar(ctx: Ctx, atual: AgendaRow, validated: boolean): Promise<AgendaRow> {
  exigirOrigem(atual, 'iniciarAgendamento');
  if (atual.status === 'EXECUTANDO' && atual.inicioExecucao !== 'FALHOU')
    throw E.jaEmExecucao({ codigo: atual.codigo, inicio: atual.inicioExecucao ?? 'sem circuito' });
  // Under yms/patio's lock of the vehicle and the driver, held until commit: two starts that share
  // either run one after the other, and the second one sees the first (docs/agenda.md).
  await exigirLivres(ctx, atual, validated);
  const changes: Partial<AgendaRow> = { motivoDeFalha: null, inicioExecucao: null, execucaoCircuitoId: null };
  // The circuit recorded by aguardarIntegracao (with its sequence and spot) wins; without one, the
  // appointment type's circuit starts at its first sequence, and the agenda records it.
  const doTipo = atual.circuitoId ? null : await circuitoDoTipo(ctx, atual.tipoAgendamentoId);
  if (atual.circuitoId) {
    changes.execucaoCircuitoId = await iniciarNoPatio(ctx, atual);
    changes.inicioExecucao = 'INICIADO';
  } else if (doTipo) {
    // A declared reference written outside the engine: read FOR KEY SHARE (core/references.ts).
    await requireReferenced(ctx, agendaEntity, { circuitoId: doTipo }, atual);
    const comCircuito = { ...atual, circuitoId: doTipo, sequenciaInicialId: null, vagaInicialId: null };
    changes.execucaoCircuitoId = await iniciarNoPatio(ctx, comCircuito);
    changes.inicioExecucao = 'INICIADO';
    changes.circuitoId = doTipo;
  }
  const motivo =
    atual.status === 'EXECUTANDO'
      ? 'início da execução refeito por iniciarAgendamento'
      : `iniciarAgendamento${validated ? ' (validado antes pelo chamador)' : ''}`;
  return mudarEstado(ctx, atual, 'EXECUTANDO', changes, motivo);
}

/** cancelarAgendamentoPorCancelamentoCircuito on a locked agenda. */
export async function cancelar(ctx: Ctx, atual: AgendaRow, motivo: string): Promise<AgendaRow> {
  exigirOrigem(atual, 'cancelarAgendamentoPorCancelamentoCircuito');
  await exigirSemExecucao(ctx, atual, 'cancelarAgendamentoPorCancelamentoCircuito');
  return mudarEstado(ctx, atual, 'CANCELADO', {}, motivo);
}

/** reiniciarAgendamentoPorCancelamentoCircuito on a locked agenda: AGENDADO, hand-over cleared. */
export async function reiniciar(ctx: Ctx, atual: AgendaRow, motivo: string): Promise<AgendaRow> {
  exigirOrigem(atual, 'reiniciarAgendamentoPorCancelamentoCircuito');
  await exigirSemExecucao(ctx, atual, 'reiniciarAgendamentoPorCancelamentoCircuito');
  await retomarLugar(ctx, atual);
  return mudarEstado(ctx, atual, 'AGENDADO', SEM_ENTREGA, motivo);
}

/**
 * A cancelled agenda counts in no slot (docs/agenda.md "Operating hours and slots"); restarted, it
 * counts again. One booked on the slots (`fimPrevisto`) whose start is still ahead takes its places
 * back only where there is room, under the booking's locks (reserva.ts): a slot filled meanwhile is
 * 409 lotado (move it first). Another reason a new booking would be refused (the lead time, a type
 * blocked since) does not hold a restart back.
 */
async function retomarLugar(ctx: Ctx, atual: AgendaRow): Promise<void> {
  if (atual.status !== 'CANCELADO' || !atual.fimPrevisto) return;
  if (atual.dataEsperada.getTime() <= ctx.now().getTime()) return;
  try {
    await verificarReserva(ctx, {
      tipoAgendamentoId: atual.tipoAgendamentoId,
      plantaId: atual.plantaId,
      dataEsperada: atual.dataEsperada,
      associacaoAgendamento: atual.associacaoAgendamento,
      agendaId: atual.id,
    });
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) throw err;
  }
}

const motivoDe = (motivo: string | undefined, padrao: string) => motivo?.trim() || padrao;

export const estados = {
  iniciarAgendamento: action({
    description:
      'AGENDADO, AGUARDANDO_INTEGRACAO or ERRO_INTEGRACAO (or EXECUTANDO whose start FALHOU) → EXECUTANDO; starts ' +
      'the yard execution when the agenda knows its circuit. 409 when the vehicle or driver is already running, ' +
      'is blocked (unless validated) or the yard refuses. validated: the caller already checked the blocks',
    input: Type.Object({
      agenda: AgendaUuid,
      validated: Type.Optional(
        Type.Boolean({
          description:
            'true: the caller validated vehicle and driver (blocks are not checked again); default false',
        }),
      ),
    }),
    output: Type.Object({ agenda: Agenda }),
    handler: async (ctx, input) => {
      const atual = await agendaParaAlterar(ctx, input.agenda);
      return { agenda: compact(await iniciar(ctx, atual, input.validated ?? false)) };
    },
  }),

  finalizarAgendamento: action({
    description:
      'EXECUTANDO → CONCLUIDO; 409 from any other state, and while the yard still runs its circuit execution',
    input: Type.Object({ agenda: AgendaUuid }),
    output: Type.Object({ agenda: Agenda }),
    handler: async (ctx, input) => {
      const atual = await agendaParaAlterar(ctx, input.agenda);
      exigirOrigem(atual, 'finalizarAgendamento');
      await exigirSemExecucao(ctx, atual, 'finalizarAgendamento');
      return { agenda: compact(await mudarEstado(ctx, atual, 'CONCLUIDO', {}, 'finalizarAgendamento')) };
    },
  }),

  cancelarAgendamentoPorCancelamentoCircuito: action({
    description:
      'The circuit of the agenda was cancelled: AGUARDANDO_INTEGRACAO, EXECUTANDO or ERRO_INTEGRACAO → CANCELADO ' +
      'with motivo in the history. 409 from another state or while the yard still runs the execution',
    input: Type.Object({ agendaId: AgendaRef, motivo: Motivo }),
    output: Type.Object({ agendaCancelada: Agenda }),
    handler: async (ctx, input) => {
      const atual = await agendaParaAlterar(ctx, input.agendaId);
      const row = await cancelar(ctx, atual, motivoDe(input.motivo, 'circuito cancelado'));
      return { agendaCancelada: compact(row) };
    },
  }),

  reiniciarAgendamentoPorCancelamentoCircuito: action({
    description:
      'The circuit of the agenda was cancelled and the appointment goes on: AGUARDANDO_INTEGRACAO, EXECUTANDO, ' +
      'ERRO_INTEGRACAO or CANCELADO → AGENDADO, circuit and execution fields cleared (it can be handed over again). ' +
      '409 from another state or while the yard still runs the execution',
    input: Type.Object({ agendaId: AgendaRef, motivo: Motivo }),
    output: Type.Object({ agendaReiniciada: Agenda }),
    handler: async (ctx, input) => {
      const atual = await agendaParaAlterar(ctx, input.agendaId);
      const row = await reiniciar(
        ctx,
        atual,
        motivoDe(input.motivo, 'circuito cancelado, agenda reiniciada'),
      );
      return { agendaReiniciada: compact(row) };
    },
  }),
};

/** The agenda a yard event names, locked, and a log line for an event that leaves it alone. */
async function agendaDoEvento(ctx: Ctx, agendaId: string, evento: string) {
  const [atual] = await ctx.tx
    .select()
    .from(agenda)
    .where(ctx.store.scope(agenda, eq(agenda.id, agendaId)))
    .for('update');
  const ignorar = (porque: string) =>
    ctx.log.info({ agenda: agendaId, status: atual?.status, porque }, `${evento} ignorada`);
  return { atual, ignorar };
}

type ExecucaoCancelada = { execucaoCircuitoId: string; agendaId?: string; motivo?: string };

/**
 * yms/patio cancelled a circuit execution: its agenda is cancelled as by
 * cancelarAgendamentoPorCancelamentoCircuito. Idempotent by state: an agenda already cancelled,
 * restarted, finished, or now tied to another execution is left alone. A refusal (the agenda is not
 * in a source state) is logged, never thrown: a throw would hold the tenant's events back.
 */
export async function aoCancelarExecucao(ctx: Ctx, event: EventRecord): Promise<void> {
  const payload = event.payload as ExecucaoCancelada;
  if (!payload.agendaId) return;
  const { atual, ignorar } = await agendaDoEvento(ctx, payload.agendaId, 'execucaoCircuitoCancelada');
  if (!atual) return ignorar('agenda inexistente');
  if (atual.execucaoCircuitoId && atual.execucaoCircuitoId !== payload.execucaoCircuitoId)
    return ignorar('a agenda está ligada a outra execução');
  const origens: readonly string[] = ORIGENS.cancelarAgendamentoPorCancelamentoCircuito;
  if (!origens.includes(atual.status)) return ignorar('estado sem cancelamento');
  const motivo = `execução de circuito ${payload.execucaoCircuitoId} cancelada no pátio${
    payload.motivo ? `: ${payload.motivo}` : ''
  }`;
  const cancelada = await inSavepoint(ctx, () => cancelar(ctx, atual, motivo.slice(0, 255)));
  if (!cancelada.ok) ignorar(cancelada.error.message);
}

type ExecucaoFinalizada = { execucaoCircuitoId: string; agendaId?: string; execucaoPaiId?: string };

/**
 * yms/patio finished a (main) circuit execution: its agenda, EXECUTANDO on that execution, is
 * CONCLUIDO, as finalizarAgendamento would make it. Idempotent by state, never thrown (as above).
 */
export async function aoFinalizarExecucao(ctx: Ctx, event: EventRecord): Promise<void> {
  const payload = event.payload as ExecucaoFinalizada;
  if (!payload.agendaId || payload.execucaoPaiId) return; // a branch's end is not the visit's
  const { atual, ignorar } = await agendaDoEvento(ctx, payload.agendaId, 'execucaoCircuitoFinalizada');
  if (!atual) return ignorar('agenda inexistente');
  if (atual.status !== 'EXECUTANDO') return ignorar('a agenda não está em EXECUTANDO');
  if (atual.execucaoCircuitoId && atual.execucaoCircuitoId !== payload.execucaoCircuitoId)
    return ignorar('a agenda está ligada a outra execução');
  await mudarEstado(
    ctx,
    atual,
    'CONCLUIDO',
    { execucaoCircuitoId: payload.execucaoCircuitoId },
    `execução de circuito ${payload.execucaoCircuitoId} finalizada no pátio`,
  );
}

type MotoristaAlterado = {
  agendaId: string;
  execucaoCircuitoid: string;
  motoristaAntigoId: string;
  motoristaNovoId: string;
};

/**
 * yms/patio changed the driver of a running execution (motoristaAlteradoEmExecucao, the spec's
 * spelling `execucaoCircuitoid`): the agenda running on it takes the new driver, so that the one
 * replaced is free for another agenda. Only while it still names the old one on that execution;
 * idempotent, never thrown (as above).
 */
export async function aoTrocarMotorista(ctx: Ctx, event: EventRecord): Promise<void> {
  const p = event.payload as MotoristaAlterado;
  const { atual, ignorar } = await agendaDoEvento(ctx, p.agendaId, 'motoristaAlteradoEmExecucao');
  if (!atual) return ignorar('agenda inexistente');
  if (atual.execucaoCircuitoId !== p.execucaoCircuitoid)
    return ignorar('a agenda está ligada a outra execução');
  if (atual.motoristaId !== p.motoristaAntigoId) return ignorar('a agenda não tem mais esse motorista');
  await ctx.store.update(
    agenda,
    { motoristaId: p.motoristaNovoId, lastModifiedBy: 'yms/patio', lastModifiedDate: ctx.now() },
    eq(agenda.id, atual.id),
  );
}

export const agendaSubscriptions: Record<string, SubscriptionDeclaration> = {
  trocarMotoristaPelaExecucao: { topic: 'yms/patio/motoristaAlteradoEmExecucao', handler: aoTrocarMotorista },
  cancelarPorExecucaoCancelada: { topic: 'yms/patio/execucaoCircuitoCancelada', handler: aoCancelarExecucao },
  concluirPorExecucaoFinalizada: {
    topic: 'yms/patio/execucaoCircuitoFinalizada',
    handler: aoFinalizarExecucao,
  },
};
