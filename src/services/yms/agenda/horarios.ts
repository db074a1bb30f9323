import { and, count, eq, gte, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.ts';
import { query } from '../../../platform/registry.ts';
import { DateOnly, DateTime, Enum, Int64, type Static, Type } from '../../../platform/schema.ts';
import { AssociacaoAgendamento } from './contract.ts';
import { E } from './errors.ts';
import { tipoExistente } from './referencias.ts';
import { agendaParaAlterar, FINALIZADOS, type StatusAgendamento } from './states.ts';
import { agenda } from './tables.ts';
import { MAX_DURACAO_SLOT, type TipoRow, tipoPorRef } from './tipos.ts';

// Operating hours and slot capacity (spec 000 §4.4; docs/agenda.md "Operating hours and slots").
// A plant's shifts (yms/patio, through ctx.call) open intervals of time; an appointment type cuts
// them into slots of its length from each opening; a slot holds capacidadePorSlot agendas of the
// type. Counting reads the agendas of the type around the day in one grouped, indexed statement.
// The checked booking (the agenda entity) decides a slot's last place under an advisory lock.

export const MOTIVOS = [
  'TIPO_INATIVO',
  'TIPO_BLOQUEADO',
  'PASSADO',
  'ANTECEDENCIA',
  'FECHADO',
  'LOTADO',
] as const;
type Motivo = (typeof MOTIVOS)[number];
/** How many bookable slots the answer names, and how many days ahead it looks for them. */
export const PROXIMOS = 5;
export const DIAS_BUSCA = 14;
const MIN = 60_000;
const DIA = 86_400_000;

// --- time in the plant's zone --------------------------------------------------------------------

const formats = new Map<string, Intl.DateTimeFormat>();
function formatIn(fuso: string): Intl.DateTimeFormat {
  let f = formats.get(fuso);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: fuso,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(fuso, f);
  }
  return f;
}

/** The wall clock of `ms` in `fuso`: date, HH:mm, and the wall clock read as if it were UTC. */
export function local(ms: number, fuso: string): { data: string; hora: string; wall: number } {
  const p: Record<string, string> = {};
  for (const part of formatIn(fuso).formatToParts(new Date(ms))) p[part.type] = part.value;
  const data = `${p.year}-${p.month}-${p.day}`;
  const hora = `${p.hour}:${p.minute}`;
  return { data, hora, wall: Date.parse(`${data}T${hora}:${p.second}Z`) };
}

/** The wall clock of `ms` at a known UTC offset (ms): as `local`, without asking Intl. */
function comOffset(ms: number, offset: number): { data: string; hora: string; wall: number } {
  const iso = new Date(ms + offset).toISOString();
  return { data: iso.slice(0, 10), hora: iso.slice(11, 16), wall: ms + offset };
}

/** The instant at which the clocks of `fuso` read `data` `hora` (a skipped hour moves forward). */
export function instante(data: string, hora: string, fuso: string): number {
  const wall = Date.parse(`${data}T${hora}:00Z`);
  let t = wall - (local(wall, fuso).wall - wall);
  t = wall - (local(t, fuso).wall - t);
  return t;
}

export const addDias = (data: string, n: number) =>
  new Date(Date.parse(`${data}T00:00:00Z`) + n * DIA).toISOString().slice(0, 10);

// --- shifts and slots ------------------------------------------------------------------------------

interface Turnos {
  plantaId: string;
  fusoHorario: string;
  ativo: boolean;
  turnos: Array<{ data: string; horaInicio: string; horaFim: string }>;
}

/** The plant (id or CNPJ) and its shifts of the days `de`…`ate`, from yms/patio. */
function turnosDaPlanta(ctx: Ctx, plantaId: string, de: string, ate: string): Promise<Turnos> {
  return ctx.call<Turnos>('yms/patio/queries/listarTurnosPlanta', { plantaId, dataInicio: de, dataFim: ate });
}

