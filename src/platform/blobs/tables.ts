import { bigint, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenantColumn, tenantIsolation } from '../core/db/tenancy.ts';

/** What the blob store holds, per tenant and key: the bytes live in the store, the facts here. */
export const blobs = pgTable(
  'blobs',
  {
    tenant: tenantColumn(),
    key: text('key').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    contentType: text('content_type').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.key] }), tenantIsolation(t.tenant)],
);

/** Platform secrets shared by every node (e.g. the key that signs blob URLs). */
export const platformSecrets = pgTable('platform_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}).enableRLS();
