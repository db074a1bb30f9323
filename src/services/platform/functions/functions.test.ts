import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { type Call, functionsCall, makeFunction } from './fixtures.ts';

// Functions as records (docs/functions.md): the `function` entity, code versions (uploadFunctionCode,
// requestFunctionUpload through a signed blob URL), getFunction and getFunctionImportCommand.

let t: TestApp;
let acme: Call;
let globex: Call;
let acmePublic: Call;

const path = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};
const getFunction = (call: Call, name = 'pesquisarVinculoTransacao') =>
  call('queries/getFunction', { name, domainName: 'erp_agr', serviceName: 'com_comum' });

beforeAll(async () => {
  t = await testApp();
  acme = functionsCall(t, 'acme', await t.tenant('acme'));
  globex = functionsCall(t, 'globex', await t.tenant('globex'));
  acmePublic = functionsCall(t, 'acme', (await t.key('acme', 'public')).apiKey);
});

describe('the function entity', () => {
  it('creates a DRAFT function bound to a primitive with default limits', async () => {
    const res = await acme('entities/function', {
      name: 'filtro',
      domainName: 'erp_agr',
      serviceName: 'com_comum',
      primitiveName: 'pesquisarVinculoTransacao',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'filtro', stage: 'DRAFT', timeoutMs: 200, memoryLimitMb: 16 });
    expect(res.json().createdBy).toBeTruthy();
  });

  it('refuses a primitive that does not exist, the functions service itself, and bad limits; nothing changes', async () => {
    const before = await tableCounts(t.db);
    const base = { name: 'x1', domainName: 'erp_agr', serviceName: 'com_comum', primitiveName: 'naoExiste' };
    const unknown = await acme('entities/function', base);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/primitiveName/);
    const self = await acme('entities/function', {
      ...base,
      domainName: 'platform',
      serviceName: 'functions',
      primitiveName: 'getFunction',
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toMatch(/serviceName/);
    const slow = await acme('entities/function', {
      ...base,
      primitiveName: 'criarVinculoTransacao',
      timeoutMs: 60000,
    });
    expect(slow.statusCode).toBe(400);
    expect(slow.json().message).toMatch(/timeoutMs/);
    const bad = await acme('entities/function', { ...base, domainName: 'erp agr' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/domainName/);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('keeps one function per primitive and per name: a second is 409', async () => {
    const again = await acme('entities/function', {
      name: 'outro',
      domainName: 'erp_agr',
      serviceName: 'com_comum',
      primitiveName: 'pesquisarVinculoTransacao',
    });
    expect(again.statusCode).toBe(409);
    // Another tenant binds the same primitive and name freely.
    const other = await globex('entities/function', {
      name: 'filtro',
      domainName: 'erp_agr',
      serviceName: 'com_comum',
      primitiveName: 'pesquisarVinculoTransacao',
    });
    expect(other.statusCode, other.body).toBe(200);
  });

  it('cannot be ACTIVE before it has code (409)', async () => {
    const id = (await getFunction(acme)).json().id;
    const res = await acme(`entities/function/${id}`, { stage: 'ACTIVE' }, { method: 'PATCH' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/filtro has no uploaded code/);
  });
});

describe('uploadFunctionCode and getFunction', () => {
  it('numbers versions from 1; the latest is current; getFunction shows them and links the code', async () => {
    const v1 = await acme('actions/uploadFunctionCode', {
      functionName: 'filtro',
      code: 'function handler(e) { return undefined }',
    });
    expect(v1.statusCode, v1.body).toBe(200);
    expect(v1.json()).toMatchObject({ version: 1, size: 40 });
    const code2 = 'function handler(e) { return e.output }';
    const v2 = await acme('actions/uploadFunctionCode', {
      functionName: 'filtro',
      code: code2,
      fileName: 'f.js',
    });
    expect(v2.json().version).toBe(2);

    const fn = await getFunction(acme);
    expect(fn.statusCode, fn.body).toBe(200);
    const body = fn.json();
    expect(body).toMatchObject({
      name: 'filtro',
      primitiveName: 'pesquisarVinculoTransacao',
      currentVersion: 2,
    });
    expect(body.versions.map((v: { version: number; state: string }) => [v.version, v.state])).toEqual([
      [1, 'UPLOADED'],
      [2, 'UPLOADED'],
    ]);
    const code = await t.app.inject({ method: 'GET', url: path(body.codeUrl) });
    expect(code.statusCode).toBe(200);
    expect(code.body).toBe(code2);
    // GET with the query string answers the same.
    const byGet = await acme('queries/getFunction', undefined, {
      method: 'GET',
      query: { name: 'pesquisarVinculoTransacao', domainName: 'erp_agr', serviceName: 'com_comum' },
    });
    expect(byGet.json().id).toBe(body.id);
  });

  it('refuses code that does not compile, or too large, or an unknown function; nothing changes', async () => {
    const before = await tableCounts(t.db);
    const broken = await acme('actions/uploadFunctionCode', {
      functionName: 'filtro',
      code: 'function handler( {',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/field 'code'.*SyntaxError/);
    const big = await acme('actions/uploadFunctionCode', {
      functionName: 'filtro',
      code: 'x'.repeat(300 * 1024),
    });
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toMatch(/code/);
    const none = await acme('actions/uploadFunctionCode', { functionName: 'nada', code: '1' });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toMatch(/nada/);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('is 404 for another tenant, and for a primitive with no function', async () => {
    const globexFn = (await getFunction(globex)).json();
    expect(globexFn.currentVersion).toBeUndefined();
    const acmeId = (await getFunction(acme)).json().id;
    expect(globexFn.id).not.toBe(acmeId);
    expect((await globex(`entities/function/${acmeId}`, undefined, { method: 'GET' })).statusCode).toBe(404);
    const none = await getFunction(acme, 'pesquisarEmpresa');
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toMatch(/erp_agr\/com_comum\/pesquisarEmpresa/);
  });

  it('is PUBLIC: a public key reads it, but cannot upload or change functions', async () => {
    expect((await getFunction(acmePublic)).statusCode).toBe(200);
    const up = await acmePublic('actions/uploadFunctionCode', { functionName: 'filtro', code: '1' });
    expect(up.statusCode).toBe(403);
    const create = await acmePublic('entities/function', {
      name: 'p',
      domainName: 'erp_agr',
      serviceName: 'com_comum',
      primitiveName: 'pesquisarEmpresa',
    });
    expect(create.statusCode).toBe(403);
  });

  it('removes a function with its versions', async () => {
    const id = await makeFunction(
      acme,
      'efemera',
      'erp_agr/com_comum/pesquisarPais',
      'function handler() {}',
    );
    expect((await acme(`entities/function/${id}`, undefined, { method: 'DELETE' })).statusCode).toBe(200);
    expect((await getFunction(acme, 'pesquisarPais')).statusCode).toBe(404);
  });
});

describe('requestFunctionUpload (deprecated)', () => {
  it('answers a signed upload URL; the PUT stores the next version, which becomes current', async () => {
    const res = await acme('queries/requestFunctionUpload', { functionName: 'filtro', fileName: 'v3.js' });
    expect(res.statusCode, res.body).toBe(200);
    const { uploadUrl, uploadId, version } = res.json();
    expect(version).toBe(3);
    expect((await getFunction(acme)).json().versions[2]).toMatchObject({ uploadId, state: 'PENDING' });
    const code = 'function handler(e) { return e.output } // v3';
    const put = await t.app.inject({
      method: 'PUT',
      url: path(uploadUrl),
      headers: { 'content-type': 'application/javascript' },
      payload: code,
    });
    expect(put.statusCode, put.body).toBe(200);
    const fn = (await getFunction(acme)).json();
    expect(fn.currentVersion).toBe(3);
    expect(fn.versions[2]).toMatchObject({ state: 'UPLOADED', fileName: 'v3.js', size: code.length });
    expect((await t.app.inject({ method: 'GET', url: path(fn.codeUrl) })).body).toBe(code);
  });

  it('refuses a tampered or foreign URL, bad input, and public keys', async () => {
    const res = await acme('queries/requestFunctionUpload', undefined, {
      method: 'GET',
      query: { functionName: 'filtro', fileName: 'v4.js' },
    });
    expect(res.statusCode).toBe(200);
    const tampered = res.json().uploadUrl.replace('/blobs/acme/', '/blobs/globex/');
    expect(
      (await t.app.inject({ method: 'PUT', url: path(tampered), payload: 'x' })).statusCode,
    ).toBeGreaterThanOrEqual(400);
    expect(
      (await acme('queries/requestFunctionUpload', { functionName: 'filtro', fileName: 'a/b.js' }))
        .statusCode,
    ).toBe(400);
    expect((await acme('queries/requestFunctionUpload', { functionName: 'filtro' })).json().message).toMatch(
      /fileName/,
    );
    expect(
      (await globex('queries/requestFunctionUpload', { functionName: 'efemera', fileName: 'a.js' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await acmePublic('queries/requestFunctionUpload', { functionName: 'filtro', fileName: 'a.js' }))
        .statusCode,
    ).toBe(403);
  });

  it('is marked deprecated in the Swagger document, and only it', async () => {
    const res = await acme('queries/getMetadata', {});
    const doc = JSON.parse(res.json().metadata);
    const deprecated = Object.entries(
      doc.paths as Record<string, Record<string, { deprecated?: boolean }>>,
    ).flatMap(([p, methods]) =>
      Object.values(methods)
        .filter((m) => m.deprecated)
        .map(() => p),
    );
    expect(new Set(deprecated)).toEqual(new Set([expect.stringMatching(/requestFunctionUpload$/)]));
    expect(deprecated.length).toBe(2);
  });
});

describe('getFunctionImportCommand', () => {
  it('answers the ponte command for the function, addressed to this tenant', async () => {
    const res = await acmePublic('queries/getFunctionImportCommand', {
      primitiveName: 'pesquisarVinculoTransacao',
      domainName: 'erp_agr',
      serviceName: 'com_comum',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().functionImportCommand).toMatch(
      /^npx ponte function pull erp_agr\/com_comum\/pesquisarVinculoTransacao --url \S+ --tenant acme --out filtro\.js$/,
    );
  });

  it('is 404 without a function and 409 before any code', async () => {
    const q = { primitiveName: 'pesquisarEmpresa', domainName: 'erp_agr', serviceName: 'com_comum' };
    expect((await acme('queries/getFunctionImportCommand', q)).statusCode).toBe(404);
    const g = await globex('queries/getFunctionImportCommand', {
      ...q,
      primitiveName: 'pesquisarVinculoTransacao',
    });
    expect(g.statusCode).toBe(409);
  });
});
