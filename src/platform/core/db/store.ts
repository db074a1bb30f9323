import { and, eq, type SQL } from 'drizzle-orm';
import type { PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Statement, Values } from './statement.ts';
import type { TenantTable, Tx } from './types.ts';

// The store layer: every read and write of a tenant-owned table goes through here, which adds the
// tenant to the WHERE clause and to inserted rows in this one place. Row-level security (tenancy.ts)
// is the second wall behind it.

export type { TenantTable } from './types.ts';

export class Store {
  constructor(
    readonly tx: Tx,
    readonly tenant: string,
  ) {}

  /** The tenant condition, joined with `where` when given. */
  scope(table: TenantTable, where?: SQL): SQL {
    const own = eq(table.tenant, this.tenant);
    return where ? (and(own, where) as SQL) : own;
  }

  /** The tenant's rows of `table` that match `where`; with `forUpdate`, locked until commit. */
  select<T extends TenantTable>(table: T, where?: SQL, options: { forUpdate?: boolean } = {}) {
    const query = this.tx
      .select()
      .from(table as PgTable)
      .where(this.scope(table, where));
    return (options.forUpdate ? query.for('update') : query) as unknown as Promise<T['$inferSelect'][]>;
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
