import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from './types.ts';

// Transaction-scoped advisory locks, taken one way everywhere (DESIGN.md "Persistence";
// docs/platform.md "Contended decisions"). A lock is named by its purpose, its tenant and its parts,
// JSON-encoded (so no two lists of parts give one text), and taken on the 64-bit
// `hashtextextended(text, 0)` of that name. Two different names then share a lock only if their
// 64-bit hashes collide (about 1 in 10^19 per pair); with the 32-bit `hashtext`, one pair in 4
// billion did, and among 100,000 tenants' keys some pair almost surely would: unrelated work of
// two tenants, or of two purposes, waiting on each other. Both engines have the function (PostgreSQL
// 11 and later; PGlite is 17).

export type LockPart = string | number;

/**
 * The name a lock is taken on: `purpose` (the owner and what it guards, e.g. 'yms/agenda/anexo'),
 * the tenant, then the parts that tell one guarded thing from another.
 */
export function lockName(purpose: string, tenant: string, ...parts: LockPart[]): string {
  if (!purpose || !tenant) throw new Error('an advisory lock needs a purpose and a tenant');
  return JSON.stringify([purpose, tenant, ...parts]);
}

/** `pg_advisory_xact_lock` of a name, as an expression: for a statement that locks as it works. */
export const lockExpression = (name: string): SQL => sql`pg_advisory_xact_lock(hashtextextended(${name}, 0))`;

/**
 * Takes the locks of `names` in one statement, in sorted order (the select list is evaluated left to
 * right), waiting for any other transaction holding one of them; held until this transaction ends.
 * Two transactions that lock overlapping sets this way never deadlock on them. Taking a lock the
 * transaction already holds again is free.
 */
export async function advisoryLocks(tx: Tx, names: string[]): Promise<void> {
  const sorted = [...new Set(names)].sort();
  if (sorted.length === 0) return;
  await tx.execute(sql`select ${sql.join(sorted.map(lockExpression), sql`, `)}`);
}

/** Takes the lock of (`purpose`, `tenant`, ...`parts`) until this transaction ends (lockName). */
export function advisoryLock(tx: Tx, purpose: string, tenant: string, ...parts: LockPart[]): Promise<void> {
  return advisoryLocks(tx, [lockName(purpose, tenant, ...parts)]);
}
