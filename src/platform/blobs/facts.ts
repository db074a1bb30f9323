import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../core/db/types.ts';
import { blobs } from './tables.ts';

// Changes to a key's facts row (`blobs`) outside an upload. The trigger on `blobs` lists the version
// a row held when the row is replaced or deleted in `blob_replaced`, dated on the platform's clock
// when the transaction carries it (`ponte.now`, drizzle/0040): the prune counts the keep time on that
// clock (prune.ts), which may differ from the database's (a pinned test clock, a skewed node).

/** Dates what the transaction's trigger lists in `blob_replaced` at `now`, the platform's time. */
export async function onPlatformClock(tx: Tx, now: Date): Promise<void> {
  await tx.execute(sql`select set_config('ponte.now', ${now.toISOString()}, true)`);
}

/**
 * Deletes a key's facts in the caller's transaction: the key is gone with it (signed URLs check the
 * facts), and its bytes stay KEEP_REPLACED_MS from `now` for the downloads begun before.
 */
export async function forgetBlob(tx: Tx, tenant: string, key: string, now: Date): Promise<void> {
  await onPlatformClock(tx, now);
  await tx.delete(blobs).where(and(eq(blobs.tenant, tenant), eq(blobs.key, key)));
}