export interface Slot {
  inicio: number;
  fim: number;
  data: string;
  horaInicio: string;
  horaFim: string;
  /** Which open interval the slot is in: an execution of several slots never leaves it. */
  janela: number;
  agendados: number;
}

/**
 * The slots of the type in the plant's open time: shifts merged where they overlap or touch (a
 * shift change does not cut an execution), each open interval cut into slots of the type's length
 * from its opening; only slots whose local start date is from `de` to `ate`.
 */
export function slotsDe(t: Turnos, duracaoMin: number, de: string, ate: string): Slot[] {
  const abertos = t.turnos
    .map((x) => {
      const inicio = instante(x.data, x.horaInicio, t.fusoHorario);
      const fimDia = x.horaFim <= x.horaInicio ? addDias(x.data, 1) : x.data;
      return { inicio, fim: instante(fimDia, x.horaFim, t.fusoHorario) };
    })
    .sort((a, b) => a.inicio - b.inicio);
  const janelas: Array<{ inicio: number; fim: number }> = [];
  for (const a of abertos) {
    const last = janelas.at(-1);
    if (last && a.inicio <= last.fim) last.fim = Math.max(last.fim, a.fim);
    else janelas.push({ ...a });
  }
  const dur = duracaoMin * MIN;
  const out: Slot[] = [];
  janelas.forEach((j, janela) => {
    // The zone's offset at both ends of the window: equal (no daylight-saving change inside, as a
    // window is at most a few weeks long), every slot's wall clock is plain arithmetic; otherwise
    // each is asked of Intl (hundreds of formatToParts calls were most of an answer's CPU).
    const offset = local(j.inicio, t.fusoHorario).wall - j.inicio;
    const fixo = local(j.fim, t.fusoHorario).wall - j.fim === offset;
    const relogio = (ms: number) => (fixo ? comOffset(ms, offset) : local(ms, t.fusoHorario));
    for (let inicio = j.inicio; inicio + dur <= j.fim; inicio += dur) {
      const a = relogio(inicio);
      if (a.data < de || a.data > ate) continue;
      const b = relogio(inicio + dur);
      out.push({
        inicio,
        fim: inicio + dur,
        data: a.data,
        horaInicio: a.hora,
        horaFim: b.hora,
        janela,
        agendados: 0,
      });
    }
  });
  return out;
}

/** How many slots an execution takes: quantidade × minutosPorUnidade, rounded up to whole slots. */
export function slotsDaExecucao(tipo: TipoRow, associacao: unknown): number {
  const quantidade = Number((associacao as { quantidade?: number } | null | undefined)?.quantidade ?? 0);
  if (!tipo.minutosPorUnidade || !(quantidade > 0)) return 1;
  const minutos = Math.ceil(quantidade * tipo.minutosPorUnidade);
  const slots = Math.max(1, Math.ceil(minutos / tipo.duracaoSlotMinutos));
  if (slots * tipo.duracaoSlotMinutos > MAX_DURACAO_SLOT)
    throw E.execucaoLonga({ minutos, slots, duracao: tipo.duracaoSlotMinutos });
  return slots;
}

/**
 * Fills `agendados` of the slots (sorted by start) from the agendas of the type that overlap them:
 * one statement grouped by (start, end), on the index (tenant, tipoAgendamentoId, dataEsperada).
 * Cancelled agendas do not count; `excluir` (the agenda being rescheduled) neither. An agenda
 * booked without the checks (no fimPrevisto) takes the slot its expected instant falls in.
 */
