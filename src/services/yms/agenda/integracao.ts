import { eq } from 'drizzle-orm';
import { inSavepoint } from '../../../platform/core/db/savepoint.ts';
import type { Ctx, JobDeclaration } from '../../../platform/core/declarations.ts';
import { requireReferenced } from '../../../platform/core/references.ts';
import { action } from '../../../platform/core/registry.ts';
import { Enum, Record, Type } from '../../../platform/core/schema.ts';
import { agenda as agendaEntity } from './entities.ts';
import { E } from './errors.ts';
import { exigirDesbloqueados } from './ocupacao.ts';
import { exigirEntrega } from './referencias.ts';
import {
  agendaParaAlterar,
  compact,
  mudarEstado,
  pedirInicioAoPatio,
  quem,
  STATUS_INTEGRACAO,
} from './states.ts';
import { agenda } from './tables/agendas.ts';

// Hand-over of an agenda to the yard (spec 000 §3, §4.5; docs/agenda.md "States"): the ERP
// integration is awaited, then reported; a success starts the circuit execution in yms/patio
// through a durable job.

const AgendaRef = Type.String({ minLength: 1, maxLength: 36, description: 'the agenda: its id or its code' });
const Uuid = (description: string) => Type.String({ format: 'uuid', description });
/** statusIntegracao (spec 000 §2.5; values: docs/agenda.md), a named definition of the documents. */
const StatusIntegracao = Record(
  'statusIntegracao',
  Enum(STATUS_INTEGRACAO, { description: 'what an integrating service reports: SUCESSO or ERRO' }),
);

export const INICIAR_EXECUCAO = 'iniciarExecucaoCircuito';

export const integracao = {
  aguardarIntegracao: action({
    description:
      'AGENDADO → AGUARDANDO_INTEGRACAO: records the circuit, the initial sequence and the optional initial spot ' +
      'the execution will start from; from any other state 409. The circuit must be of the agenda’s plant, the ' +
      'sequence of the circuit, the spot in an area of that plant (422 naming the field and the id)',
    input: Type.Object({
      agenda: AgendaRef,
      circuito: Uuid('the circuit (yms/patio circuito.id)'),
      sequenciaInicial: Uuid('the initial sequence of the circuit'),
      vagaInicial: Type.Optional(Uuid('the initial spot')),
    }),
    output: Type.Object({ agenda: agendaEntity.schema }),
    handler: async (ctx, input) => {
      const atual = await agendaParaAlterar(ctx, input.agenda);
      if (atual.status !== 'AGENDADO')
        throw E.estadoInvalido({
          codigo: atual.codigo,
          status: atual.status,
          operacao: 'aguardarIntegracao',
          esperado: 'AGENDADO',
        });
      await exigirEntrega(ctx, atual, input);
      const entrega = {
        circuitoId: input.circuito,
        sequenciaInicialId: input.sequenciaInicial,
        vagaInicialId: input.vagaInicial ?? null,
      };
      // Declared references of the agenda (entities.ts), written outside the engine: read FOR KEY SHARE
      // as the engine does, so a delete of the circuit, sequence or spot sent at the same moment waits
      // and then sees this agenda (422), or wins and this is 422 (docs/platform.md "References").
      await requireReferenced(ctx, agendaEntity, entrega, atual);
      const row = await mudarEstado(
        ctx,
        atual,
        'AGUARDANDO_INTEGRACAO',
        entrega,
        `aguardando integração para o circuito ${input.circuito}`,
      );
      return { agenda: compact(row) };
    },
  }),

  informarIntegracao: action({
    description:
      'An integrating service reports its result. In AGUARDANDO_INTEGRACAO: SUCESSO → EXECUTANDO and the start ' +
      'of the circuit execution is queued; ERRO → ERRO_INTEGRACAO with motivoDeFalha. In any other state nothing ' +
      'changes (late or repeated reports are harmless)',
    enqueues: true,
    input: Type.Object({
      agenda: AgendaRef,
      servico: Type.String({ minLength: 1, maxLength: 100, description: 'the integrating service' }),
      status: StatusIntegracao,
      motivoDeFalha: Type.Optional(Type.String({ maxLength: 2000, description: 'the failure, with ERRO' })),
    }),
    output: Type.Object({}),
    handler: async (ctx, input) => {
      const atual = await agendaParaAlterar(ctx, input.agenda);
      // spec 000 §3: informarIntegracao outside AGUARDANDO_INTEGRACAO changes nothing (EXECUTANDO with any
      // result, any other state with success; an error outside it is ignored too: docs/agenda.md).
      if (atual.status !== 'AGUARDANDO_INTEGRACAO') {
        ctx.log.info(
          { agenda: atual.id, status: atual.status, reported: input.status, servico: input.servico },
          'informarIntegracao outside AGUARDANDO_INTEGRACAO: nothing changes',
        );
        return {};
      }
      if (input.status === 'SUCESSO') {
        await mudarEstado(
          ctx,
          atual,
          'EXECUTANDO',
          { servicoIntegracao: input.servico, motivoDeFalha: null, inicioExecucao: 'SOLICITADO' },
          `integração confirmada por ${input.servico}`,
        );
        // The signal to start the execution is a job: it commits with this state change or not at all.
        await ctx.enqueue(INICIAR_EXECUCAO, { agendaId: atual.id });
        return {};
      }
      const motivo = input.motivoDeFalha?.trim() || `falha informada por ${input.servico}, sem motivo`;
      await mudarEstado(
        ctx,
        atual,
        'ERRO_INTEGRACAO',
        { servicoIntegracao: input.servico, motivoDeFalha: motivo },
        motivo,
      );
      return {};
    },
  }),
};

