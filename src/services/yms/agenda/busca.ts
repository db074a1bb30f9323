import { and, asc, desc, eq, gte, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  containsPattern,
  fitsSearchColumn,
  likeFolded,
  searchColumnHas,
} from '../../../platform/core/db/search.ts';
import { Where } from '../../../platform/core/db/where.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { action, query } from '../../../platform/core/registry.ts';
import { DateTime, Enum, Int64, Type } from '../../../platform/core/schema.ts';
import { pesquisaNosCadastros } from './cadastros.ts';
import { SORT_FIELDS, StatusAgendamento } from './contract.ts';
import { agenda as agendaEntity } from './entities.ts';
import { E } from './errors.ts';
import { noEscopoParceiro, SUJEITOS } from './representacao.ts';
import { compact, type StatusAgendamento as Status } from './states.ts';
import { agendaBusca } from './tables/agendas.ts';

/** Searches read the search view, so the trigram indexes serve pesquisa (tables/agendas.ts). */
const agenda = agendaBusca;

// Searching agendas (docs/agenda.md "Searching"): one set of filters, ANDed, turned into one WHERE
// clause, and one paging function. pesquisarAgendas (yms/patio's filtrarAgenda), agenda's own
// filtrarAgenda and getAgendasPorPeriodo are each a mapping of their inputs onto these filters.

export const MAX_PAGE_SIZE = 1000;

/** Not started yet: the states an agenda is overdue in (design, docs/agenda.md "filtrarAgenda"). */
export const NAO_INICIADOS: readonly Status[] = ['AGENDADO', 'AGUARDANDO_INTEGRACAO', 'ERRO_INTEGRACAO'];

/** The free text and the vehicles and drivers yms/patio matched with it (ids). */
export interface PesquisaNoPatio {
  texto: string;
  veiculoIds: string[];
  motoristaIds: string[];
}

/** What the free text matches, ORed (see PESQUISA): patio's ids and this service's partners and types. */
export interface Pesquisa extends PesquisaNoPatio {
  parceiroIds: string[];
  tipoIds: string[];
}

/**
 * The ways a free text matches an agenda, ORed, each served by an index: the text in the description,
 * key or group (one search column); the code, for a text of digits; and the plates and drivers
 * yms/patio matched, and this service's partners and types (pesquisaNosCadastros), as ids.
 */
function pesquisaEm(w: Where, p: Pesquisa): void {
  const padrao = containsPattern(p.texto);
  if (fitsSearchColumn(p.texto)) w.value('texto', padrao, (v) => searchColumnHas(agenda.busca, v));
  // Another text, so another name: a name stands for one text of its condition (where.ts).
  else
    w.value('textoEmCadaCampo', padrao, (v) =>
      or(...[agenda.descricao, agenda.chaveIntegracao, agenda.codigoAgrupador].map((c) => likeFolded(c, v))),
    );
  if (/^\d{1,15}$/.test(p.texto)) w.value('codigoTexto', Number(p.texto), (c) => eq(agenda.codigo, c));
  w.list('veiculos', p.veiculoIds, (ids) => inArray(agenda.veiculoId, ids));
  w.list('motoristas', p.motoristaIds, (ids) => inArray(agenda.motoristaId, ids));
  w.list('parceiros', p.parceiroIds, (ids) => inArray(agenda.parceiroId, ids));
  w.list('tipos', p.tipoIds, (ids) => inArray(agenda.tipoAgendamentoId, ids));
}

/**
 * Not started, with the states as constants in the SQL (not parameters): the planner then proves the
 * partial index agenda_nao_iniciada serves it, in the generic plan of the named statement too.
 */
const NAO_INICIADA = sql`${agenda.status} in (${sql.raw(NAO_INICIADOS.map((s) => `'${s}'`).join(', '))})`;

export interface Filtros {
  plantaId?: string | undefined;
  parceiroId?: string | undefined;
  tipoAgendamentoIds?: string[] | undefined;
  motoristaId?: string | undefined;
  veiculoId?: string | undefined;
  /** Part of the description. */
  descricao?: string | undefined;
  /** The local day of the expected date in a zone. */
  dia?: { data: string; fuso: string } | undefined;
  /** Expected from (inclusive). */
  desde?: Date | undefined;
  /** Expected until (inclusive). */
  ate?: Date | undefined;
  status?: string[] | undefined;
  /** Overdue: not started and expected more than `horas` hours before `agora`. */
  vencidas?: { horas: number; agora: Date } | undefined;
  codigoAgrupador?: string | undefined;
  codigo?: number | undefined;
  chaveIntegracao?: string | undefined;
  unscheduled?: boolean | undefined;
  /** Free text: the partners and types it matches are resolved here (pesquisaNosCadastros). */
  pesquisa?: PesquisaNoPatio | undefined;
  /** The partners and types the free text matches, when the caller resolved them already. */
  cadastros?: { parceiroIds: string[]; tipoIds: string[] } | undefined;
}

