import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../core/db/database.ts';
import type { Platform } from '../core/declarations.ts';
import type { Lease } from '../core/lease.ts';
import { type EventRecord, topicMatches, toRecord } from '../core/outbox.ts';
import type { EventConsumer, EventWorker } from './dispatcher.ts';
import { SIGNATURE_HEADER, sign, TIMESTAMP_HEADER } from './signature.ts';

// Webhook subscriptions (docs/webhooks.md). Two steps: the `webhooks` consumer turns each outbox
// record into one delivery row per matching subscription (durably, behind its cursor), and the
// deliverer POSTs each subscription's deliveries in event order. A failing delivery holds back the
// later ones of its subscription until it succeeds or is dead-lettered, so a receiver sees a
// subscription's events in order; other subscriptions are not held back. A node delivers a
// subscription under a lease renewed while it works (lease.ts) and records an outcome only under it.

const CONCURRENCY = 8;

interface Subscription {
  id: string;
  topics: string[];
  from_event_id: number | string;
}

/** Fan-out: one delivery per active subscription whose topics match and that existed before the event. */
export function webhookFanOut(platform: Platform): EventConsumer {
  let cache: { tenant: string; subs: Subscription[] } | undefined;
  return {
    name: 'webhooks',
    handle: async (record) => {
      if (cache?.tenant !== record.tenant) cache = undefined;
      cache ??= {
        tenant: record.tenant,
        subs: rowsOf<Subscription>(
          await platform.db.db.execute(sql`
            select id, topics, from_event_id from webhook_subscriptions
            where tenant = ${record.tenant} and active`),
        ),
      };
      for (const sub of cache.subs) {
        if (record.id <= Number(sub.from_event_id)) continue;
        if (!sub.topics.some((p) => topicMatches(p, record.topic))) continue;
        await platform.db.db.execute(sql`
          insert into webhook_deliveries (tenant, subscription_id, event_id, topic)
          values (${record.tenant}, ${sub.id}, ${record.id}, ${record.topic})
          on conflict (tenant, subscription_id, event_id) do nothing`);
      }
    },
    afterBatch: () => {
      cache = undefined; // subscriptions may change between batches
    },
  };
}

interface Claimed {
  id: string;
  url: string;
  secret: string;
}

interface Head {
  id: string;
  attempts: number;
  due: boolean;
  event_id: number | string;
  tenant: string;
  topic: string;
  payload: unknown;
  created_at: Date | string;
}

export interface AttemptResult {
  ok: boolean;
  status?: number;
  error?: string;
}

/** The body a receiver gets, exactly as signed. */
export const deliveryBody = (e: EventRecord) =>
  JSON.stringify({
    id: e.id,
    topic: e.topic,
    tenant: e.tenant,
    occurredAt: e.occurredAt,
    payload: e.payload,
  });

export class WebhookDeliverer implements EventWorker {
  private stopping = false;

  constructor(private readonly platform: Platform) {}

  async stop(): Promise<void> {
    this.stopping = true;
  }

  /** Delivers every due delivery, a few subscriptions at a time; returns when none is due. */
  async drain(): Promise<void> {
    const { db } = this.platform.db;
    const seconds = this.platform.config.leaseSeconds;
    // Workers are added as there is work: the first claims a subscription, then starts a second,
    // and so on up to CONCURRENCY; an idle node sends one claim per poll (docs/deploy.md).
    const running: Array<Promise<void>> = [];
    const start = () => running.push(worker());
    const worker = async () => {
      let started = false;
      while (!this.stopping) {
        const sub = await this.claim();
        if (!sub) return;
        if (!started && running.length < CONCURRENCY) {
          started = true;
          start();
        }
        const ours = sql`id = ${sub.claimed.id} and lease_token = ${sub.token}`;
        const lease = this.platform.leases.hold({
          what: { subscription: sub.claimed.id },
          renew: async () =>
            rowsOf(
              await db.execute(sql`
                update webhook_subscriptions set lease_until = now() + make_interval(secs => ${seconds})
                where ${ours} returning id`),
            ).length > 0,
          release: async () => {
            await db.execute(sql`
              update webhook_subscriptions set lease_token = null, lease_until = null where ${ours}`);
          },
        });
        try {
          await this.deliverSubscription(sub.claimed, sub.token, lease);
        } finally {
          await lease.release();
        }
      }
    };
    start();
    // `running` grows while the first ones work.
    for (let i = 0; i < running.length; i++) await running[i];
  }

