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
     * The upload whose bytes are the key's, in every store (bytes.ts): switched with the facts in one
     * statement, so the facts and the bytes a reader gets are always one upload's. Null in rows
     * written by the folder and S3 stores before drizzle/0039, whose bytes are at the key's own path.
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
 * Versions that no key names any more, and since when: a trigger on `blobs` (drizzle/0037, 0039) adds
 * the version a row held when the row is replaced or deleted. Downloads begun before still read it;
 * its bytes are deleted once it has been replaced for a while (prune.ts). A row that had no version
 * (bytes at the key's own path, written before 0039) is listed with its key in `legacy_key`, under a
 * version made up for the entry.
 */
export const blobReplaced = pgTable(
  'blob_replaced',
  {
    tenant: tenantColumn(),
    version: uuid('version').notNull(),
    replacedAt: timestamp('replaced_at', { withTimezone: true }).notNull().defaultNow(),
    legacyKey: text('legacy_key'),
  },
  (t) => [
    primaryKey({ columns: [t.tenant, t.version] }),
    index('blob_replaced_at_idx').on(t.replacedAt),
    tenantIsolation(t.tenant),
  ],
);

/**
 * Uploads in progress: a row is written before the first byte and deleted in the transaction that
 * commits the upload's facts (or by its discard). A row left behind is an upload whose process died
 * half-way; prune.ts deletes its bytes once it is older than ABANDONED_AFTER_MS.
 */
export const blobUploads = pgTable(
  'blob_uploads',
  {
    tenant: tenantColumn(),
    version: uuid('version').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenant, t.version] }),
    index('blob_uploads_started_at_idx').on(t.startedAt),
    tenantIsolation(t.tenant),
  ],
);

/** Platform secrets shared by every node (e.g. the key that signs blob URLs). */
export const platformSecrets = pgTable('platform_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}).enableRLS();
