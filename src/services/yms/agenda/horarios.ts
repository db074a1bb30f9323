import type { Ctx } from '../../../platform/core/declarations.ts';
import { query } from '../../../platform/core/registry.ts';
import { DateOnly, DateTime, Enum, Int64, type Static, Type } from '../../../platform/core/schema.ts';
import { AssociacaoAgendamento } from './contract.ts';
import { E } from './errors.ts';
import { tipoExistente } from './referencias.ts';
import { escopoParceiro, SUJEITOS } from './representacao.ts';
import {
  addDias,
  contar,
  DESCRICOES,
  iso,
  MOTIVOS,
  motivoDe,
  type Slot,
  slotsDaExecucao,
  slotsDe,
  type Turnos,
  turnosDaPlanta,
} from './slots.ts';
import { agendaParaAlterar, FINALIZADOS, type StatusAgendamento } from './states.ts';
import { agenda } from './tables/agendas.ts';
import { type TipoRow, tipoPorRef } from './tipos.ts';

// Operating hours and slot capacity (spec 000 §4.4; docs/agenda.md "Operating hours and slots"):
// the queries that show a day's slots with their counts and the nearest bookable ones. The slots
// and their counting: slots.ts. The checked booking (the agenda entity) decides a slot's last place
// under an advisory lock: reserva.ts.

/** How many bookable slots the answer names, and how many days ahead it looks for them. */
export const PROXIMOS = 5;
export const DIAS_BUSCA = 14;

// --- the queries ------------------------------------------------------------------------------------

export const HorarioDisponivel = Type.Object(
  {
    inicio: DateTime({ description: 'start of the slot' }),
    fim: DateTime({ description: 'end of the slot' }),
    data: DateOnly({ description: "the slot's local date in the plant's time zone" }),
    horaInicio: Type.String({ description: 'local start, HH:mm' }),
    horaFim: Type.String({ description: 'local end, HH:mm' }),
    capacidade: Int64({ description: 'agendas the slot holds (capacidadePorSlot)' }),
    agendados: Int64({ description: 'agendas of the type that take the slot (cancelled ones excluded)' }),
    disponiveis: Int64({ description: 'capacidade - agendados, never below 0' }),
    disponivel: Type.Boolean({
      description: 'whether a booking (of the execution asked) can start here now',
    }),
    motivo: Type.Optional(
      Enum(MOTIVOS, {
        description:
          'why not: TIPO_INATIVO, TIPO_BLOQUEADO, PASSADO (started), ANTECEDENCIA (inside the lead time), ' +
          'FECHADO (the execution does not fit before closing), LOTADO (one of its slots is full)',
      }),
    ),
    motivoDescricao: Type.Optional(Type.String({ description: 'the reason in words, for the carrier' })),
  },
  { title: 'horarioDisponivel' },
);
type Horario = Static<typeof HorarioDisponivel>;

const Saida = Type.Object({
  horarios: Type.Array(HorarioDisponivel, {
    description: "the slots starting on the day, in the plant's zone",
  }),
  proximosHorariosDisponiveis: Type.Array(HorarioDisponivel, {
    description: `the first ${PROXIMOS} bookable slots from the day on (at most ${DIAS_BUSCA} days ahead)`,
  }),
  tipoAgendamentoId: Type.String({ format: 'uuid' }),
  plantaId: Type.String({ format: 'uuid' }),
  fusoHorario: Type.String(),
  duracaoSlotMinutos: Int64(),
  quantidadeSlots: Int64({ description: 'slots the execution takes (associacaoAgendamento × the rate)' }),
});

function horario(tipo: TipoRow, slots: Slot[], i: number, k: number, agora: number, ativa: boolean): Horario {
  const s = slots[i]!;
  const motivo = motivoDe(tipo, slots, i, k, agora, ativa);
  return {
    inicio: iso(s.inicio),
    fim: iso(s.fim),
    data: s.data,
    horaInicio: s.horaInicio,
    horaFim: s.horaFim,
    capacidade: tipo.capacidadePorSlot,
    agendados: s.agendados,
    disponiveis: Math.max(0, tipo.capacidadePorSlot - s.agendados),
    disponivel: motivo === undefined,
    ...(motivo ? { motivo, motivoDescricao: DESCRICOES[motivo](tipo, k) } : {}),
  };
}

/**
 * The type and the plant's shifts around the day, read at once (the shifts do not wait for the
 * type): the day's eve (an overnight shift opens the day) to the next day (an execution of several
 * slots may run into it). Both reads end before an error is thrown, the type's first.
 */
async function tipoETurnos(
  ctx: Ctx,
  tipo: Promise<TipoRow>,
  plantaRef: string,
  data: string,
): Promise<[TipoRow, Turnos]> {
  const [t, turnos] = await Promise.allSettled([
    tipo,
    turnosDaPlanta(ctx, plantaRef, addDias(data, -1), addDias(data, 1)),
  ]);
  if (t.status === 'rejected') throw t.reason;
  if (turnos.status === 'rejected') throw turnos.reason;
  return [t.value, turnos.value];
}

