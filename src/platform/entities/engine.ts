import { and, asc, eq, getTableName, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { compileFilter, compileOrderBy } from '../core/db/filter.ts';
import { type Statement, statement } from '../core/db/statement.ts';
import type { TenantTable } from '../core/db/types.ts';
import type { Ctx, EntityDeclaration, EntityRow } from '../core/declarations.ts';
import { DEFAULT_PAGE_SIZE, type EntityOperations, type ListQuery, refusal } from '../core/entity.ts';
import { errors } from '../core/errors.ts';
import { requireReferenced, requireUnreferenced } from '../core/references.ts';
import { compactRow } from '../core/rows.ts';

// The one engine behind every entity's routes (spec 000 §2.3): create, read, replace, patch,
// delete, list with filter/orderby/pages, bulk. Hooks let a service add its own rules.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A database error's SQLSTATE and constraint, through drizzle's wrapping. */
function sqlError(err: unknown): { state?: string; constraint?: string } {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  return { state: e?.cause?.code ?? e?.code, constraint: e?.cause?.constraint ?? e?.constraint };
}

type Row = Record<string, unknown>;

/** Each entity table's read by id, built once per process (statement.ts), whatever builds the engine. */
const readById = new WeakMap<TenantTable, Statement<Row[]>>();

function readByIdOf(table: TenantTable): Statement<Row[]> {
  let read = readById.get(table);
  if (!read) {
    const id = (table as unknown as Record<string, AnyPgColumn>).id!;
    read = statement(`ponte_entity_${getTableName(table)}`.slice(0, 63), (b) =>
      b.db
        .select()
        .from(table)
        .where(b.scope(table, eq(id, b.param('id')))),
    );
    readById.set(table, read);
  }
  return read;
}

export class EntityEngine implements EntityOperations {
  private readonly columns: Record<string, AnyPgColumn>;
  private readonly readById: Statement<Row[]>;

  constructor(readonly decl: EntityDeclaration) {
    this.columns = decl.table as unknown as Record<string, AnyPgColumn>;
    this.readById = readByIdOf(decl.table);
  }

  /** An id from the path: a malformed one is simply not found, like another tenant's. */
  parseId(raw: string): string | number {
    if (this.decl.idType === 'uuid') {
      if (!UUID.test(raw)) throw this.notFound(raw);
      return raw.toLowerCase();
    }
    const n = Number(raw);
    if (!/^\d{1,15}$/.test(raw) || !Number.isSafeInteger(n)) throw this.notFound(raw);
    return n;
  }

  notFound(id: string | number): Error {
    return errors.notFound(`${this.decl.name} ${id} not found`);
  }

  /** Strips the tenant and absent (null) values, so the JSON shows only what is set. */
  toEntity(row: Record<string, unknown>): EntityRow {
    return compactRow(row) as EntityRow;
  }

  private byId(id: string | number, extra?: SQL): SQL {
    const cond = eq(this.columns.id!, id);
    return extra ? (and(cond, extra) as SQL) : cond;
  }

  /** `extra` ANDed with the entity's rowScope for this caller (the rows it may reach). */
  private async scoped(ctx: Ctx, extra?: SQL): Promise<SQL | undefined> {
    const scope = await this.decl.hooks.rowScope?.(ctx);
    return scope && extra ? and(extra, scope) : (scope ?? extra);
  }

  async find(
    ctx: Ctx,
    id: string | number,
    extra?: SQL,
    options: { forUpdate?: boolean } = {},
  ): Promise<EntityRow | undefined> {
    const scope = await this.scoped(ctx, extra);
    // The plain read by id (no scope, no lock: every GET of an entity without rowScope) is prepared.
    const [row] =
      scope || options.forUpdate
        ? await ctx.store.select(this.decl.table, this.byId(id, scope), options)
        : await ctx.store.run(this.readById, { id });
    return row ? this.toEntity(row) : undefined;
  }

  async get(
    ctx: Ctx,
    id: string | number,
    extra?: SQL,
    options: { forUpdate?: boolean } = {},
  ): Promise<EntityRow> {
    const row = await this.find(ctx, id, extra, options);
    if (!row) throw this.notFound(id);
    return row;
  }

  /**
   * A page of rows. `extra` may be given as a lookup (a child collection's parent): the filter and
   * orderby are compiled first, so a bad expression is a 400 whether or not the parent exists.
   */
  async list(
    ctx: Ctx,
    query: ListQuery,
    extra?: SQL | (() => Promise<SQL>),
  ): Promise<{ rows: EntityRow[]; total: number }> {
    const size = query.size ?? DEFAULT_PAGE_SIZE;
    const page = query.offset ?? 0;
    const filter = query.filter ? compileFilter(query.filter, this.decl.filterFields) : undefined;
    // A stable order whatever the caller asks: the id breaks ties.
    const order = [
      ...(query.orderby ? compileOrderBy(query.orderby, this.decl.filterFields) : []),
      asc(this.columns.id!),
    ];
    const within = typeof extra === 'function' ? await extra() : extra;
    const conditions = [await this.scoped(ctx, within), filter].filter((c): c is SQL => c !== undefined);
    const where = conditions.length ? and(...conditions) : undefined;
    // The page and its count, sent together; each shape of filter is parsed once (core/db/reads.ts).
    const { rows, total } = await ctx.store.page(this.decl.table, where, {
      orderBy: order,
      limit: size,
      offset: page * size,
    });
    return { rows: rows.map((r) => this.toEntity(r)), total };
  }

  private who(ctx: Ctx): string {
    return ctx.caller.keyId ? `${ctx.caller.kind}:${ctx.caller.keyId}` : ctx.caller.kind;
  }

  /** Only the entity's declared fields are written; audit fields come from the server. */
  private values(body: Record<string, unknown>, fill: 'all' | 'given'): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const field of this.decl.writable) {
      if (field in body) out[field] = body[field] ?? null;
      else if (fill === 'all') out[field] = null;
    }
    return out;
  }

  /**
   * Constraint violations as the caller's errors. Every key holds the tenant (platform/core/db/keys.ts),
   * so a 409 only ever answers a row of the caller's own tenant, never another's.
   */
  private async guard<T>(work: () => Promise<T>, deleting = false): Promise<T> {
    try {
      return await work();
    } catch (err) {
      const { state, constraint } = sqlError(err);
      if (state === '23505' && constraint === `${this.decl.tableName}_tenant_id_pk`)
        throw errors.conflict(`A ${this.decl.name} with the same id already exists`);
      if (state === '23505') {
        const fields = (constraint && this.decl.uniqueKeys[constraint]) || this.decl.naturalKey;
        const key = fields.length ? ` (${fields.join(', ')})` : '';
        throw errors.conflict(`A ${this.decl.name} with the same key${key} already exists`);
      }
      // A foreign key refuses a delete of a row others refer to, and a write that refers to none.
      if (state === '23503' && deleting)
        throw errors.unprocessable(
          `This ${this.decl.name} is still referred to by other records${constraint ? ` (${constraint})` : ''}: change or remove them first`,
        );
      if (state === '23503')
        throw errors.unprocessable(`${this.decl.name} refers to a record that does not exist`);
      throw err;
    }
  }

  /** The writes the entity refuses (EntityOptions.refuses): its routes are not served either. */
  private refuse(write: 'create' | 'change'): void {
    const why = refusal(this.decl, write);
    if (why) throw errors.methodNotAllowed(why);
  }

  async create(
    ctx: Ctx,
    body: Record<string, unknown>,
    links: Record<string, unknown> = {},
  ): Promise<EntityRow> {
    this.refuse('create');
    const next = { ...this.values(body, 'given'), ...links };
    await this.decl.hooks.beforeSave?.(ctx, next, undefined);
    await requireReferenced(ctx, this.decl, next);
    const now = ctx.now();
    const who = this.who(ctx);
    const row = {
      ...next,
      ...(body.id !== undefined ? { id: body.id } : {}),
      createdBy: who,
      createdDate: now,
      lastModifiedBy: who,
      lastModifiedDate: now,
    };
    const [created] = await this.guard(
      () =>
        ctx.store.insert(this.decl.table, [row as never]).returning() as Promise<Record<string, unknown>[]>,
    );
    return this.toEntity(created!);
  }

  /** PUT replaces every field (absent ones become empty); PATCH changes only the fields sent. */
  async update(
    ctx: Ctx,
    id: string | number,
    body: Record<string, unknown>,
    mode: 'put' | 'patch',
    extra?: SQL,
    links: Record<string, unknown> = {},
  ): Promise<EntityRow> {
    this.refuse('change');
    // Locked until commit: the row written back is `previous` with the changes, so two edits at once
    // must take turns, or the second would write back what the first changed (a lost update).
    const previous = await this.get(ctx, id, extra, { forUpdate: true });
    if (body.id !== undefined && String(body.id).toLowerCase() !== String(id)) {
      throw errors.badRequest(`Invalid field 'id': ${body.id} differs from the id of the path (${id})`);
    }
    const changes = this.values(body, mode === 'put' ? 'all' : 'given');
    const next = { ...previous, ...changes, ...links };
    await this.decl.hooks.beforeSave?.(ctx, next, previous);
    await requireReferenced(ctx, this.decl, next, previous);
    const set = { ...this.values(next, 'given'), lastModifiedBy: this.who(ctx), lastModifiedDate: ctx.now() };
    const where = this.byId(id, await this.scoped(ctx, extra));
    const [updated] = await this.guard(
      () =>
        ctx.store.update(this.decl.table, set as never, where).returning() as Promise<
          Record<string, unknown>[]
        >,
    );
    return this.toEntity(updated!);
  }

  async remove(ctx: Ctx, id: string | number, extra?: SQL): Promise<void> {
    this.refuse('change');
    // Locked: beforeDelete decides on the row as it is, not as a concurrent edit is making it.
    const row = await this.get(ctx, id, extra, { forUpdate: true });
    await this.decl.hooks.beforeDelete?.(ctx, row);
    await requireUnreferenced(ctx, this.decl, row);
    const where = this.byId(id, await this.scoped(ctx, extra));
    await this.guard(() => ctx.store.delete(this.decl.table, where), true);
  }

  /** All or nothing: the first failing element rejects the batch, naming its index. */
  async bulk(
    ctx: Ctx,
    bodies: Record<string, unknown>[],
    links: Record<string, unknown> = {},
  ): Promise<EntityRow[]> {
    const out: EntityRow[] = [];
    for (const [index, body] of bodies.entries()) {
      try {
        out.push(await this.create(ctx, body, links));
      } catch (err) {
        if (err instanceof Error && 'reason' in err) {
          (err as Error).message = `Element [${index}]: ${(err as Error).message}`;
        }
        throw err;
      }
    }
    return out;
  }
}
