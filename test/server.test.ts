import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort, healthy, type Node, PONTE, ROOT, serve, sleep, tempDir, waitFor } from './processes.ts';

// Black box (STYLE.md "App factory apart from listening"): the real `ponte serve` as a child process
// on the embedded database, its first-start banner, the CLI against it, and a restart on the same
// data folder. Always the embedded database, whatever DATABASE_URL the run has, and the default
// LOG_LEVEL, as a first start at a terminal (test/cli.test.ts: the CLI's own behaviour).

const BANNER = 'First start: created tenant "demo"';
const TIMEOUT = 60_000;
const run = promisify(execFile);

let dataDir: string;
let port: number;
let base: string;
let env: Record<string, string>;

/** The CLI's environment: the server's data folder (its generated admin token) and address only. */
function cliEnv(): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env, ...env, PONTE_URL: base };
  for (const name of ['DATABASE_URL', 'ADMIN_TOKEN', 'PONTE_SERVICES']) delete out[name];
  return out;
}

async function ponte(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [PONTE, ...args, '--json'], {
    cwd: ROOT,
    env: cliEnv(),
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
  dataDir = tempDir('ponte-server-');
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // The embedded database, a generated admin token and the default LOG_LEVEL (empty is unset),
  // whatever the test run was given.
  env = { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: '' };
});

describe('ponte serve on the embedded database', () => {
  let demoKey: string;
  let first: Node;

  it(
    'prints the demo key once at first start, and its curl line answers UP',
    async () => {
      first = await serve(env, { adminToken: 'generated' });
      await waitFor(first, 'the first-start banner', () => /Console: .*\n/.test(first.output()));
      const out = first.output();
      expect(out).toContain(BANNER);

      // Last, after the listening line: the key, the curl line, then the docs and console addresses.
      const lines = out.split('\n');
      const at = (text: string) => lines.findIndex((l) => l.includes(text));
      expect(at('Server listening at')).toBeGreaterThanOrEqual(0);
      expect(at('Server listening at')).toBeLessThan(at(BANNER));
      expect(at(BANNER)).toBeLessThan(at('curl -s'));
      expect(lines.filter(Boolean).slice(-2)).toEqual([
        `Docs:    ${base}/t/demo/docs/`,
        `Console: ${base}/t/demo/console (paste the API key there)`,
      ]);

      // The docs address printed is the tenant's docs page.
      const docs = await fetch(`${base}/t/demo/docs/`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('swagger-ui');

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
      expect(await healthy(first)).toBe(true);
      // The default LOG_LEVEL logs one line per request, after the banner (written in batches, within
      // a quarter of a second): the curl line's health check among them, with its tenant and status.
      await waitFor(first, 'the request lines', () => /"msg":"request"/.test(first.output()));
      await sleep(300);
      const after = first
        .output()
        .split('\n')
        .slice(lines.length - 1);
      const requests = after.filter((l) => l.includes('"msg":"request"')).map((l) => JSON.parse(l));
      expect(requests, after.join('\n')).toContainEqual(
        expect.objectContaining({
          tenant: 'demo',
          op: 'hcm/platform_integration/queries/healthcheck',
          method: 'POST',
          status: 200,
          reqId: expect.any(String),
          ms: expect.any(Number),
        }),
      );
      expect(first.output()).not.toMatch(/incoming request|request completed/);

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
      const exit = await first.stop('SIGTERM');
      expect(exit).toEqual({ code: 0, signal: null });
      expect(await healthy(first)).toBe(false);

      const started = performance.now();
      const server = await serve(env, { adminToken: 'generated' });
      await waitFor(server, 'GET /health', () => healthy(server));
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
