import { and, asc, eq, gte, lte } from 'drizzle-orm';
import { semPontuacao } from '../../../platform/core/cpf-cnpj.ts';
import { statement } from '../../../platform/core/db/statement.ts';
import { action, query } from '../../../platform/core/registry.ts';
import { DateOnly, Int64, Type } from '../../../platform/core/schema.ts';
import { alteradoPor, compact, dateIn, quem } from './common.ts';
import { Hora, turno as turnoEntity } from './entities.ts';
import { E } from './errors.ts';
import { planta, turno } from './tables/plantas.ts';

// Shifts by weekday (spec 000 §4.2, §8; docs/patio.md "Shifts"): one shift per matching day from
// today, in the plant's time zone, to 31 December. Existing shifts (same plant, date and hours) are
// kept as they are, so calling again creates only what is missing.

/** listarTurnosPlanta's reads (yms/agenda's slots ask them on every call), built once (core/db/statement.ts). */
const plantaPorId = statement('yms.patio.plantaPorId', (b) =>
  b.db
    .select()
    .from(planta)
    .where(b.scope(planta, eq(planta.id, b.param('id')))),
);
const turnosDoPeriodo = statement('yms.patio.turnosDoPeriodo', (b) =>
  b.db
    .select()
    .from(turno)
    .where(
      b.scope(
        turno,
        and(
          eq(turno.plantaId, b.param('plantaId')),
          gte(turno.data, b.param('de')),
          lte(turno.data, b.param('ate')),
        ),
      ),
    )
    .orderBy(asc(turno.data), asc(turno.horaInicio)),
);

/** How many years ahead `ano` may reach: a bound on the rows one call writes. */
export const MAX_ANOS_A_FRENTE = 5;

