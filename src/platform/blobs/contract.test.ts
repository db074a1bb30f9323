import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { type S3rver, startS3rver } from '../../../test/s3rver.ts';
import { loadConfig } from '../core/config.ts';
import { rowsOf } from '../core/db/database.ts';
import { CHUNK_BYTES } from './postgres.ts';
import { KEEP_REPLACED_MS } from './prune.ts';
import { blobStoreKind, openBlobBytes } from './store.ts';

// One contract for every blob store (docs/platform.md "Blobs"): the folder, the database (on the
// run's engine: PGlite or a PostgreSQL server) and S3 (s3rver in a child process). Each is reached
// as clients reach it, through the bridge's signed URLs, and answers alike: bytes round-trip
// exactly, a file far larger than a chunk streams through in bounded memory, the limit is the
// same 400, an upload replaces a key only when whole, and no tenant reaches another's blobs.

// The memory a store holds is measured after a full collection, so that garbage is not counted.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;
const BIG = 32 * MiB;

const path = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** Buffers alive outside V8's heap (every Node Buffer), after a full collection. */
function liveBuffers(): number {
  gc();
  return process.memoryUsage().arrayBuffers;
}

/**
 * `size` random bytes made as they are read, 64 KiB at a time; `sample` is awaited after every MiB
 * made, and `digest()` is their SHA-256 once all were read.
 */
function generated(size: number, sample: (made: number) => Promise<void> | void) {
  const hash = createHash('sha256');
  async function* pieces(): AsyncGenerator<Buffer> {
    for (let made = 0; made < size; ) {
      const piece = randomBytes(Math.min(64 * 1024, size - made));
      made += piece.length;
      hash.update(piece);
      if (made % MiB === 0) await sample(made);
      yield piece;
    }
  }
  const stream = Readable.from(pieces(), { objectMode: false, highWaterMark: 64 * 1024 });
  return { stream, digest: () => hash.digest('hex') };
}

