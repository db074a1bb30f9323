import { fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadMessage, LoadSummary } from './load.ts';

// What every scenario of `npm run bench` shares: the settings, the load generator in a child process,
// the machine's busyness, the report of one measurement, and small HTTP helpers.

export function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

export interface LoadSettings {
  seconds: number;
  connections: number;
  warmupSeconds: number;
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export const ratio = (x: number, y: number, digits = 2) => (y > 0 ? fmt(x / y, digits) : 'n/a');

export async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    json: text ? (JSON.parse(text) as unknown) : undefined,
    text,
    headers: res.headers,
  };
}

export async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return {
    status: res.status,
    json: text ? (JSON.parse(text) as unknown) : undefined,
    text,
    headers: res.headers,
  };
}

export function cpuTimes() {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    busy += times.user + times.nice + times.sys + times.irq;
    total += times.user + times.nice + times.sys + times.irq + times.idle;
  }
  return { busy, total };
}

export function busyBetween(before: ReturnType<typeof cpuTimes>, after: ReturnType<typeof cpuTimes>): number {
  return (after.busy - before.busy) / Math.max(after.total - before.total, 1);
}

const BUSY_LIMIT = 0.15;

async function busyForOneSecond(): Promise<number> {
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return busyBetween(before, cpuTimes());
}

/**
 * Anything else running competes for the same cores and PostgreSQL: says how busy the machine was
 * in the second before a scenario, next to its figures. With BENCH_QUIET_WAIT=<seconds>, first waits
 * up to that long for the machine to be quiet (at most 15 % busy), checking every 5 s.
 */
export async function busyBefore(what: string): Promise<number> {
  const patience = envInt('BENCH_QUIET_WAIT', 0, 0) * 1000;
  const start = performance.now();
  let busy = await busyForOneSecond();
  while (busy > BUSY_LIMIT && performance.now() - start < patience) {
    console.log(`  machine ${fmt(busy * 100)} % busy: waiting for it to be quiet before ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 4000));
    busy = await busyForOneSecond();
  }
  console.log(
    `machine busy in the second before ${what}: ${fmt(busy * 100)} %` +
      (busy > BUSY_LIMIT ? '  WARNING: something else is running; figures will be low and noisy' : ''),
  );
  return busy;
}

export interface Measured extends LoadSummary {
  name: string;
  /** CPU time of this process (the servers; not the load generator, not PostgreSQL) per request. */
  serverCpuUsPerRequest: number;
  /** Share of all cores busy during the measurement (servers + load generator + PostgreSQL). */
  machineBusy: number;
}

const loadScript = fileURLToPath(new URL('./load.ts', import.meta.url));

/** CPU time used so far, in µs: by default this process's (the in-process servers). */
export type CpuClock = () => number;
const ownCpu: CpuClock = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/**
 * Runs autocannon in a child process (with this process's tsx loader) and collects its summary.
 * `serverCpu` reads the servers' CPU time (default: this process, which holds them).
 */
export function measure(name: string, job: LoadJob, serverCpu: CpuClock = ownCpu): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = fork(loadScript, [], { execArgv: process.execArgv, stdio: 'inherit' });
    let start: { cpu: number; machine: ReturnType<typeof cpuTimes> } | undefined;
    let done = false;
    child.on('message', (message: LoadMessage) => {
      if (message.type === 'measuring') {
        start = { cpu: serverCpu(), machine: cpuTimes() };
      } else if (message.type === 'result' && start) {
        const cpu = serverCpu() - start.cpu;
        const { summary } = message;
        done = true;
        resolve({
          name,
          ...summary,
          serverCpuUsPerRequest: cpu / Math.max(summary.total, 1),
          machineBusy: busyBetween(start.machine, cpuTimes()),
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

export function report(m: Measured): void {
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

/** One load scenario: POST of `bodies` in turn (or of `template`, numbered), else GET of the URL. */
export async function scenario(
  label: string,
  url: string,
  settings: LoadSettings,
  options: {
    bodies?: string[];
    template?: string;
    headers?: Record<string, string>;
    serverCpu?: CpuClock;
  } = {},
): Promise<Measured> {
  const method = options.bodies || options.template ? 'POST' : 'GET';
  const { pathname, search } = new URL(url);
  console.log(`\n${label}  ${method} ${pathname}${search.length > 80 ? `${search.slice(0, 80)}…` : search}`);
  const result = await measure(
    label,
    {
      url,
      method,
      headers: options.headers ?? {},
      bodies: options.bodies ?? [],
      ...(options.template ? { template: options.template } : {}),
      connections: settings.connections,
      warmupSeconds: settings.warmupSeconds,
      seconds: settings.seconds,
    },
    options.serverCpu,
  );
  report(result);
  return result;
}

export const TABLE_HEADER = [
  '| scenario | req/s (mean) | p50 ms | p99 ms | server CPU µs/req | machine busy | errors | non-2xx |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
];

export function tableRow(m: Measured): string {
  return (
    `| ${m.name} | ${fmt(m.requestsPerSecond)} | ${fmt(m.latencyP50)} | ${fmt(m.latencyP99)} | ` +
    `${fmt(m.serverCpuUsPerRequest)} | ${fmt(m.machineBusy * 100)} % | ${m.errors + m.timeouts} | ${m.non2xx} |`
  );
}

/** A tenant and a full key on the real app, through the admin API. */
export async function createTenant(ponte: string, adminToken: string, name: string): Promise<string> {
  const adminAuth = { authorization: `Bearer ${adminToken}` };
  const created = await post(`${ponte}/admin/tenants`, { name }, adminAuth);
  if (created.status !== 201) throw new Error(`tenant creation failed: ${created.status} ${created.text}`);
  const key = await post(`${ponte}/admin/tenants/${name}/keys`, { scope: 'full' }, adminAuth);
  if (key.status !== 201) throw new Error(`key creation failed: ${key.status} ${key.text}`);
  return (key.json as { apiKey: string }).apiKey;
}

/** What a long job cost this process: memory before and at its peak, CPU, how busy the machine was. */
export interface ProcessCost {
  rssBefore: number;
  rssPeak: number;
  heapPeak: number;
  nodeCpuSeconds: number;
  machineBusy: number;
}

/**
 * Starts watching this process while a long job (an import, an export) runs: RSS and heap sampled
 * every `sampleMs`, CPU and machine time from now. `stop()` ends the sampling and answers the cost.
 */
export function watchProcess(sampleMs = 200): { stop(): ProcessCost } {
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  let heapPeak = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    rssPeak = Math.max(rssPeak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
  }, sampleMs);
  const cpuStart = process.cpuUsage();
  const machineStart = cpuTimes();
  return {
    stop() {
      clearInterval(sampler);
      const cpu = process.cpuUsage(cpuStart);
      return {
        rssBefore,
        rssPeak,
        heapPeak,
        nodeCpuSeconds: (cpu.user + cpu.system) / 1e6,
        machineBusy: busyBetween(machineStart, cpuTimes()),
      };
    },
  };
}
