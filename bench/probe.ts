import { and, eq, type SQL, type SQLWrapper } from 'drizzle-orm';
import { statement } from '../src/platform/core/db/statement.ts';
import { errors } from '../src/platform/core/errors.ts';
import { defineService, query } from '../src/platform/core/registry.ts';
import { Type } from '../src/platform/core/schema.ts';
import { integrationEntities } from '../src/services/hcm/platform_integration/tables.ts';

// A bench-only service (never registered in src/services): one query that reads one saved entity
// through the store layer, the smallest realistic operation to set against the same SQL on raw pg.
// `getEntity` runs a statement built once (as the services' hot paths do); `getEntityBuilt` builds
// the same query with drizzle on every request, to show what building costs.

const byId = (id: string | SQLWrapper) =>
  and(
    eq(integrationEntities.serviceName, 'hr'),
    eq(integrationEntities.collectionName, 'employee'),
    eq(integrationEntities.entityId, id),
  ) as SQL;

/** What the answer needs: the columns the raw baseline's SQL reads. */
const columns = {
  entityId: integrationEntities.entityId,
  className: integrationEntities.className,
  data: integrationEntities.data,
};

const entityById = statement('bench.probe.getEntity', (b) =>
  b.db
    .select(columns)
    .from(integrationEntities)
    .where(b.scope(integrationEntities, byId(b.param('id')))),
);

const output = Type.Object({
  id: Type.String(),
  className: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown()),
});

export const benchService = defineService({
  domain: 'bench',
  name: 'probe',
  version: '1.0.0',
  title: 'Benchmark probe',
  description: 'Reads one integration entity by id (bench only)',
  operations: {
    getEntity: query({
      description: 'One entity of hr/employee saved by integrationSaveBatch',
      input: Type.Object({ id: Type.String({ minLength: 1, maxLength: 255 }) }),
      output,
      handler: async (ctx, input) => {
        const [row] = await ctx.store.run(entityById, { id: input.id });
        if (!row) throw errors.notFound(`Entity ${input.id} not found`);
        return { id: row.entityId, className: row.className, data: row.data as Record<string, unknown> };
      },
    }),
    getEntityBuilt: query({
      description: 'The same, with the query built by drizzle on every request',
      input: Type.Object({ id: Type.String({ minLength: 1, maxLength: 255 }) }),
      output,
      handler: async (ctx, input) => {
        const [row] = await ctx.tx
          .select(columns)
          .from(integrationEntities)
          .where(ctx.store.scope(integrationEntities, byId(input.id)));
        if (!row) throw errors.notFound(`Entity ${input.id} not found`);
        return { id: row.entityId, className: row.className, data: row.data as Record<string, unknown> };
      },
    }),
  },
});
