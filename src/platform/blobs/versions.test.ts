import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../../test/harness.ts';
import { type LegacyBytes, legacyBytes } from '../../../test/legacy-blobs.ts';
import { type S3rver, startS3rver } from '../../../test/s3rver.ts';
import type { Database } from '../core/db/database.ts';
import type { BlobAt, BlobBytes, BlobGone } from './bytes.ts';
import { forgetBlob } from './facts.ts';
import { ABANDONED_AFTER_MS, KEEP_REPLACED_MS } from './prune.ts';
import { BlobStore, openBlobBytes } from './store.ts';
import { blobReplaced, blobs, blobUploads } from './tables.ts';

// Every store gives a download the facts and the bytes of one upload, and keeps no bytes of dead
// uploads (docs/platform.md "Blobs"): each upload is a version of its own, named by the facts row
// switched in one statement; a replaced version is kept KEEP_REPLACED_MS for the downloads begun
// before, an upload that never committed ABANDONED_AFTER_MS; a row from before versions is read at
// its key's own path, and those bytes go once the key is replaced. The races are made deterministic
// by a store whose `put` and `get` wait for a step the test runs at that point.

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream as AsyncIterable<Buffer>) parts.push(part);
  return Buffer.concat(parts);
}

/** A store whose next `put` runs `afterPut` once its bytes are written, and next `get` runs `beforeGet` first. */
class Stepped implements BlobBytes {
  readonly kind: BlobBytes['kind'];
  afterPut: (() => Promise<unknown>) | undefined;
  beforeGet: (() => Promise<unknown>) | undefined;

  constructor(readonly inner: BlobBytes) {
    this.kind = inner.kind;
  }

  async put(tenant: string, version: string, body: Readable, contentType: string): Promise<void> {
    await this.inner.put(tenant, version, body, contentType);
    const step = this.afterPut;
    this.afterPut = undefined;
    await step?.();
  }

  async get(tenant: string, key: string, at: BlobAt): Promise<Readable | undefined> {
    const step = this.beforeGet;
    this.beforeGet = undefined;
    await step?.();
    return this.inner.get(tenant, key, at);
  }

  remove(gone: BlobGone[], tx: Parameters<BlobBytes['remove']>[1]): Promise<void> {
    return this.inner.remove(gone, tx);
  }

