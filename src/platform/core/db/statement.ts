import { and, Column, eq, fillPlaceholders, is, type Placeholder, SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg, NodePgSession } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import type { Db, TenantTable, Tx } from './types.ts';

// Statements built once per process, not per request (docs/performance.md: drizzle building a query
// was a fifth of a request's CPU). A statement is declared at module level with a name and a
// function that builds its drizzle query from placeholders; on first use on an engine it is built
// and prepared, and every later run only binds its values. On PostgreSQL it is a named prepared
// statement: pg parses it once per connection, and the server keeps its plan. Row-level security
// still applies (the server re-checks a cached plan against the role it runs as; the tenant
// setting is read when the statement executes).

export type Values = Record<string, unknown>;

interface Runnable<R> {
  execute(values?: Values): Promise<R>;
}

/** A drizzle query that can be prepared: a select, an insert/update/delete (with or without returning). */
export interface Preparable<R> {
  prepare(name: string): Runnable<R>;
}

/** What a statement's builder gets. */
export interface Builder {
  /** A drizzle database to build the query with (it runs nothing). */
  db: Db;
  /** The value of `name`, given when the statement runs. */
  param(name: string): Placeholder;
  /**
   * The tenant's rows of `table` (the store's condition, `Store.scope`), joined with `where`: the
   * tenant is the value `tenant`, which `Store.run` fills in from its own tenant.
   */
  scope(table: TenantTable, where?: SQL): SQL;
  /** A raw SQL statement (values as `param(...)`), prepared like the rest; it answers pg's result (`rows`). */
  raw(query: SQL): Preparable<{ rows: Record<string, unknown>[] }>;
}

type Engine = 'postgres' | 'pglite';

/** Building runs nothing: the builder's database has no connection. */
class NoConnection {
  query(): never {
    throw new Error('a statement builder cannot run queries');
  }
}

const builders: Partial<Record<Engine, Builder>> = {};

function builderFor(engine: Engine): Builder {
  const existing = builders[engine];
  if (existing) return existing;
  const db = (engine === 'postgres'
    ? drizzlePg(new NoConnection() as unknown as pg.Pool)
    : drizzlePglite(new NoConnection() as never)) as unknown as Db;
  const internals = db as unknown as {
    session: {
      prepareQuery(query: unknown, fields: undefined, name: string, arrayMode: boolean): Runnable<never>;
    };
    dialect: { sqlToQuery(query: SQL): unknown };
  };
  const builder: Builder = {
    db,
    param: (name) => sql.placeholder(name),
    scope: (table, where) => {
      const own = eq(table.tenant, sql.placeholder('tenant'));
      return where ? (and(own, where) as SQL) : own;
    },
    raw: (query) => ({
      prepare: (name) =>
        internals.session.prepareQuery(internals.dialect.sqlToQuery(query), undefined, name, false),
    }),
  };
  builders[engine] = builder;
  return builder;
}

interface Queryable {
  query(config: unknown, values: unknown[]): Promise<{ rows: unknown[] }>;
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

interface Flat {
  config: unknown;
  params: unknown[];
  keys: string[];
  decoders: Decoder[];
}

/**
 * What a prepared node-postgres select of plain columns needs to run without drizzle's execute:
 * its query config (name, text, array rows, drizzle's type parsers), its parameters with their
 * placeholders, and each column's key and decoder; null for anything else (raw SQL, joins,
 * computed fields), which drizzle runs as it does.
 */
function flatOf(prepared: unknown): Flat | null {
  const p = prepared as {
    fields?: Array<{ path: string[]; field: unknown }>;
    customResultMapper?: unknown;
    queryConfig?: unknown;
    params?: unknown[];
  };
  if (!p.fields || p.customResultMapper || !p.queryConfig || !p.params) return null;
  const decoders: Decoder[] = [];
  for (const { path, field } of p.fields) {
    if (path.length !== 1) return null;
    // A column decodes itself; a computed field (count(), sql`...`.mapWith) has its decoder.
    if (is(field, Column)) decoders.push(field);
    else if (is(field, SQL)) decoders.push((field as unknown as { decoder: Decoder }).decoder);
    else if (is(field, SQL.Aliased))
      decoders.push((field as unknown as { sql: { decoder: Decoder } }).sql.decoder);
    else return null;
  }
  return { config: p.queryConfig, params: p.params, keys: p.fields.map((f) => f.path[0]!), decoders };
}

const names = new Set<string>();

export class Statement<R> {
  private readonly prepared: Partial<Record<Engine, Runnable<R>>> = {};

  constructor(
    /** The prepared statement's name on the server: unique in the process. */
    readonly name: string,
    private readonly build: (b: Builder) => Preparable<R>,
  ) {}

  /** On a server, a select of plain columns: run and mapped here, without drizzle's per-row checks. */
  private flat: Flat | null | undefined;

  /** Runs in `tx` (a transaction of either engine) with `values` for its placeholders. */
  run(tx: Tx, values: Values): Promise<R> {
    const session = (tx as unknown as { session: { client: unknown } }).session;
    const engine: Engine = is(session, NodePgSession) ? 'postgres' : 'pglite';
    const prepared = this.prepared[engine] ?? this.prepare(engine);
    if (engine === 'postgres' && this.flat) return this.runFlat(session.client as Queryable, values);
    // The prepared query, bound to this transaction's connection for this run only.
    const bound = Object.create(prepared) as Runnable<R> & { client: unknown };
    bound.client = session.client;
    return bound.execute(values);
  }

  private async runFlat(client: Queryable, values: Values): Promise<R> {
    const { config, params, keys, decoders } = this.flat!;
    const { rows } = await client.query(config, fillPlaceholders(params, values) as unknown[]);
    const out = new Array(rows.length);
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r] as unknown[];
      const mapped: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const value = row[i];
        mapped[keys[i]!] =
          value === null || value === undefined ? null : decoders[i]!.mapFromDriverValue(value);
      }
      out[r] = mapped;
    }
    return out as R;
  }

  private prepare(engine: Engine): Runnable<R> {
    const prepared = this.build(builderFor(engine)).prepare(this.name);
    this.prepared[engine] = prepared;
    if (engine === 'postgres') this.flat = flatOf(prepared);
    return prepared;
  }
}

/**
 * Declares a statement (at module level): `name` must be unique in the process, as PostgreSQL
 * names prepared statements per connection and pg refuses one name for two texts.
 */
export function statement<R>(name: string, build: (b: Builder) => Preparable<R>): Statement<R> {
  if (names.has(name)) throw new Error(`statement ${name} is declared twice`);
  names.add(name);
  return new Statement(name, build);
}
