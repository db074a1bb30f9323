import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../../../platform/core/db/keys.ts';

/**
 * Every license lock and unlock, for audit. A platform table (licenses span tenants): row-level
 * security is on with no policy, so only the platform's system transactions reach it.
 */
export const licenseChanges = pgTable(
  'license_changes',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: text('tenant').notNull(),
    locked: boolean('locked').notNull(),
    changedBy: text('changed_by').notNull(),
    requestId: text('request_id'),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [tenantPrimaryKey(t), index('license_changes_tenant_idx').on(t.tenant, t.changedAt)],
).enableRLS();