describe.each(['folder', 'postgres', 's3'] as const)('the %s blob store', (kind) => {
  let t: TestApp;
  let s3: S3rver | undefined;

  beforeAll(async () => {
    if (kind === 's3') s3 = await startS3rver();
    t = await testApp({ config: { blobStore: kind, s3: s3?.config, blobMaxBytes: 2 * BIG } });
    await t.tenant('acme');
    await t.tenant('globex');
  }, 60_000);
  // Here, not by testApp: vitest runs no afterAll that a beforeAll registers, and the folder holds 35 MiB.
  afterAll(async () => {
    await t?.app.close();
    if (t) rmSync(t.platform.config.dataDir, { recursive: true, force: true });
    await s3?.stop();
  });

  const put = (
    tenant: string,
    key: string,
    payload: Buffer | string,
    contentType = 'text/plain',
    max?: number,
  ) =>
    t.app.inject({
      method: 'PUT',
      url: path(t.platform.blobs.sign(tenant, key, 'put', 900, { maxBytes: max }).url),
      headers: { 'content-type': contentType },
      payload,
    });
  const get = (tenant: string, key: string) =>
    t.app.inject({ method: 'GET', url: path(t.platform.blobs.sign(tenant, key, 'get').url) });

  it('is the store configured', async () => {
    expect(t.platform.blobs.kind).toBe(kind);
    // A bucket that cannot be reached stops the start, not the first upload.
    if (s3)
      await expect(
        openBlobBytes('s3', t.db, { dataDir: '', s3: { ...s3.config, bucket: 'no-such-bucket' } }),
      ).rejects.toThrow(/S3 bucket no-such-bucket cannot be reached/);
  });

  it('round-trips a file through its signed URLs, byte for byte, with its facts', async () => {
    const bytes = randomBytes(3 * MiB + 17);
    const up = await put('acme', 'anexos/nota fiscal.pdf', bytes, 'application/pdf');
    expect(up.statusCode, up.body).toBe(200);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(up.json()).toMatchObject({ key: 'anexos/nota fiscal.pdf', size: bytes.length, sha256 });
    expect(await t.platform.blobs.stat('acme', 'anexos/nota fiscal.pdf')).toMatchObject({
      size: bytes.length,
      sha256,
      contentType: 'application/pdf',
    });
    const down = await get('acme', 'anexos/nota fiscal.pdf');
    expect(down.statusCode).toBe(200);
    expect(down.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': String(bytes.length),
      etag: `"${sha256}"`,
    });
    expect(Buffer.compare(down.rawPayload, bytes)).toBe(0);
  });

  it('streams a file far larger than a chunk in and out, holding a few chunks at most', async () => {
    // The memory a store holds is that of this process, unless the database itself lives in it.
    const measured = !(kind === 'postgres' && t.db.engine === 'pglite');
    const before = liveBuffers();
    let peak = before;
    let lag = 0;
    const sample = async (made: number) => {
      if (measured) peak = Math.max(peak, liveBuffers());
      if (kind === 'postgres') {
        // How far the upload's committed chunks trail what the file has made so far.
        const [stored] = rowsOf<{ n: number }>(
          await t.db.db.execute(
            sql`select count(*)::int as n from blob_chunks c where c.tenant = 'acme'
                and not exists (select 1 from blobs b where b.tenant = c.tenant and b.version = c.version)`,
          ),
        );
        lag = Math.max(lag, made - stored!.n * CHUNK_BYTES);
      }
    };
    const file = generated(BIG, sample);
    const info = await t.platform.blobs.write(
      'acme',
      'imports/big.bin',
      file.stream,
      'application/octet-stream',
    );
    expect(info).toMatchObject({ size: BIG, sha256: file.digest() });
    const written = peak - before;

    peak = liveBuffers();
    const start = peak;
    const { stream } = await t.platform.blobs.open('acme', 'imports/big.bin');
    const hash = createHash('sha256');
    let read = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      const mib = Math.floor(read / MiB);
      read += chunk.length;
      if (measured && Math.floor(read / MiB) > mib) peak = Math.max(peak, liveBuffers());
    }
    expect(read).toBe(BIG);
    expect(hash.digest('hex')).toBe(info.sha256);
    // A store that held the file would hold all 32 MiB. The folder holds a read buffer, S3 the
    // part it sends and the one it fills (5 MiB each), the database a chunk of 1 MiB and its
    // driver's buffers (about 11 MiB on a server, whether the file has 16, 32 or 64 MiB).
    expect(written, `bytes held while writing: ${written}`).toBeLessThan(BIG / 2);
    expect(peak - start, `bytes held while reading: ${peak - start}`).toBeLessThan(BIG / 2);
    if (kind === 'postgres') {
      // Written as it arrived: never more than a few chunks behind the file.
      expect(lag, `bytes not yet stored while the file was made: ${lag}`).toBeLessThanOrEqual(
        3 * CHUNK_BYTES,
      );
      const [chunks] = rowsOf<{ n: number; largest: number }>(
        await t.db.db.execute(
          sql`select count(*)::int as n, max(octet_length(data))::int as largest from blob_chunks
              where version = (select version from blobs where tenant = 'acme' and key = 'imports/big.bin')`,
        ),
      );
      expect(chunks).toEqual({ n: BIG / CHUNK_BYTES, largest: CHUNK_BYTES });
    }
  }, 120_000);

  it('refuses an upload over its URL’s limit with 400, keeping what the key held', async () => {
    expect((await put('acme', 'limited.txt', 'before', 'text/plain')).statusCode).toBe(200);
    const held = await t.platform.blobs.stat('acme', 'limited.txt');
    for (const key of ['limited.txt', 'never.txt']) {
      const res = await put('acme', key, randomBytes(1001), 'application/octet-stream', 1000);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: 'Blob is larger than the limit of 1000 bytes',
        reason: 'BAD_REQUEST',
      });
    }
    expect(await t.platform.blobs.stat('acme', 'limited.txt')).toEqual(held);
    expect((await get('acme', 'limited.txt')).body).toBe('before');
    expect(await t.platform.blobs.stat('acme', 'never.txt')).toBeUndefined();
    expect((await get('acme', 'never.txt')).json()).toEqual({
      message: 'Blob never.txt not found',
      reason: 'OBJECT_NOT_FOUND',
    });
    // Limits above the store's own are cut to it.
    const url = new URL(t.platform.blobs.sign('acme', 'x', 'put', 60, { maxBytes: 10 * BIG }).url);
    expect(url.searchParams.get('max')).toBe(String(2 * BIG));
  });

  it('replaces a key’s bytes and facts with the last upload', async () => {
    expect((await put('acme', 'twice.json', 'first version, longer', 'text/plain')).statusCode).toBe(200);
    expect((await put('acme', 'twice.json', '{"v":2}', 'application/json')).statusCode).toBe(200);
    expect(await t.platform.blobs.stat('acme', 'twice.json')).toMatchObject({
      size: 7,
      contentType: 'application/json',
    });
    const down = await get('acme', 'twice.json');
    expect(down.headers['content-type']).toBe('application/json');
    expect(down.body).toBe('{"v":2}');
    if (kind === 'postgres') {
      // The first version's chunks stay for the downloads begun before (postgres-races.test.ts),
      // and go with the prune once they have been replaced for a while.
      const left = async () =>
        rowsOf<{ versions: number }>(
          await t.db.db.execute(
            sql`select count(distinct c.version)::int as versions from blob_chunks c where c.tenant = 'acme'
                and not exists (select 1 from blobs b where b.tenant = c.tenant and b.version = c.version)`,
          ),
        )[0]!.versions;
      expect(await left()).toBeGreaterThan(0);
      expect(
        (await t.platform.blobs.prune(new Date(Date.now() + KEEP_REPLACED_MS + 1000))).replaced,
      ).toBeGreaterThan(0);
      expect(await left()).toBe(0);
      expect((await get('acme', 'twice.json')).body).toBe('{"v":2}');
    }
  });

  it('keeps each tenant’s blobs apart under the same key', async () => {
    await put('globex', 'same.txt', 'globex');
    await put('acme', 'same.txt', 'acme');
    expect((await get('globex', 'same.txt')).body).toBe('globex');
    expect((await get('acme', 'same.txt')).body).toBe('acme');
    // Only globex has this one: acme's view of the same key is empty, and a URL cannot be moved.
    await put('globex', 'globex-only.txt', 'secret');
    expect(await t.platform.blobs.stat('acme', 'globex-only.txt')).toBeUndefined();
    await expect(t.platform.blobs.open('acme', 'globex-only.txt')).rejects.toThrow(/not found/);
    const moved = t.platform.blobs
      .sign('acme', 'globex-only.txt', 'get')
      .url.replace('/blobs/acme/', '/blobs/globex/');
    expect((await t.app.inject({ method: 'GET', url: path(moved) })).statusCode).toBe(403);
  });
});

describe('choosing the store', () => {
  it('takes BLOB_STORE and the S3 variables, and refuses an unknown store', () => {
    const env = { DATA_DIR: '/tmp/ponte-config-test', ADMIN_TOKEN: 'x' };
    expect(loadConfig(env).blobStore).toBeUndefined();
    expect(loadConfig(env).s3).toBeUndefined();
    const s3 = loadConfig({
      ...env,
      BLOB_STORE: 's3',
      S3_BUCKET: 'files',
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(s3.blobStore).toBe('s3');
    expect(s3.s3).toMatchObject({ bucket: 'files', endpoint: 'http://minio:9000', forcePathStyle: true });
    expect(() => loadConfig({ ...env, BLOB_STORE: 'nfs' })).toThrow(
      /BLOB_STORE must be one of folder, postgres, s3/,
    );
  });

  it('defaults to the folder on the embedded database and to the database on a server', () => {
    expect(blobStoreKind({ blobStore: undefined }, { engine: 'pglite' })).toBe('folder');
    expect(blobStoreKind({ blobStore: undefined }, { engine: 'postgres' })).toBe('postgres');
    expect(blobStoreKind({ blobStore: 'folder' }, { engine: 'postgres' })).toBe('folder');
  });
});
