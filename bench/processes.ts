import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { logDestination } from '../src/platform/http/request-log.ts';
import { rawPg } from './baselines.ts';
import type { BenchContext } from './entities.ts';
import {
  type CpuClock,
  envInt,
  fmt,
  type Measured,
  ratio,
  scenario,
  TABLE_HEADER,
  tableRow,
} from './harness.ts';
import { queryBodies, seedProbe, verify } from './probe.ts';

// (n): the real server as `npm start` runs it, a child process of its own (bench/server.ts: `ponte
// serve` plus the bench probe), on the bench database, its log written to a file:
// - request logging: the same getEntity with LOG_LEVEL unset (the default, info: one line per
//   request) and with LOG_LEVEL=warn (no request line, errors only), two servers measured in turn for
//   BENCH_LOG_ROUNDS rounds, so that the machine's drift falls on both alike; the cost is the
//   difference in server CPU per request;
// - every core: WORKERS=1 against WORKERS=<cores> (cluster.ts), both at the default level, and raw pg (c).
// Server CPU is the CPU time of the server's processes (the primary and its workers, from /proc).

const ROUNDS = envInt('BENCH_LOG_ROUNDS', 4, 1);
const LINES = 200_000;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = join(ROOT, 'bench/server.ts');
const PATH = '/t/bench/bridge/1.0/rest/bench/probe/queries/getEntity';
const TICKS_PER_SECOND = 100; // Linux USER_HZ

