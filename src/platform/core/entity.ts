import { getTableColumns, getTableName, type SQL } from 'drizzle-orm';
import { type AnyPgColumn, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { type FilterFields, filterFieldOf } from './db/fields.ts';
import { numberedId } from './db/keys.ts';
import { tenantColumn } from './db/tenancy.ts';
import type { Ctx, EntityDeclaration, EntityOptions, EntityRow } from './declarations.ts';
import { type ExportTarget, exportTargetOf } from './export-target.ts';
import type { ImportTarget } from './import-target.ts';
import { DateTime, Type } from './schema.ts';
import { MAX_INTEGER } from './storable.ts';

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

/** Why the entity routes do not serve a `create` (a POST that adds) or a `change` (PUT, PATCH, DELETE). */
export function refusal(entity: EntityDeclaration, write: 'create' | 'change'): string | undefined {
  return entity.refuses.writes ?? (write === 'create' ? entity.refuses.creates : undefined);
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
  for (const column of Object.keys(options.references ?? {})) {
    if (!columns[column])
      throw new Error(`Entity ${options.name}: reference ${column} has no column in its table`);
  }
  const filterFields: FilterFields = {};
  for (const [key, column] of Object.entries(columns)) {
    if (key !== 'tenant') filterFields[key] = filterFieldOf(column);
  }
  return {
    name: options.name,
    table: options.table,
    fields: options.fields,
    idType,
    naturalKey: options.naturalKey ?? [],
    uniqueKeys: options.uniqueKeys ?? {},
    description: options.description,
    visibility: options.visibility ?? 'PRIVATE',
    subjects: options.subjects ?? [],
    children: options.children ?? {},
    hooks: options.hooks ?? {},
    refuses: options.refuses ?? {},
    references: options.references ?? {},
    schema: Type.Object({ id: Id, ...props, ...AuditSchema }, { title: options.name }),
    // Named apart from the record (one name per shape in the documents: http/records.ts).
    input: Type.Object({ ...props, id: Type.Optional(Id) }, { title: `${options.name}Input` }),
    patch: Type.Object({ ...optional, id: Type.Optional(Id) }, { title: `${options.name}Patch` }),
    filterFields,
    writable,
    tableName: getTableName(options.table),
  };
}

// ── what the entity engine (entities/engine.ts) serves, as the HTTP routes reach it ──

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 1000;
export const MAX_BULK = 1000;
/** The last page index: the row offset (page × size) stays an exact integer, far inside int64. */
export const MAX_PAGE_INDEX = Math.floor(MAX_INTEGER / MAX_PAGE_SIZE);

export interface ListQuery {
  /** The page index (spec: `offset` as in recPageRequest), from 0. */
  offset?: number;
  size?: number;
  filter?: string;
  orderby?: string;
}

/** The operations of spec 000 §2.3 on one entity; `links` are a child's parent columns. */
export interface EntityOperations {
  readonly decl: EntityDeclaration;
  /** An id from the path: a malformed one is simply not found, like another tenant's. */
  parseId(raw: string): string | number;
  get(ctx: Ctx, id: string | number, extra?: SQL): Promise<EntityRow>;
  list(
    ctx: Ctx,
    query: ListQuery,
    extra?: SQL | (() => Promise<SQL>),
  ): Promise<{ rows: EntityRow[]; total: number }>;
  create(ctx: Ctx, body: Record<string, unknown>, links?: Record<string, unknown>): Promise<EntityRow>;
  update(
    ctx: Ctx,
    id: string | number,
    body: Record<string, unknown>,
    mode: 'put' | 'patch',
    extra?: SQL,
    links?: Record<string, unknown>,
  ): Promise<EntityRow>;
  remove(ctx: Ctx, id: string | number, extra?: SQL): Promise<void>;
  bulk(ctx: Ctx, bodies: Record<string, unknown>[], links?: Record<string, unknown>): Promise<EntityRow[]>;
}

/** The import target of a generic entity: its table, its fields, its natural key. */
export function importTargetOf(entity: EntityDeclaration): ImportTarget {
  if (entity.naturalKey.length === 0)
    throw new Error(`Entity ${entity.name} has no natural key to import by`);
  return { table: entity.table, row: entity.fields, naturalKey: entity.naturalKey };
}

/** The export target of a generic entity: its id, fields and audit fields. */
export function exportTargetOfEntity(entity: EntityDeclaration): ExportTarget {
  return exportTargetOf(entity.table, ['id', ...entity.writable], {
    ...(entity.naturalKey.length ? { key: entity.naturalKey } : {}),
  });
}
