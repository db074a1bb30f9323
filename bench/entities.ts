import { isDeepStrictEqual } from 'node:util';
import { getTableColumns } from 'drizzle-orm';
import pg from 'pg';
import type { AppPlatform } from '../src/platform/app.ts';
import { APP_ROLE, TENANT_SETTING } from '../src/platform/core/db/tenancy.ts';
import { sku } from '../src/services/erp_agr/com_comum/tables/produtos.ts';
import { type ListStatements, type Running, rawPgGet, rawPgList, type Statement } from './baselines.ts';
import {
  envInt,
  fmt,
  get,
  type LoadSettings,
  type Measured,
  ratio,
  scenario,
  TABLE_HEADER,
  tableRow,
} from './harness.ts';

// (f) The generic entity list with a filter over 100,000 rows: `GET .../entities/sku?filter=…`
// on the real app, against the very statements the engine sends (captured from pg on a first
// request), run on raw pg as the superuser (no row-level security) and in the tenant transaction.

export interface BenchContext {
  /** The real app's base URL. */
  ponte: string;
  apiKey: string;
  tenant: string;
  adminToken: string;
  /** The bench database, as the connecting (super)user. */
  databaseUrl: string;
  platform: AppPlatform;
  load: LoadSettings;
}

const SKU_ROWS = envInt('BENCH_SKU_ROWS', 100_000, 1000);
const LIST_PATH = (tenant: string) => `/t/${tenant}/bridge/1.0/rest/erp_agr/com_comum/entities/sku`;

interface Filter {
  id: string;
  label: string;
  filter: string;
  /** The same rows, written by hand: the answer must be these codes in this order, and this count. */
  where: string;
  params: unknown[];
}

const FILTERS: Filter[] = [
  {
    id: 'f1',
    label: "indexed range: codigo ge 'SKU050000' and ativo eq true",
    filter: "codigo ge 'SKU050000' and ativo eq true",
    where: 'codigo >= $2 and ativo',
    params: ['SKU050000'],
  },
  {
    id: 'f2',
    label: "containing(descricao, 'abc')",
    filter: "containing(descricao, 'abc')",
    // What containing() sends since searches fold accents (core/db/search.ts containsTextScanned):
    // the same work for both.
    where: "lower(public.unaccent(descricao)) like (select lower(public.unaccent('%abc%'::text)))",
    params: [],
  },
];

/**
 * Seeds `rows` SKUs for the tenant in one statement, as the superuser: varied descriptions, 90 %
 * active. The ids are given (a superuser session has no tenant to number them for); the tables'
 * triggers move the tenant's counters past them.
 */
async function seed(client: pg.Client, tenant: string, rows: number): Promise<void> {
  await client.query(
    `insert into com_unidade_medida (id, tenant, codigo, descricao, quantidade_decimais) values (1, $1, 'UN', 'Unidade', 0)`,
    [tenant],
  );
  await client.query(
    `insert into com_sku (id, tenant, created_by, created_date, last_modified_by, last_modified_date,
       codigo, descricao, codigo_produto, codigo_unidade_medida, codigo_barras, ncm, peso_liquido, peso_bruto, ativo)
     select i, $1, 'bench', now(), 'bench', now(),
       'SKU' || lpad(i::text, 6, '0'), 'Produto ' || md5(i::text), 'PRD' || (i % 5000), 'UN',
       (7890000000000 + i)::text, '1006' || lpad((i % 10000)::text, 4, '0'),
       (i % 500) / 10.0, (i % 500) / 10.0 + 0.5, i % 10 <> 0
     from generate_series(1, $2::int) as i`,
    [tenant, rows],
  );
  // No autovacuum landing in one measurement and not another: vacuum (hint bits, visibility map)
  // and analyze once, now. With the default statistics target, whether the 101 histogram bounds of
  // descricao happen to hold an 'abc' decides the superuser's plan for (f2)'s page (none: an
  // estimate of 10 rows, a seq scan and a sort, 53 ms; one: the codigo index, 1.4 ms), so the
  // baseline flipped from run to run. A full-table sample makes it stable. Under row-level
  // security the planner ignores these statistics for ILIKE (not leakproof): docs/performance.md.
  await client.query('alter table com_sku alter column descricao set statistics 1000');
  await client.query('alter table com_sku set (autovacuum_enabled = false)');
  await client.query('vacuum analyze com_sku');
}

