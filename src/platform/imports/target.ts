import type { TObject } from 'typebox';
import type { TenantTable } from '../db/store.ts';
import type { EntityDeclaration } from '../entities/entity.ts';

// What an import writes to (DESIGN.md "Imports"): a service declares, per importable kind, the
// table its rows are upserted into, the schema of one row of the file, and the natural key that
// identifies a record across imports. The platform's import job does the rest.

export interface ImportTarget {
  /** Rows are upserted here; the table has a unique index on (tenant, ...naturalKey). */
  table: TenantTable;
  /** One row of the file: its JSON field names are the table's property names. */
  row: TObject;
  /** Property names identifying a record; a row with the same key updates it. */
  naturalKey: string[];
  /** Optional pure mapping from a validated row to the values written (derived columns). */
  prepare?: (row: Record<string, unknown>) => Record<string, unknown>;
}

/** The import target of a generic entity: its table, its fields, its natural key. */
export function importTargetOf(entity: EntityDeclaration): ImportTarget {
  if (entity.naturalKey.length === 0)
    throw new Error(`Entity ${entity.name} has no natural key to import by`);
  return { table: entity.table, row: entity.fields, naturalKey: entity.naturalKey };
}