  /** A subscription whose oldest pending delivery is due, leased so no other node works on it. */
  private async claim(): Promise<{ claimed: Claimed; token: string } | undefined> {
    const token = randomUUID();
    const result = await this.platform.db.db.execute(sql`
      update webhook_subscriptions set lease_token = ${token},
        lease_until = now() + make_interval(secs => ${this.platform.config.leaseSeconds})
      where id = (
        select s.id from webhook_subscriptions s
        join lateral (
          select d.next_attempt_at from webhook_deliveries d
          where d.subscription_id = s.id and d.state = 'pending'
          order by d.event_id limit 1
        ) h on true
        where s.active and (s.lease_until is null or s.lease_until < now()) and h.next_attempt_at <= now()
        order by h.next_attempt_at
        limit 1
        for update of s skip locked
      )
      returning id, url, secret`);
    const claimed = rowsOf<Claimed>(result)[0];
    return claimed ? { claimed, token } : undefined;
  }

  private async head(subscriptionId: string): Promise<Head | undefined> {
    const result = await this.platform.db.db.execute(sql`
      select d.id, d.attempts, d.next_attempt_at <= now() as due, o.id as event_id, o.tenant, o.topic,
        o.payload, o.created_at
      from webhook_deliveries d join outbox o on o.id = d.event_id
      where d.subscription_id = ${subscriptionId} and d.state = 'pending'
      order by d.event_id limit 1`);
    return rowsOf<Head>(result)[0];
  }

  private async deliverSubscription(sub: Claimed, token: string, lease: Lease): Promise<void> {
    const { config, db } = this.platform;
    // An outcome is recorded only while the subscription is still ours: after a takeover the new
    // holder sends the delivery again (at least once), and this node moves nothing.
    const held = sql`exists (
      select 1 from webhook_subscriptions where id = ${sub.id} and lease_token = ${token})`;
    while (!this.stopping && !lease.signal.aborted) {
      const head = await this.head(sub.id);
      if (!head?.due) return;
      const attempt = head.attempts + 1;
      const result = await this.post(sub, toRecord({ ...head, id: head.event_id }), lease.signal);
      // Cut short because the node must go now, or the lease is gone: not an attempt of the receiver's.
      if (lease.signal.aborted) return;
      const code = result.status ?? null;
      const dead = !result.ok && attempt >= config.webhookMaxAttempts;
      const recorded = result.ok
        ? await db.db.execute(sql`
            update webhook_deliveries set state = 'delivered', attempts = ${attempt},
              response_code = ${code}, last_error = null, delivered_at = now()
            where id = ${head.id} and ${held} returning id`)
        : await db.db.execute(sql`
            update webhook_deliveries set state = ${dead ? 'dead' : 'pending'}, attempts = ${attempt},
              response_code = ${code}, last_error = ${result.error ?? null},
              next_attempt_at = now() + make_interval(secs => ${
                Math.min(config.webhookBackoffMs * 2 ** (attempt - 1), config.webhookBackoffMaxMs) / 1000
              })
            where id = ${head.id} and ${held} returning id`);
      if (rowsOf(recorded).length === 0) return lease.lose('the subscription was taken over');
      if (!result.ok) {
        this.platform.log.warn(
          { subscription: sub.id, event: Number(head.event_id), attempt, dead, error: result.error },
          'webhook delivery failed',
        );
        // A retried delivery holds back the later ones; a dead one lets them go.
        if (!dead) return;
      }
    }
  }

  private async post(sub: Claimed, event: EventRecord, stop: AbortSignal): Promise<AttemptResult> {
    const body = deliveryBody(event);
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const response = await fetch(sub.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'ponte-webhooks/1.0',
          'x-ponte-event-id': String(event.id),
          'x-ponte-topic': event.topic,
          [TIMESTAMP_HEADER]: String(timestamp),
          [SIGNATURE_HEADER]: sign(sub.secret, timestamp, body),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(this.platform.config.webhookTimeoutMs), stop]),
      });
      // The body is not used; reading it frees the connection.
      await response.arrayBuffer().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
      return { ok: false, status: response.status, error: `HTTP ${response.status}` };
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      const message = err instanceof Error ? err.message : String(err);
      return { ok: false, error: (cause ? `${message}: ${cause}` : message).slice(0, 500) };
    }
  }
}
