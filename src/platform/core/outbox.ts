import { sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from './db/database.ts';
import { lockExpression, lockName } from './db/locks.ts';

// The transactional outbox (DESIGN.md "Events, signals, jobs"): an event is appended in the
// transaction of the operation that caused it, so it exists exactly when that operation committed.

export interface EventRecord {
  /** The outbox id: globally unique and, within a tenant, increasing in commit order. */
  id: number;
  tenant: string;
  topic: string;
  occurredAt: string;
  payload: unknown;
}

/** The purpose of the per-tenant outbox lock (locks.ts). */
export const OUTBOX_LOCK = 'platform/outbox';
const TOPIC = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/** An event an operation emitted, appended when its transaction is about to commit. */
export interface QueuedEvent {
  topic: string;
  payload: unknown;
}

/** The transaction-local list (Ctx.transactionLocal) of the events an operation emitted. */
export const QUEUED_EVENTS = Symbol('queued events');

/** Checks an event's topic when it is emitted, not at commit. */
export function checkTopic(topic: string): void {
  if (!TOPIC.test(topic)) throw new Error(`invalid event topic ${JSON.stringify(topic)}`);
}

/**
 * Appends a transaction's emitted events, in order, as its last work before the commit: the
 * per-tenant lock is then the transaction's last lock, held only for its commit (docs/events.md
 * "Ordering").
 */
export async function appendQueued(tx: Tx, tenant: string, queued: QueuedEvent[] | undefined): Promise<void> {
  for (const e of queued ?? []) await appendEvent(tx, tenant, e.topic, e.payload);
}

/**
 * Appends an event now. The per-tenant lock is taken before the identity value is drawn and held until
 * commit, so a tenant's ids commit in increasing order: a consumer's cursor `id > last` can never
 * pass a record that commits later with a smaller id. Tenants never wait for each other.
 */
export async function appendEvent(tx: Tx, tenant: string, topic: string, payload: unknown): Promise<number> {
  checkTopic(topic);
  const result = await tx.execute(sql`
    with l as (select ${lockExpression(lockName(OUTBOX_LOCK, tenant))})
    insert into outbox (tenant, topic, payload)
    select ${tenant}, ${topic}, ${JSON.stringify(payload ?? {})}::jsonb from l
    returning id`);
  return Number(rowsOf<{ id: number | string }>(result)[0]!.id);
}

interface OutboxRow {
  id: number | string;
  tenant: string;
  topic: string;
  payload: unknown;
  created_at: Date | string;
}

export const toRecord = (row: OutboxRow): EventRecord => ({
  id: Number(row.id),
  tenant: row.tenant,
  topic: row.topic,
  occurredAt: new Date(row.created_at).toISOString(),
  payload: row.payload,
});

/** A tenant's records after `afterId` (and up to `upToId` when given), in order. */
export async function readEvents(
  db: Db | Tx,
  tenant: string,
  afterId: number,
  limit: number,
  upToId?: number,
): Promise<EventRecord[]> {
  const result = await db.execute(sql`
    select id, tenant, topic, payload, created_at from outbox
    where tenant = ${tenant} and id > ${afterId} ${upToId === undefined ? sql`` : sql`and id <= ${upToId}`}
    order by id limit ${limit}`);
  return rowsOf<OutboxRow>(result).map(toRecord);
}

export async function lastEventId(db: Db | Tx, tenant: string): Promise<number> {
  const result = await db.execute(
    sql`select coalesce(max(id), 0) as id from outbox where tenant = ${tenant}`,
  );
  return Number(rowsOf<{ id: number | string }>(result)[0]!.id);
}

/**
 * Topic patterns: segments separated by `/`; a `*` segment matches exactly one segment, except as
 * the last segment, where it matches one or more (`yms/*` is every yms event, `*` is every event).
 */
export function topicMatches(pattern: string, topic: string): boolean {
  const p = pattern.split('/');
  const t = topic.split('/');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '*' && i === p.length - 1) return t.length > i;
    if (i >= t.length || (p[i] !== '*' && p[i] !== t[i])) return false;
  }
  return p.length === t.length;
}

export const PATTERN = /^(\*|[A-Za-z0-9_-]+)(\/(\*|[A-Za-z0-9_-]+))*$/;
