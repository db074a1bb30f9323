import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

// The fields a filter (filter.ts) may name: each a column or SQL expression with the type its
// literals are read as. Entities derive theirs from their table's columns (filterFieldOf).

export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'datetime' | 'uuid';
export interface FilterField {
  column: SQL | AnyPgColumn;
  type: FieldType;
}
export type FilterFields = Record<string, FilterField>;

const BY_COLUMN_TYPE: Record<string, FieldType> = {
  PgText: 'string',
  PgVarchar: 'string',
  PgChar: 'string',
  PgEnumColumn: 'string',
  PgUUID: 'uuid',
  PgDateString: 'date',
  PgDate: 'date',
  PgTimestamp: 'datetime',
  PgTimestampString: 'datetime',
  PgBoolean: 'boolean',
  PgInteger: 'integer',
  PgBigInt53: 'integer',
  PgBigInt64: 'integer',
  PgSmallInt: 'integer',
  PgSerial: 'integer',
  PgBigSerial53: 'integer',
  PgDoublePrecision: 'number',
  PgReal: 'number',
  PgNumeric: 'number',
};

/** A custom column's SQL type (`customType`'s dataType), as the filter reads it. */
const BY_SQL_TYPE: Array<[RegExp, FieldType]> = [
  [/^(text|varchar|character varying|char|character)\b/, 'string'],
  [/^uuid$/, 'uuid'],
  [/^date$/, 'date'],
  [/^timestamp\b/, 'datetime'],
  [/^boolean$/, 'boolean'],
  [/^(integer|bigint|smallint|int[248]?)$/, 'integer'],
  [/^(double precision|real|numeric|decimal)\b/, 'number'],
];

/** A value with parts (JSON, a list): filtered as its text, as exports filter it. */
const structured = (column: AnyPgColumn) =>
  ['PgJsonb', 'PgJson', 'PgArray'].includes(column.columnType) || /\[\]$/.test(column.getSQLType());

/**
 * The filter type of a column, from its drizzle column type (a custom column's from its SQL type).
 * A column of a type the filter cannot read is a declaration error, found when the service loads.
 */
function fieldType(column: AnyPgColumn): FieldType {
  if (structured(column)) return 'string';
  const type =
    BY_COLUMN_TYPE[column.columnType] ??
    (column.columnType === 'PgCustomColumn'
      ? BY_SQL_TYPE.find(([pattern]) => pattern.test(column.getSQLType()))?.[1]
      : undefined);
  if (!type)
    throw new Error(
      `Column ${column.name} (${column.columnType}, ${column.getSQLType()}) has no filter type (core/db/fields.ts)`,
    );
  return type;
}

/**
 * A column as the filter language names it: JSON and lists as their text (`containing(itens,
 * 'soja')` finds the text in any part; `eq` compares the whole text), every other column as itself.
 */
export function filterFieldOf(column: AnyPgColumn): FilterField {
  return structured(column)
    ? { column: sql`${column}::text`, type: 'string' }
    : { column, type: fieldType(column) };
}
