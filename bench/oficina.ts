import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { centrosSql, visaoSql } from '../src/services/tms/oficina/visao.ts';
import { rawTenantRoute } from './baselines.ts';
import type { BenchContext } from './entities.ts';
import { envInt, fmt, post, ratio, scenario, TABLE_HEADER, tableRow } from './harness.ts';

// (q) tms/oficina visaoGeral (issue 17): the workshop's dashboard over 10,000 vehicles in 50 cost
// centres with 100,000 pending items, 100,000 reviews and 100,000 maintenances (seeded with
// generate_series). Ponte's visaoGeral against the same statements (visao.ts visaoSql and
// centrosSql, compiled by drizzle's dialect) run through raw pg in the tenant's transaction, as the
// bridge runs them. Target (issue 17): p99 under 30 ms. One connection measures the latency of one
// dashboard alone; BENCH_OFICINA_CONNECTIONS (4,32) dashboards at once measure it under load. The
// dashboard reads the counts the database keeps per vehicle (migration `painel`): (w1)/(w2) show what
// keeping them costs a write.

const VEICULOS = envInt('BENCH_OFICINA_VEICULOS', 10_000, 100);
const ITENS = envInt('BENCH_OFICINA_ITENS', 100_000, 100);
const CENTROS = 50;
/** Concurrent dashboards besides one alone: on 2 cores a few saturate the machine; more only queue. */
const CONNECTIONS = (process.env.BENCH_OFICINA_CONNECTIONS ?? '4,32')
  .split(',')
  .map((n) => Number(n.trim()))
  .filter((n) => Number.isInteger(n) && n >= 1);
const PATH = (tenant: string) => `/t/${tenant}/bridge/1.0/rest/tms/oficina/queries/visaoGeral`;
/** The counts' triggers of migration `painel` on each item table (the ids' own triggers stay). */
const TRIGGERS = ['oficina_painel_ins', 'oficina_painel_upd', 'oficina_painel_del'];
const ROUTE = '/t/:tenant/bridge/1.0/rest/tms/oficina/queries/visaoGeral';

export async function seed(client: pg.Client, tenant: string): Promise<void> {
  const cols = 'id, tenant, created_by, created_date, last_modified_by, last_modified_date';
  const audit = `$1, 'bench', now(), 'bench', now()`;
  await client.query(
    `insert into oficina_filial (${cols}, cd_empresa, ds_empresa) select i, ${audit}, i, 'Filial ' || i from generate_series(1, 2) i`,
    [tenant],
  );
  await client.query(
    `insert into oficina_centro_custo (${cols}, cd_centro_custo, ds_centro_custo, in_exibe_painel_ofi)
     select i, ${audit}, i, 'Centro ' || i, case when i % 10 = 0 then 0 else 1 end from generate_series(1, ${CENTROS}) i`,
    [tenant],
  );
  await client.query(
    `insert into oficina_setor (${cols}, cd_setor, ds_setor) select i, ${audit}, i, 'Setor ' || i from generate_series(1, 5) i`,
    [tenant],
  );
  await client.query(
    `insert into oficina_veiculo (${cols}, cd_veiculo, nr_placa, centro_custo, ds_status_oficina, ds_status, cd_empresa, nr_hodometro)
     select i, ${audit}, i, 'BEN' || lpad(i::text, 5, '0'), 1 + i % ${CENTROS},
       case when i % 4 = 0 then 'GARAGEM' else 'RODANDO' end, case when i % 20 = 0 then 'INATIVO' else 'ATIVO' end,
       1 + i % 2, 10000 + (i * 37) % 90000
     from generate_series(1, $2::int) i`,
    [tenant, VEICULOS],
  );
  await client.query(
    `insert into oficina_pendencia (${cols}, cd_pendencia_pk, cd_pendencia, veiculo, ds_pendencia, dt_abertura, setor)
     select i, ${audit}, 'P' || i, i, 1 + (i * 7) % $2::int, 'Pendência ' || i, now() - (i % 60) * interval '1 day', 1 + i % 5
     from generate_series(1, $3::int) i`,
    [tenant, VEICULOS, ITENS],
  );
  await client.query(
    `insert into oficina_revisao (${cols}, cd_revisao, veiculo, nr_hodometro, qt_km_aviso, dt_previsao, nr_dias, setor)
     select i, ${audit}, 'R' || i, 1 + (i * 11) % $2::int, 10000 + (i * 53) % 100000, 1000,
       now() + ((i % 90) - 30) * interval '1 day', 7, 1 + i % 5
     from generate_series(1, $3::int) i`,
    [tenant, VEICULOS, ITENS],
  );
  await client.query(
    `insert into oficina_manutencao (${cols}, cd_manutencao, veiculo, in_status, qt_tempo_previsto, setor)
     select i, ${audit}, 'M' || i, 1 + (i * 13) % $2::int,
       (array['ABERTA', 'EM_ANDAMENTO', 'CONCLUIDA', 'CANCELADA'])[1 + i % 4], 2, 1 + i % 5
     from generate_series(1, $3::int) i`,
    [tenant, VEICULOS, ITENS],
  );
  for (const t of ['veiculo', 'pendencia', 'revisao', 'manutencao', 'centro_custo']) {
    await client.query(`vacuum analyze oficina_${t}`);
  }
}

