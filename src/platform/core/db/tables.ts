import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenantColumn, tenantIsolation } from './tenancy.ts';

/**
 * The last int64 id of each tenant in each table with a numbered id (keys.ts `numberedId`). A
 * create locks its (tenant, table) row until it commits: creators of one tenant's rows of one table
 * take turns, which is what keeps ids given explicitly and ids taken from the counter apart; other
 * tenants and other tables never wait on it.
 */
export const idCounters = pgTable(
  'id_counters',
  {
    tenant: tenantColumn(),
    /** The table whose ids it numbers. */
    name: text('name').notNull(),
    /** The highest id of the tenant in that table so far, taken from here or given explicitly. */
    last: bigint('last', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.name] }), tenantIsolation(t.tenant)],
);

/** The tenants (the platform's own table: row-level security on, with no policy for the application role). */
export const tenants = pgTable(
  'tenants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** `standard` tenants may call every service; `light` (light-panel) tenants only their permissions. */
    edition: text('edition').notNull().default('standard'),
    licenseLocked: boolean('license_locked').notNull().default(false),
    licenseChangedAt: timestamp('license_changed_at', { withTimezone: true }),
    licenseChangedBy: text('license_changed_by'),
    /** Service resources (`domain/service`) a light-panel tenant may call, recomputed by updateLicenses. */
    permissions: jsonb('permissions').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    permissionsUpdatedAt: timestamp('permissions_updated_at', { withTimezone: true }),
    timeZone: text('time_zone').notNull().default('America/Sao_Paulo'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tenants_name_key').on(t.name)],
).enableRLS();
