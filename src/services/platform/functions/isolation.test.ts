import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { type Call, functionsCall, makeFunction } from './fixtures.ts';

// Tenants apart (issue 17; DESIGN.md "Persistence"): a tenant cannot read, upload to, overwrite or
// remove another tenant's function, whether it names the function by id, by name, by primitive or
// through a signed blob URL (requestFunctionUpload's, getFunction's codeUrl). Every such call is a
// 404 (an id, name or primitive of another tenant is not found) or a 403 (a signed URL altered to
// name another tenant or key), and neither tenant's function, versions or code change.

let t: TestApp;
let acme: Call;
let globex: Call;
let acmeId: string;
let globexId: string;

const ACME_CODE = 'function handler(e) { return { dono: "acme" } }';
const GLOBEX_CODE = 'function handler(e) { return { dono: "globex" } }';
const ACME_PRIMITIVE = { domainName: 'erp_agr', serviceName: 'com_comum', name: 'pesquisarPais' };

const path = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};
const getFunction = (call: Call, p: typeof ACME_PRIMITIVE) => call('queries/getFunction', p);

/** Everything either tenant holds of its function: record, versions, current code; and every table's count. */
async function state() {
  const acmeFn = (await getFunction(acme, ACME_PRIMITIVE)).json();
  const globexFn = (await getFunction(globex, { ...ACME_PRIMITIVE, name: 'pesquisarEmpresa' })).json();
  const code = async (fn: { codeUrl: string }) =>
    (await t.app.inject({ method: 'GET', url: path(fn.codeUrl) })).body;
  // codeUrl is signed anew on every read (its expiry moves): compare the code it serves instead.
  const { codeUrl: a, ...acmeRecord } = acmeFn;
  const { codeUrl: g, ...globexRecord } = globexFn;
  return {
    acme: acmeRecord,
    globex: globexRecord,
    acmeCode: await code({ codeUrl: a }),
    globexCode: await code({ codeUrl: g }),
    counts: await tableCounts(t.db),
  };
}

/** The blob key of a function's current version, from its signed codeUrl (`/blobs/<tenant>/<key>`). */
const keyOf = (codeUrl: string, tenant: string) =>
  decodeURIComponent(new URL(codeUrl).pathname.slice(`/blobs/${tenant}/`.length));

beforeAll(async () => {
  t = await testApp();
  acme = functionsCall(t, 'acme', await t.tenant('acme'));
  globex = functionsCall(t, 'globex', await t.tenant('globex'));
  acmeId = await makeFunction(acme, 'segredo', 'erp_agr/com_comum/pesquisarPais', ACME_CODE);
  globexId = await makeFunction(globex, 'proprio', 'erp_agr/com_comum/pesquisarEmpresa', GLOBEX_CODE);
});

describe('another tenant’s function by id', () => {
  it('is 404 on every route of the function entity, and nothing changes', async () => {
    const before = await state();
    expect(before.acmeCode).toBe(ACME_CODE);
    const body = {
      name: 'segredo',
      domainName: 'erp_agr',
      serviceName: 'com_comum',
      primitiveName: 'pesquisarPais',
      stage: 'DISABLED',
    };
    const answers = {
      get: await globex(`entities/function/${acmeId}`, undefined, { method: 'GET' }),
      put: await globex(`entities/function/${acmeId}`, body, { method: 'PUT' }),
      patch: await globex(`entities/function/${acmeId}`, { stage: 'DISABLED' }, { method: 'PATCH' }),
      patchByBody: await globex(
        'entities/function',
        { id: acmeId, description: 'de globex' },
        { method: 'PATCH' },
      ),
      delete: await globex(`entities/function/${acmeId}`, undefined, { method: 'DELETE' }),
    };
    for (const [route, res] of Object.entries(answers)) {
      expect(res.statusCode, `${route}: ${res.body}`).toBe(404);
      expect(res.json().reason, route).toBe('OBJECT_NOT_FOUND');
    }
    const list = await globex('entities/function', undefined, { method: 'GET' });
    expect(list.json().map((f: { id: string }) => f.id)).toEqual([globexId]);
    expect(await state()).toEqual(before);
  });
});

