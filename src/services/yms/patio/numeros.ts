import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { query } from '../../../platform/core/registry.ts';
import { DateOnly, DateTime, Enum, Type } from '../../../platform/core/schema.ts';
import { StatusAgendamento } from '../agenda/contract.ts';
import { E } from './errors.ts';
import {
  AGENDA_DO_DIA,
  DIA_DA_PLANTA,
  PERMANENCIA,
  PERMANENCIA_AREAS,
  PONTUALIDADE,
  VEICULOS_NO_PATIO,
} from './numeros-sql.ts';
import { planta } from './tables/plantas.ts';

// The day's numbers of a plant's yard (docs/patio.md "The day's numbers"; the console shows them,
// docs/console.md): vehicles in the yard now, turn and dwell times, arrivals against the expected
// time, overdue agendas, and the day's schedule. The SQL is numeros-sql.ts; this file declares the
// queries and shapes their answers.

/** How many rows a list answers at most (the count is always the whole). */
export const MAX_LINHAS = 1000;
const SITUACOES = [
  'NO_HORARIO',
  'ADIANTADA',
  'ATRASADA',
  'VENCIDA',
  'AGUARDANDO',
  'SEM_AGENDAMENTO',
  'CANCELADA',
] as const;

const Uuid = (description: string) => Type.String({ format: 'uuid', description });
const opt = Type.Optional;
const Int = (description: string) => Type.Integer({ description });
const Segundos = (description: string) => opt(Type.Integer({ description }));

const Dia = {
  plantaId: Uuid('the plant'),
  data: opt(DateOnly({ description: "the day, in the plant's time zone; default today there" })),
};
const Tolerancia = opt(
  Type.Integer({
    minimum: 0,
    maximum: 720,
    default: 15,
    description: 'minutes either side of the expected time that still count as on time; default 15',
  }),
);

/** The plant (404 when unknown in the tenant). */
async function plantaOf(ctx: Ctx, plantaId: string) {
  const [p] = await ctx.store.select(planta, eq(planta.id, plantaId));
  if (!p) throw E.plantaNotFound({ id: plantaId });
  return p;
}

type Linha = Record<string, unknown>;
const iso = (v: unknown) => (v == null ? undefined : new Date(v as string).toISOString());
/** A row without its null fields (empty fields are left out, as everywhere in the API). */
const semNulos = (row: Linha) => Object.fromEntries(Object.entries(row).filter(([, v]) => v != null));
/**
 * The plant's day (404 for an unknown plant): its date, time zone, and the values the day's
 * statements take — its bounds as instants, and now.
 */
async function diaDa(ctx: Ctx, input: { plantaId: string; data?: string | undefined }) {
  const agora = ctx.now().toISOString();
  const { rows } = await ctx.store.run(DIA_DA_PLANTA, {
    plantaId: input.plantaId,
    data: input.data ?? null,
    agora,
  });
  const d = rows[0];
  if (!d) throw E.plantaNotFound({ id: input.plantaId });
  return {
    data: String(d.data),
    fusoHorario: String(d.fusoHorario),
    valores: {
      plantaId: input.plantaId,
      ini: new Date(d.ini as string).toISOString(),
      fim: new Date(d.fim as string).toISOString(),
      agora,
    },
  };
}

const Tempo = Type.Object({
  quantidade: Int('how many stays (or arrivals) ended in the day'),
  mediaSegundos: Segundos('the average, in seconds; absent when none ended'),
  p90Segundos: Segundos('the 90th percentile (percentile_cont), in seconds; absent when none ended'),
});

