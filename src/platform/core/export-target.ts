import { getTableColumns, getTableName, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type FieldType, type FilterFields, filterFieldOf } from './db/fields.ts';
import type { TenantTable } from './db/store.ts';

// What an export reads (docs/exports.md): a service declares, per exportable kind, where the rows
// come from, the fields of one row of the file (a column, or an expression such as the natural
// code of a referenced record), and the unique key the rows are paged by. The platform's export
// job does the rest: keyset-paginated batches, the file in the blob store, the download URL.

export interface ExportField {
  /** The value, in SQL over `from`: a column, or e.g. a scalar subquery for a referenced code. */
  sql: SQL | AnyPgColumn;
  /** How the value is written and filtered: date-times as ISO 8601 UTC, dates as YYYY-MM-DD. */
  type: FieldType;
  /** What an export filter compares, when not `sql` (e.g. a JSON list's text, so `containing` works). */
  filter?: SQL;
}

export interface ExportTarget {
  /** The FROM clause: a table (with its joins), or a subquery with an alias. */
  from: SQL;
  /** The tenant column of `from`: the rows are scoped by it (row-level security is the second wall). */
  tenant: SQL | AnyPgColumn;
  /**
   * Unique, not-null columns of `from`: the order of the file and the keyset pagination. Best a
   * unique index that starts with the tenant (a natural key): each batch is then one index range.
   */
  key: Array<SQL | AnyPgColumn>;
  /** Rows of `from` that belong to this kind (e.g. only branch executions). */
  where?: SQL;
  /** The fields of one row of the file, in file order (also the fields an export filter may name). */
  fields: Record<string, ExportField>;
}

/** The field of a column, typed from the column; JSON and lists filtered as their text (fields.ts). */
export function fieldOf(column: AnyPgColumn): ExportField {
  const { column: filter, type } = filterFieldOf(column);
  return { sql: column, type, ...(filter === column ? {} : { filter: filter as SQL }) };
}

/**
 * The export target of a table: the named columns (by property name), plus `extra` fields (e.g.
 * referenced codes), in the order given by `order` (the names of both). Paged by `key` (property
 * names of a unique key: the natural key, whose index starts with the tenant), by id otherwise.
 */
export function exportTargetOf(
  table: TenantTable,
  order: string[],
  options: { extra?: Record<string, ExportField>; where?: SQL; key?: string[] } = {},
): ExportTarget {
  const extra = options.extra ?? {};
  const where = options.where;
  const columns = getTableColumns(table) as Record<string, AnyPgColumn>;
  const fields: Record<string, ExportField> = {};
  for (const name of order) {
    const field = extra[name] ?? (columns[name] ? fieldOf(columns[name]) : undefined);
    if (!field) throw new Error(`Export of ${getTableName(table)}: no column or field ${name}`);
    fields[name] = field;
  }
  const key = (options.key ?? ['id']).map((name) => columns[name]);
  if (key.length === 0 || key.some((c) => !c))
    throw new Error(`Export of ${getTableName(table)}: no key column ${(options.key ?? ['id']).join(', ')}`);
  return {
    from: sql`${table}`,
    tenant: columns.tenant!,
    key: key as AnyPgColumn[],
    ...(where ? { where } : {}),
    fields,
  };
}

/** The filter language's fields of an export: its own fields, by name. */
export function filterFieldsOf(target: ExportTarget): FilterFields {
  const out: FilterFields = {};
  for (const [name, field] of Object.entries(target.fields))
    out[name] = { column: field.filter ?? field.sql, type: field.type };
  return out;
}
