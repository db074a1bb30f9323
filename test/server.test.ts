import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Black box (STYLE.md "App factory apart from listening"): the real `ponte serve` as a child process
// on the embedded database, its first-start banner, the CLI against it, and a restart on the same
// data folder. Always the embedded database, whatever DATABASE_URL the run has.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(ROOT, 'src/cli/main.ts');
const BANNER = 'First start: created tenant "demo"';
const TIMEOUT = 60_000;
const run = promisify(execFile);

const children: ChildProcess[] = [];
let dataDir: string;
let port: number;
let base: string;
let env: NodeJS.ProcessEnv;

/** A port nobody listens on right now: the OS picks it, we release it for the server. */
function freePort(): Promise<number> {
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

interface Server {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function serve(): Server {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => out, exited };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done` holds, failing early (with the server's output) if the server exits. */
async function waitFor(server: Server, what: string, done: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + TIMEOUT;
  while (Date.now() < deadline) {
    if (await done()) return;
    if (server.child.exitCode !== null || server.child.signalCode !== null)
      throw new Error(`server exited while waiting for ${what}:\n${server.output()}`);
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}:\n${server.output()}`);
}

async function healthy(): Promise<boolean> {
  try {
    return (await fetch(`${base}/health`)).status === 200;
  } catch {
    return false;
  }
}

async function stop(server: Server): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  server.child.kill('SIGTERM');
  return server.exited;
}

async function ponte(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    cwd: ROOT,
    env: { ...env, PONTE_URL: base },
    timeout: TIMEOUT,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

function healthcheck(tenant: string, apiKey: string): Promise<Response> {
  return fetch(`${base}/t/${tenant}/bridge/1.0/rest/hcm/platform_integration/queries/healthcheck`, {
    method: 'POST',
    headers: { authorization: apiKey, 'content-type': 'application/json' },
    body: '{}',
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ponte-server-'));
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  // The embedded database and a generated admin token, whatever the test run was given.
  delete env.DATABASE_URL;
  delete env.ADMIN_TOKEN;
  delete env.PONTE_URL;
  delete env.PONTE_SERVICES;
});

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, TIMEOUT);

describe('ponte serve on the embedded database', () => {
  let demoKey: string;
  let first: Server;

  it(
    'prints the demo key once at first start, and its curl line answers UP',
    async () => {
      first = serve();
      await waitFor(first, 'the first-start banner', () => /Docs: .*admin-token/.test(first.output()));
      const out = first.output();
      expect(out).toContain(BANNER);

      const lines = out.split('\n');
      const keyLine = lines[lines.findIndex((l) => l.includes(BANNER)) + 1] ?? '';
      demoKey = keyLine.trim();
      expect(demoKey).toMatch(/^[\w-]+\.[\w-]+$/);

      // The printed curl line, performed with fetch.
      const curl =
        /curl -s -X POST -H 'Authorization: ([^']+)' -H 'Content-Type: application\/json' -d '(\{\})' (\S+)/.exec(
          out,
        );
      expect(curl, out).not.toBeNull();
      const [, authorization, body, url] = curl!;
      expect(authorization).toBe(demoKey);
      expect(url).toBe(`${base}/t/demo/bridge/1.0/rest/hcm/platform_integration/queries/healthcheck`);
      const res = await fetch(url!, {
        method: 'POST',
        headers: { authorization: authorization!, 'content-type': 'application/json' },
        body,
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'UP' });

      // The health endpoint needs no credentials.
      expect(await healthy()).toBe(true);

      const tokenFile = join(dataDir, 'admin-token');
      expect(existsSync(tokenFile)).toBe(true);
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      expect(out).toContain(tokenFile);

      // The embedded database lives in the data folder.
      expect(existsSync(join(dataDir, 'pglite'))).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'creates a tenant and a public key through the CLI',
    async () => {
      const tenant = await ponte('tenant', 'create', 'acme');
      expect(tenant).toMatchObject({ name: 'acme', edition: 'standard', licenseLocked: false });

      const key = await ponte('key', 'create', 'acme', '--scope', 'public');
      expect(key).toMatchObject({ tenant: 'acme', scope: 'public' });
      expect(key.apiKey).toBe(`${key.accessKey}.${key.secret}`);
      const apiKey = String(key.apiKey);

      // A public key: PUBLIC operations only (healthcheck is PRIVATE), and only in its own tenant.
      const denied = await healthcheck('acme', apiKey);
      expect(denied.status).toBe(403);
      expect((await denied.json()).reason).toBe('FORBIDDEN');
      const login = await fetch(
        `${base}/t/acme/bridge/1.0/anonymous/rest/platform/authentication/actions/loginWithKey`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ accessKey: key.accessKey, secret: key.secret, tenantName: 'acme' }),
        },
      );
      expect(login.status).toBe(200);
      const tokens = JSON.parse((await login.json()).jsonToken);
      expect(tokens.scope).toBe('public');
      const logout = await fetch(`${base}/t/acme/bridge/1.0/rest/platform/authentication/actions/logout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(logout.status).toBe(200);
      expect((await healthcheck('demo', apiKey)).status).toBe(401);

      const listed = await ponte('key', 'list', 'acme');
      expect((listed.keys as Array<{ accessKey: string }>).map((k) => k.accessKey)).toEqual([key.accessKey]);
      expect(JSON.stringify(listed)).not.toContain(String(key.secret));
    },
    TIMEOUT,
  );

  it(
    'restarts on the same data folder without the banner, keeping the demo key',
    async () => {
      const exit = await stop(first);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(await healthy()).toBe(false);

      const started = performance.now();
      const server = serve();
      await waitFor(server, 'GET /health', healthy);
      const readyMs = performance.now() - started;
      console.log(`ponte serve restart to ready on the embedded database: ${Math.round(readyMs)} ms`);

      const res = await healthcheck('demo', demoKey);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'UP' });
      const tenants = await ponte('tenant', 'list');
      expect((tenants.tenants as Array<{ name: string }>).map((x) => x.name)).toEqual(['acme', 'demo']);

      // The first-start check runs right after listening; give it time to (not) print.
      await sleep(500);
      expect(server.output()).not.toContain(BANNER);
      expect(server.output()).not.toContain('API key');
    },
    TIMEOUT,
  );
});