/** ISO weekday of a YYYY-MM-DD date: 1 Monday … 7 Sunday. */
const weekday = (date: string) => {
  const d = new Date(`${date}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
};

/** Every date from `from` to `to` (YYYY-MM-DD, inclusive). */
function* days(from: string, to: string): Generator<string> {
  for (
    let d = new Date(`${from}T00:00:00Z`);
    d.toISOString().slice(0, 10) <= to;
    d.setUTCDate(d.getUTCDate() + 1)
  )
    yield d.toISOString().slice(0, 10);
}

/** The longest range listarTurnosPlanta answers: a bound on the rows one call reads. */
export const MAX_DIAS_TURNOS = 62;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const turnos = {
  listarTurnosPlanta: query({
    description:
      'Internal (yms/agenda operating hours): the plant named by its id or CNPJ, its time zone and its shifts ' +
      'whose day (the day a shift starts) is from dataInicio to dataFim, in order of day and start',
    input: Type.Object({
      plantaId: Type.String({
        minLength: 1,
        maxLength: 36,
        description: 'the plant: its id, or its CNPJ (with or without punctuation)',
      }),
      dataInicio: DateOnly({ description: 'first shift day' }),
      dataFim: DateOnly({ description: `last shift day; at most ${MAX_DIAS_TURNOS} days after dataInicio` }),
    }),
    output: Type.Object({
      plantaId: Type.String({ format: 'uuid' }),
      fusoHorario: Type.String({ description: 'IANA time zone of the plant' }),
      ativo: Type.Boolean(),
      turnos: Type.Array(
        Type.Object({
          id: Type.String({ format: 'uuid' }),
          data: DateOnly(),
          horaInicio: Type.String(),
          horaFim: Type.String({ description: 'before horaInicio: the shift ends on the next day' }),
          descricao: Type.Optional(Type.String()),
        }),
      ),
    }),
    handler: async (ctx, input) => {
      const ref = input.plantaId.trim();
      const cnpj = semPontuacao(ref);
      const where = UUID.test(ref)
        ? eq(planta.id, ref.toLowerCase())
        : cnpj.length === 14
          ? eq(planta.cnpj, cnpj) // stored without punctuation, one plant per CNPJ (patio_planta_cnpj)
          : undefined;
      const dias = (Date.parse(input.dataFim) - Date.parse(input.dataInicio)) / 86_400_000;
      const periodo = { de: input.dataInicio, ate: input.dataFim };
      // By id, the plant and its shifts are read at once (yms/agenda's slots ask on every call);
      // by CNPJ, the shifts wait for the plant's id.
      const porId = UUID.test(ref) ? ref.toLowerCase() : undefined;
      const [[p], doId] = await Promise.all([
        porId
          ? ctx.store.run(plantaPorId, { id: porId })
          : where
            ? ctx.store.select(planta, where)
            : Promise.resolve([]),
        porId && dias >= 0 && dias <= MAX_DIAS_TURNOS
          ? ctx.store.run(turnosDoPeriodo, { plantaId: porId, ...periodo })
          : undefined,
      ]);
      if (!p) throw E.plantaNotFound({ id: input.plantaId });
      if (dias < 0 || dias > MAX_DIAS_TURNOS)
        throw E.periodoTurnosInvalido({ inicio: input.dataInicio, fim: input.dataFim, max: MAX_DIAS_TURNOS });
      const rows = doId ?? (await ctx.store.run(turnosDoPeriodo, { plantaId: p.id, ...periodo }));
      return {
        plantaId: p.id,
        fusoHorario: p.fusoHorario,
        ativo: p.ativo,
        turnos: rows.map((r) =>
          compact({
            id: r.id,
            data: r.data,
            horaInicio: r.horaInicio,
            horaFim: r.horaFim,
            descricao: r.descricao ?? undefined,
          }),
        ),
      };
    },
  }),

  cadastrarTurnoPorDiaSemana: action({
    description:
      "Creates a shift on every chosen weekday from today (in the plant's time zone) to 31 December of ano " +
      '(default: the current year), skipping the days that already have that shift; returns the shifts created',
    input: Type.Object({
      horaInicio: Hora('start'),
      horaFim: Hora('end; before horaInicio: the shift ends on the next day'),
      plantaId: Type.String({ format: 'uuid', description: 'the plant' }),
      dias: Type.Array(Int64({ minimum: 1, maximum: 7 }), {
        minItems: 1,
        maxItems: 7,
        description: 'weekdays: 1 Monday … 7 Sunday',
      }),
      descricao: Type.Optional(Type.String({ maxLength: 100 })),
      ano: Type.Optional(
        Int64({
          minimum: 2000,
          maximum: 9999,
          description: `year to fill up to; current year to +${MAX_ANOS_A_FRENTE}`,
        }),
      ),
    }),
    output: Type.Object({ turnos: Type.Array(turnoEntity.schema) }),
    handler: async (ctx, input) => {
      const [p] = await ctx.store.select(planta, eq(planta.id, input.plantaId));
      if (!p) throw E.plantaNotFound({ id: input.plantaId });
      if (input.horaInicio === input.horaFim) throw E.horarioInvalido({ hora: input.horaInicio });
      const hoje = dateIn(p.fusoHorario, ctx.now());
      const anoAtual = Number(hoje.slice(0, 4));
      const ano = input.ano ?? anoAtual;
      if (ano < anoAtual || ano > anoAtual + MAX_ANOS_A_FRENTE)
        throw E.anoInvalido({ ano, min: anoAtual, max: anoAtual + MAX_ANOS_A_FRENTE });
      const dias = new Set(input.dias);
      const audit = { createdBy: quem(ctx), createdDate: ctx.now(), ...alteradoPor(ctx) };
      const rows = [...days(hoje, `${ano}-12-31`)]
        .filter((data) => dias.has(weekday(data)))
        .map((data) => ({
          plantaId: p.id,
          data,
          horaInicio: input.horaInicio,
          horaFim: input.horaFim,
          descricao: input.descricao ?? null,
          ...audit,
        }));
      if (rows.length === 0) return { turnos: [] };
      // The unique index (plant, date, hours) decides what already exists, also against a concurrent call.
      const created = await ctx.store.insert(turno, rows).onConflictDoNothing().returning();
      created.sort((a, b) => a.data.localeCompare(b.data));
      return { turnos: created.map(compact) };
    },
  }),
};
