import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { type Call, functionsCall, makeFunction } from './fixtures.ts';

// Functions run (docs/functions.md "Running functions", "Binding"): invoked directly, and by the
// bridge after every call of the primitive they are bound to, in its transaction; hostile code
// (endless loop, allocation bomb, deep recursion, reaching for the host) is stopped and reported
// as a genericError naming the function, and the node goes on answering.

let t: TestApp;
let acme: Call;
let globex: Call;
let acmePublic: Call;

const CRIAR = 'erp_agr/com_comum/actions/criarVinculoTransacao';
const PESQUISAR = 'erp_agr/com_comum/queries/pesquisarVinculoTransacao';
const invoke = (call: Call, name: string, input: Record<string, unknown> = {}) =>
  call('actions/invokeFunction', { domainName: 'erp_agr', serviceName: 'com_comum', name, input });
const health = (call: Call) => call('queries/healthcheck', {});

beforeAll(async () => {
  t = await testApp();
  acme = functionsCall(t, 'acme', await t.tenant('acme'));
  globex = functionsCall(t, 'globex', await t.tenant('globex'));
  acmePublic = functionsCall(t, 'acme', (await t.key('acme', 'public')).apiKey);
});

describe('invokeFunction', () => {
  it('runs the current version with the input and answers its output and logs (public keys too)', async () => {
    await makeFunction(
      acme,
      'soma',
      'erp_agr/com_comum/pesquisarPais',
      'function handler(event) { console.log("somando", event.input.a, event.input.b); return { soma: event.input.a + event.input.b, tenant: event.tenant } }',
    );
    const res = await invoke(acmePublic, 'pesquisarPais', { a: 2, b: 3 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      function: 'soma',
      version: 1,
      output: { soma: 5, tenant: 'acme' },
      logs: ['somando 2 3'],
    });
  });

  it('supports module.exports and async handlers', async () => {
    await acme('actions/uploadFunctionCode', {
      functionName: 'soma',
      code: 'module.exports = async (e) => { const x = await Promise.resolve(e.input.a * 10); return x }',
    });
    expect((await invoke(acme, 'pesquisarPais', { a: 4 })).json()).toMatchObject({ version: 2, output: 40 });
  });

  it('is 404 for another tenant and 409 without code', async () => {
    expect((await invoke(globex, 'pesquisarPais')).statusCode).toBe(404);
    await makeFunction(acme, 'vazia', 'erp_agr/com_comum/pesquisarEstado');
    const res = await invoke(acme, 'pesquisarEstado');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/vazia/);
  });
});

describe('hostile functions are stopped, named, and the node goes on', () => {
  const hostile: Array<[string, string, RegExp]> = [
    ['laco', 'function handler() { for (;;) {} }', /laco .*time limit of 100 ms/],
    [
      'bomba',
      'function handler() { const a = []; for (;;) a.push("x".repeat(1 << 16)) }',
      /bomba .*(out of its memory limit|time limit)/,
    ],
    [
      'recursao',
      'function handler() { function f() { return f() + 1 } return f() }',
      /recursao .*(stack overflow|stopped)/,
    ],
    [
      'processo',
      'function handler() { return process.env }',
      /processo \(.*\) threw an error: ReferenceError: 'process' is not defined/,
    ],
    [
      'requer',
      'function handler() { return require("fs").readFileSync("/etc/passwd", "utf8") }',
      /requer \(.*\) threw an error: ReferenceError: 'require' is not defined/,
    ],
    [
      'importa',
      'function handler() { return import("fs") }',
      /importa \(.*\) threw an error: .*could not load module 'fs'/,
    ],
    [
      'lanca',
      'function handler() { throw new Error("recusado pela regra 7") }',
      /lanca \(.*\) threw an error: Error: recusado pela regra 7/,
    ],
    ['promessa', 'function handler() { return new Promise(() => {}) }', /promessa .*never settled/],
    ['laco-async', 'async function handler() { await null; for (;;) {} }', /laco-async .*time limit/],
  ];
  const primitives = [
    'pesquisarCidade',
    'pesquisarEndereco',
    'pesquisarFornecedor',
    'pesquisarCliente',
    'pesquisarRepresentante',
    'pesquisarProdutor',
    'pesquisarVinculo',
    'pesquisarEmpresa',
    'pesquisarFilial',
  ];

  it.each(hostile.map((h, i) => [...h, primitives[i]!] as const))(
    '%s',
    async (name, code, message, primitive) => {
      await makeFunction(acme, name, `erp_agr/com_comum/${primitive}`, code, {
        timeoutMs: 100,
        memoryLimitMb: 8,
      });
      const started = Date.now();
      const res = await invoke(acme, primitive);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().reason).toBe('UNPROCESSABLE');
      expect(res.json().message).toMatch(message);
      expect(res.json().message).toMatch(
        new RegExp(`^Function ${name} \\(bound to erp_agr/com_comum/${primitive}\\)`),
      );
      expect(Date.now() - started).toBeLessThan(5000);
      // The node still answers, and still runs functions.
      expect((await health(acme)).json().status).toBe('UP');
      expect((await invoke(acme, 'pesquisarPais', { a: 1 })).json().output).toBe(10);
    },
  );

  it('sees no host: process, require, fetch and timers are absent', async () => {
    await makeFunction(
      acme,
      'sonda',
      'erp_agr/com_comum/listarPaises',
      'function handler() { return [typeof process, typeof require, typeof fetch, typeof setTimeout, typeof globalThis.std, typeof globalThis.os].join() }',
    );
    const res = await invoke(acme, 'listarPaises');
    expect(res.json().output).toBe('undefined,undefined,undefined,undefined,undefined,undefined');
  });
});

