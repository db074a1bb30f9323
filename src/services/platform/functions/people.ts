import { asc, eq, or, type SQL } from 'drizzle-orm';
import { containsText } from '../../../platform/core/db/search.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { query } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { ListInput, listOutput, persistedConsultant, persistedDeveloper } from './schemas.ts';
import { consultant, developer } from './tables.ts';

// Developers and consultants as spec 001 §4.10 reads them: listDevelopers (filter, offset, size,
// totals), retrieveDeveloper, retrieveConsultant, listConsultants (its request cut off in the spec:
// the same as listDevelopers, docs/functions.md). Written through the `developer` and `consultant`
// entities.

const DEFAULT_SIZE = 10;
const IdInput = Type.Object({ id: Type.String({ format: 'uuid', description: 'the id' }) });

type Row = Record<string, unknown>;
const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : undefined);

function record(row: Row, extra: string[]) {
  const out: Row = {
    id: String(row.id),
    name: row.name,
    email: row.email,
    active: row.active,
    createdBy: row.createdBy,
    createdDate: iso(row.createdDate),
    lastModifiedBy: row.lastModifiedBy,
    lastModifiedDate: iso(row.lastModifiedDate),
  };
  for (const field of extra) if (row[field] !== null && row[field] !== undefined) out[field] = row[field];
  return out;
}

async function page(
  ctx: Ctx,
  table: typeof developer | typeof consultant,
  searched: SQL[],
  extra: string[],
  input: { filter: string; offset?: number; size?: number },
) {
  const size = input.size ?? DEFAULT_SIZE;
  const offset = input.offset ?? 0;
  const term = input.filter.trim();
  const where = term ? or(...searched.map((c) => containsText(c, term))) : undefined;
  const { rows, total } = await ctx.store.page<Row>(table, where, {
    orderBy: [asc(table.name), asc(table.id)],
    limit: size,
    offset: offset * size,
  });
  return {
    totalElements: total,
    totalPages: Math.ceil(total / size),
    contents: rows.map((r) => record(r, extra)) as never[],
  };
}

async function one(ctx: Ctx, table: typeof developer | typeof consultant, id: string) {
  const [row] = await ctx.store.select(table, eq(table.id, id.toLowerCase()));
  return row as Row | undefined;
}

export const peopleOperations = {
  listDevelopers: query({
    description: "The tenant's developers whose name, e-mail or login contains the filter, a page at a time",
    get: true,
    visibility: 'PUBLIC',
    input: ListInput,
    output: listOutput(persistedDeveloper),
    handler: (ctx, input) =>
      page(
        ctx,
        developer,
        [developer.name, developer.email, developer.login] as never[],
        ['login', 'phone'],
        input,
      ),
  }),
  retrieveDeveloper: query({
    description: 'One developer of the tenant',
    get: true,
    visibility: 'PUBLIC',
    input: IdInput,
    output: persistedDeveloper,
    handler: async (ctx, input) => {
      const row = await one(ctx, developer, input.id);
      if (!row) throw E.developerNotFound({ id: input.id });
      return record(row, ['login', 'phone']) as never;
    },
  }),
  retrieveConsultant: query({
    description: 'One consultant of the tenant',
    get: true,
    visibility: 'PUBLIC',
    input: IdInput,
    output: persistedConsultant,
    handler: async (ctx, input) => {
      const row = await one(ctx, consultant, input.id);
      if (!row) throw E.consultantNotFound({ id: input.id });
      return record(row, ['company', 'phone']) as never;
    },
  }),
  listConsultants: query({
    description:
      'The consultants registered for the tenant whose name, e-mail or company contains the filter, a page at a time',
    visibility: 'PUBLIC',
    input: ListInput,
    output: listOutput(persistedConsultant),
    handler: (ctx, input) =>
      page(
        ctx,
        consultant,
        [consultant.name, consultant.email, consultant.company] as never[],
        ['company', 'phone'],
        input,
      ),
  }),
};
