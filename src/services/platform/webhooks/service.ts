import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import { defineErrors } from '../../../platform/core/errors.ts';
import { lastEventId, PATTERN } from '../../../platform/core/outbox.ts';
import { action, defineService, query } from '../../../platform/core/registry.ts';
import { DateTime, Enum, Int64, Record, type Static, Type } from '../../../platform/core/schema.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { newSecret } from '../../../platform/events/signature.ts';
import { webhookDeliveries, webhookSubscriptions } from '../../../platform/events/tables.ts';

// platform/webhooks (docs/webhooks.md): a tenant's webhook subscriptions and their deliveries.
// The delivery machinery itself is the platform's (src/platform/events/webhooks.ts).

const E = defineErrors({
  subscriptionNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Webhook subscription {id} not found' },
  deliveryNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Webhook delivery {id} not found' },
  badUrl: { reason: 'BAD_REQUEST', message: 'url: must be an absolute http or https URL, got "{url}"' },
  badTopic: { reason: 'BAD_REQUEST', message: 'topics: "{topic}" is not a topic pattern (e.g. yms/patio/*)' },
  notDead: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Webhook delivery {id} is {state}; only a dead-lettered delivery can be redelivered',
  },
});

const Url = Type.String({ maxLength: 2000, description: 'http(s) URL that receives the POSTs' });
const Topics = Type.Array(Type.String({ maxLength: 200 }), {
  minItems: 1,
  maxItems: 50,
  description: 'topic patterns: yms/patio/vehicleEnteredYard, yms/patio/*, yms/*, *',
});
const Description = Type.String({ maxLength: 255 });
const Id = Type.String({ format: 'uuid' });

const Subscription = Record(
  'webhookSubscription',
  Type.Object({
    id: Type.String(),
    url: Type.String(),
    topics: Type.Array(Type.String()),
    description: Type.Optional(Type.String()),
    active: Type.Boolean(),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  }),
);

const Delivery = Record(
  'webhookDelivery',
  Type.Object({
    id: Type.String(),
    subscriptionId: Type.String(),
    eventId: Int64(),
    topic: Type.String(),
    state: Enum(['pending', 'delivered', 'dead']),
    attempts: Int64(),
    nextAttemptAt: Type.Optional(DateTime({ description: 'when a pending delivery is tried next' })),
    lastError: Type.Optional(Type.String()),
    responseCode: Type.Optional(Int64()),
    createdAt: DateTime(),
    deliveredAt: Type.Optional(DateTime()),
  }),
);

type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const toSubscription = (r: SubscriptionRow): Static<typeof Subscription> => ({
  id: r.id,
  url: r.url,
  topics: r.topics,
  ...(r.description ? { description: r.description } : {}),
  active: r.active,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const toDelivery = (r: DeliveryRow): Static<typeof Delivery> => ({
  id: r.id,
  subscriptionId: r.subscriptionId,
  eventId: Number(r.eventId),
  topic: r.topic,
  state: r.state as 'pending' | 'delivered' | 'dead',
  attempts: r.attempts,
  ...(r.state === 'pending' ? { nextAttemptAt: r.nextAttemptAt.toISOString() } : {}),
  ...(r.lastError ? { lastError: r.lastError } : {}),
  ...(r.responseCode !== null ? { responseCode: r.responseCode } : {}),
  createdAt: r.createdAt.toISOString(),
  ...(r.deliveredAt ? { deliveredAt: r.deliveredAt.toISOString() } : {}),
});

function checkUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {}
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) throw E.badUrl({ url });
}

function checkTopics(topics: string[]): void {
  const bad = topics.find((t) => !PATTERN.test(t));
  if (bad !== undefined) throw E.badTopic({ topic: bad });
}