export async function runOficina(bench: BenchContext): Promise<void> {
  const { ponte, tenant, databaseUrl } = bench;
  const auth = { authorization: bench.apiKey };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const dialect = new PgDialect();
  try {
    const started = performance.now();
    await seed(client, tenant);
    console.log(
      `seeded ${fmt(VEICULOS)} vehicles and ${fmt(ITENS)} pending items, reviews and maintenances each in ${fmt((performance.now() - started) / 1000, 1)} s`,
    );
    const check = await post(`${ponte}${PATH(tenant)}`, { maxCentroCusto: 10 }, auth);
    const answer = check.json as
      | { ok: boolean; visao?: { disponiveis: { rodando: number; garagem: number; centrocusto: unknown[] } } }
      | undefined;
    const disponiveis = answer?.visao
      ? answer.visao.disponiveis.rodando + answer.visao.disponiveis.garagem
      : -1;
    const esperados = VEICULOS - Math.floor(VEICULOS / 20);
    if (
      check.status !== 200 ||
      !answer?.ok ||
      disponiveis !== esperados ||
      answer.visao?.disponiveis.centrocusto.length !== 10
    )
      throw new Error(
        `visaoGeral answered ${check.status}: ${check.text.slice(0, 300)} (want ${esperados} available)`,
      );
    const visao = dialect.sqlToQuery(visaoSql(tenant, new Date(), undefined));
    const { rows } = await client.query(`explain (analyze, buffers, costs off) ${visao.sql}`, visao.params);
    console.log(
      `plan of visaoGeral's statement (superuser):\n${rows.map((r) => Object.values(r)[0]).join('\n')}`,
    );

    const raw = await rawTenantRoute(databaseUrl, ROUTE, async (c, t) => {
      const v = dialect.sqlToQuery(visaoSql(t, new Date(), undefined));
      const cc = dialect.sqlToQuery(centrosSql(t));
      const linhas = await c.query(v.sql, v.params);
      const centros = await c.query(cc.sql, cc.params);
      return { linhas: linhas.rows, centros: centros.rows };
    });
    const body = [JSON.stringify({ maxCentroCusto: 10 })];
    const results: Array<Awaited<ReturnType<typeof scenario>>> = [];
    const writes: typeof results = [];
    try {
      for (const connections of [1, ...CONNECTIONS]) {
        const load = { ...bench.load, connections };
        results.push(
          await scenario(
            `(q${results.length + 1}) Ponte visaoGeral, ${connections} connection(s)`,
            `${ponte}${PATH(tenant)}`,
            load,
            {
              bodies: body,
              headers: auth,
            },
          ),
        );
        results.push(
          await scenario(
            `(q${results.length + 1}) raw pg, the same statements, ${connections} connection(s)`,
            `${raw.url}${PATH(tenant)}`,
            load,
            {
              bodies: body,
            },
          ),
        );
      }
      // What keeping the counts costs a write: a pending item created through the entity route, with
      // the counts' triggers, then with them disabled (superuser), on one vehicle, 4 connections.
      const entityUrl = `${ponte}/t/${tenant}/bridge/1.0/rest/tms/oficina/entities/pendencia`;
      const write = { ...bench.load, connections: 4 };
      const pendencia = (prefix: string) =>
        JSON.stringify({ cdPendenciaPk: `${prefix}{n}`, veiculo: 1, dsPendencia: 'bench', setor: 1 });
      writes.push(
        await scenario('(w1) Ponte creates a pending item, counts kept', entityUrl, write, {
          template: pendencia('W1-'),
          headers: auth,
        }),
      );
      for (const t of TRIGGERS) await client.query(`alter table oficina_pendencia disable trigger ${t}`);
      try {
        writes.push(
          await scenario("(w2) the same, the counts' triggers disabled", entityUrl, write, {
            template: pendencia('W2-'),
            headers: auth,
          }),
        );
      } finally {
        for (const t of TRIGGERS) await client.query(`alter table oficina_pendencia enable trigger ${t}`);
      }
    } finally {
      await raw.close();
    }
    const ratios: string[] = [];
    for (let i = 0; i + 1 < results.length; i += 2) {
      const [p, r] = [results[i]!, results[i + 1]!];
      const n = [1, ...CONNECTIONS][i / 2];
      ratios.push(
        `| visaoGeral p99, ${n} connection(s)${n === 1 ? ' (target < 30 ms)' : ''} | ${fmt(p.latencyP99, 1)} ms |`,
        `| Ponte ÷ raw pg p99, ${n} connection(s) | ${ratio(p.latencyP99, r.latencyP99)} |`,
        `| Ponte ÷ raw pg req/s, ${n} connection(s) | ${ratio(p.requestsPerSecond, r.requestsPerSecond)} |`,
      );
    }
    const [w1, w2] = writes;
    if (w1 && w2)
      ratios.push(
        `| create with counts ÷ without, req/s | ${ratio(w1.requestsPerSecond, w2.requestsPerSecond)} |`,
        `| create with counts ÷ without, server CPU per request | ${ratio(w1.serverCpuUsPerRequest, w2.serverCpuUsPerRequest)} |`,
      );
    console.log(['', ...TABLE_HEADER, ...[...results, ...writes].map(tableRow), '', ...ratios].join('\n'));
  } finally {
    await client.end();
  }
}
