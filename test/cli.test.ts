import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, type Node, PONTE, ROOT, started, tempDir, testData } from './processes.ts';

// The `ponte` command as its user runs it: bin/ponte.js as a child process against a started server
// (README "The `ponte` command"). The tenant and key commands are an HTTP client of the admin API,
// run as JavaScript compiled from src/cli/client.ts, never through a TypeScript loader: they answer
// in a Node start and a request. Each says what it did; an unreachable server is named with the
// settings that choose its address.

const exec = promisify(execFile);
const HEALTH = 'hcm/platform_integration/queries/healthcheck';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `bin` (the project's bin/ponte.js unless told) with `env` only, besides PATH and HOME. */
async function ponte(env: Record<string, string>, args: string[], bin = PONTE): Promise<Ran> {
  const started = performance.now();
  const inherited = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args], {
      cwd: tempDir('ponte-cli-cwd-'),
      env: { ...inherited, ...env },
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr, ms: performance.now() - started };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    if (typeof failed.code !== 'number') throw err;
    return {
      code: failed.code,
      stdout: failed.stdout,
      stderr: failed.stderr,
      ms: performance.now() - started,
    };
  }
}

let node: Node;
let env: Record<string, string>;

beforeAll(async () => {
  const data = await testData('ponte-cli-');
  // LOG_LEVEL=info asks for a line per request.
  node = await started({ ...data.env, LOG_LEVEL: 'info' });
  env = { PONTE_URL: node.base, ADMIN_TOKEN: node.adminToken };
});

async function healthcheck(tenant: string, authorization: string): Promise<number> {
  const res = await fetch(`${node.base}/t/${tenant}/bridge/1.0/rest/${HEALTH}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: '{}',
  });
  return res.status;
}

describe('ponte tenant and key commands', () => {
  it('say what they did, and --json gives the answer as data', async () => {
    const times: number[] = [];
    const run = async (...args: string[]) => {
      const ran = await ponte(env, args);
      expect(ran.code, ran.stderr).toBe(0);
      times.push(ran.ms);
      return ran.stdout;
    };

    expect(await run('tenant', 'create', 'cli-co')).toMatch(
      /^created tenant cli-co \(edition standard, time zone America\/Sao_Paulo\)\nnext: ponte key create cli-co\n$/,
    );
    expect(await run('tenant', 'list')).toMatch(
      /^\d+ tenants?\n(.*\n)* {2}cli-co +standard +America\/Sao_Paulo\n/,
    );

    const created = await run('key', 'create', 'cli-co');
    const [, accessKey, apiKey] =
      /^created a full key for tenant cli-co \(accessKey (\S+)\); its API key, shown only this once:\n {2}(\S+)\n/.exec(
        created,
      ) ?? [];
    expect(apiKey, created).toMatch(new RegExp(`^${accessKey}\\.`));
    expect(created).toContain('"Authorization: Bearer <API key>"');
    expect(await healthcheck('cli-co', apiKey!)).toBe(200);
    expect(await healthcheck('cli-co', `Bearer ${apiKey}`)).toBe(200);

    const listed = await run('key', 'list', 'cli-co');
    expect(listed).toMatch(
      new RegExp(`^tenant cli-co has 1 key\\n {2}${accessKey} +full +created \\S+ +active\\n$`),
    );
    expect(listed).not.toContain(apiKey!.split('.')[1]);

    expect(await run('key', 'revoke', 'cli-co', accessKey!)).toBe(
      `revoked key ${accessKey} of tenant cli-co, and every session opened with it\n`,
    );
    expect(await healthcheck('cli-co', apiKey!)).toBe(401);
    expect(await run('key', 'list', 'cli-co')).toMatch(/has 1 key \(1 revoked\)\n.* revoked \S+\n$/);

    const asJson = JSON.parse(await run('key', 'create', 'cli-co', '--scope', 'public', '--json'));
    expect(asJson).toMatchObject({ tenant: 'cli-co', scope: 'public', apiKey: expect.any(String) });
    const revoked = JSON.parse(await run('key', 'revoke', 'cli-co', asJson.accessKey, '--json'));
    expect(revoked).toEqual({ tenant: 'cli-co', accessKey: asJson.accessKey, revoked: true });
    expect(JSON.parse(await run('tenant', 'list', '--json')).tenants).toContainEqual(
      expect.objectContaining({ name: 'cli-co' }),
    );

    // Measured, not asserted (DESIGN.md "Quality bar"): what a call costs, Node start included.
    times.sort((a, b) => a - b);
    console.log(`ponte tenant/key command: median ${Math.round(times[times.length >> 1]!)} ms`);
  });

  it('leave the server a line per request when LOG_LEVEL=info asks for it', async () => {
    // Lines are written in batches, at most 250 ms late (http/request-log.ts).
    await vi.waitFor(() => expect(node.output()).toMatch(/"reqId":"[^"]+".*"status":\d+.*"msg":"request"/), {
      timeout: 5000,
    });
  });

  it('name PONTE_URL, PORT and the address tried when nothing answers there', async () => {
    const port = await freePort();
    const fromPort = await ponte({ PORT: String(port), ADMIN_TOKEN: 'x' }, ['tenant', 'list']);
    expect(fromPort.code).toBe(1);
    expect(fromPort.stdout).toBe('');
    expect(fromPort.stderr).toContain(`cannot reach the server at http://127.0.0.1:${port} (ECONNREFUSED;`);
    for (const named of ['PONTE_URL', 'PORT', 'npm start']) expect(fromPort.stderr).toContain(named);

    const fromUrl = await ponte({ PONTE_URL: `http://127.0.0.1:${port}/`, ADMIN_TOKEN: 'x' }, [
      'key',
      'list',
      'x',
    ]);
    expect(fromUrl.code).toBe(1);
    expect(fromUrl.stderr).toContain(
      `cannot reach the server at http://127.0.0.1:${port} (ECONNREFUSED; the address of PONTE_URL)`,
    );
  });

  it('say where the admin token came from when the server refuses it', async () => {
    const wrong = await ponte({ PONTE_URL: node.base, ADMIN_TOKEN: 'not-the-token' }, ['tenant', 'list']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(
      `the server at ${node.base} refused the admin token (token from ADMIN_TOKEN)`,
    );
    const none = await ponte({ PONTE_URL: node.base, DATA_DIR: tempDir('ponte-cli-empty-') }, [
      'tenant',
      'list',
    ]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/token from none: ADMIN_TOKEN is unset and .*admin-token is missing/);
  });

  it('print the usage, with exit code 2 for a command they do not know', async () => {
    const help = await ponte({}, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: ponte <command>/);
    for (const args of [['tenant', 'delete', 'x'], ['key', 'revoke', 'cli-co'], ['--nope']]) {
      const bad = await ponte({}, args);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr).toContain('usage: ponte <command>');
    }
  });
});

