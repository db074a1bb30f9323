import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Platform, ServiceDeclaration } from '../core/declarations.ts';
import { errors } from '../core/errors.ts';
import { type EventRecord, lastEventId, PATTERN, readEvents, topicMatches } from '../core/outbox.ts';
import { authenticator, BRIDGE, type Parts } from './access.ts';

// The live stream (docs/events.md): Server-Sent Events of one tenant's outbox at
// /t/<tenant>/bridge/1.0/events/stream. Each node reads the outbox itself (woken by its own commits,
// polling for other nodes'), so a connection may land on any node; `Last-Event-ID` replays from the
// outbox, then the connection continues live without a gap or a repeat.

const HEARTBEAT_MS = 15_000;
const BATCH = 500;

interface Connection {
  reply: FastifyReply;
  topics: string[];
  user: string | undefined;
  /** Last id sent; undefined until the connection joins live (no Last-Event-ID given). */
  sent: number | undefined;
}

interface TenantFeed {
  last: number | undefined;
  connections: Set<Connection>;
}

/** `ws_users` (comma-separated user names) addresses an event to those users' connections only. */
function addressedTo(payload: unknown, user: string | undefined): boolean {
  const users = (payload as { ws_users?: unknown } | null)?.ws_users;
  if (typeof users !== 'string') return true;
  return user !== undefined && users.split(',').some((u) => u.trim() === user);
}

export class LiveStream {
  private readonly feeds = new Map<string, TenantFeed>();
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<unknown> | undefined;
  private again = false;

  constructor(private readonly platform: Platform) {}

  /** Reads new events for every tenant with a connection on this node (after a commit, on each poll). */
  wake(): void {
    if (this.feeds.size === 0) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain()
      .catch((err: unknown) => this.platform.log.error({ err }, 'live stream read failed'))
      .finally(() => {
        this.draining = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const feed of this.feeds.values()) for (const c of feed.connections) c.reply.raw.end();
    this.feeds.clear();
  }

  open(tenant: string, connection: Connection): () => void {
    let feed = this.feeds.get(tenant);
    if (!feed) {
      feed = { last: undefined, connections: new Set() };
      this.feeds.set(tenant, feed);
    }
    feed.connections.add(connection);
    if (!this.timer) {
      this.timer = setInterval(() => this.wake(), this.platform.config.eventPollMs);
      this.timer.unref();
    }
    this.wake();
    return () => {
      feed.connections.delete(connection);
      if (feed.connections.size === 0 && this.feeds.get(tenant) === feed) this.feeds.delete(tenant);
      if (this.feeds.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  // One drain at a time, so replay and live reads never interleave for a connection.
  private async drain(): Promise<void> {
    const db = this.platform.db.db;
    for (const [tenant, feed] of this.feeds) {
      feed.last ??= await lastEventId(db, tenant);
      for (const c of feed.connections) {
        c.sent ??= feed.last;
        // Replay (Last-Event-ID) up to where the feed is; live reading continues from there.
        while (c.sent < feed.last && feed.connections.has(c)) {
          const batch = await readEvents(db, tenant, c.sent, BATCH, feed.last);
          if (batch.length === 0) c.sent = feed.last;
          for (const e of batch) this.send(c, e);
        }
      }
      for (;;) {
        const batch = await readEvents(db, tenant, feed.last, BATCH);
        if (batch.length === 0) break;
        // Only connections already caught up get live records; one that opened during this drain
        // is replayed by the next drain (its open woke one), from where it stands.
        const before = feed.last;
        const current = [...feed.connections].filter((c) => c.sent !== undefined && c.sent >= before);
        for (const e of batch) for (const c of current) if (e.id > c.sent!) this.send(c, e);
        feed.last = batch[batch.length - 1]!.id;
      }
    }
  }

  private send(c: Connection, e: EventRecord): void {
    c.sent = e.id;
    if (!c.topics.some((p) => topicMatches(p, e.topic)) || !addressedTo(e.payload, c.user)) return;
    const data = JSON.stringify({
      id: e.id,
      topic: e.topic,
      tenant: e.tenant,
      occurredAt: e.occurredAt,
      payload: e.payload,
    });
    c.reply.raw.write(`id: ${e.id}\ndata: ${data}\n\n`);
  }
}

const REVOKED = 'The credential of this stream was revoked, logged out or has expired';

/**
 * Checks the stream's credential every LIVE_RECHECK_MS (a memory look-up while it is valid): a key
 * revoked, a session logged out or expired, ends the stream, which would otherwise go on carrying the
 * tenant's events to whoever holds it. A check that fails for another reason (the database down)
 * keeps the stream.
 */
function stillValid(platform: Platform, header: string, tenant: string, end: () => void): NodeJS.Timeout {
  const timer = setInterval(() => {
    platform.credentials.verify(header).then(
      (verified) => {
        if (verified?.tenant === tenant) return;
        clearInterval(timer);
        end();
      },
      (err: unknown) => platform.log.warn({ err }, 'live stream: credential check failed'),
    );
  }, platform.config.liveRecheckMs);
  timer.unref();
  return timer;
}

/** A stand-in declaration for the access check: the stream belongs to the platform domain. */
const STREAM_SERVICE = { id: 'platform/events', domain: 'platform', name: 'events' } as ServiceDeclaration;

export function registerLiveStream(app: FastifyInstance, parts: Parts, live: LiveStream): void {
  app.get(
    `${BRIDGE}/events/stream`,
    { schema: { hide: true }, onRequest: authenticator(parts, STREAM_SERVICE, 'PRIVATE', 'events/stream') },
    async (request, reply) => {
      const query = request.query as { topics?: string; user?: string };
      const topics = (query.topics ?? '*')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      const bad = topics.find((t) => !PATTERN.test(t));
      if (bad !== undefined || topics.length === 0)
        throw errors.badRequest(`topics: "${bad ?? ''}" is not a topic pattern (e.g. yms/patio/*)`);
      const header = request.headers['last-event-id'];
      // Digits only: `1e30` or `9223372036854775808` is no outbox id (Number() took them before).
      if (header !== undefined && (typeof header !== 'string' || !/^\d{1,15}$/.test(header)))
        throw errors.badRequest('Last-Event-ID must be an event id (a non-negative integer)');
      const resume = header === undefined ? undefined : Number(header);

      reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      reply.raw.write(': connected\nretry: 3000\n\n');
      const { tenant } = request.ponte!;
      const close = live.open(tenant.name, { reply, topics, user: query.user || undefined, sent: resume });
      const heartbeat = setInterval(() => reply.raw.write(': heartbeat\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
      const recheck = stillValid(parts.platform, request.headers.authorization!, tenant.name, () => {
        // An `error` event the page can read, then the end: a reconnection is refused (401).
        clearInterval(heartbeat);
        close();
        const data = JSON.stringify({ reason: 'UNAUTHORIZED', message: REVOKED });
        reply.raw.end(`event: error\ndata: ${data}\n\n`);
      });
      request.raw.on('close', () => {
        clearInterval(heartbeat);
        clearInterval(recheck);
        close();
      });
    },
  );
}
