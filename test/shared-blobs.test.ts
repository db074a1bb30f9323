import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStoreKind } from '../src/platform/core/config.ts';
import { Database } from '../src/platform/core/db/database.ts';
import { type TestApp, testApp, testDatabaseUrl } from './harness.ts';
import { type S3rver, startS3rver } from './s3rver.ts';

// Blobs shared by every node (docs/platform.md "Blobs", "Scale-out"): two nodes of one PostgreSQL
// database behind one address (PUBLIC_URL, a reverse proxy with a path), each with its own data
// folder, as two machines have. With the database store (the default on a server) or S3, a file
// uploaded through one node is downloaded through the other, an upload URL signed by one is served
// by the other, and an import or export requested through one is run by the other. With a folder
// store that the nodes do not share, the same import fails, and says so in every view.

const describeOnServer = describe.skipIf(!process.env.DATABASE_URL);
const PUBLIC_URL = 'https://ponte.example.com/api';
const clock = new Date('2026-05-04T10:00:00Z');

/** What the proxy sends on: the path below PUBLIC_URL. */
const behindProxy = (url: string) => {
  expect(url.startsWith(`${PUBLIC_URL}/`), url).toBe(true);
  const u = new URL(url);
  return `${u.pathname.replace(/^\/api/, '')}${u.search}`;
};

/** Uploads through `node` as platform/imports hands out the URL (test/transfers.ts, behind the proxy). */
async function upload(node: TestApp, tenant: string, auth: string, fileName: string, content: string) {
  const res = await node.call(tenant, 'platform/imports/actions/requestUploadUrl', { fileName }, { auth });
  expect(res.statusCode, res.body).toBe(200);
  const { arquivo, uploadUrl } = res.json();
  const put = await node.app.inject({ method: 'PUT', url: behindProxy(uploadUrl), payload: content });
  expect(put.statusCode, put.body).toBe(200);
  return arquivo as string;
}

async function twoNodes(store: BlobStoreKind, s3?: S3rver) {
  const url = (await testDatabaseUrl())!;
  const node = async () => {
    const db = await Database.open({ databaseUrl: url, poolSize: 3 });
    const t = await testApp({
      db,
      now: () => clock,
      config: { blobStore: store, s3: s3?.config, publicUrl: PUBLIC_URL, publicUrlConfigured: true },
    });
    return { t, db };
  };
  return [await node(), await node()];
}

