import {
  bigint,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
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
    /**
     * The PostgreSQL store's version holding the bytes (postgres.ts): switched with the facts in
     * one statement, so the facts and the bytes a reader gets are always one upload's. Null in the
     * folder and S3 stores, which replace a key's bytes in place.
     */
    version: uuid('version'),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.key] }), tenantIsolation(t.tenant)],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * The bytes of the PostgreSQL store (postgres.ts): one row per chunk (at most CHUNK_BYTES) of an
 * upload, in order. Each upload writes its own version; the key's `blobs.version` names the one that
 * is its content.
 */
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

/**
 * Versions of the PostgreSQL store that no key names any more, and since when: a trigger on `blobs`
 * (drizzle/0037) adds the version a row held when the row is replaced or deleted. Downloads begun
 * before still read it; its chunks are deleted once it has been replaced for a while (prune).
 */
export const blobReplaced = pgTable(
  'blob_replaced',
  {
    tenant: tenantColumn(),
    version: uuid('version').notNull(),
    replacedAt: timestamp('replaced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenant, t.version] }),
    index('blob_replaced_at_idx').on(t.replacedAt),
    tenantIsolation(t.tenant),
  ],
);

/** Platform secrets shared by every node (e.g. the key that signs blob URLs). */
export const platformSecrets = pgTable('platform_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}).enableRLS();
