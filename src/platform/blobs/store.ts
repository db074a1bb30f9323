import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../core/db/database.ts';
import { ApiError, errors } from '../core/errors.ts';
import type { BlobInfo, BlobOp, Blobs, SignedUrl } from '../core/ports.ts';
import { blobs, platformSecrets } from './tables.ts';

// The blob store (DESIGN.md "Blobs"): bytes in a folder under the data folder, facts in the `blobs`
// table, and URLs signed with HMAC-SHA256 that expire. The bridge itself serves those URLs, so a
// client uploads and downloads with a plain PUT/GET and no credentials of its own.

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

export class BlobStore implements Blobs {
  constructor(
    private readonly db: Database,
    private readonly root: string,
    private readonly secret: string,
    readonly publicUrl: string,
    readonly maxBytes: number,
    private readonly now: () => Date,
  ) {}

  static async open(
    db: Database,
    options: { root: string; publicUrl: string; maxBytes: number; now: () => Date },
  ): Promise<BlobStore> {
    const secret = process.env.BLOB_SIGNING_SECRET || (await platformSecret(db, 'blob-signing'));
    await mkdir(options.root, { recursive: true });
    return new BlobStore(
      db,
      options.root,
      secret,
      options.publicUrl.replace(/\/$/, ''),
      options.maxBytes,
      options.now,
    );
  }

  checkKey(key: string): void {
    if (!isBlobKey(key)) throw errors.badRequest(`Invalid blob key '${key}'`);
  }

  private file(tenant: string, key: string): string {
    return join(this.root, tenant, key);
  }

  private signature(tenant: string, key: string, op: BlobOp, expires: number, max: number): string {
    return createHmac('sha256', this.secret)
      .update(`${op}\n${tenant}\n${key}\n${expires}\n${max}`)
      .digest('base64url');
  }

  /** A URL that allows one operation on one key of one tenant until it expires. */
  sign(tenant: string, key: string, op: BlobOp, expiresInSeconds = 900, maxBytes = this.maxBytes): SignedUrl {
    this.checkKey(key);
    const expires = Math.floor(this.now().getTime() / 1000) + expiresInSeconds;
    const max = op === 'put' ? Math.min(maxBytes, this.maxBytes) : 0;
    const query = new URLSearchParams({ op, exp: String(expires), ...(max ? { max: String(max) } : {}) });
    query.set('sig', this.signature(tenant, key, op, expires, max));
    const path = key.split('/').map(encodeURIComponent).join('/');
    return {
      url: `${this.publicUrl}/blobs/${tenant}/${path}?${query}`,
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

  /** Streams `body` into the store (atomically: a failed upload leaves no partial blob). */
  async write(
    tenant: string,
    key: string,
    body: Readable,
    contentType: string,
    maxBytes = this.maxBytes,
  ): Promise<BlobInfo> {
    this.checkKey(key);
    const target = this.file(tenant, key);
    const temp = join(this.root, '.incoming', randomUUID());
    await mkdir(dirname(temp), { recursive: true });
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes)
          return done(errors.badRequest(`Blob is larger than the limit of ${maxBytes} bytes`));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, meter, createWriteStream(temp));
      await mkdir(dirname(target), { recursive: true });
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    const info = { key, size, sha256: hash.digest('hex'), contentType, uploadedAt: this.now() };
    await this.db.tenant(tenant, (tx) =>
      tx
        .insert(blobs)
        .values({ tenant, ...info })
        .onConflictDoUpdate({ target: [blobs.tenant, blobs.key], set: info }),
    );
    return { ...info, uploadedAt: info.uploadedAt.toISOString() };
  }

  async stat(tenant: string, key: string): Promise<BlobInfo | undefined> {
    if (!isBlobKey(key)) return undefined;
    const [row] = await this.db.db
      .select()
      .from(blobs)
      .where(and(eq(blobs.tenant, tenant), eq(blobs.key, key)));
    if (!row) return undefined;
    return {
      key,
      size: row.size,
      sha256: row.sha256,
      contentType: row.contentType,
      uploadedAt: row.uploadedAt.toISOString(),
    };
  }

  /** The blob's bytes; 404 when the tenant has no such blob. */
  async open(tenant: string, key: string): Promise<{ info: BlobInfo; stream: Readable }> {
    const info = await this.stat(tenant, key);
    if (!info || !(await stat(this.file(tenant, key)).catch(() => undefined))) {
      throw errors.notFound(`Blob ${key} not found`);
    }
    return { info, stream: createReadStream(this.file(tenant, key)) };
  }
}
