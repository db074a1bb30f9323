import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../core/db/database.ts';
import type { Platform } from '../core/declarations.ts';
import { type EventRecord, readEvents, topicMatches } from '../core/outbox.ts';
import type { EventHandler, Events } from '../core/ports.ts';
import { Pump } from '../core/pump.ts';
import { pruneOutbox } from './retention.ts';

// The dispatcher (docs/events.md): every consumer reads each tenant's outbox in id order behind a
// durable cursor (event_cursors), so a record is delivered at least once and never skipped, across
// restarts. A lease on the (consumer, tenant) cursor, renewed while the node works on it (lease.ts),
// keeps two nodes from delivering the same records to the same consumer at once; a lease rather than
// a held row lock, because a consumer may take seconds (a broker) or use the database itself, and
// PGlite runs one transaction at a time.

export interface EventConsumer {
  /** Durable name: the cursor is kept under it. */
  name: string;
  /** Handles one record; throwing stops this tenant's batch, which is retried from that record. */
  handle(record: EventRecord): Promise<void>;
  /** Called after a batch of one tenant was handled (e.g. to wake a delivery worker). */
  afterBatch?(tenant: string): void;
}

/** A background loop the dispatcher drives with the same poll and wake-ups (webhook deliveries). */
export interface EventWorker {
  drain(): Promise<unknown>;
  stop?(): Promise<void>;
}

const BATCH = 200;
/** At most one outbox notice per this many milliseconds per node. */
const ANNOUNCE_MS = 50;

export class EventDispatcher implements Events {
  private platform: Platform | undefined;
  private readonly consumers = new Map<string, EventConsumer>();
  private readonly workers: EventWorker[] = [];
  private readonly listeners: Array<() => void> = [];
  private readonly pump: Pump;
  private lastAnnounced = 0;
  private announcing: NodeJS.Timeout | undefined;

  constructor(pollMs: number) {
    this.pump = new Pump(() => this.drain(), pollMs);
  }

  /** Set once stop() was called: a long drain stops between steps. */
  private get stopping(): boolean {
    return this.pump.stopping;
  }

  attach(platform: Platform): void {
    this.platform = platform;
    // Another node appended events: its consumers and live streams are woken here too, without
    // waiting for the poll (docs/events.md "Across nodes").
    platform.db.notices.on(
      'outbox',
      () => this.wakeHere(),
      () => this.wakeHere(),
    );
  }

  addConsumer(consumer: EventConsumer): void {
    if (this.consumers.has(consumer.name)) throw new Error(`event consumer ${consumer.name} exists`);
    this.consumers.set(consumer.name, consumer);
  }

  addWorker(worker: EventWorker): void {
    this.workers.push(worker);
  }

