import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../../../platform/core/db/database.ts';
import { query } from '../../../platform/core/registry.ts';
import { Int64, type Static, Type } from '../../../platform/core/schema.ts';
import { falhaDosFiltros } from './busca.ts';
import { pedirAtualizacao } from './painel.ts';
import { type CentroCustoRec, VisaoGeralRec, type VisaoRec } from './schemas.ts';

// visaoGeral (spec 001 §4.7; docs/oficina.md "visaoGeral"): the workshop's dashboard in one SQL
// statement. The fleet counted is the available vehicles (dsStatus not INATIVO) of the branch asked
// (all branches when none); each is running or in the garage (dsStatusOficina GARAGEM). Four counts,
// split running/garage and by the vehicle's cost centre: the vehicles; their pending items; their
// reviews that are due (the warning window reached: the vehicle's odometer at or past the review's
// alertaKm = nrHodometro − qtKmAviso, or the clock at or past its alertaDt = dtPrevisao − nrDias
// days, both stored generated columns); their open maintenances (ABERTA, EM_ANDAMENTO). The lists
// per cost centre show the centres marked inExibePainelOfi (1, or not set), with something to
// count, the largest first, at most maxCentroCusto of them; rodando and garagem count every vehicle.
//
// Speed (issue #17, docs/performance.md (q)): the counts per vehicle are kept by the database on
// every write (tables.ts painelVeiculo, migration `painel`), so the dashboard reads one row per
// vehicle and its counts row, and groups them. A vehicle's due reviews are read from that row while
// the clock is inside the row's window (no review crossed into "due" since it was counted); outside
// it (the clock passed the next review's alertaDt, or is before what was counted) they are counted
// from the covering index oficina_revisao_alerta (vehicle, alertaKm, alertaDt), as exact, and the
// dashboard asks for the rows to be refreshed (painel.ts).

type Kind = 'disponiveis' | 'pendencias' | 'revisoes' | 'manutencoes';
const KINDS: Kind[] = ['disponiveis', 'pendencias', 'revisoes', 'manutencoes'];

/** The statement (also run through raw pg by bench/oficina.ts): one row per cost centre and place. */
export function visaoSql(tenant: string, now: Date, cdEmpresa: number | undefined): SQL {
  const empresa = cdEmpresa === undefined ? sql`` : sql` and v.cd_empresa = ${cdEmpresa}`;
  const agora = sql`(${now.toISOString()}::timestamptz at time zone 'UTC')`;
  return sql`select v.centro_custo, coalesce(v.ds_status_oficina = 'GARAGEM', false) as garagem,
  count(*)::int as disponiveis,
  coalesce(sum(c.pendencias), 0)::int as pendencias,
  coalesce(sum(c.manutencoes), 0)::int as manutencoes,
  coalesce(sum(case
    when (c.revisoes_desde is null or c.revisoes_desde <= ${agora})
      and (c.revisoes_ate is null or c.revisoes_ate > ${agora}) then c.revisoes
    else (select count(*) from oficina_revisao r
      where r.tenant = ${tenant} and r.veiculo = v.cd_veiculo
        and (r.alerta_km <= v.nr_hodometro or r.alerta_dt <= ${agora}))
  end), 0)::int as revisoes,
  count(*) filter (where c.revisoes_ate <= ${agora})::int as vencidos
from oficina_veiculo v
left join oficina_painel_veiculo c on c.tenant = ${tenant} and c.cd_veiculo = v.cd_veiculo
where v.tenant = ${tenant} and v.ds_status is distinct from 'INATIVO'${empresa}
group by 1, 2`;
}

export const centrosSql = (tenant: string) => sql`select cd_centro_custo, ds_centro_custo, in_exibe_painel_ofi
from oficina_centro_custo where tenant = ${tenant} and coalesce(in_exibe_painel_ofi, 1) = 1`;

type Linha = Record<Kind, number> & {
  centro_custo: string | number | null;
  garagem: boolean;
  /** Vehicles whose review counts the clock has outdated (painel.ts). */
  vencidos: number;
};
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
      const n = Number(l[kind]);
      // A cost centre is listed for what it has to count.
      if (n === 0) continue;
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
      if (linhas.some((l) => Number(l.vencidos) > 0)) pedirAtualizacao(ctx);
      const centros = rowsOf<Centro>(await ctx.tx.execute(centrosSql(tenant)));
      return { ok: true, visao: visaoDe(linhas, centros, input.maxCentroCusto) };
    },
  }),
};
