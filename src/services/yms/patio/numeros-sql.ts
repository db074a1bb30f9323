import { sql } from 'drizzle-orm';
import { type Builder, statement } from '../../../platform/core/db/statement.ts';
import { TABELAS_AGENDA } from '../agenda/contract.ts';

const agenda = sql.identifier(TABELAS_AGENDA.agenda);
const tipo = sql.identifier(TABELAS_AGENDA.tipoAgendamento);

// The day's numbers of a plant's yard as SQL (docs/patio.md "The day's numbers"): every figure is
// computed by the database (count, avg, percentile_cont), never by loading the day into Node. Each
// statement is built and prepared once (core/db/statement.ts). The plant's day is [ini, fim): the
// day `data` (default today, from `agora`) in the plant's time zone (DIA_DA_PLANTA). Every table is read through
// an index that starts with (tenant, plant or area, time): see the indexes in tables/presencas.ts.

/**
 * The plant's day: `data` (default the day of `agora`) in the plant's time zone, and its bounds
 * as instants. Read first, so that the statements below get the bounds as values: the planner
 * then sees how narrow the day is (a bound computed inside the statement hides it, and a plan
 * costed for the whole history is slow to make and runs a JIT compilation).
 */
export const DIA_DA_PLANTA = statement('yms.patio.numeros.dia', (b) =>
  b.raw(sql`
    select pl.fuso_horario as "fusoHorario", x.dia::text as data,
      (x.dia::timestamp at time zone pl.fuso_horario) as ini,
      ((x.dia + 1)::timestamp at time zone pl.fuso_horario) as fim
    from patio_planta pl,
      lateral (select coalesce(${b.param('data')}::date,
        (${b.param('agora')}::timestamptz at time zone pl.fuso_horario)::date) as dia) x
    where pl.tenant = ${b.param('tenant')} and pl.id = ${b.param('plantaId')}::uuid`),
);

const tenant = (b: Builder) => sql`${b.param('tenant')}::text`;
const plantaId = (b: Builder) => sql`${b.param('plantaId')}::uuid`;
const ini = (b: Builder) => sql`${b.param('ini')}::timestamptz`;
const fim = (b: Builder) => sql`${b.param('fim')}::timestamptz`;

/** The vehicles in the plant's yard now, longest first, with where each is (its open arrival). */
export const VEICULOS_NO_PATIO = statement('yms.patio.numeros.veiculosNoPatio', (b) =>
  b.raw(sql`
    select count(*) over () as total, p.veiculo_id as "veiculoId", p.placa, m.nome as motorista,
      p.entrada_em as "entradaEm", c.area_id as "areaId", a.codigo as "areaCodigo",
      a.descricao as "areaDescricao", c.chegada_em as "chegadaArea",
      exists (select 1 from patio_vaga v where v.tenant = p.tenant and v.veiculo_id = p.veiculo_id) as "temVaga",
      exists (select 1 from patio_fila_item f where f.tenant = p.tenant and f.veiculo_id = p.veiculo_id) as "naFila"
    from patio_presenca_patio p
    left join patio_motorista m on m.tenant = p.tenant and m.id = p.motorista_id
    left join lateral (
      select ca.area_id, ca.chegada_em from patio_controle_area ca
      where ca.tenant = p.tenant and ca.veiculo_id = p.veiculo_id and ca.saida_em is null
      order by ca.chegada_em desc limit 1) c on true
    left join patio_area a on a.tenant = p.tenant and a.id = c.area_id
    where p.tenant = ${b.param('tenant')} and p.planta_id = ${b.param('plantaId')}::uuid and p.saida_em is null
    order by p.entrada_em, p.id
    limit ${b.param('limite')}::int`),
);

/** The turn time (yard entry to exit) of the stays that ended in the plant's day. */
export const PERMANENCIA = statement('yms.patio.numeros.permanencia', (b) =>
  b.raw(sql`
    select count(p.id)::int as quantidade,
      round(avg(extract(epoch from p.saida_em - p.entrada_em)))::int as media,
      round(percentile_cont(0.9) within group (order by extract(epoch from p.saida_em - p.entrada_em)))::int as p90
    from patio_presenca_patio p
    where p.tenant = ${tenant(b)} and p.planta_id = ${plantaId(b)}
      and p.saida_em >= ${ini(b)} and p.saida_em < ${fim(b)}`),
);

/** The dwell time per area: the arrivals in each of the plant's areas that ended in the day. */
export const PERMANENCIA_AREAS = statement('yms.patio.numeros.permanenciaAreas', (b) =>
  b.raw(sql`
    select a.id as "areaId", a.codigo, a.descricao, count(c.id)::int as quantidade,
      round(avg(extract(epoch from c.saida_em - c.chegada_em)))::int as media,
      round(percentile_cont(0.9) within group (order by extract(epoch from c.saida_em - c.chegada_em)))::int as p90
    from patio_area a
    left join patio_controle_area c on c.tenant = a.tenant and c.area_id = a.id
      and c.saida_em >= ${ini(b)} and c.saida_em < ${fim(b)}
    where a.tenant = ${tenant(b)} and a.planta_id = ${plantaId(b)}
    group by a.id, a.codigo, a.descricao
    order by a.codigo`),
);

