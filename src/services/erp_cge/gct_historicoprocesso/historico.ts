import { sql } from 'drizzle-orm';
import { rowsOf } from '../../../platform/core/db/database.ts';
import { query } from '../../../platform/core/registry.ts';
import { E } from './errors.ts';
import { ObterHistoricoInput, ObterHistoricoOutput } from './schemas.ts';
import { execucaoProcesso as ex } from './tables.ts';

// obterHistorico (spec 001 §2.8, §4.6; docs/gct_historicoprocesso.md): the runs of a process whose
// processing period overlaps dataInicial..dataFinal, in the situations asked, most recent first.
// Two sources, one answer:
// - the runs an ERP reported (execucoes.ts), for its empresa and filial;
// - Ponte's own runs: the platform's durable jobs (imports, exports, signals), read where the
//   platform keeps them (the tables `jobs`, `imports`, `exports`, scoped to the tenant like every
//   read), so the platform needs no hook into this service and no run is ever copied or missed. A
//   job belongs to the tenant, not to a company: it answers for every empresa/filial. Its process is
//   `<service>/import<Kind>` or `<service>/export<Kind>` for imports and exports, else the job's kind
//   (`<domain>/<service>/<job>`); its period is the days (tenant time zone) from its request to its
//   end (today while it runs); queued or running is Iniciado, done Finalizado, failed Interrompido.

/** At most this many runs are answered, the most recent (design: the spec's record has no paging). */
export const MAX_EXECUCOES = 1000;

interface Row {
  id: string;
  dataInicio: string;
  dataFinal: string;
  inicio: Date | string;
  fim: Date | string | null;
  situacao: 'Iniciado' | 'Finalizado' | 'Interrompido';
}

const iso = (d: Date | string) => new Date(d).toISOString();

export const obterHistorico = query({
  description:
    'The runs of a process of an empresa/filial (ERP-reported, and Ponte’s own jobs) whose processing period overlaps dataInicial..dataFinal, filtered by situacao, most recent first',
  declares401: false,
  get: true,
  input: ObterHistoricoInput,
  output: ObterHistoricoOutput,
  handler: async (ctx, { parametros: p }) => {
    if (p.dataFinal < p.dataInicial)
      throw E.periodo({ field: 'parametros.dataFinal', dataFinal: p.dataFinal, dataInicial: p.dataInicial });
    const tenant = ctx.store.tenant;
    const tz = ctx.tenant.timeZone;
    const now = ctx.now().toISOString();
    const situacoes = p.situacao?.length ? [...new Set(p.situacao)] : undefined;
    const filtro = situacoes
      ? sql`where r.situacao in (${sql.join(
          situacoes.map((s) => sql`${s}`),
          sql`, `,
        )})`
      : sql``;
    const result = await ctx.tx.execute(sql`
      select r.* from (
        select ${ex.id}::text as id, ${ex.dataInicio}::text as "dataInicio", ${ex.dataFinal}::text as "dataFinal",
               ${ex.inicioProcessamento} as inicio, ${ex.fimProcessamento} as fim, ${ex.situacao} as situacao
          from ${ex}
         where ${ex.tenant} = ${tenant} and ${ex.empresa} = ${p.empresa} and ${ex.filial} = ${p.filial}
           and ${ex.processo} = ${p.processo}
           and ${ex.dataInicio} <= ${p.dataFinal}::date and ${ex.dataFinal} >= ${p.dataInicial}::date
        union all
        select j.id::text, (j.created_at at time zone ${tz})::date::text,
               (coalesce(j.finished_at, ${now}::timestamptz) at time zone ${tz})::date::text,
               j.created_at, j.finished_at,
               case j.state when 'done' then 'Finalizado' when 'failed' then 'Interrompido' else 'Iniciado' end
          from jobs j
          left join imports i on i.tenant = j.tenant and i.id = j.id
          left join exports x on x.tenant = j.tenant and x.id = j.id
         where j.tenant = ${tenant}
           and coalesce(i.service || '/import' || i.kind, x.service || '/export' || x.kind, j.kind) = ${p.processo}
           and j.created_at < ((${p.dataFinal}::date + 1)::timestamp at time zone ${tz})
           and coalesce(j.finished_at, ${now}::timestamptz) >= (${p.dataInicial}::date::timestamp at time zone ${tz})
      ) r ${filtro}
      order by r.inicio desc, r.id
      limit ${MAX_EXECUCOES}`);
    return {
      execucao: rowsOf<Row>(result).map((r) => ({
        dataInicio: r.dataInicio,
        dataFinal: r.dataFinal,
        inicioProcessamento: iso(r.inicio),
        ...(r.fim ? { fimProcessamento: iso(r.fim) } : {}),
        id: r.id,
        situacao: r.situacao,
      })),
    };
  },
});