  sweep(before: Date): Promise<number> {
    return this.inner.sweep?.(before) ?? Promise.resolve(0);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

describe.each(['folder', 'postgres', 's3'] as const)('the %s blob store', (kind) => {
  let db: Database;
  let s3: S3rver | undefined;
  let dataDir: string;
  let bytes: Stepped;
  let store: BlobStore;
  let legacy: LegacyBytes;

  beforeAll(async () => {
    if (kind === 's3') s3 = await startS3rver();
    db = await openTestDb({ poolSize: 8 });
    dataDir = mkdtempSync(join(tmpdir(), 'ponte-versions-'));
    bytes = new Stepped(await openBlobBytes(kind, db, { dataDir, s3: s3?.config }));
    store = await BlobStore.open(db, {
      bytes,
      publicUrl: 'http://localhost',
      maxBytes: 1024 * 1024,
      now: () => new Date(),
    });
    legacy = legacyBytes(kind, join(dataDir, 'blobs'), s3?.config);
  }, 60_000);
  // Here, not by the beforeAll: vitest runs no afterAll that a beforeAll registers.
  afterAll(async () => {
    await store?.close();
    legacy?.close();
    await s3?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (key: string, content: Buffer | string, contentType = 'text/plain') =>
    store.write('acme', key, Readable.from([Buffer.from(content)]), contentType);

  /** A download whole: the facts it was opened with (its Content-Length and ETag) and its bytes. */
  async function download(key: string) {
    const { info, stream } = await store.open('acme', key);
    return { info, bytes: await readAll(stream) };
  }

  const expectOwnFacts = (got: { info: { size: number; sha256: string }; bytes: Buffer }) =>
    expect({ size: got.info.size, sha256: got.info.sha256 }).toEqual({
      size: got.bytes.length,
      sha256: sha(got.bytes),
    });

  const versionOf = async (key: string) =>
    (
      await db.tenant('acme', (tx) =>
        tx
          .select({ version: blobs.version, size: blobs.size })
          .from(blobs)
          .where(and(eq(blobs.tenant, 'acme'), eq(blobs.key, key))),
      )
    )[0]!;

  /** The bytes a version (or a row's `at`) holds now, or undefined when the store has none. */
  const held = async (key: string, at: BlobAt) => {
    const stream = await bytes.inner.get('acme', key, at);
    return stream && (await readAll(stream)).toString();
  };

  const later = (ms: number) => new Date(Date.now() + ms);

  it('gives a download that an overwrite races the bytes of the facts it was sent', async () => {
    await upload('raced.txt', 'the first upload, the longer one');
    // The overwrite lands between the facts read and the bytes opened: the widest window.
    bytes.beforeGet = () => upload('raced.txt', 'the second');
    const got = await download('raced.txt');
    expectOwnFacts(got);
    expect(got.bytes.toString()).toBe('the first upload, the longer one');
    expect((await download('raced.txt')).bytes.toString()).toBe('the second');
  });

  it('leaves uploads that race for a key with the bytes of the facts that won', async () => {
    // A's bytes are written first and its facts committed last, B's whole upload in between.
    bytes.afterPut = () => upload('both.txt', 'upload B', 'type/b');
    await upload('both.txt', 'upload A, committed last', 'type/a');
    const got = await download('both.txt');
    expectOwnFacts(got);
    expect({ type: got.info.contentType, body: got.bytes.toString() }).toEqual({
      type: 'type/a',
      body: 'upload A, committed last',
    });
    // And in real concurrency (on one PGlite the commits take turns; the stores' writes still race).
    for (let round = 0; round < 10; round++) {
      const racing = Array.from({ length: 4 }, (_, i) => randomBytes(1000 + 700 * i));
      await Promise.all(racing.map((b, i) => upload(`race-${round}.bin`, b, `type/${i}`)));
      const won = await download(`race-${round}.bin`);
      expectOwnFacts(won);
      expect(won.info.contentType).toBe(`type/${racing.findIndex((b) => sha(b) === sha(won.bytes))}`);
    }
  }, 60_000);

  it('keeps a replaced version’s bytes until it has been replaced for the keep time', async () => {
    await upload('kept.txt', 'old content');
    const old = await versionOf('kept.txt');
    expect(old.version).toEqual(expect.any(String));
    await upload('kept.txt', 'new content');
    await store.prune();
    await store.prune(later(KEEP_REPLACED_MS - 60_000));
    expect(await held('kept.txt', old)).toBe('old content');
    expect((await store.prune(later(KEEP_REPLACED_MS + 1000))).replaced).toBeGreaterThan(0);
    expect(await held('kept.txt', old)).toBeUndefined();
    expect((await download('kept.txt')).bytes.toString()).toBe('new content');
    // A deleted key's version goes the same way.
    const deleted = await versionOf('kept.txt');
    await db.tenant('acme', (tx) => tx.delete(blobs).where(eq(blobs.key, 'kept.txt')));
    expect(await held('kept.txt', deleted)).toBe('new content');
    await store.prune(later(KEEP_REPLACED_MS + 1000));
    expect(await held('kept.txt', deleted)).toBeUndefined();
  });

  it('deletes the bytes of an upload killed before its facts, once it is older than the limit', async () => {
    // What a process killed between writing the bytes and committing the facts leaves.
    const version = randomUUID();
    await db.tenant('acme', (tx) => tx.insert(blobUploads).values({ tenant: 'acme', version }));
    await bytes.inner.put('acme', version, Readable.from([Buffer.from('half an upload')]), 'text/plain');
    const at = { version, size: 14 };
    const pending = () => db.tenant('acme', (tx) => tx.select().from(blobUploads));
    expect((await store.prune(later(ABANDONED_AFTER_MS - 60_000))).abandoned).toBe(0);
    expect(await held('any', at)).toBe('half an upload');
    expect(await pending()).toHaveLength(1);
    expect((await store.prune(later(ABANDONED_AFTER_MS + 1000))).abandoned).toBe(1);
    expect(await held('any', at)).toBeUndefined();
    expect(await pending()).toEqual([]);
  });

  it('fails an upload that outlasted the limit, recording nothing and keeping no bytes', async () => {
    await upload('slow.txt', 'before');
    // The prune runs while the upload's bytes are written and its facts are not yet committed.
    bytes.afterPut = () => store.prune(later(ABANDONED_AFTER_MS + 1000));
    await expect(upload('slow.txt', 'too slow')).rejects.toThrow(/outlasted its time and was pruned/);
    expect((await download('slow.txt')).bytes.toString()).toBe('before');
    expect(await db.tenant('acme', (tx) => tx.select().from(blobUploads))).toEqual([]);
  });

  it('dates an upload on the platform clock, the one the prune reads', async () => {
    // A clock two days ahead of the database's: an upload begun now is not a day old on it.
    const ahead = await BlobStore.open(db, {
      bytes,
      publicUrl: 'http://localhost',
      maxBytes: 1024 * 1024,
      now: () => later(2 * 86_400_000),
    });
    bytes.afterPut = () => ahead.prune();
    const info = await ahead.write(
      'acme',
      'clock.txt',
      Readable.from([Buffer.from('on time')]),
      'text/plain',
    );
    expect(info.size).toBe(7);
    expect((await download('clock.txt')).bytes.toString()).toBe('on time');
  });

  it('dates a replaced or deleted version on the platform clock, the one the prune reads', async () => {
    // Clocks two hours ahead of and behind the database's: the keep time counts from the switch on
    // each, so a prune on the same clock a minute later keeps the bytes, and one past the keep time
    // deletes them.
    for (const offset of [2, -2].map((h) => h * 3_600_000)) {
      const skewed = await BlobStore.open(db, {
        bytes,
        publicUrl: 'http://localhost',
        maxBytes: 1024 * 1024,
        now: () => later(offset),
      });
      const write = (content: string) =>
        skewed.write('acme', 'skewed.txt', Readable.from([Buffer.from(content)]), 'text/plain');
      await write('first');
      const replaced = await versionOf('skewed.txt');
      await write('second');
      const deleted = await versionOf('skewed.txt');
      await db.tenant('acme', (tx) => forgetBlob(tx, 'acme', 'skewed.txt', later(offset)));
      await skewed.prune(later(offset + 60_000));
      expect([await held('skewed.txt', replaced), await held('skewed.txt', deleted)]).toEqual([
        'first',
        'second',
      ]);
      await skewed.prune(later(offset + KEEP_REPLACED_MS + 60_000));
      expect([await held('skewed.txt', replaced), await held('skewed.txt', deleted)]).toEqual([
        undefined,
        undefined,
      ]);
    }
  });

  it('ends every upload’s entry when it commits or fails', async () => {
    await upload('entry.txt', 'fine');
    const tooBig = Readable.from([randomBytes(2 * 1024 * 1024)]);
    await expect(store.write('acme', 'entry.txt', tooBig, 'text/plain')).rejects.toThrow(/larger than/);
    expect(await db.tenant('acme', (tx) => tx.select().from(blobUploads))).toEqual([]);
    expect((await download('entry.txt')).bytes.toString()).toBe('fine');
  });

  it.runIf(kind === 'folder')('sweeps temporary files that uploads before versions left', async () => {
    const incoming = join(dataDir, 'blobs', '.incoming');
    mkdirSync(incoming, { recursive: true });
    writeFileSync(join(incoming, 'cut-off'), 'half');
    writeFileSync(join(incoming, 'recent'), 'half');
    const old = new Date(Date.now() - ABANDONED_AFTER_MS - 60_000);
    utimesSync(join(incoming, 'cut-off'), old, old);
    expect((await store.prune()).swept).toBe(1);
    expect(readdirSync(incoming)).toEqual(['recent']);
  });

  it.skipIf(kind === 'postgres')(
    'serves a row from before versions at its key’s path, until the key is replaced',
    async () => {
      await legacy.write('acme', 'old/deep/file.txt', 'legacy bytes');
      await db.tenant('acme', (tx) =>
        tx.insert(blobs).values({
          tenant: 'acme',
          key: 'old/deep/file.txt',
          size: 12,
          sha256: sha(Buffer.from('legacy bytes')),
          contentType: 'text/plain',
        }),
      );
      const got = await download('old/deep/file.txt');
      expectOwnFacts(got);
      expect(got.bytes.toString()).toBe('legacy bytes');
      await upload('old/deep/file.txt', 'versioned');
      const listed = await db.tenant('acme', (tx) =>
        tx.select({ legacyKey: blobReplaced.legacyKey }).from(blobReplaced),
      );
      expect(listed).toContainEqual({ legacyKey: 'old/deep/file.txt' });
      await store.prune(later(KEEP_REPLACED_MS - 60_000));
      expect(await legacy.exists('acme', 'old/deep/file.txt')).toBe(true);
      await store.prune(later(KEEP_REPLACED_MS + 1000));
      expect(await legacy.exists('acme', 'old/deep/file.txt')).toBe(false);
      expect(await legacy.exists('acme', 'old')).toBe(false);
      expect((await download('old/deep/file.txt')).bytes.toString()).toBe('versioned');
    },
  );

  it.skipIf(kind === 'postgres')(
    'keeps a legacy key’s bytes that a node before versions wrote again',
    async () => {
      await legacy.write('acme', 'again.txt', 'legacy');
      const row = {
        tenant: 'acme',
        key: 'again.txt',
        size: 6,
        sha256: sha(Buffer.from('legacy')),
        contentType: 'text/plain',
      };
      await db.tenant('acme', (tx) => tx.insert(blobs).values(row));
      await upload('again.txt', 'versioned');
      // An older node overwrites the key as it did: bytes at the key's path, a row without a version.
      await db.tenant('acme', (tx) =>
        tx
          .update(blobs)
          .set({ ...row, version: null })
          .where(eq(blobs.key, 'again.txt')),
      );
      await store.prune(later(KEEP_REPLACED_MS + 1000));
      expect(await legacy.exists('acme', 'again.txt')).toBe(true);
      expect((await download('again.txt')).bytes.toString()).toBe('legacy');
    },
  );
});
