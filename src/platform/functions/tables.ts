import { integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../core/db/tenancy.ts';
import { entityColumns } from '../core/entity.ts';

// The tenant's user functions (docs/functions.md). They live in the platform, not in the
// platform/functions service, because the bridge reads them on every call of a bound primitive
// (core/context.ts `execute`): services import the platform, never the other way round.

/** Where a function stands: written, run by the bridge on every call of its primitive, or set aside. */
export const FUNCTION_STAGES = ['DRAFT', 'ACTIVE', 'DISABLED'] as const;
export type FunctionStage = (typeof FUNCTION_STAGES)[number];

/** A function of the tenant, bound to one primitive (`domainName/serviceName/primitiveName`). */
export const userFunctions = pgTable(
  'user_functions',
  {
    ...entityColumns(),
    name: text('name').notNull(),
    domainName: text('domain_name').notNull(),
    serviceName: text('service_name').notNull(),
    primitiveName: text('primitive_name').notNull(),
    stage: text('stage').$type<FunctionStage>().notNull().default('DRAFT'),
    description: text('description'),
    timeoutMs: integer('timeout_ms').notNull().default(200),
    memoryLimitMb: integer('memory_limit_mb').notNull().default(16),
    /** The version the bridge runs: the latest uploaded one; null before any upload. */
    currentVersion: integer('current_version'),
    /** The counter row that numbers versions: taken under this row's lock (never read-then-write). */
    lastVersion: integer('last_version').notNull().default(0),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('user_functions_name').on(t.tenant, t.name),
    // One function per primitive: the bridge runs at most one on each call.
    uniqueIndex('user_functions_primitive').on(t.tenant, t.domainName, t.serviceName, t.primitiveName),
    tenantIsolation(t.tenant),
  ],
);

export const VERSION_STATES = ['PENDING', 'UPLOADED'] as const;

/** One uploaded (or announced, through requestFunctionUpload) version of a function's code. */
export const userFunctionVersions = pgTable(
  'user_function_versions',
  {
    tenant: tenantColumn(),
    /** The version's own id: its uploadId, and the last part of its blob key. */
    id: uuid('id').notNull().defaultRandom(),
    functionId: uuid('function_id').notNull(),
    version: integer('version').notNull(),
    fileName: text('file_name').notNull(),
    blobKey: text('blob_key').notNull(),
    state: text('state').$type<(typeof VERSION_STATES)[number]>().notNull(),
    size: integer('size'),
    sha256: text('sha256'),
    createdBy: text('created_by').notNull(),
    createdDate: timestamp('created_date', { withTimezone: true }).notNull().defaultNow(),
    uploadedDate: timestamp('uploaded_date', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('user_function_versions_number').on(t.tenant, t.functionId, t.version),
    tenantReference('user_function_versions_function', t, t.functionId, userFunctions).onDelete('cascade'),
    tenantIsolation(t.tenant),
  ],
);