/**
 * The tenant's agendas the filters select, as one WHERE clause whose text depends only on which
 * filters are given (platform where.ts: rendered once per shape; every bound a parameter of the
 * statement, so indexes serve it). A key acting for a partner's user finds only its partners'
 * agendas, whatever it asks.
 */
export async function condicoes(ctx: Ctx, f: Filtros): Promise<Where> {
  const descricao = f.descricao?.trim();
  const texto = f.pesquisa?.texto.trim();
  const pesquisa: Pesquisa | undefined =
    texto && f.pesquisa
      ? { ...f.pesquisa, texto, ...(f.cadastros ?? (await pesquisaNosCadastros(ctx, texto))) }
      : undefined;
  const vencidasAntes = f.vencidas
    ? new Date(f.vencidas.agora.getTime() - f.vencidas.horas * 3_600_000)
    : undefined;
  // The tenant is the store's to add (ctx.store.page scopes every read; the view applies the policy's
  // predicate too): once, not twice, in the statement.
  const where = Where.all()
    .value('planta', f.plantaId, (v) => eq(agenda.plantaId, v))
    .value('parceiro', f.parceiroId, (v) => eq(agenda.parceiroId, v))
    .list('tiposFiltro', f.tipoAgendamentoIds, (ids) => inArray(agenda.tipoAgendamentoId, ids))
    .value('motorista', f.motoristaId, (v) => eq(agenda.motoristaId, v))
    .value('veiculo', f.veiculoId, (v) => eq(agenda.veiculoId, v))
    .contains('descricao', agenda.descricao, descricao)
    .record('dia', diaNoFuso(f.dia), diaLocal)
    .value('desde', f.desde, (v) => gte(agenda.dataEsperada, v))
    .value('ate', f.ate, (v) => lte(agenda.dataEsperada, v))
    .list('status', f.status, (v) => inArray(agenda.status, v))
    .value('vencidasAntes', vencidasAntes, (v) => and(NAO_INICIADA, lt(agenda.dataEsperada, v)) as SQL)
    .value('agrupador', f.codigoAgrupador?.trim(), (v) => eq(agenda.codigoAgrupador, v))
    .value('codigo', f.codigo, (v) => eq(agenda.codigo, v))
    .value('chave', f.chaveIntegracao?.trim(), (v) => eq(agenda.chaveIntegracao, v))
    .value('unscheduled', f.unscheduled, (v) => eq(agenda.unscheduled, v))
    .any('pesquisa', (w) => pesquisa && pesquisaEm(w, pesquisa));
  return noEscopoParceiro(ctx, where, agenda.parceiroId);
}

export interface Paginacao {
  page: number;
  size: number;
  sortField?: (typeof SORT_FIELDS)[number] | undefined;
  sortOrder?: number | undefined;
}

/** At least one trigram: a run of three letters or digits (pg_trgm's words). */
const TRIGRAMA = /[\p{L}\p{N}]{3}/u;

/**
 * How the page of these filters is read (`pagina`): `texto`, the filters match a text (pesquisa,
 * descricao), whose every match is rechecked on its row, so the page and the count read the matches
 * once (core/db/reads.ts `oneScan`); `generico`, the statement runs its generic plan, made once per
 * connection instead of for every request (core/db/session.ts GENERIC_PLAN; docs/agenda.md "Indexes
 * and plans"). Generic only where that plan is the one for any value: a text with a trigram in it
 * (the trigram indexes' BitmapOr whatever the text; a text without one would make the generic plan
 * read the whole index, where a plan for the value reads the table), or the overdue ones (the partial
 * index agenda_nao_iniciada in date order, its states constants of the SQL). Plants, partners and
 * states are skewed, and a plan for their values stays the better one there.
 */
export function leitura(f: Filtros): { texto: boolean; generico: boolean } {
  const textos = [f.pesquisa?.texto.trim(), f.descricao?.trim()].filter((t): t is string => Boolean(t));
  const comTrigramas = textos.every((t) => TRIGRAMA.test(t));
  return {
    texto: textos.length > 0,
    generico: comTrigramas && (textos.length > 0 || f.vencidas !== undefined),
  };
}

interface Ordem {
  order: SQL[];
  /** The columns the order reads, and the key (reads.ts `oneScan`). */
  lidas: { key: PgColumn; columns: PgColumn[] };
}
const ordens = new Map<string, Ordem>();

/**
 * The order of a page, ties by code (unique), made once an order: reads.ts keeps the text of each
 * order array it is given.
 */
