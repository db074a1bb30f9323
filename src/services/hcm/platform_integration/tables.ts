import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenantColumn, tenantIsolation } from '../../../platform/core/db/tenancy.ts';

/** Entities saved by integrationSaveBatch, one row per (service, collection, id). */
export const integrationEntities = pgTable(
  'integration_entities',
  {
    tenant: tenantColumn(),
    serviceName: text('service_name').notNull(),
    collectionName: text('collection_name').notNull(),
    entityId: text('entity_id').notNull(),
    className: text('class_name').notNull(),
    data: jsonb('data').notNull(),
    /** 1 on first save, +1 on each later save of the same id. */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenant, t.serviceName, t.collectionName, t.entityId] }),
    index('integration_entities_class_idx').on(t.tenant, t.className),
    tenantIsolation(t.tenant),
  ],
);
