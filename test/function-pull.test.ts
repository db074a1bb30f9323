import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClient } from '../src/cli/client.ts';
import { functionsCall, makeFunction } from '../src/services/platform/functions/fixtures.ts';
import { type TestApp, testApp } from './harness.ts';

// The command getFunctionImportCommand answers, run as it is given (docs/functions.md "Importing a
// function"): `ponte function pull` against a listening server fetches the function's code.

let t: TestApp;
let apiKey: string;
let base: string;
const dir = mkdtempSync(join(tmpdir(), 'ponte-pull-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CODE = 'function handler(e) {\n  return { ola: e.input.nome }\n}\n';

const sink = () => {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
};

/** The shell words of a command (single quotes only: what getFunctionImportCommand writes). */
const words = (command: string) =>
  [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] ?? m[2]!).replace(/'\\''/g, "'"));

beforeAll(async () => {
  t = await testApp();
  apiKey = await t.tenant('acme');
  const acme = functionsCall(t, 'acme', apiKey);
  await makeFunction(acme, 'saudacao', 'erp_agr/com_comum/pesquisarPais', CODE);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  base = `http://127.0.0.1:${address.port}`;
});

describe('ponte function pull', () => {
  it('runs the command getFunctionImportCommand answers and writes the current code', async () => {
    const res = await fetch(
      `${base}/t/acme/bridge/1.0/rest/platform/functions/queries/getFunctionImportCommand`,
      {
        method: 'POST',
        headers: { authorization: apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          primitiveName: 'pesquisarPais',
          domainName: 'erp_agr',
          serviceName: 'com_comum',
        }),
      },
    );
    const command: string = (await res.json()).functionImportCommand;
    const [npx, ponte, ...argv] = words(command);
    expect([npx, ponte]).toEqual(['npx', 'ponte']);
    const outIndex = argv.indexOf('--out');
    argv[outIndex + 1] = join(dir, argv[outIndex + 1]!);
    const out = sink();
    const err = sink();
    const code = await runClient(argv, { PONTE_API_KEY: apiKey }, out.stream, err.stream);
    expect(code, err.text()).toBe(0);
    expect(out.text()).toMatch(/wrote .*saudacao\.js: function saudacao, version 1/);
    expect(readFileSync(join(dir, 'saudacao.js'), 'utf8')).toBe(CODE);
  });

  it('prints the code without --out, and fails clearly with a wrong key or a missing function', async () => {
    const out = sink();
    const args = ['function', 'pull', 'erp_agr/com_comum/pesquisarPais', '--url', base, '--tenant', 'acme'];
    expect(await runClient(args, { PONTE_API_KEY: apiKey }, out.stream, sink().stream)).toBe(0);
    expect(out.text()).toBe(CODE);
    const err = sink();
    expect(await runClient(args, { PONTE_API_KEY: 'wrong' }, sink().stream, err.stream)).toBe(1);
    expect(err.text()).toMatch(/401/);
    const missing = sink();
    const none = ['function', 'pull', 'erp_agr/com_comum/pesquisarEstado', '--url', base, '--tenant', 'acme'];
    expect(await runClient(none, { PONTE_API_KEY: apiKey }, sink().stream, missing.stream)).toBe(1);
    expect(missing.text()).toMatch(/404.*pesquisarEstado/);
    const usage = sink();
    expect(
      await runClient(['function', 'pull', 'x'], { PONTE_API_KEY: apiKey }, sink().stream, usage.stream),
    ).toBe(1);
    expect(usage.text()).toMatch(/<domain>\/<service>\/<primitive>/);
  });
});