/**
 * The start of the circuit execution after a successful integration (spec 000 §3: "a signal to
 * start circuit execution is sent"): a durable job that checks the blocks and asks yms/patio to
 * start it. Inside a savepoint, so a block or a refusal of the yard (the vehicle is already in
 * another execution, the circuit is inactive) is recorded on the agenda as FALHOU with the reason,
 * and the job ends; anything else (the database went away) fails the attempt, and the job is
 * retried.
 */
export const agendaJobs: Record<string, JobDeclaration> = {
  [INICIAR_EXECUCAO]: {
    transaction: 'tenant',
    maxAttempts: 10,
    handler: async (ctx: Ctx, payload: unknown) => {
      const { agendaId } = payload as { agendaId: string };
      const [atual] = await ctx.tx
        .select()
        .from(agenda)
        .where(ctx.store.scope(agenda, eq(agenda.id, agendaId)))
        .for('update');
      // Gone, cancelled or already started meanwhile: the signal has nothing left to do.
      if (atual?.status !== 'EXECUTANDO' || atual.inicioExecucao !== 'SOLICITADO')
        return { agendaId, ignorado: true, status: atual?.status ?? null };
      const registrar = async (values: Partial<typeof agenda.$inferInsert>) =>
        ctx.store.update(
          agenda,
          { ...values, lastModifiedBy: quem(ctx), lastModifiedDate: ctx.now() },
          eq(agenda.id, atual.id),
        );
      if (!atual.circuitoId || !atual.veiculoId) {
        const motivo = 'a agenda não tem circuito ou veículo para iniciar a execução';
        await registrar({ inicioExecucao: 'FALHOU', motivoDeFalha: motivo });
        return { agendaId, inicioExecucao: 'FALHOU', motivo };
      }
      // Nobody validated this start (the integration only reports its own result): the blocks of the
      // vehicle, the driver and the composition are checked as iniciarAgendamento without `validated`
      // checks them, and a block is a refusal like the yard's. A refusal is undone alone: the FALHOU it
      // leads to is kept.
      const inicio = await inSavepoint(ctx, async () => {
        await exigirDesbloqueados(ctx, atual);
        return pedirInicioAoPatio(ctx, atual);
      });
      if (inicio.ok) {
        await registrar({ inicioExecucao: 'INICIADO', execucaoCircuitoId: inicio.value });
        return { agendaId, inicioExecucao: 'INICIADO', execucaoCircuitoId: inicio.value };
      }
      await registrar({ inicioExecucao: 'FALHOU', motivoDeFalha: inicio.error.message });
      return { agendaId, inicioExecucao: 'FALHOU', motivo: inicio.error.message };
    },
  },
};