  /** Told of every local commit that emitted (the live stream listens). */
  onWake(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * An in-process subscriber: gets each matching event of every tenant once per cluster, in order
   * per tenant, at least once (a throw retries the event). Its cursor is kept under `name`, which
   * defaults to `subscriber:<pattern>`; give a name when two subscribers share a pattern.
   */
  subscribe(pattern: string, handler: EventHandler, options: { name?: string } = {}): () => void {
    const name = options.name ?? `subscriber:${pattern}`;
    this.addConsumer({
      name,
      handle: async (event) => {
        if (topicMatches(pattern, event.topic)) await handler(event);
      },
    });
    this.wake();
    return () => this.consumers.delete(name);
  }

  start(): void {
    this.pump.start();
  }

  /** Takes no more work; the record or delivery in hand finishes, and its lease is released. */
  async stop(): Promise<void> {
    // The workers first: the drain in progress must not go on through their whole backlog.
    await Promise.all(this.workers.map((worker) => worker.stop?.()));
    await this.pump.stop();
  }

  /** Called after a commit that emitted: wakes this node, and tells the others (at most every ANNOUNCE_MS). */
  wake(): void {
    this.wakeHere();
    this.announceSoon();
  }

  /** Reads the outbox now on this node: its consumers, workers and live streams. */
  wakeHere(): void {
    for (const listener of this.listeners) listener();
    this.pump.wake();
  }

  /**
   * One notice to the other nodes for the commits of the next few milliseconds: a burst of events
   * costs a notice per ANNOUNCE_MS, not one per commit (each NOTIFY takes a cluster-wide lock at
   * commit). Another node's reader reads every event appended up to the notice, whatever it says.
   */
  private announceSoon(): void {
    if (this.announcing || !this.platform) return;
    const notices = this.platform.db.notices;
    const send = () => {
      this.announcing = undefined;
      this.lastAnnounced = performance.now();
      notices.announce({ about: 'outbox' }).catch(() => {
        // The others then read at their next poll (EVENT_POLL_MS).
      });
    };
    const wait = this.lastAnnounced + ANNOUNCE_MS - performance.now();
    if (wait <= 0) send();
    else this.announcing = setTimeout(send, wait);
  }

  /** Delivers everything pending to every consumer, then runs the workers. Tests call it directly. */
  async drain(): Promise<void> {
    let pending: Array<{ consumer: string; tenant: string }> = [];
    try {
      pending = await this.pendingWork();
    } catch (err) {
      this.p.log.error({ err }, 'event dispatch failed');
    }
    for (const { consumer: name, tenant } of pending) {
      if (this.stopping) return;
      const consumer = this.consumers.get(name);
      if (!consumer) continue;
      try {
        await this.deliver(consumer, tenant);
      } catch (err) {
        this.p.log.error({ err, consumer: name, tenant }, 'event dispatch failed');
      }
    }
    for (const worker of this.workers) {
      if (this.stopping) return;
      await worker.drain().catch((err: unknown) => this.p.log.error({ err }, 'event worker failed'));
    }
    if (Date.now() - this.lastPrune >= this.p.config.outboxPruneIntervalMs) {
      this.lastPrune = Date.now();
      await this.prune().catch((err: unknown) => this.p.log.error({ err }, 'outbox retention failed'));
    }
  }

  private lastPrune = 0;

  /**
   * Deletes the events past the retention period that every consumer has passed and no webhook
   * delivery still needs (retention.ts); answers how many. Runs from drain() every
   * outboxPruneIntervalMs; 0 hours of retention keeps everything.
   */
  async prune(now = this.p.now()): Promise<number> {
    const hours = this.p.config.outboxRetentionHours;
    if (hours <= 0) return 0;
    const deleted = await pruneOutbox(this.p.db.db, {
      before: new Date(now.getTime() - hours * 3_600_000),
      consumers: [...this.consumers.keys()],
    });
    if (deleted) this.p.log.info({ deleted }, 'outbox events past retention deleted');
    return deleted;
  }

  private get p(): Platform {
    if (!this.platform) throw new Error('EventDispatcher used before the platform was attached');
    return this.platform;
  }

  /**
   * Every (consumer, tenant) with records past the consumer's cursor that no other node holds, in the
   * consumers' order, then the tenants': one statement per poll, whatever the number of consumers (an
   * idle node's cost to the database: docs/deploy.md).
   */
  private async pendingWork(): Promise<Array<{ consumer: string; tenant: string }>> {
    const names = [...this.consumers.keys()];
    if (names.length === 0) return [];
    const result = await this.p.db.db.execute(sql`
      select k.name as consumer, t.name as tenant
        from unnest(array[${sql.join(
          names.map((name) => sql`${name}`),
          sql`, `,
        )}]::text[]) with ordinality as k(name, n)
        cross join tenants t
        left join event_cursors c on c.consumer = k.name and c.tenant = t.name
       where (c.lease_until is null or c.lease_until < now())
         and exists (select 1 from outbox o where o.tenant = t.name and o.id > coalesce(c.last_id, 0))
       order by k.n, t.name`);
    return rowsOf<{ consumer: string; tenant: string }>(result);
  }

  private async deliver(consumer: EventConsumer, tenant: string): Promise<void> {
    const { db } = this.p.db;
    const seconds = this.p.config.leaseSeconds;
    const token = randomUUID();
    await db.execute(sql`
      insert into event_cursors (consumer, tenant) values (${consumer.name}, ${tenant})
      on conflict do nothing`);
    const claimed = rowsOf<{ last_id: number | string }>(
      await db.execute(sql`
        update event_cursors set lease_token = ${token},
          lease_until = now() + make_interval(secs => ${seconds})
        where consumer = ${consumer.name} and tenant = ${tenant}
          and (lease_until is null or lease_until < now())
        returning last_id`),
    )[0];
    if (!claimed) return; // another node holds it
    const ours = sql`consumer = ${consumer.name} and tenant = ${tenant} and lease_token = ${token}`;
    const lease = this.p.leases.hold({
      what: { consumer: consumer.name, tenant },
      renew: async () =>
        rowsOf(
          await db.execute(sql`
            update event_cursors set lease_until = now() + make_interval(secs => ${seconds})
            where ${ours} returning last_id`),
        ).length > 0,
      release: async () => {
        await db.execute(sql`update event_cursors set lease_token = null, lease_until = null where ${ours}`);
      },
    });
    const go = () => !this.stopping && !lease.signal.aborted;
    let last = Number(claimed.last_id);
    let failed = false;
    try {
      while (!failed && go()) {
        const batch = await readEvents(db, tenant, last, BATCH);
        if (batch.length === 0) break;
        const before = last;
        for (const record of batch) {
          if (!go()) break;
          try {
            await consumer.handle(record);
            last = record.id;
          } catch (err) {
            this.p.log.warn({ err, consumer: consumer.name, event: record.id }, 'event consumer failed');
            failed = true;
            break;
          }
        }
        if (last !== before) {
          // Only under our own lease: a node whose lease ran out and was taken over moves nothing.
          const moved = rowsOf(
            await db.execute(sql`
              update event_cursors set last_id = ${last}, updated_at = now() where ${ours}
              returning last_id`),
          );
          if (moved.length === 0) return lease.lose('the cursor was taken over');
          consumer.afterBatch?.(tenant);
        }
      }
    } finally {
      await lease.release();
    }
  }
}