function ordem(field: (typeof SORT_FIELDS)[number], direction: 'asc' | 'desc'): Ordem {
  const key = `${field} ${direction}`;
  let found = ordens.get(key);
  if (!found) {
    const first = direction === 'desc' ? desc(agenda[field]) : asc(agenda[field]);
    found = {
      order: [first, ...(field === 'codigo' ? [] : [asc(agenda.codigo)])],
      lidas: { key: agenda.id, columns: [agenda[field], agenda.codigo] },
    };
    ordens.set(key, found);
  }
  return found;
}

/**
 * One page of the agendas `where` selects, in the asked order; ties by code (unique), so pages never
 * overlap; read as `leitura` says.
 */
export async function pagina(
  ctx: Ctx,
  where: Where,
  p: Paginacao,
  { texto, generico }: { texto: boolean; generico: boolean } = { texto: false, generico: false },
) {
  const { order, lidas } = ordem(p.sortField ?? 'dataEsperada', p.sortOrder === -1 ? 'desc' : 'asc');
  // The page and its count, sent together; each shape of filters is parsed once (core/db/reads.ts).
  const { rows, total: totalElements } = await ctx.store.page<typeof agenda.$inferSelect>(agenda, where, {
    orderBy: order,
    limit: p.size,
    offset: p.page * p.size,
    oneScan: texto ? lidas : undefined,
    plan: generico ? 'generic' : undefined,
  });
  return { agendas: rows.map(compact), totalElements, totalPages: Math.ceil(totalElements / p.size) };
}

/**
 * The agendas expected on `dia` as the clock reads in `fuso`: from local midnight to the next one,
 * computed by PostgreSQL (daylight saving included) as two constants, so the index serves it.
 */
function diaLocal({ data, fuso }: { data: unknown; fuso: unknown }): SQL {
  return sql`${agenda.dataEsperada} >= (${data}::date::timestamp at time zone ${fuso})
    and ${agenda.dataEsperada} < ((${data}::date + 1)::timestamp at time zone ${fuso})`;
}

/** The day in a zone this runtime knows (422 otherwise). */
function diaNoFuso(dia: { data: string; fuso: string } | undefined) {
  if (!dia) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: dia.fuso });
  } catch {
    throw E.fusoInvalido({ fuso: dia.fuso });
  }
  return dia;
}

/** 422 when a period ends before it starts. */
function periodo(inicio: string | undefined, fim: string | undefined, campos: [string, string]) {
  const desde = inicio !== undefined ? new Date(inicio) : undefined;
  const ate = fim !== undefined ? new Date(fim) : undefined;
  if (desde && ate && ate < desde)
    throw E.periodoInvalido({ inicio: inicio!, fim: fim!, campoInicio: campos[0], campoFim: campos[1] });
  return { desde, ate };
}

const Uuid = (description: string) => Type.String({ format: 'uuid', description });
const Page = Int64({ minimum: 0, maximum: 1_000_000, description: 'page index, from 0' });
const Size = Int64({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'agendas per page' });
const SortField = Type.Optional(Enum(SORT_FIELDS, { description: 'default dataEsperada; ties by codigo' }));
const SortOrder = Type.Optional(
  Int64({ minimum: -1, maximum: 1, description: '1 or 0 ascending, -1 descending' }),
);
const PaginaDeAgendas = Type.Object({
  agendas: Type.Array(agendaEntity.schema),
  totalElements: Int64(),
  totalPages: Int64(),
});

/** Vehicles whose plate and drivers whose name or document contain the text, asked to yms/patio. */
async function pesquisaNoPatio(ctx: Ctx, texto: string): Promise<PesquisaNoPatio> {
  const r = await ctx.call<{ pesquisaVeiculoIds: string[]; pesquisaMotoristaIds: string[] }>(
    'yms/patio/queries/pesquisarVeiculosMotoristas',
    { texto },
  );
  return { texto, veiculoIds: r.pesquisaVeiculoIds, motoristaIds: r.pesquisaMotoristaIds };
}

/**
 * The free text over yms/patio's plates and drivers and this service's partners and types, asked
 * at once (one round trip); both end before an error is thrown, yms/patio's first.
 */
async function pesquisaEmTudo(ctx: Ctx, texto: string) {
  const [noPatio, cadastros] = await Promise.allSettled([
    pesquisaNoPatio(ctx, texto),
    pesquisaNosCadastros(ctx, texto),
  ]);
  if (noPatio.status === 'rejected') throw noPatio.reason;
  if (cadastros.status === 'rejected') throw cadastros.reason;
  return [noPatio.value, cadastros.value] as const;
}