/** Runs `work` while recording the statements pg sends that `match`: the engine's own SQL and values. */
export async function capture<T>(match: (text: string) => boolean, work: () => Promise<T>) {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const statements: Statement[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const text = typeof first === 'string' ? first : (first as { text?: unknown } | undefined)?.text;
    const values = Array.isArray(second) ? second : (first as { values?: unknown[] } | undefined)?.values;
    if (typeof text === 'string' && match(text)) statements.push({ text, values: values ?? [] });
    return original.apply(this, args);
  };
  try {
    return { result: await work(), statements };
  } finally {
    proto.query = original;
  }
}

/** The engine's row → entity, by hand: JSON field names, no tenant, no nulls, int64 ids as numbers. */
function entityOf(): (row: Record<string, unknown>) => Record<string, unknown> {
  const fieldOf = new Map<string, string>();
  for (const [field, column] of Object.entries(getTableColumns(sku))) fieldOf.set(column.name, field);
  return (row) => {
    const out: Record<string, unknown> = {};
    for (const name in row) {
      const value = row[name];
      if (name === 'tenant' || value === null || value === undefined) continue;
      out[fieldOf.get(name) ?? name] = name === 'id' ? Number(value) : value;
    }
    return out;
  };
}

interface Answer {
  rows: Array<Record<string, unknown>>;
  total: string | null;
}

async function list(base: string, tenant: string, filter: string, headers: Record<string, string>) {
  const url = `${base}${LIST_PATH(tenant)}?filter=${encodeURIComponent(filter)}&size=10&orderby=codigo`;
  const res = await get(url, headers);
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status} ${res.text.slice(0, 300)}`);
  return { url, answer: { rows: res.json as Answer['rows'], total: res.headers.get('x-total-count') } };
}

type Path = 'superuser' | 'transaction';

/** EXPLAIN ANALYZE of one statement through one path: as the superuser, or in the tenant transaction. */
export async function explain(
  client: pg.Client,
  tenant: string,
  path: Path,
  statement: Statement,
): Promise<string> {
  if (path === 'transaction') {
    await client.query(
      `begin; select set_config('${TENANT_SETTING}', '${tenant}', true), set_config('role', '${APP_ROLE}', true)`,
    );
  }
  try {
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers, costs off) ${statement.text}`,
      statement.values,
    );
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    if (path === 'transaction') await client.query('rollback');
  }
}

/**
 * Waits until no other backend of this database is running a statement: when the load generator
 * stops, the servers still finish the requests in flight (about a second of work at 32 connections),
 * which would otherwise slow what comes next (an EXPLAIN ANALYZE, an index build).
 */
