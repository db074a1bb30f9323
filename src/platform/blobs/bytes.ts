import type { Readable } from 'node:stream';

// Where a blob store keeps the bytes (docs/platform.md "Blobs"): a folder (folder.ts), chunks in the
// database (postgres.ts) or an S3-compatible bucket (s3.ts). Everything else a store does (keys,
// signed URLs, limits, the `blobs` facts) is store.ts, once, so every store behaves the same.

export interface BlobBytes {
  readonly kind: 'folder' | 'postgres' | 's3';
  /**
   * Streams `body` in as the bytes of the tenant's key, never holding the whole of it. The bytes
   * replace what the key held only once they are whole: when `body` fails (over the limit, the
   * client went away) this rejects and the key keeps its previous bytes, or none.
   */
  put(tenant: string, key: string, body: Readable, contentType: string): Promise<void>;
  /** The key's bytes as a stream, or undefined when it has none. */
  get(tenant: string, key: string): Promise<Readable | undefined>;
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