export const numeros = {
  veiculosNoPatio: query({
    description:
      "The vehicles in the plant's yard now (entered, not exited), longest first, with the area each was last " +
      'reported in, and whether it holds a spot or waits in a queue; quantidade counts them all, the list is the first 1000',
    get: true,
    input: Type.Object({ plantaId: Uuid('the plant') }),
    output: Type.Object({
      quantidade: Int('vehicles in the yard now'),
      veiculos: Type.Array(
        Type.Object({
          veiculoId: Type.String(),
          placa: Type.String(),
          motorista: opt(Type.String({ description: "the driver's name" })),
          entradaEm: DateTime({ description: 'when it entered the yard' }),
          areaId: opt(Type.String({ description: 'the area it was last reported in (open arrival)' })),
          areaCodigo: opt(Type.String()),
          areaDescricao: opt(Type.String()),
          chegadaArea: opt(DateTime({ description: 'when it arrived in that area' })),
          temVaga: Type.Boolean({ description: 'it holds a spot' }),
          naFila: Type.Boolean({ description: "it waits in an area's queue" }),
        }),
      ),
    }),
    handler: async (ctx, input) => {
      await plantaOf(ctx, input.plantaId);
      const { rows } = await ctx.store.run(VEICULOS_NO_PATIO, {
        plantaId: input.plantaId,
        limite: MAX_LINHAS,
      });
      return {
        quantidade: Number(rows[0]?.total ?? 0),
        veiculos: rows.map(({ total: _t, ...r }) =>
          semNulos({ ...r, entradaEm: iso(r.entradaEm), chegadaArea: iso(r.chegadaArea) }),
        ) as never,
      };
    },
  }),

  temposDoDia: query({
    description:
      "Turn time (yard entry to exit) of the stays that ended in the plant's day, and dwell time per area (arrival " +
      'to leaving the area) of the arrivals that ended in it: count, average and 90th percentile in seconds',
    get: true,
    input: Type.Object(Dia),
    output: Type.Object({
      data: DateOnly({ description: "the day, in the plant's time zone" }),
      permanenciaPatio: Tempo,
      areas: Type.Array(
        Type.Object({
          areaId: Type.String(),
          codigo: Type.String(),
          descricao: Type.String(),
          ...Tempo.properties,
        }),
      ),
    }),
    handler: async (ctx, input) => {
      const dia = await diaDa(ctx, input);
      const [{ rows: total }, { rows: areas }] = [
        await ctx.store.run(PERMANENCIA, dia.valores),
        await ctx.store.run(PERMANENCIA_AREAS, dia.valores),
      ];
      const tempo = (r: Linha) => ({
        quantidade: Number(r.quantidade ?? 0),
        ...(r.media == null ? {} : { mediaSegundos: Number(r.media), p90Segundos: Number(r.p90) }),
      });
      return {
        data: dia.data,
        permanenciaPatio: tempo(total[0]!),
        areas: areas.map((a) => ({
          areaId: String(a.areaId),
          codigo: String(a.codigo),
          descricao: String(a.descricao),
          ...tempo(a),
        })),
      };
    },
  }),

  pontualidadeDoDia: query({
    description:
      "The plant's agendas of the day against their expected time: arrivals (first yard entry of the agenda's vehicle " +
      'within 12 h of dataEsperada) on time, early and late by toleranciaMinutos; overdue agendas (not started, not ' +
      'arrived, expected time plus tolerance passed); waiting, unscheduled and cancelled ones',
    get: true,
    input: Type.Object({ ...Dia, toleranciaMinutos: Tolerancia }),
    output: Type.Object({
      data: DateOnly({ description: "the day, in the plant's time zone" }),
      toleranciaMinutos: Int('the tolerance applied'),
      total: Int('agendas of the day'),
      noHorario: Int('arrived within the tolerance'),
      adiantadas: Int('arrived earlier'),
      atrasadas: Int('arrived later'),
      vencidas: Int('overdue: not started, not arrived, expected time plus tolerance passed'),
      aguardando: Int('not arrived, not yet overdue (or started without a yard entry)'),
      semAgendamento: Int('unscheduled arrivals (agendas created by arrival control)'),
      canceladas: Int('cancelled without arriving'),
    }),
    handler: async (ctx, input) => {
      const dia = await diaDa(ctx, input);
      const tolerancia = input.toleranciaMinutos ?? 15;
      const { rows } = await ctx.store.run(PONTUALIDADE, { ...dia.valores, tolerancia });
      const contagens = rows[0]!;
      return {
        data: dia.data,
        toleranciaMinutos: tolerancia,
        ...Object.fromEntries(Object.entries(contagens).map(([k, n]) => [k, Number(n)])),
      } as never;
    },
  }),

  agendaDoDia: query({
    description:
      "The plant's agendas of the day, by expected time: type, plate, driver, state, arrival, where each stands " +
      'against its expected time (situacao, as pontualidadeDoDia counts them) and its yard step; the first 1000',
    get: true,
    input: Type.Object({ ...Dia, toleranciaMinutos: Tolerancia }),
    output: Type.Object({
      data: DateOnly({ description: "the day, in the plant's time zone" }),
      fusoHorario: Type.String({ description: "the plant's IANA time zone" }),
      agendas: Type.Array(
        Type.Object({
          agendaId: Type.String(),
          codigo: Type.Integer(),
          descricao: opt(Type.String()),
          dataEsperada: DateTime(),
          fimPrevisto: opt(DateTime()),
          status: StatusAgendamento,
          unscheduled: Type.Boolean(),
          situacao: Enum(SITUACOES, { description: SITUACOES.join(', ') }),
          chegada: opt(DateTime({ description: "the vehicle's yard entry counted as its arrival" })),
          tipoAgendamentoId: Type.String(),
          tipoCodigo: opt(Type.String()),
          tipoDescricao: opt(Type.String()),
          placa: opt(Type.String()),
          motorista: opt(Type.String({ description: "the driver's name" })),
          execucaoSituacao: opt(
            Type.String({ description: 'its yard execution: EXECUTANDO, FINALIZADO, CANCELADO' }),
          ),
          etapa: opt(Type.String({ description: "the execution's current step (sequence name)" })),
          etapaOrdem: opt(Type.Integer()),
          etapaAreaCodigo: opt(Type.String()),
          etapaAreaDescricao: opt(Type.String()),
        }),
      ),
    }),
    handler: async (ctx, input) => {
      const dia = await diaDa(ctx, input);
      const tolerancia = input.toleranciaMinutos ?? 15;
      const { rows } = await ctx.store.run(AGENDA_DO_DIA, {
        ...dia.valores,
        tolerancia,
        limite: MAX_LINHAS,
      });
      return {
        data: dia.data,
        fusoHorario: dia.fusoHorario,
        agendas: rows.map((r) =>
          semNulos({
            ...r,
            dataEsperada: iso(r.dataEsperada),
            fimPrevisto: iso(r.fimPrevisto),
            chegada: iso(r.chegada),
            etapaOrdem: r.etapaOrdem == null ? null : Number(r.etapaOrdem),
          }),
        ) as never,
      };
    },
  }),
};
