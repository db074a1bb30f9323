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
// reviews that are due (the warning window reached: within qtKmAviso km of the review's odometer,
// or within nrDias days of dtPrevisao); their open maintenances (ABERTA, EM_ANDAMENTO). The lists
// per cost centre show the centres marked inExibePainelOfi (1, or not set), with something to
// count, the largest first, at most maxCentroCusto of them; rodando and garagem count every vehicle.

type Kind = 'disponiveis' | 'pendencias' | 'revisoes' | 'manutencoes';
const KINDS: Kind[] = ['disponiveis', 'pendencias', 'revisoes', 'manutencoes'];

/** The statement (also run through raw pg by bench/oficina.ts): one row per kind, cost centre and place. */
export function visaoSql(tenant: string, now: Date, cdEmpresa: number | undefined): SQL {
  const empresa = cdEmpresa === undefined ? sql`` : sql` and cd_empresa = ${cdEmpresa}`;
  const abertas = sql.join(
    STATUS_MANUTENCAO_ABERTA.map((s) => sql`${s}`),
    sql`, `,
  );
  return sql`with v as not materialized (
  select cd_veiculo, centro_custo, coalesce(ds_status_oficina = 'GARAGEM', false) as garagem, nr_hodometro
  from oficina_veiculo
  where tenant = ${tenant} and ds_status is distinct from 'INATIVO'${empresa}
)
select 'disponiveis' as kind, centro_custo, garagem, count(*)::int as n from v group by 2, 3
union all
select 'pendencias', v.centro_custo, v.garagem, count(*)::int
from oficina_pendencia p join v on v.cd_veiculo = p.veiculo
where p.tenant = ${tenant} group by 2, 3
union all
select 'revisoes', v.centro_custo, v.garagem, count(*)::int
from oficina_revisao r join v on v.cd_veiculo = r.veiculo
where r.tenant = ${tenant}
  and ((r.nr_hodometro - v.nr_hodometro <= coalesce(r.qt_km_aviso, 0))
    or (r.dt_previsao - coalesce(r.nr_dias, 0) * interval '1 day' <= ${now.toISOString()}::timestamptz))
group by 2, 3
union all
select 'manutencoes', v.centro_custo, v.garagem, count(*)::int
from oficina_manutencao m join v on v.cd_veiculo = m.veiculo
where m.tenant = ${tenant} and m.in_status in (${abertas}) group by 2, 3`;
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
