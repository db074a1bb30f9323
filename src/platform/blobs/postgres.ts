import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../core/db/database.ts';
import { type BlobAt, type BlobBytes, rechunk } from './bytes.ts';
import { blobChunks } from './tables.ts';

// The PostgreSQL store: the bytes in the database every node already shares, for clusters without
// object storage. A file is cut into chunks of at most CHUNK_BYTES, each written in a transaction of
// its own as the upload arrives and read back one at a time, so neither side ever holds more than a
// chunk. Every upload writes a version of its own; the key's facts row (`blobs.version`, store.ts)
// names the version that is its content, and is switched in one statement with the facts: a failed
// upload leaves the previous bytes in place, and a reader gets the facts and the bytes of one upload.
// A replaced version is not deleted at once: a download begun before the switch reads it to its end.
// The `blobs` trigger lists it in `blob_replaced`; `prune` deletes its chunks once it has been
// replaced for KEEP_REPLACED_MS (run with the outbox's retention pass, app.ts).

export const CHUNK_BYTES = 1024 * 1024;

/** How long the bytes of a replaced version stay readable: the longest a download may take after. */
export const KEEP_REPLACED_MS = 60 * 60 * 1000;

/** Replaced versions whose chunks one prune statement deletes: short transactions. */
const PRUNE_VERSIONS = 100;

const toBuffer = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

export class PostgresBytes implements BlobBytes {
  readonly kind = 'postgres';

  constructor(
    private readonly db: Database,
    private readonly chunkBytes = CHUNK_BYTES,
    private readonly keepReplacedMs = KEEP_REPLACED_MS,
  ) {}

  async put(tenant: string, _key: string, body: Readable): Promise<string> {
    const version = randomUUID();
    try {
      let seq = 0;
      for await (const data of rechunk(body, this.chunkBytes)) {
        await this.db.tenant(tenant, (tx) => tx.insert(blobChunks).values({ tenant, version, seq, data }));
        seq++;
      }
      return version;
    } catch (err) {
      await this.discard(tenant, version).catch(() => undefined);
      throw err;
    }
  }

  async discard(tenant: string, version: string): Promise<void> {
    await this.db.tenant(tenant, (tx) =>
      tx.delete(blobChunks).where(and(eq(blobChunks.tenant, tenant), eq(blobChunks.version, version))),
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

  /**
   * Deletes the chunks of the versions replaced before `now` less KEEP_REPLACED_MS, and their entries,
   * PRUNE_VERSIONS at a time; answers how many versions. Several nodes may run it at once: each
   * takes versions no other holds (SKIP LOCKED).
   */
  async prune(now: Date): Promise<number> {
    const before = new Date(now.getTime() - this.keepReplacedMs);
    let total = 0;
    for (;;) {
      const result = await this.db.db.execute(sql`
        with gone as (
          delete from blob_replaced r
          using (select tenant, version from blob_replaced where replaced_at < ${before}
                 order by replaced_at limit ${PRUNE_VERSIONS} for update skip locked) o
          where r.tenant = o.tenant and r.version = o.version
          returning r.tenant, r.version
        ), chunks as (
          delete from blob_chunks c using gone g where c.tenant = g.tenant and c.version = g.version
        )
        select count(*)::int as n from gone`);
      const n = rowsOf<{ n: number }>(result)[0]?.n ?? 0;
      total += n;
      if (n < PRUNE_VERSIONS) return total;
    }
  }

  async close(): Promise<void> {}
}
