import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../core/db/tenancy.ts';

// The transactional outbox and what reads it (docs/events.md). An event is a row of `outbox`,
// written in the transaction of the operation that caused it; every consumer keeps a durable cursor.

export const outbox = pgTable(
  'outbox',
  {
    /** The event id. Within a tenant ids are assigned under a lock held to commit (outbox.ts), so
     *  they commit in increasing order: a per-tenant cursor on the id never skips a record. One
     *  sequence for every tenant, deliberately (docs/platform.md "Storage and tenant isolation"):
     *  a per-tenant counter would serialize a tenant's event-writing transactions on one row. No
     *  tenant chooses an event id, so none can collide with or claim another's. */
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    tenant: tenantColumn(),
    /** `domain/service/operation`, e.g. `yms/patio/vehicleEnteredYard`. */
    topic: text('topic').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    tenantPrimaryKey(t),
    // Deliveries and retention look events up by id alone (webhooks.ts, retention.ts).
    index('outbox_id_idx').on(t.id),
    tenantIsolation(t.tenant),
  ],
);

/** A consumer's position in one tenant's outbox; a lease keeps two nodes off the same pair. */
export const eventCursors = pgTable(
  'event_cursors',
  {
    consumer: text('consumer').notNull(),
    tenant: tenantColumn(),
    lastId: bigint('last_id', { mode: 'number' }).notNull().default(0),
    leaseToken: uuid('lease_token'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.consumer, t.tenant] }), tenantIsolation(t.tenant)],
);

export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    url: text('url').notNull(),
    /** Topic patterns: `yms/patio/vehicleEnteredYard`, `yms/patio/*`, `*`. */
    topics: jsonb('topics').$type<string[]>().notNull(),
    description: text('description'),
    /** The HMAC key the receiver verifies with; it must be readable to sign, so it is not hashed. */
    secret: text('secret').notNull(),
    active: boolean('active').notNull().default(true),
    /** Events up to this id existed before the subscription and are never delivered to it. */
    fromEventId: bigint('from_event_id', { mode: 'number' }).notNull().default(0),
    leaseToken: uuid('lease_token'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    tenantPrimaryKey(t),
    // The delivery worker leases a subscription by its id alone, across tenants (webhooks.ts).
    index('webhook_subscriptions_id_idx').on(t.id),
    index('webhook_subscriptions_tenant_idx').on(t.tenant, t.createdAt),
    tenantIsolation(t.tenant),
  ],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    subscriptionId: uuid('subscription_id').notNull(),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    topic: text('topic').notNull(),
    /** pending → delivered | dead (after the configured attempts); redelivery makes it pending again. */
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    responseCode: integer('response_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('webhook_deliveries_subscription_fk', t, t.subscriptionId, webhookSubscriptions).onDelete(
      'cascade',
    ),
    // The delivery worker finishes a delivery by its id alone, across tenants (webhooks.ts).
    index('webhook_deliveries_id_idx').on(t.id),
    index('webhook_deliveries_head_idx').on(t.subscriptionId, t.eventId).where(sql`state = 'pending'`),
    // Fan-out is at least once: a repeated batch finds its deliveries already there.
    uniqueIndex('webhook_deliveries_subscription_event_key').on(t.tenant, t.subscriptionId, t.eventId),
    tenantIsolation(t.tenant),
  ],
);
