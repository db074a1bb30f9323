import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestDb } from '../../../test/harness.ts';
import { type Database, rowsOf } from '../core/db/database.ts';
import { PostgresBytes } from './postgres.ts';
import { KEEP_REPLACED_MS } from './prune.ts';
import { BlobStore } from './store.ts';

// The PostgreSQL blob store under concurrent use of one key (docs/platform.md "Blobs"): a download
// gets the whole of one upload, the old or the new, with that upload's facts (size, SHA-256, type:
// what the bridge sends as Content-Length and ETag), never a mix and never an error; uploads of one
// key racing each other leave one whole upload, bytes and facts alike. Chunks are small here, so
// that every file has many and a download spans many transactions.

const CHUNK = 4096;
const onServer = inject('template').engine === 'postgres';

let db: Database;
let store: BlobStore;

beforeAll(async () => {
  db = await openTestDb({ poolSize: 12 });
  store = await BlobStore.open(db, {
    bytes: new PostgresBytes(db, CHUNK),
    publicUrl: 'http://localhost',
    maxBytes: 1024 * 1024,
    now: () => new Date(),
  });
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A file of `chunks` chunks and a bit, every byte `fill`: two versions never share a chunk. */
const file = (fill: number, chunks: number) => Buffer.alloc(chunks * CHUNK + 100 + fill, fill);

const upload = (key: string, bytes: Buffer, contentType = 'application/octet-stream') =>
  store.write('acme', key, Readable.from([bytes]), contentType);

/** Downloads `key` whole: the facts the download was opened with and the bytes it streamed. */
async function download(key: string, between?: () => Promise<void>) {
  const { info, stream } = await store.open('acme', key);
  const parts: Buffer[] = [];
  for await (const part of stream as AsyncIterable<Buffer>) {
    parts.push(part);
    if (parts.length === 1) await between?.();
  }
  const bytes = Buffer.concat(parts);
  return { info, bytes };
}

/** The download is one whole upload among `uploads`, and its facts are that upload's. */
function expectWhole(got: { info: { size: number; sha256: string }; bytes: Buffer }, uploads: Buffer[]) {
  const hash = sha(got.bytes);
  expect(
    uploads.map(sha),
    `a download of ${got.bytes.length} bytes that is no upload's whole content`,
  ).toContain(hash);
  expect({ size: got.info.size, sha256: got.info.sha256 }).toEqual({ size: got.bytes.length, sha256: hash });
}

describe('the PostgreSQL blob store, one key at a time', () => {
  it('finishes a download begun before an overwrite with the whole old file', async () => {
    const old = file(1, 8);
    const next = file(2, 5);
    await upload('doc.bin', old);
    const got = await download('doc.bin', async () => {
      await upload('doc.bin', next);
    });
    expectWhole(got, [old]);
    expectWhole(await download('doc.bin'), [next]);
  });

  it('finishes a download begun before two overwrites and a prune after them', async () => {
    const versions = [file(3, 6), file(4, 3), file(5, 7)];
    await upload('twice.bin', versions[0]!);
    const got = await download('twice.bin', async () => {
      await upload('twice.bin', versions[1]!);
      await upload('twice.bin', versions[2]!);
      // Replaced a moment ago: kept for the downloads begun before.
      await store.prune();
    });
    expectWhole(got, [versions[0]!]);
    expectWhole(await download('twice.bin'), [versions[2]!]);
  });

  it('deletes the replaced and deleted versions’ chunks once they are old enough, and only those', async () => {
    await upload('kept.bin', file(6, 2));
    await upload('gone.bin', file(7, 2));
    await db.tenant('acme', (tx) => tx.execute(sql`delete from blobs where key = 'gone.bin'`));
    const named = () =>
      db.system(async (tx) =>
        rowsOf<{ orphans: number; named: number }>(
          await tx.execute(sql`
            select count(*) filter (where b.key is null)::int as orphans, count(b.key)::int as named
            from blob_chunks c left join blobs b on b.tenant = c.tenant and b.version = c.version`),
        ),
      );
    expect((await named())[0]!.orphans).toBeGreaterThan(0);
    expect((await store.prune(new Date(Date.now() + KEEP_REPLACED_MS + 1000))).replaced).toBeGreaterThan(0);
    expect((await named())[0]).toMatchObject({ orphans: 0, named: expect.any(Number) });
    expectWhole(await download('kept.bin'), [file(6, 2)]);
    expectWhole(await download('doc.bin'), [file(2, 5)]);
  });
});

describe.skipIf(!onServer)('the PostgreSQL blob store under real concurrency', () => {
  it('gives every download racing overwrites one whole upload with its own facts', async () => {
    const uploads = Array.from({ length: 6 }, (_, i) => file(10 + i, 2 + ((i * 5) % 9)));
    await upload('hot.bin', uploads[0]!);
    let writing = true;
    const writer = (async () => {
      for (let round = 0; round < 4; round++)
        for (const [i, bytes] of uploads.entries()) await upload('hot.bin', bytes, `type/${i}`);
      writing = false;
    })();
    const reader = async () => {
      const seen: Array<{ info: { size: number; sha256: string }; bytes: Buffer }> = [];
      while (writing) seen.push(await download('hot.bin'));
      return seen;
    };
    const downloads = (await Promise.all([writer, ...Array.from({ length: 6 }, reader)])).slice(1).flat();
    expect(downloads.length).toBeGreaterThan(20);
    for (const got of downloads as Array<{ info: { size: number; sha256: string }; bytes: Buffer }>)
      expectWhole(got, uploads);
  }, 120_000);

  it('ends uploads of one key racing each other with one whole upload, bytes and facts alike', async () => {
    for (let round = 0; round < 150; round++) {
      const key = `race-${round}.bin`;
      const racing = Array.from({ length: 4 }, (_, i) =>
        Buffer.concat([randomBytes(CHUNK * (1 + i)), file(i, 1)]),
      );
      await Promise.all(racing.map((bytes, i) => upload(key, bytes, `type/${i}`)));
      const got = await download(key);
      expectWhole(got, racing);
      const winner = racing.findIndex((b) => sha(b) === sha(got.bytes));
      expect(got.info.contentType).toBe(`type/${winner}`);
    }
  }, 120_000);

  it('lets nodes pruning at once delete each replaced version once, together all of them', async () => {
    // 250 replaced versions (over two batches of 100 each), pruned by four passes at once.
    for (let i = 0; i < 250; i++) await upload(`prune-${i % 50}.bin`, file(i % 7, 1));
    const due = new Date(Date.now() + KEEP_REPLACED_MS + 60_000);
    const listed = async () =>
      rowsOf<{ n: number }>(
        await db.db.execute(sql`select count(*)::int as n from blob_replaced where tenant = 'acme'`),
      )[0]!.n;
    const before = await listed();
    expect(before).toBeGreaterThanOrEqual(200);
    const passes = await Promise.all(Array.from({ length: 4 }, () => store.prune(due)));
    expect(passes.reduce((n, p) => n + p.replaced, 0)).toBe(before);
    expect(await listed()).toBe(0);
    // The keys' current versions were left whole.
    for (let i = 0; i < 50; i++) expect((await download(`prune-${i}.bin`)).bytes.length).toBeGreaterThan(0);
  }, 120_000);
});