export async function contar(ctx: Ctx, tipoId: string, slots: Slot[], excluir?: string): Promise<void> {
  if (slots.length === 0) return;
  const de = new Date(slots[0]!.inicio - MAX_DURACAO_SLOT * MIN);
  const ate = new Date(slots.at(-1)!.fim);
  const where: SQL | undefined = and(
    eq(agenda.tipoAgendamentoId, tipoId),
    gte(agenda.dataEsperada, de),
    lt(agenda.dataEsperada, ate),
    ne(agenda.status, 'CANCELADO' satisfies StatusAgendamento),
    excluir ? ne(agenda.id, excluir) : undefined,
  );
  const grupos = await ctx.tx
    .select({ inicio: agenda.dataEsperada, fim: agenda.fimPrevisto, n: count() })
    .from(agenda)
    .where(ctx.store.scope(agenda, where))
    .groupBy(agenda.dataEsperada, agenda.fimPrevisto);
  for (const g of grupos) {
    const s = g.inicio.getTime();
    const e = g.fim ? g.fim.getTime() : undefined;
    // Binary search for the first slot that ends after the agenda starts.
    let lo = 0;
    let hi = slots.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (slots[mid]!.fim <= s) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < slots.length; i++) {
      const slot = slots[i]!;
      if (e === undefined) {
        if (slot.inicio <= s) slot.agendados += g.n;
        break;
      }
      if (slot.inicio >= e) break;
      slot.agendados += g.n;
    }
  }
}

/** Why slot `i` cannot take an execution of `k` slots of the type now; undefined when it can. */
function motivoDe(tipo: TipoRow, slots: Slot[], i: number, k: number, agora: number, plantaAtiva: boolean) {
  const slot = slots[i]!;
  if (!tipo.ativo) return 'TIPO_INATIVO';
  if (tipo.bloqueado) return 'TIPO_BLOQUEADO';
  if (slot.inicio <= agora) return 'PASSADO';
  if (slot.inicio < agora + tipo.antecedenciaMinutos * MIN) return 'ANTECEDENCIA';
  if (!plantaAtiva) return 'FECHADO';
  for (let j = 0; j < k; j++) {
    const next = slots[i + j];
    if (!next || next.janela !== slot.janela || next.inicio !== slot.inicio + j * (slot.fim - slot.inicio))
      return 'FECHADO';
  }
  for (let j = 0; j < k; j++) if (slots[i + j]!.agendados >= tipo.capacidadePorSlot) return 'LOTADO';
  return undefined;
}

const DESCRICOES: Record<Motivo, (tipo: TipoRow, k: number) => string> = {
  TIPO_INATIVO: () => 'o tipo de agendamento está inativo',
  TIPO_BLOQUEADO: (t) => `o tipo de agendamento está bloqueado: ${t.motivoBloqueio ?? 'sem motivo'}`,
  PASSADO: () => 'o horário já começou',
  ANTECEDENCIA: (t) => `agende com pelo menos ${t.antecedenciaMinutos} minutos de antecedência`,
  FECHADO: (_t, k) =>
    k > 1 ? `a execução (${k} horários) não cabe antes do fechamento da planta` : 'a planta está fechada',
  LOTADO: (t) => `todos os ${t.capacidadePorSlot} lugares estão ocupados`,
};

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
    inicio: new Date(s.inicio).toISOString(),
    fim: new Date(s.fim).toISOString(),
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

/** The answer of both queries: the day's slots with their counts, and the nearest bookable ones. */
async function horarios(
  ctx: Ctx,
  tipo: TipoRow,
  plantaRef: string,
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
  // The day's eve (an overnight shift opens the day) to the next day (an execution of several
  // slots may run into it).
  const t = await turnosDaPlanta(ctx, plantaRef, addDias(data, -1), addDias(data, 1));
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
      const tipo = await tipoPorRef(ctx, input.tipoAgendamentoId);
      return horarios(ctx, tipo, input.plantaId, input.data, input.associacaoAgendamento);
    },
  }),

  horarioOperacaoParaReagendamento: query({
    description:
      'The slots of a day for moving an agenda: its type, plant and associacaoAgendamento; the agenda itself is not counted',
    get: true,
    input: Type.Object({
      agendaId: Type.String({ minLength: 1, maxLength: 36, description: 'the agenda: its id or its code' }),
      data: DateOnly({ description: "the day, in the plant's time zone" }),
    }),
    output: Saida,
    handler: async (ctx, input) => {
      const a = await agendaParaAlterar(ctx, input.agendaId);
      if (FINALIZADOS.includes(a.status as StatusAgendamento))
        throw E.agendaFinalizada({ codigo: a.codigo, status: a.status });
      const tipo = await tipoExistente(ctx, a.tipoAgendamentoId);
      return horarios(ctx, tipo, a.plantaId, input.data, a.associacaoAgendamento, a.id);
    },
  }),
};

