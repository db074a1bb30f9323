import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { type Call, functionsCall, makeFunction } from './fixtures.ts';

// The environment operations (docs/functions.md "Records"): healthcheck, getEndpointStages,
// getStages, getEnvironmentInformation, getFunctionsAccess (whose address really invokes), getMetadata.

let t: TestApp;
let acme: Call;
let globex: Call;
let acmePublic: Call;
let publicKey: string;

beforeAll(async () => {
  t = await testApp({ config: { publicUrl: 'https://ponte.example.com/api' } });
  acme = functionsCall(t, 'acme', await t.tenant('acme'));
  globex = functionsCall(t, 'globex', await t.tenant('globex'));
  publicKey = (await t.key('acme', 'public')).apiKey;
  acmePublic = functionsCall(t, 'acme', publicKey);
  await makeFunction(
    acme,
    'a',
    'erp_agr/com_comum/pesquisarPais',
    'function handler(e) { return { dobro: e.input.n * 2 } }',
    { stage: 'ACTIVE' },
  );
  await makeFunction(acme, 'b', 'erp_agr/com_comum/pesquisarEstado', 'function handler() {}');
  await makeFunction(acme, 'c', 'erp_agr/com_comum/pesquisarCidade');
  await acme('entities/developer', { name: 'Ana', email: 'ana@acme.com' });
});

describe('healthcheck', () => {
  it('answers healthCheckStatus and a checkDTO per part, by POST and GET; it is PRIVATE', async () => {
    const res = await acme('queries/healthcheck', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('UP');
    expect(res.json().checks.map((c: { name: string }) => c.name)).toEqual([
      'database',
      'blobStore',
      'sandbox',
    ]);
    expect(res.json().checks.every((c: { status: string }) => c.status === 'UP')).toBe(true);
    expect((await acme('queries/healthcheck', undefined, { method: 'GET' })).json().status).toBe('UP');
    expect((await acmePublic('queries/healthcheck', {})).statusCode).toBe(403);
  });
});

describe('when the bindings cannot be read', () => {
  it('a healthcheck still answers; an operation that needs the database reports the failure', async () => {
    const functions = t.platform.functions!;
    const bound = functions.bound.bind(functions);
    functions.bound = async () => {
      throw new Error('connection refused');
    };
    try {
      expect((await acme('queries/healthcheck', {})).statusCode).toBe(200);
      const res = await acme('queries/getEnvironmentInformation', {});
      expect(res.statusCode).toBe(500);
      expect(res.json().message).not.toMatch(/connection refused/);
    } finally {
      functions.bound = bound;
    }
  });
});

describe('getEndpointStages', () => {
  it('counts the tenant’s functions at each step, in order', async () => {
    const res = await acmePublic('queries/getEndpointStages', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res
        .json()
        .stages.map((s: { order: number; name: string; functions: number }) => [
          s.order,
          s.name,
          s.functions,
        ]),
    ).toEqual([
      [1, 'DECLARED', 1],
      [2, 'UPLOADED', 1],
      [3, 'ACTIVE', 1],
      [4, 'DISABLED', 0],
    ]);
    const other = await globex('queries/getEndpointStages', {});
    expect(other.json().stages.every((s: { functions: number }) => s.functions === 0)).toBe(true);
  });
});

describe('getStages', () => {
  it('reports each process of the environment as DONE', async () => {
    const res = await acmePublic('queries/getStages', undefined, { method: 'GET' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('DONE');
    expect(res.json().steps.map((s: { name: string; status: string }) => `${s.name}:${s.status}`)).toEqual([
      'tenant:DONE',
      'database:DONE',
      'blobStore:DONE',
      'sandbox:DONE',
      'credentials:DONE',
    ]);
  });
});

describe('getEnvironmentInformation', () => {
  it('answers the tenant’s facts, limits and counts', async () => {
    const res = await acmePublic('queries/getEnvironmentInformation', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      tenant: 'acme',
      baseUrl: 'https://ponte.example.com/api/t/acme/bridge/1.0',
      serviceVersion: '9.19.1',
      functions: 3,
      activeFunctions: 1,
      developers: 1,
      consultants: 0,
      limits: { defaultTimeoutMs: 200, maxTimeoutMs: 5000, maxCodeBytes: 262144 },
    });
    expect((await globex('queries/getEnvironmentInformation', {})).json()).toMatchObject({
      tenant: 'globex',
      functions: 0,
    });
  });
});

describe('getFunctionsAccess', () => {
  it('answers an address and credential that really invoke a function', async () => {
    const res = await acmePublic('queries/getFunctionsAccess', {});
    expect(res.statusCode, res.body).toBe(200);
    const access = res.json();
    expect(access).toMatchObject({
      invokeUrl:
        'https://ponte.example.com/api/t/acme/bridge/1.0/rest/platform/functions/actions/invokeFunction',
      method: 'POST',
      authorizationHeader: 'Authorization',
      scope: 'public',
    });
    const body = {
      ...JSON.parse(access.bodyExample),
      domainName: 'erp_agr',
      serviceName: 'com_comum',
      name: 'pesquisarPais',
      input: { n: 21 },
    };
    const invoked = await t.app.inject({
      method: access.method,
      url: new URL(access.invokeUrl).pathname.replace(/^\/api/, ''),
      headers: { [access.authorizationHeader.toLowerCase()]: publicKey, 'content-type': access.contentType },
      payload: JSON.stringify(body),
    });
    expect(invoked.statusCode, invoked.body).toBe(200);
    expect(invoked.json().output).toEqual({ dobro: 42 });
  });
});

describe('getMetadata', () => {
  it('documents every operation of the service', async () => {
    const doc = JSON.parse((await acme('queries/getMetadata', {})).json().metadata);
    expect(doc.info.version).toBe('9.19.1');
    for (const op of [
      'getFunction',
      'listDevelopers',
      'listConsultants',
      'getFunctionsAccess',
      'invokeFunction',
      'uploadFunctionCode',
    ]) {
      expect(Object.keys(doc.paths).some((p) => p.endsWith(`/${op}`))).toBe(true);
    }
  });
});
