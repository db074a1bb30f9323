import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/platform/app.ts';
import { allServices } from '../src/services/index.ts';
import { runAgenda } from './agenda.ts';
import { bareFastify, type Running, rawPg } from './baselines.ts';
import { runCreates } from './creates.ts';
import { runDia } from './dia.ts';
import { type BenchContext, runEntities } from './entities.ts';
import { runExports } from './exports.ts';
import { runFunctions } from './functions.ts';
import {
  busyBefore,
  createTenant,
  envInt,
  fmt,
  type LoadSettings,
  type Measured,
  post,
  ratio,
  scenario,
  TABLE_HEADER,
  tableRow,
} from './harness.ts';
import { runHorarios } from './horarios.ts';
import { runIdle } from './idle.ts';
import { runImports } from './imports.ts';
import { runOficina } from './oficina.ts';
import { runParcelas } from './parcelas.ts';
import { runPatio } from './patio.ts';
import { runPedidos } from './pedidos.ts';
import { benchService, expected, queryBodies, seedProbe, verify } from './probe.ts';
import { runProcesses } from './processes.ts';
import { runSku } from './sku.ts';

// `npm run bench`: the bridge's cost per request, as ratios against baselines served on the same
// machine (DESIGN.md "Quality bar"). Scenarios run one after another on 127.0.0.1; the load comes
// from autocannon in a child process. Every request must succeed: any error voids the run.
// Groups: `bridge` (a)–(e) here, `entities` (f) in entities.ts, `imports` (g) in imports.ts, and
// the others each in the file of its name (creates (m) in creates.ts).

const SECONDS = envInt('BENCH_SECONDS', 10, 1);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 32, 1);
const WARMUP_SECONDS = envInt('BENCH_WARMUP_SECONDS', Math.min(3, Math.max(1, Math.round(SECONDS / 5))), 0);
const LOAD: LoadSettings = { seconds: SECONDS, connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS };
const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const TENANT = 'bench';
const ADMIN_TOKEN = 'bench';
const QUERY_PATH = `/t/${TENANT}/bridge/1.0/rest/bench/probe/queries/getEntity`;
const BUILT_PATH = `/t/${TENANT}/bridge/1.0/rest/bench/probe/queries/getEntityBuilt`;
const HEALTH_PATH = `/t/${TENANT}/bridge/1.0/rest/hcm/platform_integration/queries/healthcheck`;

/** Groups of scenarios; `BENCH_ONLY=entities,imports` runs only those (all by default). */
const GROUPS = [
  'bridge',
  'entities',
  'imports',
  'patio',
  'horarios',
  'exports',
  'agenda',
  'creates',
  'pedidos',
  'workers',
  'idle',
  'dia',
  'oficina',
  'sku',
  'functions',
  'parcelas',
] as const;
type Group = (typeof GROUPS)[number];
function selectedGroups(): Set<Group> {
  const raw = (process.env.BENCH_ONLY ?? '').trim();
  if (raw === '') return new Set(GROUPS);
  const names = raw.split(',').map((s) => s.trim().toLowerCase());
  const unknown = names.filter((n) => !(GROUPS as readonly string[]).includes(n));
  if (unknown.length)
    throw new Error(`BENCH_ONLY names unknown groups ${unknown.join(', ')}; known: ${GROUPS.join(', ')}`);
  return new Set(names as Group[]);
}
const ONLY = selectedGroups();

// --- what is seeded, and what each server must answer -------------------------------------------

/** A bridge scenario: POST of the bodies in turn. */
const bridgeScenario = (label: string, url: string, bodies: string[], headers: Record<string, string> = {}) =>
  scenario(label, url, LOAD, { bodies, headers });

// --- the run ------------------------------------------------------------------------------------

const cleanups: Array<() => Promise<unknown>> = [];
let cleaning: Promise<void> | undefined;
/** Closes servers and pools, drops the database and the temporary folder: last opened, first closed. */
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const fn of cleanups.reverse()) {
      await fn().catch((err: unknown) => console.error(`cleanup: ${(err as Error).message}`));
    }
  })();
  return cleaning;
}