describeOnServer.each(['postgres', 's3'] as const)('the %s blob store on two nodes', (store) => {
  let a: TestApp;
  let b: TestApp;
  let key: string;
  let s3: S3rver | undefined;
  const dbs: Database[] = [];

  beforeAll(async () => {
    if (store === 's3') s3 = await startS3rver();
    const [first, second] = await twoNodes(store, s3);
    a = first!.t;
    b = second!.t;
    dbs.push(first!.db, second!.db);
    key = await a.tenant('acme');
  }, 60_000);
  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    for (const db of dbs) await db.close();
    await s3?.stop();
  });

  it('is the store of both nodes; postgres is the default on a server', async () => {
    expect([a.platform.blobs.kind, b.platform.blobs.kind]).toEqual([store, store]);
    if (store === 'postgres') {
      const plain = await testApp({ db: a.db });
      expect(plain.platform.blobs.kind).toBe('postgres');
      await plain.app.close();
    }
  });

  it('signs the same URLs on both nodes, at the public address, never a node’s own', () => {
    const fromA = a.platform.blobs.sign('acme', 'anexos/foto.jpg', 'get');
    const fromB = b.platform.blobs.sign('acme', 'anexos/foto.jpg', 'get');
    expect(fromA).toEqual(fromB);
    expect(fromA.url.startsWith(`${PUBLIC_URL}/blobs/acme/anexos/foto.jpg?`)).toBe(true);
  });

  it('serves through one node what was uploaded through the other, on URLs either signed', async () => {
    const bytes = Buffer.from('%PDF-1.4 nota fiscal\n'.repeat(100_000));
    // Signed by A, reaching B.
    const put = await b.app.inject({
      method: 'PUT',
      url: behindProxy(a.platform.blobs.sign('acme', 'anexos/nota.pdf', 'put').url),
      headers: { 'content-type': 'application/pdf' },
      payload: bytes,
    });
    expect(put.statusCode, put.body).toBe(200);
    for (const [signer, server] of [
      [a, a],
      [b, a],
      [a, b],
    ] as const) {
      const down = await server.app.inject({
        method: 'GET',
        url: behindProxy(signer.platform.blobs.sign('acme', 'anexos/nota.pdf', 'get').url),
      });
      expect(down.statusCode, down.body.slice(0, 200)).toBe(200);
      expect(down.headers['content-type']).toBe('application/pdf');
      expect(Buffer.compare(down.rawPayload, bytes)).toBe(0);
    }
  });

  it('runs on one node an import uploaded and requested through the other', async () => {
    const arquivo = await upload(a, 'acme', key, 'plantas.csv', 'codigo,nome\nN1,Norte\nS1,Sul\n');
    const started = await a.call(
      'acme',
      'yms/patio/actions/importPlanta',
      { config: { arquivo } },
      { auth: key },
    );
    expect(started.statusCode, started.body).toBe(200);
    const { importJobId } = started.json();
    expect(await b.platform.jobs.drain()).toBe(1);
    const status = await a.call('acme', 'platform/imports/queries/getImport', { importJobId }, { auth: key });
    expect(status.json()).toMatchObject({ state: 'done', processed: 2, succeeded: 2, failed: 0 });
    expect((await a.admin('GET', `/tenants/acme/jobs/${importJobId}`)).json()).toMatchObject({
      state: 'done',
      lastError: null,
    });
  });

  it('downloads through one node an export the other wrote', async () => {
    const started = await a.call('acme', 'yms/patio/actions/exportPlanta', { config: {} }, { auth: key });
    expect(started.statusCode, started.body).toBe(200);
    const { exportJobId } = started.json();
    expect(await b.platform.jobs.drain()).toBe(1);
    const status = (
      await a.call('acme', 'platform/exports/queries/getExport', { exportJobId }, { auth: key })
    ).json();
    expect(status.state, JSON.stringify(status)).toBe('done');
    const file = await a.app.inject({ method: 'GET', url: behindProxy(status.downloadUrl) });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('N1');
    expect(file.body).toContain('S1');
  });
});

describeOnServer('a folder store the nodes do not share', () => {
  let a: TestApp;
  let b: TestApp;
  let key: string;
  const dbs: Database[] = [];

  beforeAll(async () => {
    const [first, second] = await twoNodes('folder');
    a = first!.t;
    b = second!.t;
    dbs.push(first!.db, second!.db);
    key = await a.tenant('acme');
  }, 60_000);
  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    for (const db of dbs) await db.close();
  });

  it('fails on the other node an import of a file it cannot see, in every view alike', async () => {
    const arquivo = await upload(a, 'acme', key, 'plantas.csv', 'codigo,nome\nN1,Norte\n');
    const started = await a.call(
      'acme',
      'yms/patio/actions/importPlanta',
      { config: { arquivo } },
      { auth: key },
    );
    const { importJobId } = started.json();
    expect(await b.platform.jobs.drain()).toBe(1);
    const error = `Blob ${arquivo} not found in the folder store of this node`;
    const status = await a.call('acme', 'platform/imports/queries/getImport', { importJobId }, { auth: key });
    expect(status.json()).toMatchObject({ state: 'failed', lastError: error });
    expect((await b.admin('GET', `/tenants/acme/jobs/${importJobId}`)).json()).toMatchObject({
      state: 'failed',
      lastError: error,
      attempts: 1,
    });
  });
});
