import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../core/db/tenancy.ts';

// The durable job queue (DESIGN.md "Events, signals, jobs"). A job is claimed with
// FOR UPDATE SKIP LOCKED and a lease; its effect and its completion commit together.

export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    /** `domain/service/name` of the job declared by a service. */
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull().default(sql`'{}'::jsonb`),
    /** queued → running → done | failed (after maxAttempts) */
    state: text('state').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error'),
    result: jsonb('result'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    // The worker reads and finishes a job by its id alone, across tenants (queue.ts).
    index('jobs_id_idx').on(t.id),
    index('jobs_ready_idx').on(t.runAt).where(sql`state in ('queued', 'running')`),
    index('jobs_tenant_idx').on(t.tenant, t.createdAt),
    tenantIsolation(t.tenant),
  ],
);