/**
 * The plant's agendas of the day, each with its arrival (the first yard entry of its vehicle into
 * the plant within 12 hours of the expected time) and where it stands against the expected time.
 */
const agendasDoDia = (b: Builder) => sql`
  ag as (
    select g.*, ch.chegada,
      case
        when g.unscheduled then 'SEM_AGENDAMENTO'
        when ch.chegada is not null and ch.chegada < g.data_esperada - make_interval(mins => ${b.param('tolerancia')}::int) then 'ADIANTADA'
        when ch.chegada is not null and ch.chegada > g.data_esperada + make_interval(mins => ${b.param('tolerancia')}::int) then 'ATRASADA'
        when ch.chegada is not null then 'NO_HORARIO'
        when g.status = 'CANCELADO' then 'CANCELADA'
        when g.status in ('AGENDADO', 'AGUARDANDO_INTEGRACAO', 'ERRO_INTEGRACAO')
          and g.data_esperada + make_interval(mins => ${b.param('tolerancia')}::int) < ${b.param('agora')}::timestamptz
          then 'VENCIDA'
        else 'AGUARDANDO'
      end as situacao
    from ${agenda} g
    left join lateral (
      select min(p.entrada_em) as chegada from patio_presenca_patio p
      where p.tenant = g.tenant and p.veiculo_id = g.veiculo_id and p.planta_id = g.planta_id
        and p.entrada_em >= g.data_esperada - interval '12 hours'
        and p.entrada_em < g.data_esperada + interval '12 hours') ch on true
    where g.tenant = ${tenant(b)} and g.planta_id = ${plantaId(b)}
      and g.data_esperada >= ${ini(b)} and g.data_esperada < ${fim(b)})`;

/** Arrivals on time, early and late, and the overdue agendas of the day. */
export const PONTUALIDADE = statement('yms.patio.numeros.pontualidade', (b) =>
  b.raw(sql`with ${agendasDoDia(b)}
    select count(ag.id)::int as total,
      count(ag.id) filter (where ag.situacao = 'NO_HORARIO')::int as "noHorario",
      count(ag.id) filter (where ag.situacao = 'ADIANTADA')::int as adiantadas,
      count(ag.id) filter (where ag.situacao = 'ATRASADA')::int as atrasadas,
      count(ag.id) filter (where ag.situacao = 'VENCIDA')::int as vencidas,
      count(ag.id) filter (where ag.situacao = 'AGUARDANDO')::int as aguardando,
      count(ag.id) filter (where ag.situacao = 'SEM_AGENDAMENTO')::int as "semAgendamento",
      count(ag.id) filter (where ag.situacao = 'CANCELADA')::int as canceladas
    from ag`),
);

/** The day's schedule: the agendas with type, plate, driver, arrival, standing and yard step. */
export const AGENDA_DO_DIA = statement('yms.patio.numeros.agendaDoDia', (b) =>
  b.raw(sql`with ${agendasDoDia(b)}
    select ag.id as "agendaId", ag.codigo::int as codigo, ag.descricao, ag.data_esperada as "dataEsperada",
      ag.fim_previsto as "fimPrevisto", ag.status, ag.unscheduled, ag.situacao, ag.chegada,
      ag.tipo_agendamento_id as "tipoAgendamentoId", t.codigo as "tipoCodigo", t.descricao as "tipoDescricao",
      v.placa, m.nome as motorista, e.situacao as "execucaoSituacao", s.nome as etapa, s.ordem as "etapaOrdem",
      ar.codigo as "etapaAreaCodigo", ar.descricao as "etapaAreaDescricao"
    from ag
    left join ${tipo} t on t.tenant = ag.tenant and t.id = ag.tipo_agendamento_id
    left join patio_veiculo v on v.tenant = ag.tenant and v.id = ag.veiculo_id
    left join patio_motorista m on m.tenant = ag.tenant and m.id = ag.motorista_id
    left join lateral (
      select x.situacao, x.sequencia_atual_id from patio_execucao_circuito x
      where x.tenant = ag.tenant and x.agenda_id = ag.id and x.execucao_pai_id is null
      order by (x.situacao = 'EXECUTANDO') desc, x.iniciada_em desc limit 1) e on true
    left join patio_sequencia_circuito s on s.tenant = ag.tenant and s.id = e.sequencia_atual_id
    left join patio_area ar on ar.tenant = s.tenant and ar.id = s.area_id
    order by ag.data_esperada, ag.codigo
    limit ${b.param('limite')}::int`),
);
