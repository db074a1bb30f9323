import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { APP_ROLE, TENANT_SETTING } from '../src/platform/core/db/tenancy.ts';

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

// ---- (f): the entity list's statements, on raw pg -------------------------------------------------

export const LIST_ROUTE = '/t/:tenant/bridge/1.0/rest/erp_agr/com_comum/entities/sku';

/** One statement as the engine sent it: drizzle's text and bound values, captured from pg. */
export interface Statement {
  text: string;
  values: unknown[];
}

/** What `EntityEngine.list` sends for one filter: the page and the count, with the same WHERE. */
export interface ListStatements {
  page: Statement;
  count: Statement;
}

/** The page and the count on one connection, as the engine runs them (queued on one client). */
async function listOn(client: pg.PoolClient, statements: ListStatements) {
  const [page, count] = await Promise.all([
    client.query<Record<string, unknown>>(statements.page.text, statements.page.values),
    client.query<{ count: string }>(statements.count.text, statements.count.values),
  ]);
  return { rows: page.rows, total: Number(count.rows[0]?.count ?? 0) };
}

/**
 * (f)(i) as the connecting superuser (row-level security does not apply), or (f)(ii) in the tenant
 * transaction the bridge opens (`begin` and the settings in one message, as `Database.tenant()`
 * sends them; the two statements; `commit`). The `filter` of the query string picks the statements
 * (no parsing: they were compiled once, by the engine); rows are answered as the engine shapes them.
 */
export async function rawPgList(
  databaseUrl: string,
  mode: 'superuser' | 'transaction',
  byFilter: Map<string, ListStatements>,
  toEntity: (row: Record<string, unknown>) => Record<string, unknown>,
): Promise<Running> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  pool.on('error', () => {});
  const app = Fastify({ logger: false });
  app.get(LIST_ROUTE, async (request, reply) => {
    const { tenant } = request.params as { tenant: string };
    const statements = byFilter.get((request.query as { filter?: string }).filter ?? '');
    if (!statements || !/^[a-z0-9][a-z0-9._-]{0,62}$/.test(tenant))
      return reply.code(400).send({ message: 'unknown filter or tenant' });
    const client = await pool.connect();
    let result: Awaited<ReturnType<typeof listOn>>;
    try {
      if (mode === 'superuser') {
        result = await listOn(client, statements);
      } else {
        await client.query(
          `begin; select set_config('${TENANT_SETTING}', '${tenant}', true), set_config('role', '${APP_ROLE}', true)`,
        );
        try {
          result = await listOn(client, statements);
          await client.query('commit');
        } catch (err) {
          await client.query('rollback').catch(() => {});
          throw err;
        }
      }
    } finally {
      client.release();
    }
    reply.header('x-total-count', String(result.total));
    return result.rows.map(toEntity);
  });
  app.addHook('onClose', () => pool.end());
  const url = await listen(app);
  return { url, close: () => app.close() };
}

/**
 * (f0): GET of one entity by id, answered by the statement the engine sent for it (captured,
 * replayed with its values) on a raw `pg.Pool` as the superuser: one round trip, as the engine's
 * read (a query: no BEGIN or COMMIT) is now.
 */
export async function rawPgGet(
  databaseUrl: string,
  statement: Statement,
  toEntity: (row: Record<string, unknown>) => Record<string, unknown>,
): Promise<Running> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  pool.on('error', () => {});
  const app = Fastify({ logger: false });
  app.get(`${LIST_ROUTE}/:id`, async (_request, reply) => {
    const { rows } = await pool.query<Record<string, unknown>>(statement.text, statement.values);
    if (!rows[0]) return reply.code(404).send({ message: 'not found', reason: 'OBJECT_NOT_FOUND' });
    return toEntity(rows[0]);
  });
  app.addHook('onClose', () => pool.end());
  const url = await listen(app);
  return { url, close: () => app.close() };
}

/**
 * A bare Fastify route (POST `path`, with a `:tenant` parameter) that runs `work` in the
 * transaction the bridge opens for a tenant (BEGIN, the tenant and role settings, the work,
 * COMMIT) on a pool of 10: the baseline of an operation's own SQL, without the platform around it.
 */
export async function rawTenantRoute(
  databaseUrl: string,
  path: string,
  work: (
    client: pg.PoolClient,
    tenant: string,
    body: Record<string, unknown>,
    params: Record<string, string>,
  ) => Promise<unknown>,
): Promise<Running> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  pool.on('error', () => {});
  const app = Fastify({ logger: false });
  app.post(path, async (request, reply) => {
    const params = request.params as Record<string, string>;
    const tenant = params.tenant ?? '';
    if (!/^[a-z0-9][a-z0-9._-]{0,62}$/.test(tenant)) return reply.code(400).send({});
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('${TENANT_SETTING}', $1, true), set_config('role', $2, true)`, [
        tenant,
        APP_ROLE,
      ]);
      const answer = await work(client, tenant, (request.body ?? {}) as Record<string, unknown>, params);
      await client.query('commit');
      return answer;
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  });
  app.addHook('onClose', () => pool.end());
  const url = await listen(app);
  return { url, close: () => app.close() };
}
