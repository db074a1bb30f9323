import { sql } from 'drizzle-orm';
import type { Ctx } from '../declarations.ts';
import { ApiError } from '../errors.ts';
import { QUEUED_EVENTS, type QueuedEvent } from '../outbox.ts';

/**
 * Runs `work` inside a savepoint of the caller's transaction. A refusal (an ApiError below 500)
 * rolls back what `work` did and is answered, so the transaction goes on; anything else is thrown
 * as it came. Nested calls nest (PostgreSQL releases or rolls back the latest savepoint of a name).
 * On PostgreSQL a nested `tx.transaction()` is not available here (database.ts): this is the way.
 */
export async function inSavepoint<T>(
  ctx: Pick<Ctx, 'tx' | 'transactionLocal'>,
  work: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: ApiError }> {
  await ctx.tx.execute(sql`savepoint ponte_work`);
  // Events are appended at commit (outbox.ts appendQueued): a rollback drops those the work emitted.
  const queued = ctx.transactionLocal<QueuedEvent[]>(QUEUED_EVENTS, () => []);
  const mark = queued.length;
  try {
    const value = await work();
    await ctx.tx.execute(sql`release savepoint ponte_work`);
    return { ok: true, value };
  } catch (err) {
    await ctx.tx.execute(sql`rollback to savepoint ponte_work`);
    queued.length = mark;
    if (err instanceof ApiError && err.status < 500) return { ok: false, error: err };
    throw err;
  }
}
