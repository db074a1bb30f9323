import type { Readable } from 'node:stream';

// Where a blob store keeps the bytes (docs/platform.md "Blobs"): a folder (folder.ts), chunks in the
// database (postgres.ts) or an S3-compatible bucket (s3.ts). Everything else a store does (keys,
// signed URLs, limits, the `blobs` facts) is store.ts, once, so every store behaves the same.

/** Where a key's bytes are, from its facts row (`blobs`): the PostgreSQL store's version, and the size. */
export interface BlobAt {
  version: string | null;
  size: number;
}

export interface BlobBytes {
  readonly kind: 'folder' | 'postgres' | 's3';
  /**
   * Streams `body` in as the bytes of the tenant's key, never holding the whole of it. When `body`
   * fails (over the limit, the client went away) this rejects and the key keeps its previous bytes,
   * or none. The folder and S3 replace the key's bytes once they are whole and answer undefined; the
   * PostgreSQL store writes them under a new version and answers it: the bytes become the key's
   * when the facts naming that version commit (store.ts), or go with `discard` when they do not.
   */
  put(tenant: string, key: string, body: Readable, contentType: string): Promise<string | undefined>;
  /** The bytes `at` names (the key's, in the folder and S3) as a stream, or undefined when there are none. */
  get(tenant: string, key: string, at: BlobAt): Promise<Readable | undefined>;
  /** Deletes the bytes of a version `put` answered whose facts never committed. */
  discard?(tenant: string, version: string): Promise<void>;
  /** Deletes the bytes of versions replaced long enough ago (postgres.ts); answers how many versions. */
  prune?(now: Date): Promise<number>;
  close(): Promise<void>;
}

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
