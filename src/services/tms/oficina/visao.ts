import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../../../platform/core/db/database.ts';
import { query } from '../../../platform/core/registry.ts';
import { Int64, type Static, Type } from '../../../platform/core/schema.ts';
import { falhaDosFiltros } from './busca.ts';
import { type CentroCustoRec, STATUS_MANUTENCAO_ABERTA, VisaoGeralRec, type VisaoRec } from './schemas.ts';

// visaoGeral (spec 001 §4.7; docs/oficina.md "visaoGeral"): the workshop's dashboard in one SQL
// statement. The fleet counted is the available vehicles (dsStatus not INATIVO) of the branch asked
// (all branches when none), inlined in each part (not materialized: the planner then hashes the
// vehicles, not the items); each is running or in the garage (dsStatusOficina GARAGEM). Four counts,
// split running/garage and by the vehicle's cost centre: the vehicles; their pending items; their
// reviews that are due (the warning window reached: the vehicle's odometer at or past the review's
// alertaKm = nrHodometro − qtKmAviso, or the clock at or past its alertaDt = dtPrevisao − nrDias
// days, both stored generated columns); their open maintenances (ABERTA, EM_ANDAMENTO). The lists
// per cost centre show the centres marked inExibePainelOfi (1, or not set), with something to
// count, the largest first, at most maxCentroCusto of them; rodando and garagem count every vehicle.
//
// Speed (issue #17, docs/performance.md (o)): pending items and open maintenances are counted per
// vehicle first, from an index alone (oficina_pendencia_veiculo; the partial index
// oficina_manutencao_aberta holds only the open ones), so the join and the grouping by cost centre
// see one row per vehicle, not one per item. Due reviews are counted per vehicle too, by a lateral
// count over the covering index oficina_revisao_alerta (vehicle, alertaKm, alertaDt): a range of
// the index per vehicle and two column comparisons, whatever plan the costs would otherwise
// prefer (a hash join building and probing every review was the critical path). Vehicles with no
// due review are left out, as the join left them out before.

type Kind = 'disponiveis' | 'pendencias' | 'revisoes' | 'manutencoes';
const KINDS: Kind[] = ['disponiveis', 'pendencias', 'revisoes', 'manutencoes'];

/** The open statuses as literals: the partial index's predicate must be provable at planning. */
const ABERTAS = sql.raw(STATUS_MANUTENCAO_ABERTA.map((s) => `'${s}'`).join(', '));

/** The statement (also run through raw pg by bench/oficina.ts): one row per kind, cost centre and place. */
export function visaoSql(tenant: string, now: Date, cdEmpresa: number | undefined): SQL {
  const empresa = cdEmpresa === undefined ? sql`` : sql` and cd_empresa = ${cdEmpresa}`;
  return sql`with v as not materialized (
  select cd_veiculo, centro_custo, coalesce(ds_status_oficina = 'GARAGEM', false) as garagem, nr_hodometro
  from oficina_veiculo
  where tenant = ${tenant} and ds_status is distinct from 'INATIVO'${empresa}
)
select 'disponiveis' as kind, centro_custo, garagem, count(*)::int as n from v group by 2, 3
union all
select 'pendencias', v.centro_custo, v.garagem, sum(p.n)::int
from (select veiculo, count(*) as n from oficina_pendencia where tenant = ${tenant} group by veiculo) p
join v on v.cd_veiculo = p.veiculo
group by 2, 3
union all
select 'revisoes', v.centro_custo, v.garagem, sum(x.n)::int
from v cross join lateral (
  select count(*) as n from oficina_revisao r
  where r.tenant = ${tenant} and r.veiculo = v.cd_veiculo
    and (r.alerta_km <= v.nr_hodometro or r.alerta_dt <= (${now.toISOString()}::timestamptz at time zone 'UTC'))
) x
where x.n > 0
group by 2, 3
union all
select 'manutencoes', v.centro_custo, v.garagem, sum(m.n)::int
from (
  select veiculo, count(*) as n from oficina_manutencao
  where tenant = ${tenant} and in_status in (${ABERTAS}) group by veiculo
) m
join v on v.cd_veiculo = m.veiculo
group by 2, 3`;
}

export const centrosSql = (tenant: string) => sql`select cd_centro_custo, ds_centro_custo, in_exibe_painel_ofi
from oficina_centro_custo where tenant = ${tenant} and coalesce(in_exibe_painel_ofi, 1) = 1`;

interface Linha {
  kind: Kind;
  centro_custo: string | number | null;
  garagem: boolean;
  n: number;
}
interface Centro {
  cd_centro_custo: string | number;
  ds_centro_custo: string | null;
  in_exibe_painel_ofi: string | number | null;
}

/** The rows of the two statements as VisaoGeralRec. */
export function visaoDe(
  linhas: Linha[],
  centros: Centro[],
  max: number | undefined,
): Static<typeof VisaoGeralRec> {
  const shown = new Map(centros.map((c) => [Number(c.cd_centro_custo), c]));
  const out = {} as Record<Kind, Static<typeof VisaoRec>>;
  for (const kind of KINDS) {
    let rodando = 0;
    let garagem = 0;
    const porCentro = new Map<number, Static<typeof CentroCustoRec>>();
    for (const l of linhas) {
      if (l.kind !== kind) continue;
      const n = Number(l.n);
      if (l.garagem) garagem += n;
      else rodando += n;
      if (l.centro_custo === null) continue;
      const cd = Number(l.centro_custo);
      const centro = shown.get(cd);
      if (!centro) continue;
      let rec = porCentro.get(cd);
      if (!rec) {
        rec = {
          cdCentroCusto: cd,
          ...(centro.ds_centro_custo !== null ? { dsCentroCusto: centro.ds_centro_custo } : {}),
          inExibePainelOfi: Number(centro.in_exibe_painel_ofi ?? 1),
          rodando: 0,
          garagem: 0,
          total: 0,
        };
        porCentro.set(cd, rec);
      }
      if (l.garagem) rec.garagem! += n;
      else rec.rodando! += n;
      rec.total! += n;
    }
    const centrocusto = [...porCentro.values()]
      .sort((a, b) => b.total! - a.total! || a.cdCentroCusto! - b.cdCentroCusto!)
      .slice(0, max ?? porCentro.size);
    out[kind] = { rodando, garagem, centrocusto };
  }
  return out;
}

export const visao = {
  visaoGeral: query({
    description:
      'The dashboard: available vehicles, pending items, due reviews and open maintenances, running and in the garage, by cost centre',
    get: true,
    input: Type.Object({
      cdEmpresa: Type.Optional(Int64({ description: 'only the vehicles of this branch' })),
      maxCentroCusto: Type.Optional(
        Int64({
          minimum: 1,
          maximum: 1000,
          description: 'at most this many cost centres in each list (default all)',
        }),
      ),
    }),
    output: Type.Object({ ok: Type.Boolean(), dsErro: Type.Optional(Type.String()), visao: VisaoGeralRec }),
    handler: async (ctx, input) => {
      const falha = await falhaDosFiltros(ctx, input);
      if (falha) return { ok: false, dsErro: falha, visao: visaoDe([], [], 0) };
      const tenant = ctx.store.tenant;
      const linhas = rowsOf<Linha>(await ctx.tx.execute(visaoSql(tenant, ctx.now(), input.cdEmpresa)));
      const centros = rowsOf<Centro>(await ctx.tx.execute(centrosSql(tenant)));
      return { ok: true, visao: visaoDe(linhas, centros, input.maxCentroCusto) };
    },
  }),
};