describe('another tenant’s function by name or primitive', () => {
  it('cannot upload code to it, nor ask an upload URL for it (404), and nothing changes', async () => {
    const before = await state();
    const upload = await globex('actions/uploadFunctionCode', { functionName: 'segredo', code: GLOBEX_CODE });
    expect(upload.statusCode, upload.body).toBe(404);
    expect(upload.json().message).toMatch(/segredo/);
    const request = await globex('queries/requestFunctionUpload', {
      functionName: 'segredo',
      fileName: 'x.js',
    });
    expect(request.statusCode, request.body).toBe(404);
    const byGet = await globex('queries/requestFunctionUpload', undefined, {
      method: 'GET',
      query: { functionName: 'segredo', fileName: 'x.js' },
    });
    expect(byGet.statusCode, byGet.body).toBe(404);
    expect(await state()).toEqual(before);
  });

  it('cannot read or run it: getFunction, getFunctionImportCommand and invokeFunction are 404', async () => {
    const before = await state();
    const read = await getFunction(globex, ACME_PRIMITIVE);
    expect(read.statusCode, read.body).toBe(404);
    expect(read.body).not.toContain('segredo');
    const command = await globex('queries/getFunctionImportCommand', {
      domainName: 'erp_agr',
      serviceName: 'com_comum',
      primitiveName: 'pesquisarPais',
    });
    expect(command.statusCode, command.body).toBe(404);
    const run = await globex('actions/invokeFunction', { ...ACME_PRIMITIVE, input: {} });
    expect(run.statusCode, run.body).toBe(404);
    expect(await state()).toEqual(before);
  });
});

describe('another tenant’s function through a signed URL', () => {
  it('refuses an upload URL or a code link altered to name the other tenant or its key (403)', async () => {
    const before = await state();
    const acmeCodeUrl = (await getFunction(acme, ACME_PRIMITIVE)).json().codeUrl as string;
    const acmeKey = keyOf(acmeCodeUrl, 'acme');
    const globexUpload = (
      await globex('queries/requestFunctionUpload', { functionName: 'proprio', fileName: 'v2.js' })
    ).json().uploadUrl as string;
    const globexKey = keyOf(globexUpload, 'globex');
    const swapKey = (url: string, from: string, to: string) =>
      path(url).replace(from.split('/').map(encodeURIComponent).join('/'), to);

    const attempts = [
      // globex's own upload URL, its key replaced by acme's current code: same tenant, other key.
      { method: 'PUT', url: swapKey(globexUpload, globexKey, acmeKey) },
      // ...and moved to acme's folder.
      {
        method: 'PUT',
        url: swapKey(globexUpload, globexKey, acmeKey).replace('/blobs/globex/', '/blobs/acme/'),
      },
      // acme's code link read as globex, and globex's upload URL put into acme.
      { method: 'GET', url: path(acmeCodeUrl).replace('/blobs/acme/', '/blobs/globex/') },
      { method: 'PUT', url: path(globexUpload).replace('/blobs/globex/', '/blobs/acme/') },
    ] as const;
    for (const { method, url } of attempts) {
      const res = await t.app.inject({
        method,
        url,
        headers: { 'content-type': 'application/javascript' },
        ...(method === 'PUT' ? { payload: GLOBEX_CODE } : {}),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.json().reason).toBe('FORBIDDEN');
    }
    const after = await state();
    expect(after.acme).toEqual(before.acme);
    expect(after.acmeCode).toBe(ACME_CODE);
    // globex's own request left its PENDING version; its code and acme's are as they were.
    expect(after.globexCode).toBe(GLOBEX_CODE);
    expect(after.globex.versions.at(-1)).toMatchObject({ version: 2, state: 'PENDING' });
  });

  it('keeps blobs apart even under a valid signature for the other tenant’s key: acme’s code and version are untouched', async () => {
    const acmeFn = (await getFunction(acme, ACME_PRIMITIVE)).json();
    const acmeKey = keyOf(acmeFn.codeUrl, 'acme');
    // A signature globex could never get from the API: its tenant with acme's version key.
    const read = t.platform.blobs.sign('globex', acmeKey, 'get');
    expect((await t.app.inject({ method: 'GET', url: path(read.url) })).statusCode).toBe(404);
    const before = await state();
    const write = t.platform.blobs.sign('globex', acmeKey, 'put');
    const put = await t.app.inject({
      method: 'PUT',
      url: path(write.url),
      headers: { 'content-type': 'application/javascript' },
      payload: GLOBEX_CODE,
    });
    expect(put.statusCode, put.body).toBe(200);
    const after = await state();
    // The bytes went to globex's folder; the upload hook, run as globex, found no version of its own.
    expect(after.acme).toEqual(before.acme);
    expect(after.acmeCode).toBe(ACME_CODE);
    expect(after.globex).toEqual(before.globex);
    // One blob more, globex's (in the blob store's own tables, whichever store runs): no function
    // row or version of either tenant.
    const notBlobs = (counts: Record<string, number>) =>
      Object.fromEntries(Object.entries(counts).filter(([table]) => !table.startsWith('blob')));
    expect(notBlobs(after.counts)).toEqual(notBlobs(before.counts));
    const acmeRun = await acme('actions/invokeFunction', { ...ACME_PRIMITIVE, input: {} });
    expect(acmeRun.json().output).toEqual({ dono: 'acme' });
  });
});