async function main(): Promise<void> {
  const serverUrl = new URL(SERVER_URL);
  const dbName = `ponte_bench_${randomBytes(5).toString('hex')}`;
  const databaseUrl = new URL(serverUrl);
  databaseUrl.pathname = `/${dbName}`;

  const admin = new pg.Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  const pgVersion = (await admin.query<{ server_version: string }>('show server_version')).rows[0]!
    .server_version;
  await admin.query(`create database ${dbName}`);
  await admin.end();
  cleanups.push(async () => {
    // BENCH_KEEP_DB=1 leaves the seeded database behind, to replay or EXPLAIN its statements.
    if (process.env.BENCH_KEEP_DB === '1') return console.log(`kept database ${dbName}`);
    const c = new pg.Client({ connectionString: serverUrl.toString() });
    await c.connect();
    await c.query(`drop database if exists ${dbName} with (force)`);
    await c.end();
  });

  const autocannonVersion = (createRequire(import.meta.url)('autocannon/package.json') as { version: string })
    .version;
  const cpus = os.cpus();
  console.log('# Ponte bench: bridge query vs baselines');
  console.log(
    `machine: ${os.availableParallelism()} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ` +
      `Node ${process.version}, PostgreSQL ${pgVersion} at ${serverUrl.host} (database ${dbName})`,
  );
  console.log(
    `load: autocannon ${autocannonVersion} in a child process (its own event loop; it shares the cores ` +
      `with the servers and PostgreSQL), ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up then ` +
      `${SECONDS} s measured per scenario, scenarios one after another, all on 127.0.0.1; ` +
      'latencies in whole milliseconds (autocannon’s histogram resolution)',
  );
  console.log(`groups: ${[...ONLY].join(', ')} (BENCH_ONLY selects among ${GROUPS.join(', ')})`);
  const startedAt = performance.now();

  // The real app, with the bench service beside every registered one. Jobs do not run by
  // themselves (the load scenarios want a quiet worker); the import scenario drains the queue.
  const dataDir = await mkdtemp(join(os.tmpdir(), 'ponte-bench-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const { app, platform } = await buildApp({
    // services: [] serves every service passed below whatever PONTE_SERVICES says.
    config: {
      databaseUrl: databaseUrl.toString(),
      dataDir,
      adminToken: ADMIN_TOKEN,
      runJobs: false,
      logLevel: 'warn',
      services: [],
      // The 1,000,000-row CSV is larger than the default 100 MiB upload limit.
      blobMaxBytes: 16 * 2 ** 30,
    },
    logger: false,
    services: [...allServices, benchService],
  });
  cleanups.push(() => app.close());
  const ponte = await app.listen({ port: 0, host: '127.0.0.1' });
  const apiKey = await createTenant(ponte, ADMIN_TOKEN, TENANT);
  const bench: BenchContext = {
    ponte,
    apiKey,
    tenant: TENANT,
    adminToken: ADMIN_TOKEN,
    databaseUrl: databaseUrl.toString(),
    platform,
    load: LOAD,
  };

  if (ONLY.has('bridge')) {
    await busyBefore('the bridge scenarios (a)–(e)');
    await bridge(ponte, { authorization: apiKey }, databaseUrl.toString(), pgVersion);
  }
  if (ONLY.has('entities')) {
    console.log('\n# (f) entity list with a filter');
    await busyBefore('the entity list scenarios (f)');
    await runEntities(bench);
  }
  if (ONLY.has('imports')) {
    console.log('\n# (g) import throughput and memory');
    await busyBefore('the import scenario (g)');
    await runImports(bench);
  }
  if (ONLY.has('patio')) {
    console.log('\n# (h) buscaVagaLivre under load, (i) event ingestion and dispatch');
    await busyBefore('the yard scenarios (h), (i)');
    await runPatio(bench);
  }
  if (ONLY.has('functions')) {
    console.log('\n# (s) a trivial user function bound to a primitive');
    await busyBefore('the functions scenarios (s)');
    await runFunctions(bench);
  }
  if (ONLY.has('parcelas')) {
    console.log('\n# (u) ped_pedidos obterParcelasPedidoVenda, 100 of 1,000,000 orders');
    await busyBefore('the installments scenario (u)');
    await runParcelas(bench);
  }
  if (ONLY.has('horarios')) {
    console.log('\n# (j) yms/agenda horarioOperacao on a busy day');
    await busyBefore('the operating-hours scenario (j)');
    await runHorarios(bench);
  }
  if (ONLY.has('exports')) {
    console.log('\n# (k) export throughput and memory');
    await busyBefore('the export scenario (k)');
    await runExports(bench);
  }
  if (ONLY.has('agenda')) {
    console.log('\n# (l) filtrarAgenda over 1,000,000 agendas');
    await busyBefore('the agenda search scenarios (l)');
    await runAgenda(bench);
  }
  if (ONLY.has('creates')) {
    console.log('\n# (m) entity creates under load, int64 and UUID ids');
    await busyBefore('the create scenarios (m)');
    await runCreates(bench);
  }
  if (ONLY.has('pedidos')) {
    console.log('\n# (t) erp_isl inserirPedidoVenda with 20 items under load, against raw pg');
    await busyBefore('the order scenarios (t)');
    await runPedidos(bench);
  }
  if (ONLY.has('workers')) {
    console.log('\n# (n) the real server: request logging, and one process against every core');
    await busyBefore('the real-server scenarios (n)');
    await runProcesses(bench);
  }
  if (ONLY.has('oficina')) {
    console.log('\n# (q) tms/oficina visaoGeral over 10,000 vehicles and 100,000 items of each kind');
    await busyBefore('the workshop dashboard scenario (q)');
    await runOficina(bench);
  }
  if (ONLY.has('sku')) {
    console.log('\n# (r) gerarSku on one auto-increment mask, criarCotacao of 50 items (issue #16)');
    await busyBefore('the SKU and quotation scenarios (r)');
    await runSku(bench);
  }
  if (ONLY.has('idle')) {
    console.log('\n# (o) what idle nodes cost the database');
    await runIdle(bench);
  }
  if (ONLY.has('dia')) {
    console.log("\n# (p) yms/patio's day numbers over 1,000,000 yard visits");
    await busyBefore('the day numbers scenarios (p)');
    await runDia(bench);
  }
  console.log(`\nwhole run: ${fmt((performance.now() - startedAt) / 1000)} s`);
}

