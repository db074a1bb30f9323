import type { Readable } from 'node:stream';
import type { Tx } from '../core/db/types.ts';

// Where a blob store keeps the bytes (docs/platform.md "Blobs"): a folder (folder.ts), chunks in the
// database (postgres.ts) or an S3-compatible bucket (s3.ts). Everything else a store does (keys,
// signed URLs, limits, the `blobs` facts) is store.ts, once, so every store behaves the same.

/** Where a key's bytes are, from its facts row (`blobs`): the upload's version, and the size. */
export interface BlobAt {
  /** Null for a row written by the folder or S3 store before versions (drizzle/0039): the key's own path. */
  version: string | null;
  size: number;
}

/**
 * Bytes that no key needs any more (prune.ts): a version replaced or deleted a while ago, an upload
 * that never committed, or, with `legacyKey`, the bytes a row without a version had at its key's path.
 */
export interface BlobGone {
  tenant: string;
  version: string;
  legacyKey: string | null;
}

export interface BlobBytes {
  readonly kind: 'folder' | 'postgres' | 's3';
  /**
   * Streams `body` in as the bytes of the tenant's `version`, never holding the whole of it. Every
   * upload has a version of its own (store.ts makes it and records it in `blob_uploads` first), so
   * no upload touches bytes a reader may be reading: they become a key's when the facts naming the
   * version commit. When `body` fails (over the limit, the client went away) this rejects; store.ts
   * then removes what was written.
   */
  put(tenant: string, version: string, body: Readable, contentType: string): Promise<void>;
  /** The bytes `at` names (the key's own path when it has no version) as a stream, or undefined when there are none. */
  get(tenant: string, key: string, at: BlobAt): Promise<Readable | undefined>;
  /**
   * Deletes the bytes of `gone`, whatever of them is left (none is fine). `tx` is the transaction that
   * deletes their entries: the database store deletes its chunks in it, so both go together; the
   * others delete files or objects before it commits, so an entry outlives its bytes, never the reverse.
   */
  remove(gone: BlobGone[], tx: Tx): Promise<void>;
  /** Deletes what uploads left outside any version, begun before `before` (prune.ts); answers how many. */
  sweep?(before: Date): Promise<number>;
  close(): Promise<void>;
}

/**
 * Where the folder and S3 stores keep bytes, under their root or prefix: each upload at
 * `.versions/<tenant>/<version>`, outside every tenant's tree of keys (a tenant's name never begins
 * with a dot); bytes written before versions (drizzle/0039) at the key's own path, `<tenant>/<key>`.
 */
export const versionPath = (tenant: string, version: string) => `.versions/${tenant}/${version}`;
const legacyPath = (tenant: string, key: string) => `${tenant}/${key}`;

/** The path of the bytes a facts row names. */
export const pathAt = (tenant: string, key: string, at: BlobAt) =>
  at.version ? versionPath(tenant, at.version) : legacyPath(tenant, key);

/** The path of bytes that are gone. */
export const pathGone = (gone: BlobGone) =>
  gone.legacyKey ? legacyPath(gone.tenant, gone.legacyKey) : versionPath(gone.tenant, gone.version);

/** `source` cut and joined into buffers of `size` bytes (the last may be shorter): bounded memory. */
export async function* rechunk(source: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let held = 0;
  for await (const chunk of source) {
    let rest = chunk;
    while (held + rest.length >= size) {
      const take = size - held;
      parts.push(rest.subarray(0, take));
      yield Buffer.concat(parts, size);
      rest = rest.subarray(take);
      parts = [];
      held = 0;
    }
    if (rest.length) {
      parts.push(rest);
      held += rest.length;
    }
  }
  if (held) yield Buffer.concat(parts, held);
}
