import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import type { Database, Tx } from '../core/db/database.ts';
import { type BlobAt, type BlobBytes, type BlobGone, rechunk } from './bytes.ts';
import { KEEP_REPLACED_MS } from './prune.ts';
import { blobChunks } from './tables.ts';

// The PostgreSQL store: the bytes in the database every node already shares, for clusters without
// object storage. A file is cut into chunks of at most CHUNK_BYTES, each written in a transaction of
// its own as the upload arrives and read back one at a time, so neither side ever holds more than a
// chunk. Every upload writes a version of its own; the key's facts row (`blobs.version`, store.ts)
// names the version that is its content, and is switched in one statement with the facts: a failed
// upload leaves the previous bytes in place, and a reader gets the facts and the bytes of one upload.
// A replaced version is not deleted at once: a download begun before the switch reads it to its end.
// The `blobs` trigger lists it in `blob_replaced`; prune.ts deletes its chunks (`remove`) once it has
// been replaced for KEEP_REPLACED_MS. This store never had bytes at a key's own path: a row without
// a version names bytes of another store (BLOB_STORE changed), which it neither reads nor deletes.

export const CHUNK_BYTES = 1024 * 1024;

const toBuffer = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

export class PostgresBytes implements BlobBytes {
  readonly kind = 'postgres';

  constructor(
    private readonly db: Database,
    private readonly chunkBytes = CHUNK_BYTES,
    private readonly keepReplacedMs = KEEP_REPLACED_MS,
  ) {}

  async put(tenant: string, version: string, body: Readable): Promise<void> {
    let seq = 0;
    for await (const data of rechunk(body, this.chunkBytes)) {
      await this.db.tenant(tenant, (tx) => tx.insert(blobChunks).values({ tenant, version, seq, data }));
      seq++;
    }
  }

  async remove(gone: BlobGone[], tx: Tx): Promise<void> {
    const versions = gone.filter((g) => !g.legacyKey).map((g) => sql`(${g.tenant}, ${g.version}::uuid)`);
    if (versions.length)
      await tx.execute(
        sql`delete from blob_chunks where (tenant, version) in (${sql.join(versions, sql`, `)})`,
      );
  }

  /** One chunk of a version, or undefined when it has none at `seq`. */
  private async chunk(tenant: string, version: string, seq: number): Promise<Buffer | undefined> {
    const [row] = await this.db.tenant(
      tenant,
      (tx) =>
        tx
          .select({ data: blobChunks.data })
          .from(blobChunks)
          .where(
            and(eq(blobChunks.tenant, tenant), eq(blobChunks.version, version), eq(blobChunks.seq, seq)),
          ),
      { reads: true },
    );
    return row && toBuffer(row.data);
  }

  async get(tenant: string, key: string, at: BlobAt): Promise<Readable | undefined> {
    const { version, size } = at;
    if (!version) return undefined;
    // The first chunk now: bytes that are gone are undefined here (a 404), not a stream error later.
    const first = size > 0 ? await this.chunk(tenant, version, 0) : Buffer.alloc(0);
    if (!first) return undefined;
    const next = (seq: number) => this.chunk(tenant, version, seq);
    const keptMinutes = Math.round(this.keepReplacedMs / 60_000);
    async function* chunks(): AsyncGenerator<Buffer> {
      let read = first!.length;
      if (read) yield first!;
      for (let seq = 1; read < size; seq++) {
        const chunk = await next(seq);
        // Only a version replaced longer ago than it is kept loses its chunks.
        if (!chunk)
          throw new Error(
            `Blob ${key} was replaced over ${keptMinutes} minutes ago, while it was being read`,
          );
        read += chunk.length;
        yield chunk;
      }
    }
    // One chunk read ahead at most: the stream's buffer is counted in bytes, not in chunks.
    return Readable.from(chunks(), { objectMode: false, highWaterMark: this.chunkBytes });
  }

  async close(): Promise<void> {}
}