/** (a)–(e): one bridge query and the healthcheck against bare Fastify and raw pg. */
async function bridge(
  ponte: string,
  auth: Record<string, string>,
  databaseUrl: string,
  pgVersion: string,
): Promise<void> {
  await seedProbe(ponte, TENANT, auth);
  await verify('Ponte getEntity', `${ponte}${QUERY_PATH}`, auth);
  await verify('Ponte getEntityBuilt', `${ponte}${BUILT_PATH}`, auth);
  const health = await post(`${ponte}${HEALTH_PATH}`, {}, auth);
  if (health.status !== 200 || (health.json as { status?: string }).status !== 'UP')
    throw new Error(`healthcheck answered ${health.status} ${health.text}`);

  const a = await bridgeScenario(
    '(a) Ponte bridge, bench/probe getEntity',
    `${ponte}${QUERY_PATH}`,
    queryBodies,
    auth,
  );

  const runBaseline = async (start: () => Promise<Running>, run: (url: string) => Promise<Measured>) => {
    const server = await start();
    try {
      return await run(server.url);
    } finally {
      await server.close();
    }
  };
  const a2 = await bridgeScenario(
    '(a2) Ponte bridge, the same read built by drizzle per request',
    `${ponte}${BUILT_PATH}`,
    queryBodies,
    auth,
  );
  const b = await runBaseline(
    () => bareFastify(expected(500)),
    async (url) => {
      await verify('bare Fastify', `${url}${QUERY_PATH}`, {}, 500);
      return bridgeScenario('(b) bare Fastify, precomputed answer', `${url}${QUERY_PATH}`, queryBodies);
    },
  );
  const c = await runBaseline(
    () => rawPg(databaseUrl, 'single'),
    async (url) => {
      await verify('raw pg', `${url}${QUERY_PATH}`, {});
      return bridgeScenario('(c) bare Fastify + raw pg.Pool, same SQL', `${url}${QUERY_PATH}`, queryBodies);
    },
  );
  const d = await bridgeScenario('(d) Ponte bridge, healthcheck', `${ponte}${HEALTH_PATH}`, ['{}'], auth);
  // Not a baseline to beat: it splits (a) ÷ (c) into the transaction's round trips and the rest.
  const e = await runBaseline(
    () => rawPg(databaseUrl, 'transaction'),
    async (url) => {
      await verify('raw pg in a tenant transaction', `${url}${QUERY_PATH}`, {});
      return bridgeScenario(
        '(e) bare Fastify + raw pg.Pool, same SQL in the tenant transaction',
        `${url}${QUERY_PATH}`,
        queryBodies,
      );
    },
  );

  console.log(
    [
      '',
      `## Results (${CONNECTIONS} connections, ${SECONDS} s per scenario, ${os.availableParallelism()} cores, Node ${process.version}, PostgreSQL ${pgVersion})`,
      '',
      ...TABLE_HEADER,
      ...[a, a2, b, c, d, e].map(tableRow),
      '',
      '| ratio | value |',
      '|---|---:|',
      `| Ponte getEntity req/s ÷ bare Fastify req/s | ${ratio(a.requestsPerSecond, b.requestsPerSecond)} |`,
      `| Ponte getEntity req/s ÷ raw pg req/s | ${ratio(a.requestsPerSecond, c.requestsPerSecond)} |`,
      `| Ponte getEntity server CPU per request ÷ raw pg's | ${ratio(a.serverCpuUsPerRequest, c.serverCpuUsPerRequest)} |`,
      `| Ponte getEntity, query built per request (a2) req/s ÷ raw pg req/s | ${ratio(a2.requestsPerSecond, c.requestsPerSecond)} |`,
      `| Ponte getEntity p99 ÷ bare Fastify p99 | ${ratio(a.latencyP99, b.latencyP99)} |`,
      `| Ponte getEntity p99 ÷ raw pg p99 | ${ratio(a.latencyP99, c.latencyP99)} |`,
      `| Ponte healthcheck req/s ÷ bare Fastify req/s | ${ratio(d.requestsPerSecond, b.requestsPerSecond)} |`,
      `| Ponte healthcheck p99 ÷ bare Fastify p99 | ${ratio(d.latencyP99, b.latencyP99)} |`,
      `| raw pg in the tenant transaction req/s ÷ raw pg alone req/s | ${ratio(e.requestsPerSecond, c.requestsPerSecond)} |`,
      `| Ponte getEntity req/s ÷ raw pg in the tenant transaction req/s | ${ratio(a.requestsPerSecond, e.requestsPerSecond)} |`,
    ].join('\n'),
  );
}

process.once('SIGINT', () => {
  console.error('\ninterrupted: cleaning up');
  void cleanup().finally(() => process.exit(130));
});

try {
  await main();
} catch (err) {
  console.error(`\nBENCH FAILED: ${(err as Error).stack ?? err}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
