import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { buildApp } from '../src/platform/app.ts';
import { allServices } from '../src/services/index.ts';
import { bareFastify, type Running, rawPg } from './baselines.ts';
import type { LoadJob, LoadMessage, LoadSummary } from './load.ts';
import { benchService } from './probe.ts';

// `npm run bench`: the bridge's cost per request, as ratios against baselines served on the same
// machine (DESIGN.md "Quality bar"). Scenarios run one after another on 127.0.0.1; the load comes
// from autocannon in a child process. Every request must succeed: any error voids the run.

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

const SECONDS = envInt('BENCH_SECONDS', 10, 1);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 32, 1);
const WARMUP_SECONDS = envInt('BENCH_WARMUP_SECONDS', Math.min(3, Math.max(1, Math.round(SECONDS / 5))), 0);
const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const TENANT = 'bench';
const ADMIN_TOKEN = 'bench';
const ROWS = 1000;
const QUERY_PATH = `/t/${TENANT}/bridge/1.0/rest/bench/probe/queries/getEntity`;
const HEALTH_PATH = `/t/${TENANT}/bridge/1.0/rest/hcm/platform_integration/queries/healthcheck`;

// --- what is seeded, and what each server must answer -------------------------------------------

const entity = (n: number) => ({ id: n, name: `Employee ${n}`, salary: 3000 + (n % 40) * 12.5 });
const expected = (n: number) => ({ id: String(n), className: 'Employee', data: entity(n) });
const ids = Array.from({ length: ROWS }, (_, i) => i + 1);
/** Every connection cycles through all the ids, so the database reads spread over the 1,000 rows. */
const queryBodies = ids.map((n) => JSON.stringify({ id: String(n) }));

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as unknown) : undefined, text };
}

/** The server answers these ids with exactly the seeded entity (or, for bare Fastify, entity 500). */
async function verify(name: string, url: string, headers: Record<string, string>, fixed?: number) {
  for (const n of [1, 500, ROWS]) {
    const res = await post(url, { id: String(n) }, headers);
    const want = expected(fixed ?? n);
    if (res.status !== 200 || !isDeepStrictEqual(res.json, want))
      throw new Error(
        `${name} answered id ${n} with ${res.status} ${res.text}; expected ${JSON.stringify(want)}`,
      );
  }
}

// --- measuring ----------------------------------------------------------------------------------

interface Measured extends LoadSummary {
  name: string;
  /** CPU time of this process (the servers; not the load generator, not PostgreSQL) per request. */
  serverCpuUsPerRequest: number;
  /** Share of all cores busy during the measurement (servers + load generator + PostgreSQL). */
  machineBusy: number;
}

function cpuTimes() {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    busy += times.user + times.nice + times.sys + times.irq;
    total += times.user + times.nice + times.sys + times.irq + times.idle;
  }
  return { busy, total };
}

const loadScript = fileURLToPath(new URL('./load.ts', import.meta.url));

/** Runs autocannon in a child process (with this process's tsx loader) and collects its summary. */
function measure(name: string, job: LoadJob): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = fork(loadScript, [], { execArgv: process.execArgv, stdio: 'inherit' });
    let start: { cpu: NodeJS.CpuUsage; machine: ReturnType<typeof cpuTimes> } | undefined;
    let done = false;
    child.on('message', (message: LoadMessage) => {
      if (message.type === 'measuring') {
        start = { cpu: process.cpuUsage(), machine: cpuTimes() };
      } else if (message.type === 'result' && start) {
        const cpu = process.cpuUsage(start.cpu);
        const machine = cpuTimes();
        const { summary } = message;
        done = true;
        resolve({
          name,
          ...summary,
          serverCpuUsPerRequest: (cpu.user + cpu.system) / Math.max(summary.total, 1),
          machineBusy: (machine.busy - start.machine.busy) / Math.max(machine.total - start.machine.total, 1),
        });
      } else if (message.type === 'failed') {
        done = true;
        reject(new Error(`load generator failed in ${name}: ${message.message}`));
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (!done) reject(new Error(`load generator for ${name} exited (${code ?? signal}) without a result`));
    });
    child.send(job);
  });
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function report(m: Measured): void {
  console.log(
    `  ${fmt(m.requestsPerSecond)} req/s, p50 ${fmt(m.latencyP50)} ms, p99 ${fmt(m.latencyP99)} ms, ` +
      `${fmt(m.total)} requests in ${m.seconds} s, errors ${m.errors}, timeouts ${m.timeouts}, ` +
      `non-2xx ${m.non2xx}; server CPU ${fmt(m.serverCpuUsPerRequest)} µs/req, ` +
      `machine ${fmt(m.machineBusy * 100)} % busy`,
  );
  const failures = m.errors + m.timeouts + m.non2xx;
  if (failures > 0) {
    throw new Error(
      `${m.name}: ${m.errors} errors, ${m.timeouts} timeouts, ${m.non2xx} non-2xx responses: the run is void`,
    );
  }
}