export default defineService({
  domain: 'platform',
  name: 'webhooks',
  version: '1.0.0',
  title: 'Webhooks',
  description: "Subscriptions that POST the tenant's events, signed, to its own URLs",
  operations: {
    ...standardOperations({}),
    createSubscription: action({
      description: 'Subscribes a URL to topics; the answer holds the signing secret, shown only here',
      input: Type.Object({ url: Url, topics: Topics, description: Type.Optional(Description) }),
      output: Type.Intersect([Subscription, Type.Object({ secret: Type.String() })]),
      handler: async (ctx, input) => {
        checkUrl(input.url);
        checkTopics(input.topics);
        const secret = newSecret();
        // Events that exist already are not sent to a new subscription.
        const fromEventId = await lastEventId(ctx.tx, ctx.tenant.name);
        const [row] = await ctx.store
          .insert(webhookSubscriptions, [
            {
              url: input.url,
              topics: input.topics,
              description: input.description ?? null,
              secret,
              fromEventId,
            },
          ])
          .returning();
        return { ...toSubscription(row!), secret };
      },
    }),
    listSubscriptions: query({
      description: "The tenant's webhook subscriptions, oldest first",
      get: true,
      input: Type.Object({}),
      output: Type.Object({ subscriptions: Type.Array(Subscription) }),
      handler: async (ctx) => {
        const rows = await ctx.tx
          .select()
          .from(webhookSubscriptions)
          .where(ctx.store.scope(webhookSubscriptions))
          .orderBy(asc(webhookSubscriptions.createdAt), asc(webhookSubscriptions.id));
        return { subscriptions: rows.map(toSubscription) };
      },
    }),
    getSubscription: query({
      get: true,
      input: Type.Object({ id: Id }),
      output: Subscription,
      handler: async (ctx, input) => {
        const [row] = await ctx.store.select(webhookSubscriptions, eq(webhookSubscriptions.id, input.id));
        if (!row) throw E.subscriptionNotFound({ id: input.id });
        return toSubscription(row);
      },
    }),
    updateSubscription: action({
      description:
        'Changes URL, topics, description, or activates/deactivates (an inactive one gets nothing)',
      input: Type.Object({
        id: Id,
        url: Type.Optional(Url),
        topics: Type.Optional(Topics),
        description: Type.Optional(Description),
        active: Type.Optional(Type.Boolean()),
      }),
      output: Subscription,
      handler: async (ctx, input) => {
        if (input.url !== undefined) checkUrl(input.url);
        if (input.topics) checkTopics(input.topics);
        const { id, ...changes } = input;
        const [row] = await ctx.store
          .update(webhookSubscriptions, { ...changes, updatedAt: ctx.now() }, eq(webhookSubscriptions.id, id))
          .returning();
        if (!row) throw E.subscriptionNotFound({ id });
        return toSubscription(row as SubscriptionRow);
      },
    }),
    deleteSubscription: action({
      description: 'Deletes a subscription and its delivery history',
      input: Type.Object({ id: Id }),
      output: Type.Object({}),
      handler: async (ctx, input) => {
        const rows = await ctx.store
          .delete(webhookSubscriptions, eq(webhookSubscriptions.id, input.id))
          .returning({ id: webhookSubscriptions.id });
        if (rows.length === 0) throw E.subscriptionNotFound({ id: input.id });
        return {};
      },
    }),
    listDeliveries: query({
      description: "A subscription's deliveries in event order, with state, attempts and the last error",
      get: true,
      input: Type.Object({
        subscriptionId: Id,
        state: Type.Optional(Enum(['pending', 'delivered', 'dead'])),
        offset: Type.Optional(Int64({ minimum: 0, default: 0, description: 'page index' })),
        size: Type.Optional(Int64({ minimum: 1, maximum: 1000, default: 50 })),
      }),
      output: Type.Object({ deliveries: Type.Array(Delivery), totalElements: Int64() }),
      handler: async (ctx, input) => {
        const [sub] = await ctx.store.select(
          webhookSubscriptions,
          eq(webhookSubscriptions.id, input.subscriptionId),
        );
        if (!sub) throw E.subscriptionNotFound({ id: input.subscriptionId });
        const where = and(
          eq(webhookDeliveries.subscriptionId, input.subscriptionId),
          input.state ? eq(webhookDeliveries.state, input.state) : undefined,
        ) as SQL;
        const size = input.size ?? 50;
        const rows = await ctx.tx
          .select()
          .from(webhookDeliveries)
          .where(ctx.store.scope(webhookDeliveries, where))
          .orderBy(asc(webhookDeliveries.eventId))
          .limit(size)
          .offset((input.offset ?? 0) * size);
        const [total] = await ctx.tx
          .select({ n: count() })
          .from(webhookDeliveries)
          .where(ctx.store.scope(webhookDeliveries, where));
        return { deliveries: rows.map(toDelivery), totalElements: total!.n };
      },
    }),
    redeliver: action({
      description: 'Sends a dead-lettered delivery again, from its first attempt',
      input: Type.Object({ deliveryId: Id }),
      output: Delivery,
      handler: async (ctx, input) => {
        const [row] = await ctx.store.select(webhookDeliveries, eq(webhookDeliveries.id, input.deliveryId));
        if (!row) throw E.deliveryNotFound({ id: input.deliveryId });
        if (row.state !== 'dead') throw E.notDead({ id: row.id, state: row.state });
        const [updated] = await ctx.store
          .update(
            webhookDeliveries,
            { state: 'pending', attempts: 0, nextAttemptAt: ctx.now(), lastError: null, responseCode: null },
            eq(webhookDeliveries.id, row.id),
          )
          .returning();
        // Wakes the dispatcher, whose deliverer picks the delivery up.
        ctx.afterCommit(() => ctx.platform.events.wake());
        return toDelivery(updated as DeliveryRow);
      },
    }),
  },
});
