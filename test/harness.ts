import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { type App, type AppOptions, buildApp } from '../src/platform/app.ts';
import { Database } from '../src/platform/core/db/database.ts';
import { allServices } from '../src/services/index.ts';
import { copyPrefix } from './global-setup.ts';

// Test harness: a fresh database per test file (a copy of the migrated template), the real app in
// process, and helpers that speak HTTP to it exactly as a client would.

export const ADMIN_TOKEN = 'test-admin-token';

/**
 * A fresh database copied from the run's migrated template; dropped when the file ends. On
 * PostgreSQL `poolSize` connections serve it (default 5): race tests raise it, so that as many
 * requests as they send run in transactions of their own at once.
 */
export async function openTestDb(options: { poolSize?: number } = {}): Promise<Database> {
  const template = inject('template');
  if (template.engine === 'pglite') {
    const blob = new Blob([readFileSync(template.file)]);
    const db = await Database.open({ loadDataDir: blob });
    afterAll(() => db.close());
    return db;
  }
  const url = await testDatabaseUrl();
  const db = await Database.open({ databaseUrl: url, poolSize: options.poolSize ?? 5 });
  afterAll(() => db.close());
  return db;
}

/**
 * On PostgreSQL runs, the URL of a fresh database copied from the run's migrated template (for
 * servers started as child processes too), dropped when the file ends; on PGlite runs, undefined.
 */
export async function testDatabaseUrl(): Promise<string | undefined> {
  const template = inject('template');
  if (template.engine === 'pglite') return undefined;
  const name = `${copyPrefix(template.database)}${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: template.url });
  await admin.connect();
  await admin.query(`create database ${name} template ${template.database}`);
  await admin.end();
  const url = new URL(template.url);
  url.pathname = `/${name}`;
  // Registered before the callers' own teardown, so it runs after it (vitest runs them in reverse).
  afterAll(async () => {
    const c = new pg.Client({ connectionString: template.url });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  return url.toString();
}

export interface TestApp extends App {
  db: Database;
  /** POSTs (or sends `method`) to a bridge operation of `tenant` with `auth` as the Authorization header. */
  call(
    tenant: string,
    address: string,
    body?: unknown,
    options?: {
      auth?: string | undefined;
      method?: InjectOptions['method'];
      anonymous?: boolean;
      query?: Record<string, string>;
    },
  ): Promise<LightMyRequestResponse>;
  admin(method: InjectOptions['method'], path: string, body?: unknown): Promise<LightMyRequestResponse>;
  /** Creates a tenant and a key of `scope`; returns the key's apiKey. */
  tenant(
    name: string,
    options?: { scope?: 'full' | 'public'; edition?: 'standard' | 'light' },
  ): Promise<string>;
  /** Creates a key; `subject` (`<kind>:<id>`) binds a public key to whom it acts for. */
  key(
    tenant: string,
    scope?: 'full' | 'public',
    options?: { subject?: string },
  ): Promise<{ apiKey: string; accessKey: string; secret: string }>;
}

export async function testApp(
  options: Omit<AppOptions, 'services'> & { services?: AppOptions['services']; db?: Database } = {},
): Promise<TestApp> {
  const db = options.db ?? (await openTestDb());
  const dataDir = mkdtempSync(join(tmpdir(), 'ponte-data-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const built = await buildApp({
    logger: false,
    migrate: false,
    ...options,
    services: options.services ?? allServices,
    db,
    config: { adminToken: ADMIN_TOKEN, dataDir, runJobs: false, ...options.config },
  });
  await built.app.ready();
  afterAll(() => built.app.close());
  const app: FastifyInstance = built.app;

  const call: TestApp['call'] = (tenant, address, body, opts = {}) => {
    const prefix = opts.anonymous ? 'anonymous/rest' : 'rest';
    const query = opts.query ? `?${new URLSearchParams(opts.query)}` : '';
    const method = opts.method ?? 'POST';
    return app.inject({
      method,
      url: `/t/${tenant}/bridge/1.0/${prefix}/${address}${query}`,
      headers: {
        ...(opts.auth ? { authorization: opts.auth } : {}),
        ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
      },
      ...(method === 'GET' || body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  };
  const admin: TestApp['admin'] = (method, path, body) =>
    app.inject({
      method,
      url: `/admin${path}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
  const key: TestApp['key'] = async (tenant, scope = 'full', opts = {}) => {
    const res = await admin('POST', `/tenants/${tenant}/keys`, {
      scope,
      ...(opts.subject ? { subject: opts.subject } : {}),
    });
    if (res.statusCode !== 201) throw new Error(`key creation failed: ${res.body}`);
    return res.json();
  };
  const tenant: TestApp['tenant'] = async (name, opts = {}) => {
    const res = await admin('POST', '/tenants', { name, ...(opts.edition ? { edition: opts.edition } : {}) });
    if (res.statusCode !== 201) throw new Error(`tenant creation failed: ${res.body}`);
    return (await key(name, opts.scope ?? 'full')).apiKey;
  };
  return { ...built, db, call, admin, tenant, key };
}

/** Row counts of every table: "a rejected request changes nothing" is checked against this. */
export async function tableCounts(db: Database): Promise<Record<string, number>> {
  const { sql } = await import('drizzle-orm');
  const tables = (await db.db.execute(
    sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
  )) as unknown as { rows: Array<{ tablename: string }> };
  const out: Record<string, number> = {};
  for (const { tablename } of tables.rows) {
    const r = (await db.db.execute(sql.raw(`select count(*)::int as n from "${tablename}"`))) as unknown as {
      rows: Array<{ n: number }>;
    };
    out[tablename] = r.rows[0]!.n;
  }
  return out;
}
