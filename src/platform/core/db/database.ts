import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { Notices } from './notices.ts';
import { type Opening, openings, ServerConnection } from './session.ts';
import { APP_ROLE } from './tenancy.ts';
import type { Db, Tx } from './types.ts';

// One query layer over both engines (DESIGN.md "Stack"): drizzle on PGlite for the embedded default,
// drizzle on node-postgres when DATABASE_URL names a server. Same SQL dialect, same migrations.

export type { Db, Tx } from './types.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../../drizzle', import.meta.url));

/** Any single-key advisory lock id; serializes migrations when several nodes start at once. */
const MIGRATION_LOCK = 7_123_001;

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Folder of the embedded database; in memory when undefined. */
  dataDir?: string | undefined;
  /** A dumped data folder to start the embedded database from (tests clone a migrated template). */
  loadDataDir?: Blob | File | undefined;
  poolSize?: number;
}

export class Database {
  /** The transaction machinery of each pooled connection, made once (pg.Pool reuses its clients). */
  private readonly connections = new WeakMap<pg.PoolClient, ServerConnection>();

  private constructor(
    readonly db: Db,
    readonly engine: 'pglite' | 'postgres',
    private readonly closeFn: () => Promise<void>,
    private readonly migrateFn: () => Promise<void>,
    readonly pglite: PGlite | undefined,
    /** Cache changes told to every node (notices.ts). */
    readonly notices: Notices,
    private readonly pool?: pg.Pool,
  ) {}

  static async open(options: OpenOptions): Promise<Database> {
    if (options.databaseUrl) {
      // Pipeline mode: statements a handler sends at once (a page and its count) are written
      // together and answered in one round trip (session.ts).
      const pool = new pg.Pool({
        connectionString: options.databaseUrl,
        max: options.poolSize ?? 10,
        pipeline: true,
      } as pg.PoolConfig);
      // An idle client's error (server restart) must not crash the process; the pool replaces it.
      pool.on('error', () => {});
      const db = drizzlePg(pool) as unknown as Db;
      const migrate = async () => {
        const client = new pg.Client({ connectionString: options.databaseUrl });
        await client.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
          await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
          await client.end();
        }
      };
      const notices = new Notices({ pool, connectionString: options.databaseUrl });
      const close = async () => {
        await notices.close();
        await pool.end();
      };
      return new Database(db, 'postgres', close, migrate, undefined, notices, pool);
    }
    // A new DATA_DIR: PGlite creates only the last folder of the path.
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
    // pg_trgm serves partial searches (`containing`, `texto`) from an index; unaccent makes them
    // accent-insensitive (core/db/search.ts).
    const client = await PGlite.create({
      extensions: { pg_trgm, unaccent },
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    const db = drizzlePglite(client) as unknown as Db;
    const migrate = () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER });
    return new Database(db, 'pglite', () => client.close(), migrate, client, new Notices());
  }

  migrate(): Promise<void> {
    return this.migrateFn();
  }

  /**
   * One transaction as the application role with the tenant set: every tenant table's row-level
   * security policy then hides other tenants' rows and rejects writes to them. Both settings are
   * transaction-local: gone at commit or rollback, whatever the connection runs next. With
   * `reads`, the work may only read (`transaction_read_only`); on a server each of its statements is
   * then a transaction of its own with the settings, and no BEGIN or COMMIT is sent (session.ts).
   */
  tenant<T>(tenant: string, fn: (tx: Tx) => Promise<T>, options: { reads?: boolean } = {}): Promise<T> {
    if (this.pool) {
      checkTenantName(tenant);
      return this.onServer(options.reads ? openings.reads(tenant) : openings.tenant(tenant), fn);
    }
    return this.db.transaction(async (tx) => {
      await tx.execute(
        options.reads
          ? sql`select set_config('ponte.tenant', ${tenant}, true), set_config('role', ${APP_ROLE}, true), set_config('transaction_read_only', 'on', true)`
          : sql`select set_config('ponte.tenant', ${tenant}, true), set_config('role', ${APP_ROLE}, true)`,
      );
      return fn(tx);
    });
  }

  /** One transaction with the connecting role: platform work that spans tenants (auth, jobs, licenses). */
  system<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    if (this.pool) return this.onServer(openings.system(), fn);
    return this.db.transaction(fn);
  }

  /** A pooled connection's transaction, opened together with its first statement (session.ts). */
  private async onServer<T>(opening: Opening, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const client = await this.pool!.connect();
    let connection = this.connections.get(client);
    if (!connection) {
      try {
        connection = await ServerConnection.open(client);
      } catch (err) {
        client.release(true);
        throw err;
      }
      this.connections.set(client, connection);
    }
    const outcome = await connection.transaction(opening, fn as (db: Db) => Promise<T>);
    if ('result' in outcome) {
      client.release();
      return outcome.result;
    }
    client.release(!outcome.sound);
    throw outcome.error;
  }

  async ping(): Promise<void> {
    await this.db.execute(sql`select 1`);
  }

  close(): Promise<void> {
    return this.closeFn();
  }
}

/** Tenant names are checked against TENANT_NAME before any request reaches here; again here. */
function checkTenantName(tenant: string): void {
  if (!/^[a-z0-9][a-z0-9._-]{0,62}$/.test(tenant))
    throw new Error(`invalid tenant name ${JSON.stringify(tenant)}`);
}

/** Rows of a raw `execute`, the same on both drivers. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
