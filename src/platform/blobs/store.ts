import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { pipeline, type Readable, Transform } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import type { BlobStoreKind, Config } from '../core/config.ts';
import type { Database, Tx } from '../core/db/database.ts';
import { ApiError, errors } from '../core/errors.ts';
import type { BlobInfo, BlobOp, Blobs, SignedUrl } from '../core/ports.ts';
import type { BlobAt, BlobBytes } from './bytes.ts';
import { onPlatformClock } from './facts.ts';
import { FolderBytes } from './folder.ts';
import { PostgresBytes } from './postgres.ts';
import { type Pruned, pruneBlobs } from './prune.ts';
import { S3Bytes } from './s3.ts';
import { blobs, blobUploads, platformSecrets } from './tables.ts';

// The blob store (DESIGN.md "Blobs"): facts in the `blobs` table, URLs signed with HMAC-SHA256 that
// expire, keys and limits checked here, once; the bytes in a folder, in the database or in an S3
// bucket (bytes.ts), whichever BLOB_STORE names. The bridge itself serves the signed URLs whatever
// the store, so a client uploads and downloads with a plain PUT/GET and no credentials of its own,
// and every store answers the same.

/**
 * Keys are relative paths of printable segments: no empty, `.` or `..` segment, no backslash, no
 * control character, at most 400 characters. Anything else could escape or confuse the folder.
 */
