import { and, count, eq, gte, lt, ne } from 'drizzle-orm';
import { statement } from '../../../platform/core/db/statement.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { E } from './errors.ts';
import type { StatusAgendamento } from './states.ts';
import { agenda } from './tables/agendas.ts';
import { MAX_DURACAO_SLOT, type TipoRow } from './tipos.ts';

// The slots of operating hours (spec 000 §4.4; docs/agenda.md "Operating hours and slots").
// A plant's shifts (yms/patio, through ctx.call) open intervals of time; an appointment type cuts
// them into slots of its length from each opening; a slot holds capacidadePorSlot agendas of the
// type. Counting reads the agendas of the type around the day in one grouped, indexed statement.
// The queries that show them: horarios.ts; the checked booking that takes them: reserva.ts.

export const MOTIVOS = [
  'TIPO_INATIVO',
  'TIPO_BLOQUEADO',
  'PASSADO',
  'ANTECEDENCIA',
  'FECHADO',
  'LOTADO',
] as const;
export type Motivo = (typeof MOTIVOS)[number];
export const MIN = 60_000;
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

/** The date of the last day comOffset was asked, its day number: slots come day after day. */
let ultimoDia = Number.NaN;
let ultimaData = '';
const dois = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The wall clock of `ms` at a known UTC offset (ms): as `local`, without asking Intl. */
function comOffset(ms: number, offset: number): { data: string; hora: string; wall: number } {
  const wall = ms + offset;
  const dia = Math.floor(wall / DIA);
  if (dia !== ultimoDia) {
    ultimoDia = dia;
    ultimaData = new Date(dia * DIA).toISOString().slice(0, 10);
  }
  const minutos = Math.floor((wall - dia * DIA) / MIN);
  return { data: ultimaData, hora: `${dois(Math.floor(minutos / 60))}:${dois(minutos % 60)}`, wall };
}

/** offset's answers: a window's ends are the same on every call for its days. */
const offsets = new Map<string, number>();

/** The UTC offset (ms) of `fuso` at `ms`, remembered (an Intl call each, asked on every call). */
function offset(ms: number, fuso: string): number {
  const key = `${fuso} ${ms}`;
  let known = offsets.get(key);
  if (known === undefined) {
    known = local(ms, fuso).wall - ms;
    if (offsets.size >= 10_000) offsets.clear();
    offsets.set(key, known);
  }
  return known;
}

/** The date of the last day iso was asked, as `YYYY-MM-DDT`, and its day number. */
let isoDia = Number.NaN;
let isoPrefixo = '';

/** `new Date(ms).toISOString()`, by arithmetic for whole minutes (every slot's ends). */
export function iso(ms: number): string {
  if (ms % MIN !== 0) return new Date(ms).toISOString();
  const dia = Math.floor(ms / DIA);
  if (dia !== isoDia) {
    isoDia = dia;
    isoPrefixo = new Date(dia * DIA).toISOString().slice(0, -13);
  }
  const minutos = (ms - dia * DIA) / MIN;
  return `${isoPrefixo}${dois(Math.floor(minutos / 60))}:${dois(minutos % 60)}:00.000Z`;
}

/** instante's answers: a shift's ends are asked on every call for its day (4 Intl calls each). */
const instantes = new Map<string, number>();

/** The instant at which the clocks of `fuso` read `data` `hora` (a skipped hour moves forward). */
export function instante(data: string, hora: string, fuso: string): number {
  const key = `${fuso} ${data} ${hora}`;
  const known = instantes.get(key);
  if (known !== undefined) return known;
  const wall = Date.parse(`${data}T${hora}:00Z`);
  let t = wall - (local(wall, fuso).wall - wall);
  t = wall - (local(t, fuso).wall - t);
  if (instantes.size >= 10_000) instantes.clear();
  instantes.set(key, t);
  return t;
}

export const addDias = (data: string, n: number) =>
  new Date(Date.parse(`${data}T00:00:00Z`) + n * DIA).toISOString().slice(0, 10);

// --- shifts and slots ------------------------------------------------------------------------------

export interface Turnos {
  plantaId: string;
  fusoHorario: string;
  ativo: boolean;
  turnos: Array<{ data: string; horaInicio: string; horaFim: string }>;
}

/** The plant (id or CNPJ) and its shifts of the days `de`…`ate`, from yms/patio. */
export function turnosDaPlanta(ctx: Ctx, plantaId: string, de: string, ate: string): Promise<Turnos> {
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
    const noInicio = offset(j.inicio, t.fusoHorario);
    const fixo = offset(j.fim, t.fusoHorario) === noInicio;
    const relogio = (ms: number) => (fixo ? comOffset(ms, noInicio) : local(ms, t.fusoHorario));
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

/** contar's grouped count, built once (platform/core/db/statement.ts); without or with the agenda excluded. */
function contagemDe(excluindo: boolean) {
  return statement(`yms.agenda.contar${excluindo ? '.excluindo' : ''}`, (b) =>
    b.db
      .select({ inicio: agenda.dataEsperada, fim: agenda.fimPrevisto, n: count() })
      .from(agenda)
      .where(
        b.scope(
          agenda,
          and(
            eq(agenda.tipoAgendamentoId, b.param('tipoId')),
            gte(agenda.dataEsperada, b.param('de')),
            lt(agenda.dataEsperada, b.param('ate')),
            ne(agenda.status, 'CANCELADO' satisfies StatusAgendamento),
            excluindo ? ne(agenda.id, b.param('excluir')) : undefined,
          ),
        ),
      )
      .groupBy(agenda.dataEsperada, agenda.fimPrevisto),
  );
}
const contagem = { todas: contagemDe(false), excluindo: contagemDe(true) };

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
  const grupos = await ctx.store.run(excluir ? contagem.excluindo : contagem.todas, {
    tipoId,
    de,
    ate,
    excluir,
  });
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
export function motivoDe(
  tipo: TipoRow,
  slots: Slot[],
  i: number,
  k: number,
  agora: number,
  plantaAtiva: boolean,
) {
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

export const DESCRICOES: Record<Motivo, (tipo: TipoRow, k: number) => string> = {
  TIPO_INATIVO: () => 'o tipo de agendamento está inativo',
  TIPO_BLOQUEADO: (t) => `o tipo de agendamento está bloqueado: ${t.motivoBloqueio ?? 'sem motivo'}`,
  PASSADO: () => 'o horário já começou',
  ANTECEDENCIA: (t) => `agende com pelo menos ${t.antecedenciaMinutos} minutos de antecedência`,
  FECHADO: (_t, k) =>
    k > 1 ? `a execução (${k} horários) não cabe antes do fechamento da planta` : 'a planta está fechada',
  LOTADO: (t) => `todos os ${t.capacidadePorSlot} lugares estão ocupados`,
};
