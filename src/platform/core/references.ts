import { eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Ctx, EntityDeclaration, EntityRow } from './declarations.ts';
import { errors } from './errors.ts';

// References across services (EntityOptions.references; docs/platform.md "References across
// services"): a column naming another service's record has no foreign key, so the engine keeps the
// promise one would. A write names a record of the caller's tenant, read FOR KEY SHARE: a delete of
// that record (which locks it FOR UPDATE first) waits for the write to commit, then sees the row
// naming it. A delete finds no row of any service naming the record, or is refused.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const columnOf = (entity: EntityDeclaration, name: string) =>
  (entity.table as unknown as Record<string, AnyPgColumn>)[name]!;

/** The records `next` names that `previous` did not name exist in the tenant, locked until commit. */
export async function requireReferenced(
  ctx: Ctx,
  decl: EntityDeclaration,
  next: Record<string, unknown>,
  previous?: Record<string, unknown>,
): Promise<void> {
  for (const [column, address] of Object.entries(decl.references)) {
    const value = next[column];
    if (value === null || value === undefined || (previous && value === previous[column])) continue;
    const target = ctx.platform.registry.entity(address)!;
    const missing = () =>
      errors.unprocessable(
        `${column} ${String(value)}: ${target.name} does not exist (${serviceOf(address)})`,
      );
    if (target.idType === 'uuid' && !UUID.test(String(value))) throw missing();
    const id = columnOf(target, 'id');
    const [found] = await ctx.tx
      .select({ id })
      .from(target.table)
      .where(ctx.store.scope(target.table, eq(id, value)) as SQL)
      .for('key share');
    if (!found) throw missing();
  }
}

/** No row of any service names `row` (the caller holds it FOR UPDATE): 422 naming the first that does. */
export async function requireUnreferenced(ctx: Ctx, decl: EntityDeclaration, row: EntityRow): Promise<void> {
  for (const ref of ctx.platform.registry.referencesTo(decl)) {
    const [named] = await ctx.tx
      .select({ one: sql<number>`1` })
      .from(ref.entity.table)
      .where(ctx.store.scope(ref.entity.table, eq(columnOf(ref.entity, ref.column), row.id)))
      .limit(1);
    if (named)
      throw errors.unprocessable(
        `This ${decl.name} is still referred to by other records (${ref.service} ${ref.entity.name}.${ref.column}): change or remove them first`,
      );
  }
}

const serviceOf = (address: string) => address.split('/').slice(0, 2).join('/');
