import { randomUUID } from 'node:crypto';
import pg from 'pg';

// What one node changes, every other node hears at once (docs/platform.md "Caches across nodes",
// docs/events.md "Live stream"): a cache entry to forget, events appended to the outbox. Tenants and verified credentials are kept in memory for a short TTL so that a request
// costs no database round trip; the node that revokes a key, ends a session or changes a tenant
// forgets its own entry directly, and announces the change here. On a server that is PostgreSQL's
// NOTIFY on one channel: every node (every worker process, every machine on the same database)
// LISTENs on a connection of its own and forgets the same entry within milliseconds. A node whose
// listening connection drops may have missed announcements: it forgets everything it cached, then
// listens again. On the embedded database there is one process, so there is no one else to tell.
// A node does not hear its own notices: it has acted on them already.

/** What changed: `about` names what (a cache, the outbox) and the other fields which entry. */
export interface Notice {
  about: string;
  [key: string]: string | number | boolean;
}

type Handler = (notice: Notice) => void;

const CHANNEL = 'ponte_notices';
/** NOTIFY's payload limit is 8,000 bytes; a notice is a handful of short fields. */
const MAX_PAYLOAD = 7_900;
const RETRY_MS = { first: 200, max: 5_000 };

export class Notices {
  private readonly handlers = new Map<string, Handler[]>();
  private readonly resets: Array<() => void> = [];
  private listener: pg.Client | undefined;
  private listening: Promise<void> | undefined;
  private closed = false;
  private retryMs = RETRY_MS.first;
  /** Who sends this node's notices, so that it skips them when they come back. */
  private readonly node = randomUUID();

  /** `announce` sends a notice to every node; undefined on the embedded database (one process). */
  constructor(private readonly server?: { pool: pg.Pool; connectionString: string }) {}

  /**
   * Calls `handler` with every notice `about` that another node announces, and `reset` whenever
   * notices may have been missed (the listening connection was lost).
   */
  on(about: string, handler: Handler, reset: () => void): void {
    const list = this.handlers.get(about) ?? [];
    list.push(handler);
    this.handlers.set(about, list);
    this.resets.push(reset);
    if (this.server) void this.listen();
  }

  /** Tells every node; an announcement that cannot be sent is logged by the caller's error path. */
  async announce(notice: Notice): Promise<void> {
    if (!this.server || this.closed) return;
    const payload = JSON.stringify({ ...notice, from: this.node });
    if (payload.length > MAX_PAYLOAD) throw new Error(`notice too long for NOTIFY: ${payload.length} bytes`);
    await this.server.pool.query('select pg_notify($1, $2)', [CHANNEL, payload]);
  }

  /** Resolves once this node listens (tests wait for it before they announce). */
  ready(): Promise<void> {
    return this.listening ?? Promise.resolve();
  }

  async close(): Promise<void> {
    this.closed = true;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => {});
  }

  private listen(): Promise<void> {
    this.listening ??= this.connect();
    return this.listening;
  }

  private async connect(): Promise<void> {
    if (this.closed || !this.server) return;
    const client = new pg.Client({ connectionString: this.server.connectionString });
    const lost = () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.listening = undefined;
      client.end().catch(() => {});
      this.forgetAll();
      if (this.closed) return;
      const delay = this.retryMs;
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MS.max);
      setTimeout(() => void this.listen(), delay).unref();
    };
    client.on('notification', (message) => this.deliver(message.payload));
    client.on('error', lost);
    client.on('end', lost);
    this.listener = client;
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      this.retryMs = RETRY_MS.first;
      // What changed while no connection listened is unknown: start from empty caches.
      this.forgetAll();
    } catch {
      lost();
    }
  }

  private deliver(payload: string | undefined): void {
    let notice: Notice;
    try {
      notice = JSON.parse(payload ?? '') as Notice;
    } catch {
      return;
    }
    if (notice.from === this.node) return;
    for (const handler of this.handlers.get(notice.about) ?? []) handler(notice);
  }

  private forgetAll(): void {
    for (const reset of this.resets) reset();
  }
}
