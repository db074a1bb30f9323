import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import type { Database, Tx } from '../core/db/database.ts';
import { type BlobBytes, rechunk } from './bytes.ts';
import { blobChunks, blobObjects } from './tables.ts';

// The PostgreSQL store: the bytes in the database every node already shares, for clusters without
// object storage. A file is cut into chunks of at most CHUNK_BYTES, each written in a transaction of
// its own as the upload arrives and read back one at a time, so neither side ever holds more than a
// chunk. The chunks of an upload go under a new version; one last transaction points the key at it
// and deletes the version it replaces, so a failed upload leaves the previous bytes in place.

export const CHUNK_BYTES = 1024 * 1024;

const toBuffer = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

export class PostgresBytes implements BlobBytes {
  readonly kind = 'postgres';

  constructor(
    private readonly db: Database,
    private readonly chunkBytes = CHUNK_BYTES,
  ) {}

  async put(tenant: string, key: string, body: Readable): Promise<void> {
    const version = randomUUID();
    let seq = 0;
    let size = 0;
    try {
      for await (const data of rechunk(body, this.chunkBytes)) {
        await this.db.tenant(tenant, (tx) => tx.insert(blobChunks).values({ tenant, version, seq, data }));
        seq++;
        size += data.length;
      }
      await this.db.tenant(tenant, (tx) => this.point(tx, tenant, key, { version, size, chunks: seq }));
    } catch (err) {
      await this.db
        .tenant(tenant, (tx) =>
          tx.delete(blobChunks).where(and(eq(blobChunks.tenant, tenant), eq(blobChunks.version, version))),
        )
        .catch(() => undefined);
      throw err;
    }
  }

  /** Points `key` at `next` and deletes the chunks of the version it held, under the key's row lock. */
  private async point(
    tx: Tx,
    tenant: string,
    key: string,
    next: { version: string; size: number; chunks: number },
  ): Promise<void> {
    const where = and(eq(blobObjects.tenant, tenant), eq(blobObjects.key, key));
    const current = async () =>
      (await tx.select({ version: blobObjects.version }).from(blobObjects).where(where).for('update'))[0];
    let previous = await current();
    if (!previous) {
      const inserted = await tx
        .insert(blobObjects)
        .values({ tenant, key, ...next })
        .onConflictDoNothing()
        .returning({ version: blobObjects.version });
      if (inserted.length) return;
      // Another upload of the same key made the row first: replace its version instead.
      previous = await current();
    }
    await tx.update(blobObjects).set(next).where(where);
    await tx
      .delete(blobChunks)
      .where(and(eq(blobChunks.tenant, tenant), eq(blobChunks.version, previous!.version)));
  }

  async get(tenant: string, key: string): Promise<Readable | undefined> {
    const [object] = await this.db.tenant(
      tenant,
      (tx) =>
        tx
          .select()
          .from(blobObjects)
          .where(and(eq(blobObjects.tenant, tenant), eq(blobObjects.key, key))),
      { reads: true },
    );
    if (!object) return undefined;
    const { db, chunkBytes } = this;
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let seq = 0; seq < object!.chunks; seq++) {
        const [chunk] = await db.tenant(
          tenant,
          (tx) =>
            tx
              .select({ data: blobChunks.data })
              .from(blobChunks)
              .where(
                and(
                  eq(blobChunks.tenant, tenant),
                  eq(blobChunks.version, object!.version),
                  eq(blobChunks.seq, seq),
                ),
              ),
          { reads: true },
        );
        // Replaced by a newer upload while this one was being read: the rest is gone.
        if (!chunk) throw new Error(`Blob ${key} was replaced while it was being read`);
        yield toBuffer(chunk.data);
      }
    }
    // One chunk read ahead at most: the stream's buffer is counted in bytes, not in chunks.
    return Readable.from(chunks(), { objectMode: false, highWaterMark: chunkBytes });
  }

  async close(): Promise<void> {}
}
