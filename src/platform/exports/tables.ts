import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../core/db/tenancy.ts';

/** One export: what it reads, its progress and its file. */
export const exports = pgTable(
  'exports',
  {
    /** The id of the job that runs it (the `exportJobId` clients hold). */
    id: uuid('id').notNull(),
    tenant: tenantColumn(),
    service: text('service').notNull(),
    kind: text('kind').notNull(),
    format: text('format').notNull(),
    /** The filter expression, as given. */
    filter: text('filter'),
    /** The fields written, in order. */
    fields: jsonb('fields').$type<string[]>().notNull(),
    delimiter: text('delimiter').notNull().default(','),
    /** queued → running → done | failed */
    state: text('state').notNull().default('queued'),
    /** Rows written so far (the whole count once done). */
    rows: integer('rows').notNull().default(0),
    /** The file's key in the tenant's blob store, once written. */
    fileKey: text('file_key'),
    size: bigint('size', { mode: 'number' }),
    sha256: text('sha256'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    index('exports_tenant_idx').on(t.tenant, t.createdAt),
    tenantIsolation(t.tenant),
  ],
);
