import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

// The fields a filter (filter.ts) may name: each a column or SQL expression with the type its
// literals are read as. Entities derive theirs from their table's columns (fieldType).

export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'datetime' | 'uuid';
export interface FilterField {
  column: SQL | AnyPgColumn;
  type: FieldType;
}
export type FilterFields = Record<string, FilterField>;

/** The filter type of a column, from its drizzle column type. */
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
