import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { rawTenantRoute, type Statement } from './baselines.ts';
import { type BenchContext, capture, explain, waitIdle } from './entities.ts';
import { envInt, fmt, type Measured, post, ratio, scenario, TABLE_HEADER, tableRow } from './harness.ts';

// (l) yms/agenda filtrarAgenda over 1,000,000 agendas of one tenant (docs/agenda.md "Indexes and
// plans"): the real action, against the very statements it sends (captured from pg on a first
// request: the page and the count), replayed by a bare Fastify + raw pg in the tenant transaction.

const ROWS = envInt('BENCH_AGENDA_ROWS', 1_000_000, 1000);
const PATH = (tenant: string) => `/t/${tenant}/bridge/1.0/rest/yms/agenda/actions/filtrarAgenda`;
/** The seeded plants, types, partners, vehicles, drivers: uuids from md5 of a label. */
const PLANTS = 20;
const uuidOf = (label: string) => `md5('${label}' || (%s))::uuid`;

interface Case {
  id: string;
  label: string;
  body: Record<string, unknown>;
  /** The same agendas by hand (without the view): their count. */
  where: string;
}

/** Seeds `rows` agendas in one statement as the superuser: two years around now, past ones mostly finished. */
async function seed(client: pg.Client, tenant: string, rows: number): Promise<void> {
  const u = (label: string, expr: string) => uuidOf(label).replace('%s', expr);
  await client.query(
    `insert into agenda (tenant, created_by, last_modified_by, codigo, descricao, chave_integracao,
       codigo_agrupador, data_esperada, planta_id, tipo_agendamento_id, veiculo_id, motorista_id, parceiro_id, status)
     select $1, 'bench', 'bench', i, 'Agenda ' || md5(i::text), 'NF' || i, 'G' || (i / 5),
       d, ${u('planta', `i % ${PLANTS}`)}, ${u('tipo', 'i % 10')}, ${u('veiculo', 'i % 5000')},
       ${u('motorista', 'i % 5000')}, ${u('parceiro', 'i % 200')},
       case when d > now() then 'AGENDADO'
            when i % 100 = 0 then 'AGENDADO'
            when i % 100 = 1 then 'ERRO_INTEGRACAO'
            when i % 20 = 2 then 'CANCELADO'
            else 'CONCLUIDO' end
     from generate_series(1, $2::int) as i,
       lateral (select now() - interval '365 days' + (i::float8 / $2) * interval '730 days' as d) x`,
    [tenant, rows],
  );
  await client.query(
    'insert into agenda_contador (tenant, n) values ($1, $2) on conflict (tenant) do update set n = $2',
    [tenant, rows],
  );
  await client.query('alter table agenda set (autovacuum_enabled = false)');
  await client.query('vacuum analyze agenda');
}

const CASES = (): Case[] => {
  const planta = `md5('planta' || 3)::uuid`;
  const inicio = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const fim = new Date(Date.now() + 14 * 86_400_000).toISOString();
  return [
    {
      id: 'l1',
      label: 'plant + a week of expected dates',
      body: { page: 0, size: 20, dataEsperadaAgendamentoInicio: inicio, dataEsperadaAgendamentoFim: fim },
      where: `planta_id = ${planta} and data_esperada between '${inicio}' and '${fim}'`,
    },
    {
      id: 'l2',
      label: 'status + overdue (somenteVencidas, 24 h)',
      body: { page: 0, size: 20, status: ['AGENDADO', 'ERRO_INTEGRACAO'], somenteVencidas: true },
      where: `status in ('AGENDADO', 'ERRO_INTEGRACAO') and data_esperada < now() - interval '24 hours'`,
    },
    {
      id: 'l3',
      label: "pesquisa 'a3f9' (description, key, group, plates, drivers)",
      body: { page: 0, size: 20, pesquisa: 'a3f9' },
      where: `(descricao ilike '%a3f9%' or chave_integracao ilike '%a3f9%' or codigo_agrupador ilike '%a3f9%')`,
    },
  ];
};

interface Page {
  agendas: Array<{ id: string }>;
  totalElements: number;
}

/**
 * What filtrarAgenda sent: the page and the count, or (a text search, core/db/reads.ts `oneScan`)
 * one statement whose rows carry the count after the columns.
 */
interface Sent {
  /** A text search's lookups first (partners, types, vehicles and drivers matching the text). */
  lookups: Statement[];
  page: Statement;
  count?: Statement | undefined;
}

/** The raw baseline: the captured lookups, then the page and count, in the tenant transaction. */
function rawServer(databaseUrl: string, byCase: Map<string, Sent>) {
  return rawTenantRoute(databaseUrl, '/t/:tenant/raw/:case', async (client, _tenant, _body, params) => {
    const statements = byCase.get(params.case ?? '');
    if (!statements) throw new Error(`unknown case ${params.case}`);
    await Promise.all(statements.lookups.map((l) => client.query(l.text, l.values)));
    const [page, count] = await Promise.all([
      client.query(statements.page.text, statements.page.values),
      statements.count
        ? client.query<{ count: string }>(statements.count.text, statements.count.values)
        : undefined,
    ]);
    const totalElements = Number((count ?? page).rows[0]?.count ?? 0);
    return { agendas: page.rows, totalElements, totalPages: Math.ceil(totalElements / 20) };
  });
}

