import { isDeepStrictEqual } from 'node:util';
import { and, eq, type SQL, type SQLWrapper } from 'drizzle-orm';
import { statement } from '../src/platform/core/db/statement.ts';
import { errors } from '../src/platform/core/errors.ts';
import { defineService, query } from '../src/platform/core/registry.ts';
import { Type } from '../src/platform/core/schema.ts';
import { integrationEntities } from '../src/services/hcm/platform_integration/tables.ts';
import { post } from './harness.ts';

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

// --- what the bench seeds for the probe, and what every server must answer ------------------------

export const PROBE_ROWS = 1000;
const entity = (n: number) => ({ id: n, name: `Employee ${n}`, salary: 3000 + (n % 40) * 12.5 });
export const expected = (n: number) => ({ id: String(n), className: 'Employee', data: entity(n) });
const ids = Array.from({ length: PROBE_ROWS }, (_, i) => i + 1);
/** Every connection cycles through all the ids, so the database reads spread over the 1,000 rows. */
export const queryBodies = ids.map((n) => JSON.stringify({ id: String(n) }));

let seeded: Promise<void> | undefined;

/** Saves the 1,000 hr/employee entities of `tenant` through the real app, once per run. */
export function seedProbe(ponte: string, tenant: string, auth: Record<string, string>): Promise<void> {
  seeded ??= (async () => {
    const saved = await post(
      `${ponte}/t/${tenant}/bridge/1.0/rest/hcm/platform_integration/actions/integrationSaveBatch`,
      {
        className: 'Employee',
        serviceName: 'hr',
        collectionName: 'employee',
        ids: ids.join(','),
        jsonText: JSON.stringify(ids.map(entity)),
      },
      auth,
    );
    const results = (saved.json as { results?: Array<{ success: boolean }> } | undefined)?.results ?? [];
    if (saved.status !== 200 || results.length !== PROBE_ROWS || !results.every((r) => r.success))
      throw new Error(`seeding failed: ${saved.status} ${saved.text.slice(0, 500)}`);
    console.log(`seeded ${PROBE_ROWS} integration_entities rows for tenant ${tenant}`);
  })();
  return seeded;
}

/** The server answers these ids with exactly the seeded entity (or, for bare Fastify, entity 500). */
export async function verify(name: string, url: string, headers: Record<string, string>, fixed?: number) {
  for (const n of [1, 500, PROBE_ROWS]) {
    const res = await post(url, { id: String(n) }, headers);
    const want = expected(fixed ?? n);
    if (res.status !== 200 || !isDeepStrictEqual(res.json, want))
      throw new Error(
        `${name} answered id ${n} with ${res.status} ${res.text}; expected ${JSON.stringify(want)}`,
      );
  }
}
