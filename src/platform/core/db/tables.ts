import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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
