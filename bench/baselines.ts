import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { APP_ROLE, TENANT_SETTING } from '../src/platform/db/tenancy.ts';

// The baselines the bridge is measured against: the same route on a bare Fastify (no database), and
// the same route answered by the same SQL through a raw `pg.Pool`: alone (one round trip), and inside
// the transaction the bridge opens for a tenant (four round trips), which splits the bridge's cost in two.

export const ROUTE = '/t/:tenant/bridge/1.0/rest/bench/probe/queries/getEntity';

export const ENTITY_SQL =
  'select entity_id, class_name, data from integration_entities ' +
  'where tenant = $1 and service_name = $2 and collection_name = $3 and entity_id = $4';

export interface Running {
  url: string;
  close(): Promise<void>;
}

async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}

/** (b) Fastify with no logger, answering a precomputed object: the floor of HTTP + JSON in Node. */
export async function bareFastify(answer: unknown): Promise<Running> {
  const app = Fastify({ logger: false });
  app.post(ROUTE, async () => answer);
  const url = await listen(app);
  return { url, close: () => app.close() };
}

interface EntityRow {
  entity_id: string;
  class_name: string;
  data: Record<string, unknown>;
}

type Lookup = (pool: pg.Pool, tenant: string, id: string) => Promise<EntityRow | undefined>;

/** (c): the query alone, one round trip. */
const single: Lookup = async (pool, tenant, id) =>
  (await pool.query<EntityRow>(ENTITY_SQL, [tenant, 'hr', 'employee', id])).rows[0];

/** (e): the statements `Database.tenant()` sends (BEGIN, set_config, query, COMMIT), by hand. */
const inTenantTransaction: Lookup = async (pool, tenant, id) => {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`select set_config('${TENANT_SETTING}', $1, true), set_config('role', $2, true)`, [
      tenant,
      APP_ROLE,
    ]);
    const { rows } = await client.query<EntityRow>(ENTITY_SQL, [tenant, 'hr', 'employee', id]);
    await client.query('commit');
    return rows[0];
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
};

/** (c) or (e): Fastify with no logger, running the entity lookup on a pool of 10 connections. */
export async function rawPg(databaseUrl: string, mode: 'single' | 'transaction'): Promise<Running> {
  const lookup = mode === 'single' ? single : inTenantTransaction;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  pool.on('error', () => {});
  const app = Fastify({ logger: false });
  app.post(ROUTE, async (request, reply) => {
    const { tenant } = request.params as { tenant: string };
    const { id } = request.body as { id: string };
    const row = await lookup(pool, tenant, id);
    if (!row) return reply.code(404).send({ message: `Entity ${id} not found`, reason: 'OBJECT_NOT_FOUND' });
    return { id: row.entity_id, className: row.class_name, data: row.data };
  });
  app.addHook('onClose', () => pool.end());
  const url = await listen(app);
  return { url, close: () => app.close() };
}
