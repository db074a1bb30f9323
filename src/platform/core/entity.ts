import { getTableColumns, getTableName, type SQL } from 'drizzle-orm';
import { type AnyPgColumn, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TObject } from 'typebox';
import type { Ctx } from './context.ts';
import type { FieldType, FilterFields } from './db/filter.ts';
import { numberedId } from './db/keys.ts';
import type { TenantTable } from './db/store.ts';
import { tenantColumn } from './db/tenancy.ts';
import type { Visibility } from './registry.ts';
import { DateTime, Type } from './schema.ts';

// Generic entities (spec 000 §2.3), declared once: a drizzle table whose columns are named as the
// entity's JSON fields, and the TypeBox schema of those fields. The engine derives every route,
// the audit fields, the filter fields and the Swagger document from these two.

/**
 * The id and audit columns every entity table starts with (`...entityColumns()`, or
 * `...entityColumns('int64', '<table>')` for an id numbered per tenant in that table). The table
 * declares `tenantPrimaryKey(t)` (db/keys.ts): the id is unique within its tenant only.
 */
export function entityColumns(idType: 'uuid' | 'int64' = 'uuid', table?: string) {
  if (idType === 'int64' && !table)
    throw new Error('entityColumns: an int64 id is numbered per table: name it');
  return {
    id: idType === 'uuid' ? uuid('id').notNull().defaultRandom() : numberedId(table!),
    tenant: tenantColumn(),
    createdBy: text('created_by').notNull(),
    createdDate: timestamp('created_date', { withTimezone: true }).notNull().defaultNow(),
    lastModifiedBy: text('last_modified_by').notNull(),
    lastModifiedDate: timestamp('last_modified_date', { withTimezone: true }).notNull().defaultNow(),
  };
}

export const AUDIT_FIELDS = ['createdBy', 'createdDate', 'lastModifiedBy', 'lastModifiedDate'] as const;

export const AuditSchema = {
  createdBy: Type.Optional(Type.String()),
  createdDate: Type.Optional(DateTime()),
  lastModifiedBy: Type.Optional(Type.String()),
  lastModifiedDate: Type.Optional(DateTime()),
};

export type EntityRow = Record<string, unknown> & { id: string | number };

export interface EntityHooks {
  /** Checks (and may adjust) the entity about to be written; `previous` is absent on create. */
  beforeSave?: (ctx: Ctx, next: Record<string, unknown>, previous: EntityRow | undefined) => Promise<void>;
  beforeDelete?: (ctx: Ctx, row: EntityRow) => Promise<void>;
  /**
   * The rows the caller may reach, ANDed to every read, update and delete (and to the parent of a
   * child collection): e.g. a partner's key sees only its partner's agendas; others are 404.
   */
  rowScope?: (ctx: Ctx) => Promise<SQL | undefined>;
}

export interface EntityOptions {
  /** The record name of the spec (`moeda`, `agenda`); it is the path segment. */
  name: string;
  table: TenantTable;
  /** The entity's own fields as the API shows them (not id, not audit fields). */
  fields: TObject;
  idType?: 'uuid' | 'int64';
  /** Fields unique within a tenant: a duplicate is 409; imports upsert by them. */
  naturalKey?: string[];
  description?: string;
  visibility?: Visibility;
  /** Kinds of key subject whose `public` keys may use this PRIVATE entity (its `rowScope` hook restricts them). */
  subjects?: readonly string[];
  /** Child collections: `/<name>/{parentId}/<child>`; `parentField` is the child's link column. */
  children?: Record<string, { entity: EntityDeclaration; parentField: string }>;
  hooks?: EntityHooks;
}

export interface EntityDeclaration
  extends Required<Omit<EntityOptions, 'description' | 'children' | 'hooks'>> {
  description: string | undefined;
  children: Record<string, { entity: EntityDeclaration; parentField: string }>;
  hooks: EntityHooks;
  /** Output: id, fields and audit fields. */
  schema: TObject;
  /** Input of POST and PUT: the fields, id optional (audit fields are ignored if sent). */
  input: TObject;
  /** Input of PATCH: every field optional. */
  patch: TObject;
  /** JSON field → column, for the filter language and orderby. */
  filterFields: FilterFields;
  /** The JSON fields stored in the table (id and audit fields excluded). */
  writable: string[];
  tableName: string;
}

export function fieldType(column: AnyPgColumn): FieldType {
  switch (column.columnType) {
    case 'PgUUID':
      return 'uuid';
    case 'PgDateString':
    case 'PgDate':
      return 'date';
    case 'PgTimestamp':
    case 'PgTimestampString':
      return 'datetime';
    case 'PgBoolean':
      return 'boolean';
    case 'PgInteger':
    case 'PgBigInt53':
    case 'PgBigInt64':
    case 'PgSmallInt':
    case 'PgSerial':
    case 'PgBigSerial53':
      return 'integer';
    case 'PgDoublePrecision':
    case 'PgReal':
    case 'PgNumeric':
      return 'number';
    default:
      return 'string';
  }
}

export function defineEntity(options: EntityOptions): EntityDeclaration {
  const idType = options.idType ?? 'uuid';
  const columns = getTableColumns(options.table) as Record<string, AnyPgColumn>;
  const writable = Object.keys(options.fields.properties);
  for (const field of writable) {
    if (!columns[field]) throw new Error(`Entity ${options.name}: field ${field} has no column in its table`);
  }
  const Id = idType === 'uuid' ? Type.String({ format: 'uuid' }) : Type.Integer({ format: 'int64' });
  const props = options.fields.properties as Record<string, never>;
  // PATCH changes only what is sent: a field's default must not fill in what was left out.
  const withoutDefault = (schema: Record<string, unknown>) => {
    const { default: _default, ...rest } = schema;
    return rest as never;
  };
  const optional = Object.fromEntries(
    Object.entries(props).map(([k, v]) => [k, Type.Optional(withoutDefault(v as Record<string, unknown>))]),
  );
  const filterFields: FilterFields = {};
  for (const [key, column] of Object.entries(columns)) {
    if (key !== 'tenant') filterFields[key] = { column, type: fieldType(column) };
  }
  return {
    name: options.name,
    table: options.table,
    fields: options.fields,
    idType,
    naturalKey: options.naturalKey ?? [],
    description: options.description,
    visibility: options.visibility ?? 'PRIVATE',
    subjects: options.subjects ?? [],
    children: options.children ?? {},
    hooks: options.hooks ?? {},
    schema: Type.Object({ id: Id, ...props, ...AuditSchema }, { title: options.name }),
    input: Type.Object({ ...props, id: Type.Optional(Id) }),
    patch: Type.Object({ ...optional, id: Type.Optional(Id) }),
    filterFields,
    writable,
    tableName: getTableName(options.table),
  };
}