export async function runAgenda(bench: BenchContext): Promise<void> {
  const { ponte, tenant, databaseUrl } = bench;
  const auth = { authorization: bench.apiKey };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let raw: Awaited<ReturnType<typeof rawServer>> | undefined;
  try {
    const started = performance.now();
    await seed(client, tenant, ROWS);
    console.log(
      `seeded ${fmt(ROWS)} agendas for ${tenant} in ${fmt((performance.now() - started) / 1000, 1)} s`,
    );
    const cases = CASES();
    for (const c of cases)
      if (c.id === 'l1')
        c.body.plantaId = (await client.query(`select md5('planta' || 3)::uuid as id`)).rows[0].id;

    const byCase = new Map<string, Sent>();
    const answers = new Map<string, Page>();
    for (const c of cases) {
      const { result, statements: sent } = await capture(
        // The page and count, and the text's lookups: partners, types and drivers (folded LIKEs,
        // core/db/search.ts) and plates (an ILIKE: a plate has no accents).
        (text) => text.includes('from "agenda_busca"') || /ponte_fold\(| ilike /.test(text),
        () => post(`${ponte}${PATH(tenant)}`, c.body, auth),
      );
      const statements = sent.filter((s) => s.text.includes('from "agenda_busca"'));
      const lookups = sent.filter((s) => !s.text.includes('from "agenda_busca"'));
      if (result.status !== 200)
        throw new Error(`${c.id} answered ${result.status} ${result.text.slice(0, 300)}`);
      const count = statements.find((s) => s.text.startsWith('select count('));
      const page = statements.find((s) => !s.text.startsWith('select count('));
      const oneScan = statements.length === 1 && page?.text.startsWith('with "m" as materialized');
      if (!page || (!oneScan && (statements.length !== 2 || !count)))
        throw new Error(`expected the page and the count, captured ${JSON.stringify(statements)}`);
      byCase.set(c.id, { lookups, page, count });
      const answer = result.json as Page;
      const want = await client.query<{ n: string }>(
        `select count(*) as n from agenda where tenant = $1 and ${c.where}`,
        [tenant],
      );
      if (
        answer.totalElements !== Number(want.rows[0]!.n) ||
        answer.agendas.length !== Math.min(20, answer.totalElements)
      )
        throw new Error(`${c.id}: Ponte counted ${answer.totalElements}, by hand ${want.rows[0]!.n}`);
      answers.set(c.id, answer);
      console.log(`(${c.id}) ${c.label}: totalElements ${answer.totalElements}`);
      console.log(`  page:  ${page.text}\n         ${JSON.stringify(page.values)}`);
      for (const l of lookups) console.log(`  lookup: ${l.text}\n         ${JSON.stringify(l.values)}`);
    }

    raw = await rawServer(databaseUrl, byCase);
    for (const c of cases) {
      const res = await post(`${raw.url}/t/${tenant}/raw/${c.id}`, {});
      const got = res.json as Page;
      if (
        !isDeepStrictEqual(
          got.agendas.map((a) => a.id),
          answers.get(c.id)!.agendas.map((a) => a.id),
        )
      )
        throw new Error(`the raw baseline answered ${c.id} differently`);
    }

    const results: Array<{ c: Case; ponte: Measured; raw: Measured }> = [];
    for (const c of cases) {
      const body = [JSON.stringify(c.body)];
      const p = await scenario(`(${c.id}) Ponte filtrarAgenda`, `${ponte}${PATH(tenant)}`, bench.load, {
        bodies: body,
        headers: auth,
      });
      const r = await scenario(
        `(${c.id}-ii) bare Fastify + raw pg, same SQL in the tenant transaction`,
        `${raw.url}/t/${tenant}/raw/${c.id}`,
        bench.load,
        { bodies: ['{}'] },
      );
      results.push({ c, ponte: p, raw: r });
    }

    const plans: string[] = [];
    await waitIdle(client);
    for (const c of cases)
      for (const which of ['page', 'count'] as const) {
        const statement = byCase.get(c.id)![which];
        if (!statement) continue;
        await explain(client, tenant, 'transaction', statement);
        plans.push(
          `-- (${c.id}) ${byCase.get(c.id)!.count ? which : 'page and count, one statement'}, in the tenant transaction\n${await explain(client, tenant, 'transaction', statement)}`,
        );
      }

    console.log(
      [
        '',
        `## (l) filtrarAgenda over ${fmt(ROWS)} agendas (${bench.load.connections} connections, ${bench.load.seconds} s per scenario)`,
        '',
        ...TABLE_HEADER,
        ...results.flatMap((r) => [tableRow(r.ponte), tableRow(r.raw)]),
        '',
        '| Ponte ÷ raw pg in the tenant transaction | req/s | server CPU per request | p99 |',
        '|---|---:|---:|---:|',
        ...results.map(
          (r) =>
            `| (${r.c.id}) ${r.c.label} | ${ratio(r.ponte.requestsPerSecond, r.raw.requestsPerSecond)} | ` +
            `${ratio(r.ponte.serverCpuUsPerRequest, r.raw.serverCpuUsPerRequest)} | ${ratio(r.ponte.latencyP99, r.raw.latencyP99)} |`,
        ),
        ...results.map((r) => `p99 of (${r.c.id}) through Ponte: ${fmt(r.ponte.latencyP99)} ms`),
        '',
        '### EXPLAIN (ANALYZE, BUFFERS, COSTS OFF), after the load, on an idle database',
        '',
        '```',
        plans.join('\n\n'),
        '```',
      ].join('\n'),
    );
  } finally {
    await raw?.close().catch(() => {});
    await client.end();
  }
}
