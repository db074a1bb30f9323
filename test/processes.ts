import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, inject } from 'vitest';
import { testDatabaseUrl } from './harness.ts';

// The real `ponte serve` as child processes, for the black-box tests that stop, kill and restart
// servers (shutdown, failover, durability): each with its own port and admin token, on the data
// folder and database the test gives it. Every child still alive when the file ends is killed.

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The `ponte` command as users run it (`npx ponte`, `npm start`). */
export const PONTE = join(ROOT, 'bin/ponte.js');
export const STARTUP_MS = 60_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nobody listens on right now: the OS picks it, we release it for the server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const chosen = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(chosen));
    });
  });
}

/** A folder removed when the test file ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Where a server of this test file keeps its data, on the run's engine: a fresh PostgreSQL
 * database copied from the migrated template, or a data folder holding a copy of the migrated
 * embedded template (a first start then skips the migrations, seconds on a busy machine).
 */
export async function testData(prefix: string): Promise<{ env: Record<string, string>; engine: string }> {
  const dataDir = tempDir(prefix);
  const databaseUrl = await testDatabaseUrl();
  if (databaseUrl) return { env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl }, engine: 'PostgreSQL' };
  const template = inject('template');
  if (template.engine !== 'pglite') throw new Error('no database for the test');
  mkdirSync(join(dataDir, 'pglite'));
  // The dump is a tar of the database folder (PGlite's dumpDataDir).
  execFileSync('tar', ['-xf', template.file, '-C', join(dataDir, 'pglite')], { stdio: 'ignore' });
  return { env: { DATA_DIR: dataDir }, engine: 'the embedded database' };
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Node {
  child: ChildProcess;
  pid: number;
  base: string;
  adminToken: string;
  /** What the child wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  exited: Promise<Exit>;
  alive(): boolean;
  /** Sends `signal` and waits for the exit. */
  stop(signal: NodeJS.Signals): Promise<Exit>;
}

const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }
});

/** What a server inherits from the test's environment; every setting of Ponte comes from the test. */
const INHERITED = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'];

/**
 * Starts `ponte serve` with `env`, every other setting at its default. The admin token is the test's
 * own unless `adminToken` is 'generated': the server then makes one in its data folder, as on a
 * first start (and Node.adminToken is empty).
 */
export async function serve(
  env: Record<string, string>,
  options: { adminToken?: 'generated' } = {},
): Promise<Node> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const adminToken =
    options.adminToken === 'generated' ? '' : (env.ADMIN_TOKEN ?? randomBytes(12).toString('hex'));
  // One process per server unless the test asks for workers (test/workers.test.ts): these tests
  // signal, stop and kill a server by its pid.
  const base: NodeJS.ProcessEnv = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', WORKERS: '1' };
  for (const name of INHERITED) if (process.env[name] !== undefined) base[name] = process.env[name];
  const child = spawn(process.execPath, [PONTE, 'serve'], {
    cwd: ROOT,
    env: { ...base, ...env, PORT: String(port), ...(adminToken ? { ADMIN_TOKEN: adminToken } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const keep = (chunk: string) => {
    out = (out + chunk).slice(-20_000);
  };
  child.stdout!.setEncoding('utf8').on('data', keep);
  child.stderr!.setEncoding('utf8').on('data', keep);
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    pid: child.pid!,
    base: `http://127.0.0.1:${port}`,
    adminToken,
    output: () => out,
    exited,
    alive,
    stop: (signal) => {
      if (alive()) child.kill(signal);
      return exited;
    },
  };
}

/** Waits until `done` holds, failing early (with the server's output) if the server exits. */
export async function waitFor(
  node: Node,
  what: string,
  done: () => Promise<boolean> | boolean,
  ms = STARTUP_MS,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await done()) return;
    if (!node.alive()) throw new Error(`server exited while waiting for ${what}:\n${node.output()}`);
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}:\n${node.output()}`);
}

export async function healthy(node: Node): Promise<boolean> {
  try {
    return (await fetch(`${node.base}/health`)).status === 200;
  } catch {
    return false;
  }
}

/** Starts a server and waits until it answers. */
export async function started(env: Record<string, string>): Promise<Node> {
  const node = await serve(env);
  await waitFor(node, 'GET /health', () => healthy(node));
  return node;
}

async function json(res: Response, what: string): Promise<Record<string, unknown>> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

/** Creates a tenant and a full key through the admin API; answers the key. */
export async function tenantWithKey(node: Node, name: string): Promise<string> {
  const admin = (path: string, body: unknown) =>
    fetch(`${node.base}/admin${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${node.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await json(await admin('/tenants', { name }), 'tenant creation');
  const key = await json(await admin(`/tenants/${name}/keys`, { scope: 'full' }), 'key creation');
  return String(key.apiKey);
}

/** POSTs to a bridge operation (`domain/service/kind/operation`) of `tenant`. */
export function call(node: Node, tenant: string, key: string, address: string, body: unknown) {
  return fetch(`${node.base}/t/${tenant}/bridge/1.0/rest/${address}`, {
    method: 'POST',
    headers: { authorization: key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The same, expecting success: answers the parsed body. */
export async function ok(node: Node, tenant: string, key: string, address: string, body: unknown) {
  return json(await call(node, tenant, key, address, body), address);
}

/** Uploads `content` through platform/imports' signed URL and starts `import<kind>`; answers the job id. */
export async function startImport(
  node: Node,
  tenant: string,
  key: string,
  address: string,
  content: string,
): Promise<string> {
  const { arquivo, uploadUrl } = await ok(node, tenant, key, 'platform/imports/actions/requestUploadUrl', {
    fileName: 'rows.csv',
  });
  const put = await fetch(String(uploadUrl), { method: 'PUT', body: content });
  if (!put.ok) throw new Error(`upload: ${put.status} ${await put.text()}`);
  const started = await ok(node, tenant, key, address, { config: { arquivo } });
  return String(started.importJobId);
}

/**
 * Which of `pids` owns the TCP connection whose local port is `port` (Linux /proc): how a
 * receiver tells which server process sent the request it holds. With `remotePort`, only the
 * connection from that port: how a client tells which worker of a cluster holds its connection.
 */
export function ownerOfPort(port: number, pids: number[], remotePort?: number): number | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const local = cols[1]?.split(':')[1];
      const remote = cols[2]?.split(':')[1];
      if (remotePort !== undefined && (!remote || Number.parseInt(remote, 16) !== remotePort)) continue;
      if (local && Number.parseInt(local, 16) === port && cols[9]) inodes.add(`socket:[${cols[9]}]`);
    }
  }
  for (const pid of pids) {
    const fds = join('/proc', String(pid), 'fd');
    let open: string[];
    try {
      open = readdirSync(fds);
    } catch {
      continue; // The process is gone.
    }
    for (const fd of open) {
      try {
        if (inodes.has(readlinkSync(join(fds, fd)))) return pid;
      } catch {
        // The descriptor closed while we looked.
      }
    }
  }
  return undefined;
}
