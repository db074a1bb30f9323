import pg from 'pg';
import type { BenchContext } from './entities.ts';
import { envInt, fmt } from './harness.ts';
import { type Child, startServer } from './processes.ts';

// (o) What idle nodes cost the database (docs/deploy.md "What a node costs the database"): 1, 3
// and 10 real servers (`ponte serve`, jobs and event delivery on, as deployed) on the bench
// database, nobody calling them. Each node polls: its job worker (JOB_POLL_MS), its outbox
// dispatcher (EVENT_POLL_MS), its lease renewals, and it holds a listening connection for the
// notices. Measured over BENCH_IDLE_SECONDS from pg_stat_database (transactions) and
// pg_stat_activity (connections), less what the bench's own in-process app does meanwhile.

const SECONDS = envInt('BENCH_IDLE_SECONDS', 10, 2);
const COUNTS = [1, 3, 10];

interface Snapshot {
  xacts: number;
  at: number;
}

async function snapshot(client: pg.Client): Promise<Snapshot> {
  // Statistics are flushed by each backend at least every second or so: wait for them.
  await client.query('select pg_stat_clear_snapshot()');
  const { rows } = await client.query<{ xacts: string }>(
    `select xact_commit + xact_rollback as xacts from pg_stat_database where datname = current_database()`,
  );
  return { xacts: Number(rows[0]!.xacts), at: performance.now() };
}

async function connections(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  return rows[0]!.n;
}

async function measure(client: pg.Client): Promise<{ xactsPerSecond: number }> {
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const a = await snapshot(client);
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the last flush of the counters
  const b = await snapshot(client);
  const seconds = (b.at - a.at) / 1000;
  return { xactsPerSecond: (b.xacts - a.xacts) / seconds };
}

export async function runIdle(bench: BenchContext): Promise<void> {
  const client = new pg.Client({ connectionString: bench.databaseUrl });
  await client.connect();
  const lines: string[] = [];
  try {
    const base = await measure(client);
    const baseConnections = await connections(client);
    console.log(
      `(o) the bench's own app alone: ${fmt(base.xactsPerSecond, 1)} transactions/s, ${baseConnections} connections`,
    );
    for (const n of COUNTS) {
      const nodes: Child[] = [];
      try {
        for (let i = 0; i < n; i++) nodes.push(await startServer(bench, { WORKERS: '1', PONTE_JOBS: 'on' }));
        const m = await measure(client);
        const held = (await connections(client)) - baseConnections;
        const xacts = m.xactsPerSecond - base.xactsPerSecond;
        console.log(`(o) ${n} idle node(s): ${fmt(xacts, 1)} transactions/s, ${held} connections`);
        lines.push(`| ${n} | ${fmt(xacts, 1)} | ${fmt(xacts / n, 1)} | ${held} | ${fmt(held / n, 1)} |`);
      } finally {
        for (const node of nodes) await node.stop();
      }
    }
  } finally {
    await client.end();
  }
  console.log(
    [
      '',
      `## (o) What idle nodes cost the database (${SECONDS} s measured per count, defaults: JOB_POLL_MS 1000, EVENT_POLL_MS 1000, LEASE_SECONDS 10)`,
      '',
      '| nodes | transactions/s | per node | connections held | per node |',
      '|---:|---:|---:|---:|---:|',
      ...lines,
    ].join('\n'),
  );
}
