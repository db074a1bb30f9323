import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';

// Where a signed URL points (docs/platform.md "Blobs"): at the address the caller reached, so that
// behind a load balancer without PUBLIC_URL the URL names the balancer, never the node that signed
// it; PUBLIC_URL, when set, wins. Either way any node serves it (the signature holds no host).

const UPLOAD = 'platform/imports/actions/requestUploadUrl';
const ANEXO = 'yms/agenda/queries/obterUrlUploadAnexo';

async function signedVia(t: TestApp, key: string, address: string, host: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/t/acme/bridge/1.0/rest/${address}`,
    headers: { authorization: key, 'content-type': 'application/json', host },
    payload: address === UPLOAD ? { fileName: 'rows.csv' } : { nomeAnexo: 'nota.pdf' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  return new URL(body.uploadUrl ?? body.url);
}

describe('a signed URL', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await testApp();
    key = await t.tenant('acme');
  });

  it('names the address the caller reached when PUBLIC_URL is not set', async () => {
    for (const address of [UPLOAD, ANEXO]) {
      const url = await signedVia(t, key, address, 'balancer.example:9000');
      expect(url.origin, address).toBe('http://balancer.example:9000');
      expect(url.pathname).toMatch(/^\/blobs\/acme\//);
      // The same URL, on this node's own address, is served: the signature holds no host.
      const put = await t.app.inject({ method: 'PUT', url: `${url.pathname}${url.search}`, payload: 'x' });
      expect(put.statusCode, put.body).toBeLessThan(300);
    }
  });

  it('names PUBLIC_URL when it is set, whatever address the caller reached', async () => {
    const behind = await testApp({
      config: { publicUrl: 'https://yard.example.com/ponte', publicUrlConfigured: true },
    });
    const other = await behind.tenant('acme');
    for (const address of [UPLOAD, ANEXO]) {
      const url = await signedVia(behind, other, address, 'node-7.internal:8080');
      expect(url.href.startsWith('https://yard.example.com/ponte/blobs/acme/'), url.href).toBe(true);
    }
  });
});
