import { bigint, customType, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * The PostgreSQL store (postgres.ts): which stored copy of a key is current. An upload writes its
 * chunks under a new version and switches this row to it in one transaction, so a reader never sees
 * half a file and a failed upload leaves the previous one in place.
 */
export const blobObjects = pgTable(
  'blob_objects',
  {
    tenant: tenantColumn(),
    key: text('key').notNull(),
    version: uuid('version').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    chunks: integer('chunks').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.key] }), tenantIsolation(t.tenant)],
);

/** The bytes of the PostgreSQL store: one row per chunk (at most CHUNK_BYTES) of a version, in order. */
export const blobChunks = pgTable(
  'blob_chunks',
  {
    tenant: tenantColumn(),
    version: uuid('version').notNull(),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.version, t.seq] }), tenantIsolation(t.tenant)],
);

/** Platform secrets shared by every node (e.g. the key that signs blob URLs). */
export const platformSecrets = pgTable('platform_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}).enableRLS();
