import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigint, foreignKey, primaryKey } from 'drizzle-orm/pg-core';

// The keys of tenant data (DESIGN.md "Persistence"; docs/platform.md "Storage and tenant
// isolation"). Every primary and unique key holds the tenant, and every reference between two
// tenant tables is (tenant, ref) → (tenant, id): what one tenant writes can neither collide with,
// block nor reveal another's rows, nor point at them. Integer ids are numbered per tenant and
// table, so no tenant can exhaust or shift another's numbers.

type Keyed = { tenant: AnyPgColumn; id: AnyPgColumn };

/** The primary key of a tenant table: (tenant, id). */
export const tenantPrimaryKey = (t: Keyed) => primaryKey({ columns: [t.tenant, t.id] });

/**
 * A reference within the tenant: (tenant, `column`) → (tenant, id) of `target`. A null `column`
 * refers to nothing and is not checked (MATCH SIMPLE). Give `onDelete` 'cascade' or leave the
 * default: 'set null' would null the tenant column too.
 */
export const tenantReference = (
  name: string,
  t: { tenant: AnyPgColumn },
  column: AnyPgColumn,
  target: Keyed,
) => foreignKey({ name, columns: [t.tenant, column], foreignColumns: [target.tenant, target.id] });

const COUNTER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * An int64 id numbered per tenant and table: `ponte_next_id('<table>')` takes the next number of
 * the transaction's tenant from its row in `id_counters` (drizzle/0021_id_numbering_functions.sql),
 * and the table's triggers (`ponte_number_ids`, drizzle/0023) move that counter past ids given
 * explicitly. `table` is the table's own name: a new table with such an id also needs
 * `select ponte_number_ids('<table>')` in its migration (keys.test.ts fails without it).
 */
export function numberedId(table: string) {
  if (!COUNTER.test(table)) throw new Error(`numberedId: ${JSON.stringify(table)} is not a table name`);
  return bigint('id', { mode: 'number' })
    .notNull()
    .default(sql.raw(`ponte_next_id('${table}')`));
}