describe('the compiled client', () => {
  /**
   * A copy of the command without TypeScript support: bin/, scripts/, src/ and a node_modules with
   * esbuild alone (to compile), no tsx. The tenant and key commands must run there.
   */
  let copy: string;

  beforeAll(() => {
    copy = tempDir('ponte-cli-copy-');
    for (const part of ['bin', 'scripts', 'src', 'package.json'])
      cpSync(join(ROOT, part), join(copy, part), { recursive: true });
    mkdirSync(join(copy, 'node_modules'));
    for (const pkg of ['esbuild', '@esbuild'])
      symlinkSync(join(ROOT, 'node_modules', pkg), join(copy, 'node_modules', pkg));
  });

  it('runs without a TypeScript loader, compiled on first use and again when a source changes', async () => {
    const bin = join(copy, 'bin/ponte.js');
    const client = join(copy, 'dist/cli/client.js');
    const list = () => ponte(env, ['tenant', 'list'], bin);

    const first = await list();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^\d+ tenants?\n/);
    const built = statSync(client).mtimeMs;

    // Only Node's own modules: nothing to resolve or load but the file itself.
    const imports = [
      ...readFileSync(client, 'utf8').matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g),
    ].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((i) => !i!.startsWith('node:'))).toEqual([]);

    // Fresh: not compiled again.
    expect((await list()).code).toBe(0);
    expect(statSync(client).mtimeMs).toBe(built);

    // A source newer than the file: compiled again before it runs.
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(copy, 'src/platform/core/config.ts'), later, later);
    expect((await list()).code).toBe(0);
    expect(statSync(client).mtimeMs).toBeGreaterThan(built);

    // `serve` needs the TypeScript sources: it is the command that loads tsx.
    const serve = await ponte({ PORT: String(await freePort()) }, ['serve'], bin);
    expect(serve.code).not.toBe(0);
    expect(serve.stderr).toMatch(/Cannot find (package|module) 'tsx'/);
  });
});