/** The answer of both queries: the day's slots with their counts, and the nearest bookable ones. */
async function horarios(
  ctx: Ctx,
  [tipo, t]: [TipoRow, Turnos],
  data: string,
  associacao: unknown,
  excluir?: string,
): Promise<Static<typeof Saida>> {
  const k = slotsDaExecucao(tipo, associacao);
  const agora = ctx.now().getTime();
  // The search for bookable slots starts on the day, or on today when the day is past (the eve
  // of UTC's today: no zone is a day behind it).
  const hoje = addDias(new Date(agora).toISOString().slice(0, 10), -1);
  const busca = data >= hoje ? data : hoje;
  if (t.plantaId !== tipo.plantaId)
    throw E.tipoOutraPlanta({ codigo: tipo.codigo, plantaTipo: tipo.plantaId, planta: t.plantaId });
  const todos = slotsDe(t, tipo.duracaoSlotMinutos, data, k > 1 ? addDias(data, 1) : data);
  const dia = todos.filter((s) => s.data === data);
  await contar(ctx, tipo.id, todos, excluir);
  const lista = dia.map((_, i) => horario(tipo, todos, i, k, agora, t.ativo));
  const proximos: Horario[] = [];
  if (tipo.ativo && !tipo.bloqueado && t.ativo) {
    if (busca === data)
      for (const h of lista) if (h.disponivel && proximos.length < PROXIMOS) proximos.push(h);
    if (proximos.length < PROXIMOS) {
      const de = busca === data ? addDias(data, 1) : busca;
      const resto = await proximosDias(ctx, tipo, de, DIAS_BUSCA - 1);
      await contar(ctx, tipo.id, resto, excluir);
      for (let i = 0; i < resto.length && proximos.length < PROXIMOS; i++) {
        const h = horario(tipo, resto, i, k, agora, t.ativo);
        if (h.disponivel) proximos.push(h);
      }
    }
  }
  return {
    horarios: lista,
    proximosHorariosDisponiveis: proximos,
    tipoAgendamentoId: tipo.id,
    plantaId: t.plantaId,
    fusoHorario: t.fusoHorario,
    duracaoSlotMinutos: tipo.duracaoSlotMinutos,
    quantidadeSlots: k,
  };
}

/** The slots of `dias` + 1 days from `de`. */
async function proximosDias(ctx: Ctx, tipo: TipoRow, de: string, dias: number): Promise<Slot[]> {
  const ate = addDias(de, dias);
  const t = await turnosDaPlanta(ctx, tipo.plantaId, addDias(de, -1), ate);
  return slotsDe(t, tipo.duracaoSlotMinutos, de, ate);
}

export const horariosOperacao = {
  horarioOperacao: query({
    description:
      "The slots of an appointment type on a day, in the plant's time zone, from the plant's shifts (yms/patio): " +
      'capacity, booked and available counts, why a slot cannot be booked, and the nearest bookable slots',
    // A carrier's portal shows the free slots before it books (docs/agenda.md "Keys acting for a
    // partner's user"): counts only, never whose agendas fill them.
    subjects: SUJEITOS,
    input: Type.Object({
      tipoAgendamentoId: Type.String({
        minLength: 1,
        maxLength: 50,
        description: 'the type: its id or its code',
      }),
      data: DateOnly({ description: "the day, in the plant's time zone" }),
      plantaId: Type.String({
        minLength: 1,
        maxLength: 36,
        description: "the plant: its id or its CNPJ; must be the type's plant",
      }),
      associacaoAgendamento: Type.Optional(AssociacaoAgendamento),
    }),
    output: Saida,
    handler: async (ctx, input) => {
      const lidos = await tipoETurnos(
        ctx,
        tipoPorRef(ctx, input.tipoAgendamentoId),
        input.plantaId,
        input.data,
      );
      return horarios(ctx, lidos, input.data, input.associacaoAgendamento);
    },
  }),

  horarioOperacaoParaReagendamento: query({
    description:
      'The slots of a day for moving an agenda: its type, plant and associacaoAgendamento; the agenda itself is not counted',
    get: true,
    // It reads the agenda as the moves do, locked (agendaParaAlterar): a query that locks.
    transaction: 'tenant',
    // A partner's user moves its partners' agendas: only those (another's is 404, as in the entity).
    subjects: SUJEITOS,
    input: Type.Object({
      agendaId: Type.String({ minLength: 1, maxLength: 36, description: 'the agenda: its id or its code' }),
      data: DateOnly({ description: "the day, in the plant's time zone" }),
    }),
    output: Saida,
    handler: async (ctx, input) => {
      const a = await agendaParaAlterar(ctx, input.agendaId, await escopoParceiro(ctx, agenda.parceiroId));
      if (FINALIZADOS.includes(a.status as StatusAgendamento))
        throw E.agendaFinalizada({ codigo: a.codigo, status: a.status });
      const lidos = await tipoETurnos(ctx, tipoExistente(ctx, a.tipoAgendamentoId), a.plantaId, input.data);
      return horarios(ctx, lidos, input.data, a.associacaoAgendamento, a.id);
    },
  }),
};