export const busca = {
  filtrarAgenda: action({
    // A carrier's key searches its partners' agendas (condicoes).
    subjects: SUJEITOS,
    // An action of the spec that only reads: no BEGIN or COMMIT (docs/platform.md, "Storage").
    transaction: 'reads',
    description:
      'Agendas by plant, partner (externalTenantId), type, driver, vehicle, description, a period of the expected ' +
      'date, states, overdue ones, group, code, integration key, unscheduled and free text (description, code, ' +
      'integration key, group, plate, driver name or document, partner name or CNPJ/CPF, appointment type), one ' +
      'page at a time in a stable order',
    input: Type.Object({
      page: Page,
      size: Size,
      plantaId: Type.Optional(Uuid('agendas of this plant')),
      externalTenantId: Type.Optional(Uuid('agendas of this partner (the agenda’s parceiroId)')),
      tipoAgendamentoId: Type.Optional(Uuid('the appointment type')),
      motoristaId: Type.Optional(Uuid('the driver')),
      veiculoId: Type.Optional(Uuid('the vehicle')),
      descricao: Type.Optional(Type.String({ maxLength: 255, description: 'part of the description' })),
      dataEsperadaAgendamentoInicio: Type.Optional(DateTime({ description: 'expected from (inclusive)' })),
      dataEsperadaAgendamentoFim: Type.Optional(DateTime({ description: 'expected until (inclusive)' })),
      status: Type.Optional(
        Type.Array(StatusAgendamento, { maxItems: 6, description: 'any of these states' }),
      ),
      pesquisa: Type.Optional(
        Type.String({
          maxLength: 100,
          description:
            'free text, ORed: description, integration key, group, code, plate, driver name or document, partner ' +
            'name or CNPJ/CPF, appointment type description or code',
        }),
      ),
      somenteVencidas: Type.Optional(
        Type.Boolean({
          default: false,
          description:
            'only overdue agendas: not started (AGENDADO, AGUARDANDO_INTEGRACAO, ERRO_INTEGRACAO) and expected ' +
            'more than horasConsiderarVencida hours ago; default false',
        }),
      ),
      horasConsiderarVencida: Type.Optional(
        Int64({
          minimum: 2,
          maximum: 8760,
          default: 24,
          description: 'hours after the expected date that make an agenda overdue; default 24',
        }),
      ),
      codigoAgrupador: Type.Optional(Type.String({ maxLength: 100, description: 'exact group code' })),
      codigo: Type.Optional(Int64()),
      chaveIntegracao: Type.Optional(Type.String({ maxLength: 100, description: 'exact integration key' })),
      sortField: SortField,
      sortOrder: SortOrder,
      unscheduled: Type.Optional(
        Type.Boolean({
          description: 'agendas created by arrival control without prior appointment (or not)',
        }),
      ),
    }),
    output: PaginaDeAgendas,
    handler: async (ctx, input) => {
      const { desde, ate } = periodo(input.dataEsperadaAgendamentoInicio, input.dataEsperadaAgendamentoFim, [
        'dataEsperadaAgendamentoInicio',
        'dataEsperadaAgendamentoFim',
      ]);
      const texto = input.pesquisa?.trim();
      const [noPatio, cadastros] = texto ? await pesquisaEmTudo(ctx, texto) : [];
      const filtros: Filtros = {
        plantaId: input.plantaId,
        parceiroId: input.externalTenantId,
        tipoAgendamentoIds: input.tipoAgendamentoId ? [input.tipoAgendamentoId] : undefined,
        motoristaId: input.motoristaId,
        veiculoId: input.veiculoId,
        descricao: input.descricao,
        desde,
        ate,
        status: input.status,
        vencidas: input.somenteVencidas
          ? { horas: input.horasConsiderarVencida ?? 24, agora: ctx.now() }
          : undefined,
        codigoAgrupador: input.codigoAgrupador,
        codigo: input.codigo,
        chaveIntegracao: input.chaveIntegracao,
        unscheduled: input.unscheduled,
        pesquisa: noPatio,
        cadastros,
      };
      return pagina(ctx, await condicoes(ctx, filtros), input, leitura(filtros));
    },
  }),

  getAgendasPorPeriodo: query({
    subjects: SUJEITOS,
    description:
      'Agendas expected between dataInicio and dataFim (both inclusive), one page at a time in a stable order',
    get: true,
    input: Type.Object({
      dataInicio: DateTime({ description: 'expected from (inclusive)' }),
      dataFim: DateTime({ description: 'expected until (inclusive)' }),
      page: Page,
      size: Size,
      sortField: SortField,
      sortOrder: SortOrder,
    }),
    output: PaginaDeAgendas,
    handler: async (ctx, input) => {
      const { desde, ate } = periodo(input.dataInicio, input.dataFim, ['dataInicio', 'dataFim']);
      return pagina(ctx, await condicoes(ctx, { desde, ate }), input);
    },
  }),
};