export interface Child {
  base: string;
  pid: number;
  logFile: string;
  cpu: CpuClock;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** utime + stime of a process and its parent pid, from /proc/<pid>/stat; undefined once it is gone. */
function stat(pid: number): { ticks: number; ppid: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

/** CPU µs of `pid` and its direct children (a cluster's workers). */
function treeCpu(pid: number): number {
  let ticks = stat(pid)?.ticks ?? 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(Number(entry));
    if (s?.ppid === pid) ticks += s.ticks;
  }
  return (ticks / TICKS_PER_SECOND) * 1e6;
}

export async function startServer(bench: BenchContext, env: Record<string, string>): Promise<Child> {
  const dir = mkdtempSync(join(os.tmpdir(), 'ponte-bench-server-'));
  const logFile = join(dir, 'server.log');
  const out = openSync(logFile, 'a');
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dir,
      DATABASE_URL: bench.databaseUrl,
      ADMIN_TOKEN: bench.adminToken,
      // A quiet worker, as the in-process app of the other groups.
      PONTE_JOBS: 'off',
      ...env,
    },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${readFileSync(logFile, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`server did not start:\n${readFileSync(logFile, 'utf8')}`);
    const up = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const pid = child.pid!;
  return {
    base,
    pid,
    logFile,
    cpu: () => treeCpu(pid),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * What one request line costs by itself, without the noise of a whole request: the server's logger
 * (pino, its asynchronous destination: http/log-destination.ts) writing LINES lines like the request log's to a file, from
 * the first line to the last byte on disk, all of this process's threads counted.
 */
async function logLineCost(): Promise<number> {
  const dir = mkdtempSync(join(os.tmpdir(), 'ponte-bench-log-'));
  try {
    const dest = logDestination(join(dir, 'lines.log'));
    const log = pino({ level: 'info', redact: ['req.headers.authorization'] }, dest).child({
      reqId: '3f0e1f4c-6a8e-4f3b-9d55-2b1f0c9d7e11',
    });
    const before = process.cpuUsage();
    for (let i = 0; i < LINES; i++)
      log.info(
        {
          tenant: 'bench',
          op: 'bench/probe/queries/getEntity',
          method: 'POST',
          status: 200,
          ms: (i % 50) / 10,
        },
        'request',
      );
    await new Promise<void>((resolve) => dest.flush(resolve));
    dest.end();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / LINES;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runProcesses(bench: BenchContext): Promise<void> {
  const auth = { authorization: bench.apiKey };
  await seedProbe(bench.ponte, bench.tenant, auth);
  const cores = os.availableParallelism();
  const started: Child[] = [];
  try {
    const info = await startServer(bench, { WORKERS: '1' });
    started.push(info);
    const warn = await startServer(bench, { WORKERS: '1', LOG_LEVEL: 'warn' });
    started.push(warn);
    const many = await startServer(bench, { WORKERS: String(cores) });
    started.push(many);
    for (const [name, child] of [
      ['default', info],
      ['warn', warn],
      ['workers', many],
    ] as const)
      await verify(`the real server (${name})`, `${child.base}${PATH}`, auth);

    const run = (label: string, child: Child) =>
      scenario(label, `${child.base}${PATH}`, bench.load, {
        bodies: queryBodies,
        headers: auth,
        serverCpu: child.cpu,
      });
    const atInfo: Measured[] = [];
    const atWarn: Measured[] = [];
    const runInfo = async (round: number) => {
      const logBefore = statSync(info.logFile).size;
      const m = await run(
        `(n1) real server, 1 process, LOG_LEVEL unset (default: a line per request), round ${round}`,
        info,
      );
      const bytes = statSync(info.logFile).size - logBefore;
      console.log(
        `  request log: ${fmt(bytes / Math.max(m.total, 1))} bytes written per request (warm-up included)`,
      );
      atInfo.push(m);
    };
    let quietLogBytes = 0;
    const runWarn = async (round: number) => {
      const logBefore = statSync(warn.logFile).size;
      quietLogBytes -= logBefore;
      atWarn.push(
        await run(`(n2) real server, 1 process, LOG_LEVEL=warn (no request line), round ${round}`, warn),
      );
      quietLogBytes += statSync(warn.logFile).size;
    };
    // A first, unreported round warms both servers (JIT, pools, prepared statements). Then each
    // round measures both, in turns (info first in odd rounds), so drift falls on both alike.
    await run('(n1) warm-up, not counted', info);
    await run('(n2) warm-up, not counted', warn);
    for (let round = 1; round <= ROUNDS; round++) {
      if (round % 2 === 1) {
        await runInfo(round);
        await runWarn(round);
      } else {
        await runWarn(round);
        await runInfo(round);
      }
    }
    await run(`(nN) warm-up, not counted`, many);
    const nN = await run(`(nN) real server, WORKERS=${cores}, LOG_LEVEL unset (a line per request)`, many);
    const raw = await rawPg(bench.databaseUrl, 'single');
    let c: Measured;
    try {
      await verify('raw pg', `${raw.url}${PATH}`, {});
      c = await scenario('(c) bare Fastify + raw pg.Pool, same SQL', `${raw.url}${PATH}`, bench.load, {
        bodies: queryBodies,
      });
    } finally {
      await raw.close();
    }

    const sum = (ms: Measured[], f: (m: Measured) => number) => ms.reduce((a, m) => a + f(m), 0);
    const cpuInfo = sum(atInfo, (m) => m.serverCpuUsPerRequest) / atInfo.length;
    const cpuWarn = sum(atWarn, (m) => m.serverCpuUsPerRequest) / atWarn.length;
    const rpsInfo = sum(atInfo, (m) => m.requestsPerSecond) / atInfo.length;
    const rpsWarn = sum(atWarn, (m) => m.requestsPerSecond) / atWarn.length;
    const n1 = atInfo[atInfo.length - 1]!;
    const perRound = atInfo.map((m, i) => m.serverCpuUsPerRequest / atWarn[i]!.serverCpuUsPerRequest - 1);
    const sorted = [...perRound].sort((a, b) => a - b);
    const middle = sorted.length / 2;
    const median =
      sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
    const line = await logLineCost();
    console.log(
      [
        '',
        `## Results (n) (${bench.load.connections} connections, ${bench.load.seconds} s per scenario, ${cores} cores)`,
        '',
        ...TABLE_HEADER,
        ...[...atInfo, ...atWarn, nN, c].map(tableRow),
        '',
        '| ratio | value |',
        '|---|---:|',
        `| request log at the default level: server CPU per request over LOG_LEVEL=warn's (mean of ${ROUNDS} rounds each) | ${fmt(((cpuInfo - cpuWarn) / cpuWarn) * 100, 1)} % (${fmt(cpuInfo)} against ${fmt(cpuWarn)} µs) |`,
        `| request log at the default level: the same, median of the rounds' own differences (${perRound.map((r) => fmt(r * 100, 1)).join(', ')} %) | ${fmt(median * 100, 1)} % |`,
        `| request log at LOG_LEVEL=warn: bytes written per request (${fmt(sum(atWarn, (m) => m.total))} requests) | ${fmt(
          quietLogBytes /
            Math.max(
              sum(atWarn, (m) => m.total),
              1,
            ),
          2,
        )} |`,
        `| request log at the default level: req/s ÷ LOG_LEVEL=warn's req/s | ${ratio(rpsInfo, rpsWarn)} |`,
        `| one request line alone (${fmt(LINES)} lines, the server's logger to a file): CPU per line, and its share of a request without it | ${fmt(line, 2)} µs, ${fmt((line / cpuWarn) * 100, 1)} % |`,
        `| ${cores} workers req/s ÷ 1 process req/s (both at the default level, last round) | ${ratio(nN.requestsPerSecond, n1.requestsPerSecond)} |`,
        `| ${cores} workers p99 ÷ 1 process p99 | ${ratio(nN.latencyP99, n1.latencyP99)} |`,
        `| 1 process req/s ÷ raw pg (c) req/s | ${ratio(n1.requestsPerSecond, c.requestsPerSecond)} |`,
        `| ${cores} workers req/s ÷ raw pg (c) req/s | ${ratio(nN.requestsPerSecond, c.requestsPerSecond)} |`,
      ].join('\n'),
    );
  } finally {
    for (const child of started.reverse()) await child.stop().catch(() => undefined);
  }
}