// --- the checked booking ------------------------------------------------------------------------------

export interface Reserva {
  tipoAgendamentoId: string;
  plantaId: string;
  dataEsperada: Date;
  associacaoAgendamento?: unknown;
  /** The agenda being moved: not counted. */
  agendaId?: string;
}

/**
 * Checks a booking of the carriers (the agenda entity: POST, and PUT/PATCH that move it) and
 * returns the end of its execution: the type exists, is active, unblocked and of the plant; the
 * instant is the start of a slot of the plant's open time, outside the lead time; every slot the
 * execution takes has a free place. The places are decided under transaction-scoped advisory
 * locks on (tenant, type, slot start), taken in time order: a concurrent booking of the same slot
 * waits for this transaction, then counts again and sees this one (DESIGN.md "Persistence").
 */
export async function verificarReserva(ctx: Ctx, r: Reserva): Promise<Date> {
  const tipo = await tipoExistente(ctx, r.tipoAgendamentoId);
  if (tipo.plantaId !== r.plantaId)
    throw E.tipoOutraPlanta({ codigo: tipo.codigo, plantaTipo: tipo.plantaId, planta: r.plantaId });
  const ms = r.dataEsperada.getTime();
  const inicioIso = r.dataEsperada.toISOString();
  const indisponivel = (motivo: Motivo, detalhe: string) =>
    E.horarioIndisponivel({ inicio: inicioIso, codigo: tipo.codigo, motivo, detalhe });
  // The type's own state first: no slot of an inactive or blocked type is bookable.
  if (!tipo.ativo) throw indisponivel('TIPO_INATIVO', DESCRICOES.TIPO_INATIVO(tipo, 1));
  if (tipo.bloqueado) throw indisponivel('TIPO_BLOQUEADO', DESCRICOES.TIPO_BLOQUEADO(tipo, 1));
  const k = slotsDaExecucao(tipo, r.associacaoAgendamento);
  const utc = inicioIso.slice(0, 10);
  // Every zone is within a day of UTC: the local day is one of these three, its eve one more.
  const t = await turnosDaPlanta(ctx, r.plantaId, addDias(utc, -2), addDias(utc, 2));
  const slots = slotsDe(t, tipo.duracaoSlotMinutos, addDias(utc, -1), addDias(utc, 2));
  const i = slots.findIndex((s) => s.inicio === ms);
  if (i < 0) {
    const { data, hora } = local(ms, t.fusoHorario);
    throw indisponivel(
      'FECHADO',
      `${data} ${hora} (${t.fusoHorario}) não é o início de um horário: a planta está fechada ou os horários ` +
        `de ${tipo.duracaoSlotMinutos} minutos começam na abertura do turno (consulte horarioOperacao)`,
    );
  }
  const agora = ctx.now().getTime();
  const antes = motivoDe(tipo, slots, i, k, agora, t.ativo);
  if (antes && antes !== 'LOTADO') throw indisponivel(antes, DESCRICOES[antes](tipo, k));
  const ocupados = slots.slice(i, i + k);
  for (const s of ocupados)
    await ctx.tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`${ctx.tenant.name}:${tipo.id}`}), ${Math.floor(s.inicio / MIN)}::int)`,
    );
  await contar(ctx, tipo.id, ocupados, r.agendaId);
  const cheio = ocupados.find((s) => s.agendados >= tipo.capacidadePorSlot);
  if (cheio)
    throw E.horarioLotado({
      inicio: new Date(cheio.inicio).toISOString(),
      codigo: tipo.codigo,
      agendados: cheio.agendados,
      capacidade: tipo.capacidadePorSlot,
    });
  return new Date(ms + k * tipo.duracaoSlotMinutos * MIN);
}
