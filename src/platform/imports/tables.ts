import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../core/db/tenancy.ts';

/** One import: its file, its progress and its outcome. `processed` is also the resume cursor. */
export const imports = pgTable(
  'imports',
  {
    /** The id of the job that runs it (the `importJobId` clients hold). */
    id: uuid('id').notNull(),
    tenant: tenantColumn(),
    service: text('service').notNull(),
    kind: text('kind').notNull(),
    fileKey: text('file_key').notNull(),
    format: text('format').notNull(),
    options: jsonb('options').notNull().default(sql`'{}'::jsonb`),
    /** queued → running → done | failed */
    state: text('state').notNull().default('queued'),
    size: bigint('size', { mode: 'number' }).notNull(),
    bytesRead: bigint('bytes_read', { mode: 'number' }).notNull().default(0),
    processed: integer('processed').notNull().default(0),
    succeeded: integer('succeeded').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    index('imports_tenant_idx').on(t.tenant, t.createdAt),
    tenantIsolation(t.tenant),
  ],
);

/** Rows an import could not take, with the field and the reason (at most MAX_STORED_ERRORS each). */
export const importErrors = pgTable(
  'import_errors',
  {
    tenant: tenantColumn(),
    importId: uuid('import_id').notNull(),
    row: integer('row').notNull(),
    /** The place of the error among its row's errors, from 0 (a row may break several rules). */
    seq: integer('seq').notNull(),
    field: text('field'),
    message: text('message').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.importId, t.row, t.seq] }), tenantIsolation(t.tenant)],
);