describe('a function bound to a primitive, run by the bridge', () => {
  beforeAll(async () => {
    // Rejects links of transactions starting with X; marks the others it lets through.
    await makeFunction(
      acme,
      'regra-x',
      'erp_agr/com_comum/criarVinculoTransacao',
      'function handler(e) { if (e.input.transacaoId.startsWith("X")) throw new Error("transacao " + e.input.transacaoId + " recusada"); log("ok", e.input.transacaoId) }',
      { stage: 'ACTIVE' },
    );
    // Enriches the query's result: hides the CompraProducao links.
    await makeFunction(
      acme,
      'esconde-compra',
      'erp_agr/com_comum/pesquisarVinculoTransacao',
      'function handler(e) { return { vinculos: e.output.vinculos.filter(v => v.processo !== "CompraProducao").map(v => ({ ...v, transacaoId: v.transacaoId.toUpperCase() })) } }',
      { stage: 'ACTIVE' },
    );
  });

  const criar = (call: Call, transacaoId: string, processo = 'VendaProducao') =>
    call(CRIAR, { transacaoId, processo });
  const pesquisar = async (call: Call) => (await call(PESQUISAR, {})).json().vinculos;

  it('lets a call through, and rejects another with a genericError naming the function; the rejected one changes nothing', async () => {
    expect((await criar(acme, 'a1')).statusCode).toBe(200);
    const before = await tableCounts(t.db);
    const rejected = await criar(acme, 'X9');
    expect(rejected.statusCode).toBe(422);
    expect(rejected.json()).toEqual({
      reason: 'UNPROCESSABLE',
      message: expect.stringMatching(
        /^Function regra-x \(bound to erp_agr\/com_comum\/criarVinculoTransacao\) threw an error: .*transacao X9 recusada/,
      ),
    });
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('changes the output of its primitive', async () => {
    await criar(acme, 'b2', 'CompraProducao');
    expect(await pesquisar(acme)).toEqual([
      expect.objectContaining({ transacaoId: 'A1', processo: 'VendaProducao' }),
    ]);
  });

  it('runs only for its tenant', async () => {
    expect((await criar(globex, 'X1')).statusCode).toBe(200);
    expect((await pesquisar(globex)).map((v: { transacaoId: string }) => v.transacaoId)).toEqual(['X1']);
  });

  it('an output that does not fit the primitive is refused, naming the function', async () => {
    await acme('actions/uploadFunctionCode', {
      functionName: 'esconde-compra',
      code: 'function handler() { return { vinculos: "nada" } }',
    });
    const res = await acme(PESQUISAR, {});
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^Function esconde-compra .*cannot give.*vinculos/);
  });

  it('stops running when DISABLED or removed', async () => {
    const id = (
      await acme('queries/getFunction', {
        name: 'pesquisarVinculoTransacao',
        domainName: 'erp_agr',
        serviceName: 'com_comum',
      })
    ).json().id;
    await acme(`entities/function/${id}`, { stage: 'DISABLED' }, { method: 'PATCH' });
    expect((await acme(PESQUISAR, {})).statusCode).toBe(200);
    expect((await invoke(acme, 'pesquisarVinculoTransacao')).statusCode).toBe(409);
    const rule = (
      await acme('queries/getFunction', {
        name: 'criarVinculoTransacao',
        domainName: 'erp_agr',
        serviceName: 'com_comum',
      })
    ).json().id;
    expect((await acme(`entities/function/${rule}`, undefined, { method: 'DELETE' })).statusCode).toBe(200);
    expect((await criar(acme, 'X2')).statusCode).toBe(200);
  });

  it('a looping bound function fails the call with its name; the primitive answers again once fixed', async () => {
    const id = await makeFunction(
      acme,
      'trava',
      'erp_agr/com_comum/excluirVinculoTransacao',
      'function handler() { while (true) {} }',
      { stage: 'ACTIVE', timeoutMs: 50 },
    );
    const res = await acme('erp_agr/com_comum/actions/excluirVinculoTransacao', {
      transacaoId: 'X2',
      processo: 'VendaProducao',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^Function trava .*time limit/);
    expect((await pesquisar(globex)).length).toBe(1);
    await acme('actions/uploadFunctionCode', { functionName: 'trava', code: 'function handler() {}' });
    expect(id).toBeTruthy();
    const ok = await acme('erp_agr/com_comum/actions/excluirVinculoTransacao', {
      transacaoId: 'X2',
      processo: 'VendaProducao',
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
