import { getTableName, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../core/db/database.ts';
import type { TenantTable } from '../core/db/types.ts';

// An import batch in one statement (docs/performance.md (g)): the batch's values go as one array
// per column (14 bound parameters for a Pessoa batch, not 14,000), and
//   insert into <table> (<columns>, <audit>) select u.c0, ..., $audit from unnest($1::text[], ...)
//   as u(c0, ...) on conflict (tenant, <natural key>) do update set <columns given> = excluded...
// merges them. Building the INSERT of a batch with drizzle (14,000 bound values, each checked and
// encoded) was most of an import's time in Node; the arrays cost a fraction of it, and PostgreSQL
// reads them about as fast as COPY reads its text, with no staging table to create, fill and
// empty (a COPY into a temporary table, then the same merge, measured slower: the table's
// create-if-not-exists and the COPY's own round trips cost more than the arrays). The conflict
// target, the columns updated, the tenant and the id (their column defaults) and the numbering
// triggers are those of the INSERT it replaces. The same statement runs on the embedded database.

export interface MergeBatch {
  table: TenantTable;
  /** The table's columns by property name. */
  columns: Record<string, AnyPgColumn>;
  rows: Array<Record<string, unknown>>;
  naturalKey: string[];
  /** Update what exists (else keep it). */
  update: boolean;
  /** Audit values of every row (property name to value), when the table has audit columns. */
  audit: Record<string, unknown> | undefined;
  /** The audit properties an update sets (lastModifiedBy, lastModifiedDate). */
  auditOnUpdate: string[];
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Merges the batch in one statement, or one per set of the given properties that have a column
 * default (a file's rows usually all give the same). A row that leaves out a column without a
 * default writes NULL there, as the INSERT it replaces did (DEFAULT, which is NULL for such a
 * column); one that leaves out a column with a default gets the default on insert and keeps the
 * column's value on update, so rows are grouped by those.
 */
export async function mergeBatch(tx: Tx, batch: MergeBatch): Promise<void> {
  const given = new Set<string>();
  const groups = new Map<string, Array<Record<string, unknown>>>();
  for (const row of batch.rows) {
    const withDefault: string[] = [];
    for (const name of Object.keys(row)) {
      given.add(name);
      if (batch.columns[name]!.hasDefault) withDefault.push(name);
    }
    const signature = withDefault.sort().join(',');
    const group = groups.get(signature);
    if (group) group.push(row);
    else groups.set(signature, [row]);
  }
  const plain = [...given].filter((name) => !batch.columns[name]!.hasDefault).sort();
  for (const [signature, rows] of groups)
    await mergeGroup(tx, batch, [...plain, ...(signature ? signature.split(',') : [])], rows);
}

async function mergeGroup(
  tx: Tx,
  batch: MergeBatch,
  names: string[],
  rows: Array<Record<string, unknown>>,
): Promise<void> {
  const columns = names.map((n) => batch.columns[n]!);
  const audit = Object.entries(batch.audit ?? {});
  const target = [...columns.map((c) => c.name), ...audit.map(([k]) => batch.columns[k]!.name)];
  // One array per column, in the column's type; unnest turns them back into rows.
  const arrays: SQL[] = columns.map((column, i) => {
    const values = rows.map((row) => {
      const value = row[names[i]!];
      return value === null || value === undefined ? null : (column.mapToDriverValue(value) ?? null);
    });
    return sql`${sql.param(values)}::${sql.raw(column.getSQLType())}[]`;
  });
  const selected: SQL[] = [
    ...columns.map((_, i) => sql.raw(`u.c${i}`)),
    ...audit.map(([k, v]) => {
      const column = batch.columns[k]!;
      return sql`${column.mapToDriverValue(v)}::${sql.raw(column.getSQLType())}`;
    }),
  ];
  const key = ['tenant', ...batch.naturalKey].map((k) => quote(batch.columns[k]!.name)).join(', ');
  const updated = [
    ...names.filter((n) => !batch.naturalKey.includes(n)),
    ...(batch.audit ? batch.auditOnUpdate : []),
  ].map((n) => quote(batch.columns[n]!.name));
  const onConflict =
    batch.update && updated.length
      ? `do update set ${updated.map((c) => `${c} = excluded.${c}`).join(', ')}`
      : 'do nothing';
  const into = `insert into ${quote(getTableName(batch.table))} (${target.map(quote).join(', ')}) select `;
  const alias = `) as u(${columns.map((_, i) => `c${i}`).join(', ')}) on conflict (${key}) ${onConflict}`;
  await tx.execute(
    sql`${sql.raw(into)}${sql.join(selected, sql`, `)} from unnest(${sql.join(arrays, sql`, `)}${sql.raw(alias)}`,
  );
}
