import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import {
  countRows,
  type PageOptions,
  type RowsOptions,
  type Source,
  selectPage,
  selectRows,
} from './reads.ts';
import type { Statement, Values } from './statement.ts';
import type { TenantTable, Tx } from './types.ts';
import { Where } from './where.ts';

// The store layer: every read and write of a tenant-owned table goes through here, which adds the
// tenant to the WHERE clause and to inserted rows in this one place. Row-level security (tenancy.ts)
// is the second wall behind it.

export type { TenantTable } from './types.ts';

export class Store {
  constructor(
    readonly tx: Tx,
    readonly tenant: string,
  ) {}

  /** The tenant condition, joined with `where` when given (a tenant table's, or its search view's). */
  scope(table: { tenant: PgColumn }, where?: SQL): SQL {
    const own = eq(table.tenant, this.tenant);
    return where ? (and(own, where) as SQL) : own;
  }

  /**
   * The tenant's rows of `table` that match `where`; with `forUpdate`, locked until commit. On a server
   * each shape of `where` is a named statement, parsed once per connection (reads.ts).
   */
  select<T extends TenantTable>(
    table: T,
    where?: SQL,
    options: { forUpdate?: boolean } = {},
  ): Promise<T['$inferSelect'][]> {
    return selectRows<T['$inferSelect']>(this.tx, table as PgTable & T, this.scope(table, where), options);
  }

  /**
   * The tenant's rows of `source` (a tenant table or a view of one) that `where` selects, in the
   * order and page asked: for reads whose filters change with every request (reads.ts). Every
   * column, keyed as `select()` keys them.
   */
  rows<R extends Record<string, unknown>>(
    source: Source & { tenant: PgColumn },
    where?: SQL,
    options?: RowsOptions,
  ): Promise<R[]> {
    return selectRows<R>(this.tx, source, this.scope(source, where), options);
  }

  /**
   * A page of the tenant's rows of `source` that `where` selects, and how many there are in all
   * (reads.ts). A search's filters as a shape (where.ts) are rendered once per shape.
   */
  page<R extends Record<string, unknown>>(
    source: Source & { tenant: PgColumn },
    where: SQL | Where | undefined,
    options: PageOptions,
  ): Promise<{ rows: R[]; total: number }> {
    const scoped =
      where instanceof Where
        ? where.within('tenant', this.tenant, (tenant) => eq(source.tenant, tenant))
        : this.scope(source, where);
    return selectPage<R>(this.tx, source, scoped, options);
  }

  /** How many of the tenant's rows of `source` `where` selects (reads.ts). */
  count(source: Source & { tenant: PgColumn }, where?: SQL): Promise<number> {
    return countRows(this.tx, source, this.scope(source, where));
  }

  /**
   * Runs a statement built once (statement.ts) with `values`, the tenant being this store's: the
   * statement's `scope(...)` conditions read it.
   */
  run<R>(statement: Statement<R>, values: Values = {}): Promise<R> {
    return statement.run(this.tx, { ...values, tenant: this.tenant });
  }

  insert<T extends TenantTable>(table: T, rows: Omit<T['$inferInsert'], 'tenant'>[]) {
    return this.tx
      .insert(table)
      .values(rows.map((row) => ({ ...row, tenant: this.tenant })) as T['$inferInsert'][]);
  }

  update<T extends TenantTable>(table: T, set: PgUpdateSetSource<T>, where?: SQL) {
    return this.tx.update(table).set(set).where(this.scope(table, where));
  }

  delete<T extends TenantTable>(table: T, where?: SQL) {
    return this.tx.delete(table).where(this.scope(table, where));
  }
}
