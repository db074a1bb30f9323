import { type SQL, sql } from 'drizzle-orm';
import type { Config } from '../core/config.ts';
import { type Database, rowsOf } from '../core/db/database.ts';
import type { BlobBytes, BlobGone } from './bytes.ts';

// The prune of blob bytes that no key needs any more (docs/platform.md "Blobs"), the same for every
// store: which bytes are gone is decided here, from two tables; only deleting them is the store's
// (`BlobBytes.remove`). A replaced or deleted version (`blob_replaced`, listed by the trigger on
// `blobs`) is kept KEEP_REPLACED_MS for the downloads begun before the switch; an upload that never
// committed its facts (`blob_uploads`, its process killed half-way) is given ABANDONED_AFTER_MS.

/** How long the bytes of a replaced version stay readable: the longest a download may take after. */
export const KEEP_REPLACED_MS = 60 * 60 * 1000;

/** How long an upload may take before its bytes are deleted as those of a killed process. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

/** Entries one transaction claims: short transactions. */
const PRUNE_BATCH = 100;

export interface Pruned {
  /** Versions replaced or deleted (and legacy keys) whose bytes went. */
  replaced: number;
  /** Uploads that never committed whose bytes went. */
  abandoned: number;
  /** What uploads left outside any version: temporary files, unfinished multipart uploads. */
  swept: number;
}

/**
 * Replaced entries old enough. A legacy key that a row without a version names again (written by a
 * node older than drizzle/0039 since) is still in use: its entry goes, its bytes stay.
 */
const replaced = (before: Date) => sql`
  delete from blob_replaced r
  using (select tenant, version from blob_replaced where replaced_at < ${before}
         order by replaced_at limit ${PRUNE_BATCH} for update skip locked) o
  where r.tenant = o.tenant and r.version = o.version
  returning r.tenant, r.version, r.legacy_key as "legacyKey",
    r.legacy_key is not null and exists (select 1 from blobs b where b.tenant = r.tenant
      and b.key = r.legacy_key and b.version is null) as "inUse"`;

/**
 * Uploads begun long enough ago that never committed. One whose version a key names was committed by
 * a node older than 0039, which did not delete its entry: the entry goes, the bytes stay.
 */
const abandoned = (before: Date) => sql`
  delete from blob_uploads u
  using (select tenant, version from blob_uploads where started_at < ${before}
         order by started_at limit ${PRUNE_BATCH} for update skip locked) o
  where u.tenant = o.tenant and u.version = o.version
  returning u.tenant, u.version, null as "legacyKey",
    exists (select 1 from blobs b where b.tenant = u.tenant and b.version = u.version) as "inUse"`;

/**
 * Deletes batches of entries that `claim` takes and the bytes they name, each batch in one
 * transaction: the entries are locked (SKIP LOCKED, so nodes pruning at once take different ones) and
 * deleted, the store removes the bytes, and only then does the deletion commit. A store that fails
 * rolls the batch back, for the next pass. Answers how many entries went.
 */
async function pruneEntries(db: Database, bytes: BlobBytes, claim: SQL): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await db.system(async (tx) => {
      const rows = rowsOf<BlobGone & { inUse: boolean }>(await tx.execute(claim));
      const gone = rows.filter((r) => !r.inUse);
      if (gone.length) await bytes.remove(gone, tx);
      return rows.length;
    });
    total += n;
    if (n < PRUNE_BATCH) return total;
  }
}

/** Deletes the bytes that no key needs any more, as of `now`, in whichever store holds them. */
export async function pruneBlobs(db: Database, bytes: BlobBytes, now: Date): Promise<Pruned> {
  const at = (ms: number) => new Date(now.getTime() - ms);
  return {
    replaced: await pruneEntries(db, bytes, replaced(at(KEEP_REPLACED_MS))),
    abandoned: await pruneEntries(db, bytes, abandoned(at(ABANDONED_AFTER_MS))),
    swept: (await bytes.sweep?.(at(ABANDONED_AFTER_MS))) ?? 0,
  };
}

/**
 * The pass that deletes the bytes no key needs (BlobStore.prune), driven by the event dispatcher's
 * poll as a worker, on the interval of the outbox's retention pass (OUTBOX_PRUNE_INTERVAL_MS).
 */
export function blobPruner(platform: {
  blobs: { prune(): Promise<Pruned> };
  config: Pick<Config, 'outboxPruneIntervalMs'>;
  log: { info(o: object, m: string): void };
}) {
  let last = 0;
  return {
    async drain(): Promise<void> {
      if (Date.now() - last < platform.config.outboxPruneIntervalMs) return;
      last = Date.now();
      const pruned = await platform.blobs.prune();
      if (pruned.replaced || pruned.abandoned || pruned.swept)
        platform.log.info(pruned, 'blob bytes no key needs deleted');
    },
  };
}