export function isBlobKey(key: string): boolean {
  if (key.length === 0 || key.length > 400 || key.includes('\\')) return false;
  if ([...key].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return false;
  return key.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

export async function platformSecret(db: Database, name: string): Promise<string> {
  await db.db
    .insert(platformSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.db.select().from(platformSecrets).where(eq(platformSecrets.name, name));
  return row!.value;
}

/** What the `blobs` row of an upload holds besides its version. */
type Facts = Omit<BlobInfo, 'uploadedAt'> & { uploadedAt: Date };

/** Deletes an upload's entry in `blob_uploads`; answers whether it was there. */
async function endUpload(tx: Tx, tenant: string, version: string): Promise<boolean> {
  const ended = await tx
    .delete(blobUploads)
    .where(and(eq(blobUploads.tenant, tenant), eq(blobUploads.version, version)))
    .returning({ version: blobUploads.version });
  return ended.length > 0;
}

export class BlobStore implements Blobs {
  constructor(
    private readonly db: Database,
    private readonly bytes: BlobBytes,
    private readonly secret: string,
    readonly publicUrl: string,
    readonly maxBytes: number,
    private readonly now: () => Date,
  ) {}

  static async open(
    db: Database,
    options: { bytes: BlobBytes; publicUrl: string; maxBytes: number; now: () => Date },
  ): Promise<BlobStore> {
    const secret = process.env.BLOB_SIGNING_SECRET || (await platformSecret(db, 'blob-signing'));
    return new BlobStore(
      db,
      options.bytes,
      secret,
      options.publicUrl.replace(/\/+$/, ''),
      options.maxBytes,
      options.now,
    );
  }

  /** Which store holds the bytes. */
  get kind(): BlobStoreKind {
    return this.bytes.kind;
  }

  checkKey(key: string): void {
    if (!isBlobKey(key)) throw errors.badRequest(`Invalid blob key '${key}'`);
  }

  private signature(tenant: string, key: string, op: BlobOp, expires: number, max: number): string {
    return createHmac('sha256', this.secret)
      .update(`${op}\n${tenant}\n${key}\n${expires}\n${max}`)
      .digest('base64url');
  }

  /**
   * A URL that allows one operation on one key of one tenant until it expires. It starts with
   * PUBLIC_URL: behind a load balancer, the balancer's address, so any node serves it.
   */
  sign(
    tenant: string,
    key: string,
    op: BlobOp,
    expiresInSeconds = 900,
    options: { maxBytes?: number; baseUrl?: string } = {},
  ): SignedUrl {
    const { maxBytes = this.maxBytes, baseUrl = this.publicUrl } = options;
    this.checkKey(key);
    const expires = Math.floor(this.now().getTime() / 1000) + expiresInSeconds;
    const max = op === 'put' ? Math.min(maxBytes, this.maxBytes) : 0;
    const query = new URLSearchParams({ op, exp: String(expires), ...(max ? { max: String(max) } : {}) });
    query.set('sig', this.signature(tenant, key, op, expires, max));
    const path = key.split('/').map(encodeURIComponent).join('/');
    return {
      url: `${baseUrl.replace(/\/+$/, '')}/blobs/${tenant}/${path}?${query}`,
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  /** Checks a signed URL's query; returns the upload limit of a put. */
  verify(tenant: string, key: string, op: BlobOp, query: Record<string, string | undefined>): number {
    const expires = Number(query.exp);
    const max = Number(query.max ?? 0);
    const expected = Buffer.from(this.signature(tenant, key, op, expires, max));
    const given = Buffer.from(query.sig ?? '');
    if (query.op !== op || expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw errors.forbidden('Invalid signature for this blob URL');
    }
    if (!Number.isFinite(expires) || expires * 1000 < this.now().getTime()) {
      throw new ApiError('GONE', 'This blob URL has expired; ask for a new one');
    }
    return max;
  }

  /**
   * Streams `body` into the store, atomically whatever the store: an upload that fails or goes over
   * `maxBytes` leaves no partial blob, and the key keeps what it held before.
   */
  async write(
    tenant: string,
    key: string,
    body: Readable,
    contentType: string,
    maxBytes = this.maxBytes,
  ): Promise<BlobInfo> {
    this.checkKey(key);
    const hash = createHash('sha256');
    let size = 0;
    let refused: ApiError | undefined;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes) {
          refused = errors.badRequest(`Blob is larger than the limit of ${maxBytes} bytes`);
          return done(refused);
        }
        hash.update(chunk);
        done(null, chunk);
      },
    });
    // Recorded before the first byte, so that the bytes of an upload whose process dies before its
    // facts commit are found and pruned (prune.ts).
    const version = randomUUID();
    // On the platform's clock, the one the prune reads (prune.ts), not the database's.
    await this.db.tenant(tenant, (tx) =>
      tx.insert(blobUploads).values({ tenant, version, startedAt: this.now() }),
    );
    // A failing body destroys the meter too, so the store sees the failure and keeps nothing.
    const metered = pipeline(body, meter, () => undefined);
    try {
      // Stores wrap a stream's failure in their own errors: the limit is told as it is, by every store.
      await this.bytes.put(tenant, version, metered, contentType).catch((err: unknown) => {
        throw refused ?? err;
      });
      // A store that stopped reading early (it must not) would otherwise record a short file.
      if (refused) throw refused;
      const facts = { key, size, sha256: hash.digest('hex'), contentType, uploadedAt: this.now() };
      await this.commit(tenant, version, facts);
      return { ...facts, uploadedAt: facts.uploadedAt.toISOString() };
    } catch (err) {
      await this.discard(tenant, version).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Makes `version` the key's, with its facts, in one transaction that also ends the upload's entry
   * in `blob_uploads`: of uploads racing for a key, the last to commit is the key's, bytes and facts
   * alike. An upload whose entry is gone took longer than ABANDONED_AFTER_MS and its bytes were pruned.
   */
  private async commit(tenant: string, version: string, facts: Facts): Promise<void> {
    const row = { ...facts, version };
    await this.db.tenant(tenant, async (tx) => {
      if (!(await endUpload(tx, tenant, version)))
        throw new Error(`Upload of ${facts.key} outlasted its time and was pruned`);
      // The version this one replaces is listed for the prune on the clock the prune reads.
      await onPlatformClock(tx, facts.uploadedAt);
      await tx
        .insert(blobs)
        .values({ tenant, ...row })
        .onConflictDoUpdate({ target: [blobs.tenant, blobs.key], set: row });
    });
  }

  /**
   * Deletes the bytes of an upload that failed, with its entry; an upload without one committed after
   * all (the error came after the commit) or was pruned, bytes and all. A crash before this commits
   * leaves the entry, for the prune.
   */
  private async discard(tenant: string, version: string): Promise<void> {
    await this.db.tenant(tenant, async (tx) => {
      if (await endUpload(tx, tenant, version))
        await this.bytes.remove([{ tenant, version, legacyKey: null }], tx);
    });
  }

  /** The key's facts and where its bytes are, read in one statement. */
  private async facts(tenant: string, key: string): Promise<{ info: BlobInfo; at: BlobAt } | undefined> {
    if (!isBlobKey(key)) return undefined;
    const [row] = await this.db.db
      .select()
      .from(blobs)
      .where(and(eq(blobs.tenant, tenant), eq(blobs.key, key)));
    if (!row) return undefined;
    return {
      info: {
        key,
        size: row.size,
        sha256: row.sha256,
        contentType: row.contentType,
        uploadedAt: row.uploadedAt.toISOString(),
      },
      at: { version: row.version, size: row.size },
    };
  }

  async stat(tenant: string, key: string): Promise<BlobInfo | undefined> {
    return (await this.facts(tenant, key))?.info;
  }

  /**
   * The blob's bytes, with the facts of the same upload (what a download sends as its length and
   * ETag); 404 when the tenant has no such blob, or its store has no bytes for it.
   */
  async open(tenant: string, key: string): Promise<{ info: BlobInfo; stream: Readable }> {
    const found = await this.facts(tenant, key);
    if (!found) throw errors.notFound(`Blob ${key} not found`);
    const { info, at } = found;
    const stream = await this.bytes.get(tenant, key, at);
    // Recorded but not where this node looks: a folder store that the nodes do not share, or bytes
    // removed behind the platform's back. Said as such, for whoever reads the error.
    if (!stream) throw errors.notFound(`Blob ${key} not found in the ${this.kind} store of this node`);
    return { info, stream };
  }

  /**
   * Deletes the bytes that no key needs any more: versions replaced over KEEP_REPLACED_MS ago (kept
   * for the downloads begun before), uploads that never committed, begun over ABANDONED_AFTER_MS ago.
   */
  prune(now = this.now()): Promise<Pruned> {
    return pruneBlobs(this.db, this.bytes, now);
  }

  close(): Promise<void> {
    return this.bytes.close();
  }
}

/**
 * The store BLOB_STORE names; unset, the folder on the embedded database and the database on a
 * PostgreSQL server, where several nodes (or WORKERS processes on several machines) would each
 * see only their own folder unless it were one shared volume (docs/platform.md "Blobs").
 */
export function blobStoreKind(
  config: Pick<Config, 'blobStore'>,
  db: Pick<Database, 'engine'>,
): BlobStoreKind {
  return config.blobStore ?? (db.engine === 'postgres' ? 'postgres' : 'folder');
}

export async function openBlobBytes(
  kind: BlobStoreKind,
  db: Database,
  config: Pick<Config, 'dataDir' | 's3'>,
): Promise<BlobBytes> {
  if (kind === 'folder') return FolderBytes.open(join(config.dataDir, 'blobs'));
  if (kind === 'postgres') return new PostgresBytes(db);
  if (!config.s3)
    throw new Error('BLOB_STORE=s3 needs S3_BUCKET (and S3_ENDPOINT for a store other than AWS)');
  return S3Bytes.open(config.s3);
}

export async function openBlobStore(
  db: Database,
  config: Pick<Config, 'blobStore' | 'dataDir' | 's3' | 'publicUrl' | 'blobMaxBytes'>,
  now: () => Date,
): Promise<BlobStore> {
  const bytes = await openBlobBytes(blobStoreKind(config, db), db, config);
  return BlobStore.open(db, { bytes, publicUrl: config.publicUrl, maxBytes: config.blobMaxBytes, now });
}