export async function waitIdle(client: pg.Client): Promise<void> {
  const deadline = performance.now() + 30_000;
  for (;;) {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from pg_stat_activity
       where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
    );
    if (Number(rows[0]!.n) === 0 || performance.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function runEntities(bench: BenchContext): Promise<void> {
  const { ponte, tenant, databaseUrl } = bench;
  const auth = { authorization: bench.apiKey };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const servers: Running[] = [];
  try {
    const seedStart = performance.now();
    await seed(client, tenant, SKU_ROWS);
    console.log(
      `seeded ${fmt(SKU_ROWS)} com_sku rows for tenant ${tenant} in ${fmt((performance.now() - seedStart) / 1000, 1)} s`,
    );

    // The statements the engine sends for each filter, and its answer, checked against the same
    // rows selected by hand.
    const byFilter = new Map<string, ListStatements>();
    const ponteAnswers = new Map<string, Answer>();
    for (const f of FILTERS) {
      const { result, statements } = await capture(
        (text) => text.includes('from "com_sku"'),
        () => list(ponte, tenant, f.filter, auth),
      );
      const page = statements.find((s) => !s.text.startsWith('select count('));
      const count = statements.find((s) => s.text.startsWith('select count('));
      if (statements.length !== 2 || !page || !count)
        throw new Error(`expected the page and the count statements, captured ${JSON.stringify(statements)}`);
      byFilter.set(f.filter, { page, count });
      const want = await client.query<{ codigo: string; total: string }>(
        `select codigo, count(*) over () as total from com_sku where tenant = $1 and ${f.where}
         order by codigo, id`,
        [tenant, ...f.params],
      );
      const codes = result.answer.rows.map((r) => r.codigo);
      const wantCodes = want.rows.slice(0, 10).map((r) => r.codigo);
      const wantTotal = want.rows[0]?.total ?? '0';
      if (codes.length !== 10 || !isDeepStrictEqual(codes, wantCodes) || result.answer.total !== wantTotal)
        throw new Error(
          `Ponte ${f.id} answered ${codes.length} rows (${codes.join(', ')}), x-total-count ${result.answer.total}; ` +
            `expected ${wantCodes.join(', ')} and ${wantTotal}`,
        );
      ponteAnswers.set(f.filter, result.answer);
      console.log(`(${f.id}) ${f.filter}: 10 rows, x-total-count ${wantTotal}`);
      console.log(`  page:  ${page.text}\n         ${JSON.stringify(page.values)}`);
      console.log(`  count: ${count.text}\n         ${JSON.stringify(count.values)}`);
    }

    const toEntity = entityOf();

    // (f0) one entity read by id: the engine's statement built once, against that statement replayed.
    const one = await client.query<{ id: string }>(
      `select id from com_sku where tenant = $1 and codigo = 'SKU050000'`,
      [tenant],
    );
    const getPath = `${LIST_PATH(tenant)}/${one.rows[0]!.id}`;
    const { result: gotten, statements: getStatements } = await capture(
      (text) => text.includes('from "com_sku"'),
      () => get(`${ponte}${getPath}`, auth),
    );
    if (gotten.status !== 200 || getStatements.length !== 1)
      throw new Error(`GET by id answered ${gotten.status}, ${getStatements.length} statements captured`);
    const rawGet = await rawPgGet(databaseUrl, getStatements[0]!, toEntity);
    servers.push(rawGet);
    const rawGotten = await get(`${rawGet.url}${getPath}`);
    if (!isDeepStrictEqual(rawGotten.json, gotten.json))
      throw new Error(`raw pg answered the GET differently: ${rawGotten.text.slice(0, 300)}`);
    console.log(`(f0) GET ${getPath}\n  ${getStatements[0]!.text}`);
    const f0 = await scenario('(f0) Ponte entity GET by id', `${ponte}${getPath}`, bench.load, {
      headers: auth,
    });
    const f0raw = await scenario(
      '(f0-i) bare Fastify + raw pg, the same statement as superuser',
      `${rawGet.url}${getPath}`,
      bench.load,
    );

    const superuser = await rawPgList(databaseUrl, 'superuser', byFilter, toEntity);
    servers.push(superuser);
    const inTransaction = await rawPgList(databaseUrl, 'transaction', byFilter, toEntity);
    servers.push(inTransaction);
    // Every server gives the same answer as the app, field for field.
    for (const f of FILTERS) {
      for (const [name, server] of [
        ['raw pg as superuser', superuser],
        ['raw pg in the tenant transaction', inTransaction],
      ] as const) {
        const { answer } = await list(server.url, tenant, f.filter, {});
        if (!isDeepStrictEqual(answer, ponteAnswers.get(f.filter)))
          throw new Error(
            `${name} answered ${f.id} differently from the app: ${JSON.stringify(answer).slice(0, 500)}`,
          );
      }
    }

    const results: Array<{ f: Filter; ponte: Measured; su: Measured; tx: Measured }> = [];
    const loadOne = async (f: Filter, suffix = '') => {
      const path = `${LIST_PATH(tenant)}?filter=${encodeURIComponent(f.filter)}&size=10&orderby=codigo`;
      const ponteM = await scenario(`(${f.id}${suffix}) Ponte entity list`, `${ponte}${path}`, bench.load, {
        headers: auth,
      });
      const su = await scenario(
        `(${f.id}${suffix}-i) bare Fastify + raw pg, same SQL as superuser (no RLS)`,
        `${superuser.url}${path}`,
        bench.load,
      );
      const tx = await scenario(
        `(${f.id}${suffix}-ii) bare Fastify + raw pg, same SQL in the tenant transaction (RLS)`,
        `${inTransaction.url}${path}`,
        bench.load,
      );
      results.push({ f, ponte: ponteM, su, tx });
    };
    for (const f of FILTERS) await loadOne(f);

    const plans: string[] = [];
    const explainAll = async (f: Filter, note = '') => {
      const statements = byFilter.get(f.filter)!;
      await waitIdle(client);
      for (const path of ['superuser', 'transaction'] as const) {
        for (const which of ['page', 'count'] as const) {
          await explain(client, tenant, path, statements[which]); // the second run is the one shown
          const plan = await explain(client, tenant, path, statements[which]);
          plans.push(
            `-- (${f.id}) ${which}${note}, ${path === 'superuser' ? '(i) as the superuser' : '(ii) in the tenant transaction'}\n${plan}`,
          );
        }
      }
    };
    for (const f of FILTERS) await explainAll(f);

    // What-if: a trigram index on descricao (com_sku has none). As the superuser it serves the
    // ILIKE; under the row-level security policy it cannot, since ILIKE is not leakproof.
    const whatIf = process.env.BENCH_TRGM_WHATIF !== '0';
    const f2 = FILTERS.find((f) => f.id === 'f2')!;
    if (whatIf) {
      await waitIdle(client);
      await client.query(
        'create index bench_sku_descricao_trgm on com_sku using gin (ponte_fold(descricao) gin_trgm_ops)',
      );
      await client.query('analyze com_sku');
      console.log(
        '\nwhat-if: bench-only index bench_sku_descricao_trgm on com_sku using gin (ponte_fold(descricao) gin_trgm_ops)',
      );
      const { answer } = await list(ponte, tenant, f2.filter, auth);
      if (!isDeepStrictEqual(answer, ponteAnswers.get(f2.filter)))
        throw new Error('Ponte answered f2 differently with the trigram index');
      await loadOne(f2, '+trgm');
      await explainAll(f2, ' with the what-if trigram index');
      await client.query('drop index bench_sku_descricao_trgm');
    }

    console.log(
      [
        '',
        `## (f) Entity list with a filter over ${fmt(SKU_ROWS)} rows (${bench.load.connections} connections, ${bench.load.seconds} s per scenario)`,
        '',
        ...TABLE_HEADER,
        tableRow(f0),
        tableRow(f0raw),
        ...results.flatMap((r) => [tableRow(r.ponte), tableRow(r.su), tableRow(r.tx)]),
        '',
        '| ratio | value |',
        '|---|---:|',
        `| (f0) entity GET by id: req/s ÷ raw pg | ${ratio(f0.requestsPerSecond, f0raw.requestsPerSecond)} |`,
        `| (f0) entity GET by id: server CPU per request ÷ raw pg's | ${ratio(f0.serverCpuUsPerRequest, f0raw.serverCpuUsPerRequest)} |`,
        ...results.map(
          (r, i) =>
            `| (${r.f.id}${i >= FILTERS.length ? '+trgm' : ''}) entity list: server CPU per request ÷ raw pg's in the tenant transaction | ${ratio(r.ponte.serverCpuUsPerRequest, r.tx.serverCpuUsPerRequest)} |`,
        ),
        '',
        '| ratio (req/s) | Ponte ÷ raw pg superuser | Ponte ÷ raw pg in the tenant transaction | tenant transaction ÷ superuser |',
        '|---|---:|---:|---:|',
        ...results.map(
          (r, i) =>
            `| (${r.f.id}${i >= FILTERS.length ? '+trgm' : ''}) ${r.f.label} | ${ratio(r.ponte.requestsPerSecond, r.su.requestsPerSecond)} | ` +
            `${ratio(r.ponte.requestsPerSecond, r.tx.requestsPerSecond)} | ${ratio(r.tx.requestsPerSecond, r.su.requestsPerSecond)} |`,
        ),
        '',
        '### EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) of the engine’s statements, after the load, on an idle database',
        '',
        '```',
        plans.join('\n\n'),
        '```',
      ].join('\n'),
    );
  } finally {
    for (const server of servers) await server.close().catch(() => {});
    await client.end();
  }
}