async function scenario(
  label: string,
  url: string,
  bodies: string[],
  headers: Record<string, string> = {},
): Promise<Measured> {
  console.log(`\n${label}  POST ${new URL(url).pathname}`);
  const result = await measure(label, {
    url,
    headers,
    bodies,
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    seconds: SECONDS,
  });
  report(result);
  return result;
}

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
  // Anything else running competes for the same cores and PostgreSQL: say so next to the figures.
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = cpuTimes();
  const idleBusy = (after.busy - before.busy) / Math.max(after.total - before.total, 1);
  console.log(
    `machine busy in the second before start: ${fmt(idleBusy * 100)} %` +
      (idleBusy > 0.15 ? '  WARNING: something else is running; figures will be low and noisy' : ''),
  );

  // (a), (d): the real app, with the bench service beside every registered one.
  const dataDir = await mkdtemp(join(os.tmpdir(), 'ponte-bench-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const { app } = await buildApp({
    // services: [] serves every service passed below whatever PONTE_SERVICES says.
    config: {
      databaseUrl: databaseUrl.toString(),
      dataDir,
      adminToken: ADMIN_TOKEN,
      runJobs: false,
      logLevel: 'warn',
      services: [],
    },
    logger: false,
    services: [...allServices, benchService],
  });
  cleanups.push(() => app.close());
  const ponte = await app.listen({ port: 0, host: '127.0.0.1' });

  const adminAuth = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const created = await post(`${ponte}/admin/tenants`, { name: TENANT }, adminAuth);
  if (created.status !== 201) throw new Error(`tenant creation failed: ${created.status} ${created.text}`);
  const key = await post(`${ponte}/admin/tenants/${TENANT}/keys`, { scope: 'full' }, adminAuth);
  if (key.status !== 201) throw new Error(`key creation failed: ${key.status} ${key.text}`);
  const apiKey = (key.json as { apiKey: string }).apiKey;
  const auth = { authorization: apiKey };

  const saved = await post(
    `${ponte}/t/${TENANT}/bridge/1.0/rest/hcm/platform_integration/actions/integrationSaveBatch`,
    {
      className: 'Employee',
      serviceName: 'hr',
      collectionName: 'employee',
      ids: ids.join(','),
      jsonText: JSON.stringify(ids.map(entity)),
    },
    auth,
  );
  const results = (saved.json as { results?: Array<{ success: boolean }> } | undefined)?.results ?? [];
  if (saved.status !== 200 || results.length !== ROWS || !results.every((r) => r.success))
    throw new Error(`seeding failed: ${saved.status} ${saved.text.slice(0, 500)}`);
  console.log(`seeded ${ROWS} integration_entities rows for tenant ${TENANT}`);

  await verify('Ponte getEntity', `${ponte}${QUERY_PATH}`, auth);
  const health = await post(`${ponte}${HEALTH_PATH}`, {}, auth);
  if (health.status !== 200 || (health.json as { status?: string }).status !== 'UP')
    throw new Error(`healthcheck answered ${health.status} ${health.text}`);

  const a = await scenario(
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
  const b = await runBaseline(
    () => bareFastify(expected(500)),
    async (url) => {
      await verify('bare Fastify', `${url}${QUERY_PATH}`, {}, 500);
      return scenario('(b) bare Fastify, precomputed answer', `${url}${QUERY_PATH}`, queryBodies);
    },
  );
  const c = await runBaseline(
    () => rawPg(databaseUrl.toString(), 'single'),
    async (url) => {
      await verify('raw pg', `${url}${QUERY_PATH}`, {});
      return scenario('(c) bare Fastify + raw pg.Pool, same SQL', `${url}${QUERY_PATH}`, queryBodies);
    },
  );
  const d = await scenario('(d) Ponte bridge, healthcheck', `${ponte}${HEALTH_PATH}`, ['{}'], auth);
  // Not a baseline to beat: it splits (a) ÷ (c) into the transaction's round trips and the rest.
  const e = await runBaseline(
    () => rawPg(databaseUrl.toString(), 'transaction'),
    async (url) => {
      await verify('raw pg in a tenant transaction', `${url}${QUERY_PATH}`, {});
      return scenario(
        '(e) bare Fastify + raw pg.Pool, same SQL in the tenant transaction',
        `${url}${QUERY_PATH}`,
        queryBodies,
      );
    },
  );

  const ratio = (x: number, y: number) => (y > 0 ? fmt(x / y, 2) : 'n/a');
  const rows = [a, b, c, d, e].map(
    (m) =>
      `| ${m.name} | ${fmt(m.requestsPerSecond)} | ${fmt(m.latencyP50)} | ${fmt(m.latencyP99)} | ` +
      `${fmt(m.serverCpuUsPerRequest)} | ${fmt(m.machineBusy * 100)} % | ${m.errors + m.timeouts} | ${m.non2xx} |`,
  );
  console.log(
    [
      '',
      `## Results (${CONNECTIONS} connections, ${SECONDS} s per scenario, ${os.availableParallelism()} cores, Node ${process.version}, PostgreSQL ${pgVersion})`,
      '',
      '| scenario | req/s (mean) | p50 ms | p99 ms | server CPU µs/req | machine busy | errors | non-2xx |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      '| ratio | value |',
      '|---|---:|',
      `| Ponte getEntity req/s ÷ bare Fastify req/s | ${ratio(a.requestsPerSecond, b.requestsPerSecond)} |`,
      `| Ponte getEntity req/s ÷ raw pg req/s | ${ratio(a.requestsPerSecond, c.requestsPerSecond)} |`,
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
