import { bigint, uuid } from 'drizzle-orm/pg-core';
import { entityColumns } from '../../../../platform/core/entity.ts';

// yms/patio's tables (docs/patio.md "The yard model"). Property names are the JSON field names:
// the entity engine and the queries read them. Ids are UUIDs (DESIGN.md "Time, ids, text"); every
// table has a unique index on (tenant, natural key) and indexes on the columns filtered or sorted.
// Every reference is (tenant, ref) → (tenant, id) (platform/db/keys.ts): the entity hooks check
// references first and answer 422 naming the field; behind them, the composite foreign key holds a
// row to its own tenant's rows (a foreign key check does not see row-level security).
// One file per aggregate in this folder; these are the column helpers they share.

export const int64 = (name: string) => bigint(name, { mode: 'number' });
export const ref = (name: string) => uuid(name);
/** The id (a UUID) and audit columns of an entity table, with the id typed as the string it is. */
export function entity() {
  const { id: _id, ...audit } = entityColumns('uuid');
  return { id: uuid('id').notNull().defaultRandom(), ...audit };
}
