import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { defineEntity } from '../../../platform/core/entity.ts';
import { anexoEntity } from './anexos.ts';
import { AgendaCampos, DO_PATIO } from './contract.ts';
import { validarCustom } from './custom.ts';
import { E } from './errors.ts';
import { exigirLivresNaEdicao } from './ocupacao.ts';
import { parceiroEntities } from './parceiros.ts';
import { escopoParceiro, regrasDoParceiro, SUJEITOS } from './representacao.ts';
import { verificarReserva } from './reserva.ts';
import {
  type AgendaAvisada,
  agendaParaAlterar,
  avisarAgenda,
  FINALIZADOS,
  proximoCodigo,
  registrarHistorico,
  type StatusAgendamento,
} from './states.ts';
import { agendaHistorico, agenda as agendaTable } from './tables/agendas.ts';
import { idDoTipo, tipoAgendamento } from './tipos.ts';

// The generic entity `agenda` (spec 000 §2.3, §4.6; docs/agenda.md). Reads and lists come from the
// engine as they are. Writes keep the record's rules: a new agenda gets the next code, starts in
// AGENDADO and has its history row; the state and the hand-over fields change only through the
// state actions (a status change sent here is 422); a finished agenda no longer changes (409).
// It is the carriers' booking: a new agenda, and one moved to another instant, type, plant or
// quantity, takes a free place of a slot of its type (reserva.ts verificarReserva).

/** The fields the state actions own: kept as stored, or empty on creation. */
const STATE_FIELDS = [
  'circuitoId',
  'sequenciaInicialId',
  'vagaInicialId',
  'servicoIntegracao',
  'motivoDeFalha',
  'inicioExecucao',
  'execucaoCircuitoId',
] as const;

export const agenda = defineEntity({
  name: 'agenda',
  description:
    'Appointments of vehicles at a plant, with custom fields; the state changes only through the state actions',
  table: agendaTable,
  // A key acting for a partner's user books, reads and edits only its partners' agendas.
  subjects: SUJEITOS,
  children: { anexos: { entity: anexoEntity, parentField: 'agendaId' } },
  references: {
    ...DO_PATIO,
    circuitoId: 'yms/patio/circuito',
    sequenciaInicialId: 'yms/patio/sequenciaCircuito',
    vagaInicialId: 'yms/patio/vaga',
  },
  fields: AgendaCampos,
  hooks: {
    rowScope: (ctx) => escopoParceiro(ctx, agendaTable.parceiroId),
    beforeSave: async (ctx, next, previous) => {
      next.tipoAgendamentoId = await idDoTipo(ctx, next.tipoAgendamentoId);
      // The engine read `previous` locked (FOR UPDATE), so no state action changes it meanwhile; the
      // raw row (with its empty fields) is what the occupation check reads.
      const atual = previous ? await agendaParaAlterar(ctx, String(previous.id)) : undefined;
      await regrasDoParceiro(ctx, next, previous);
      next.custom ??= {};
      next.unscheduled ??= false;
      if (typeof next.dataEsperada === 'string') next.dataEsperada = new Date(next.dataEsperada);
      await validarCustom(ctx, 'agenda', next.custom, previous?.custom);
      if (previous) {
        const de = previous.status as StatusAgendamento;
        if (FINALIZADOS.includes(de))
          throw E.agendaFinalizada({ codigo: Number(previous.codigo), status: de });
        if (next.status != null && next.status !== de)
          throw E.statusSomenteLeitura({ codigo: Number(previous.codigo), de, para: String(next.status) });
        next.id = previous.id;
        next.codigo = previous.codigo;
        next.status = de;
        for (const f of STATE_FIELDS) next[f] = previous[f] ?? null;
        next.fimPrevisto = previous.fimPrevisto ?? null;
        const movida =
          // A Date read back (String() of it would drop the milliseconds), or its ISO text.
          new Date(previous.dataEsperada as Date | string).getTime() !==
            (next.dataEsperada as Date).getTime() ||
          next.tipoAgendamentoId !== previous.tipoAgendamentoId ||
          next.plantaId !== previous.plantaId ||
          JSON.stringify(next.associacaoAgendamento ?? null) !==
            JSON.stringify(previous.associacaoAgendamento ?? null);
        if (movida) next.fimPrevisto = await reservar(ctx, next, String(previous.id));
        await exigirLivresNaEdicao(ctx, atual!, next);
        await avisarAgenda(ctx, next as AgendaAvisada, 'ALTERADA', { status: de });
        return;
      }
      if (next.status != null && next.status !== 'AGENDADO')
        throw E.statusInicial({ status: String(next.status) });
      next.id ??= randomUUID();
      next.fimPrevisto = await reservar(ctx, next);
      next.codigo = await proximoCodigo(ctx);
      next.status = 'AGENDADO';
      for (const f of STATE_FIELDS) next[f] = null;
      await registrarHistorico(
        ctx,
        next as AgendaAvisada,
        undefined,
        'AGENDADO',
        'criada pela entidade agenda',
      );
    },
    beforeDelete: async (ctx, row) => {
      // An appointment booked by mistake may go; one that moved on is cancelled, never erased.
      if (row.status !== 'AGENDADO')
        throw E.exclusaoNaoPermitida({ codigo: Number(row.codigo), status: String(row.status) });
      await ctx.store.delete(agendaHistorico, eq(agendaHistorico.agendaId, String(row.id)));
      await avisarAgenda(ctx, row as unknown as AgendaAvisada, 'EXCLUIDA', { status: 'AGENDADO' });
    },
  },
});

/** The slot check of the booking; returns the end of the execution. */
function reservar(
  ctx: Parameters<typeof verificarReserva>[0],
  next: Record<string, unknown>,
  agendaId?: string,
) {
  return verificarReserva(ctx, {
    tipoAgendamentoId: String(next.tipoAgendamentoId),
    plantaId: String(next.plantaId),
    dataEsperada: next.dataEsperada as Date,
    associacaoAgendamento: next.associacaoAgendamento,
    ...(agendaId ? { agendaId } : {}),
  });
}

export const agendaEntities = [agenda, tipoAgendamento, anexoEntity, ...parceiroEntities];
