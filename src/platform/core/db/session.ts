import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { APP_ROLE, TENANT_SETTING } from './tenancy.ts';
import type { Db } from './types.ts';

// A transaction on a PostgreSQL server costs its round trips (docs/performance.md). What opens a
// request's transaction (BEGIN, the tenant and the role) therefore travels with its first statement:
// one write to the socket, one Sync, one answer. On the wire it is the extended protocol's
// Bind/Execute of statements prepared once per connection, then the statement's own
// Parse/Bind/Describe/Execute, then Sync. PostgreSQL runs them in order, so the settings are in
// force before the statement is parsed, planned or run (never inside the statement itself, whose
// plan would be made before the setting ran); if the opening fails, the server skips everything
// up to the Sync: no statement runs without it.
//
// Reads (an operation of kind `queries`) need no BEGIN at all: each statement goes with the
// settings and `transaction_read_only`, and the statements up to a Sync are one implicit
// transaction of the server, so the settings are gone when it ends (at the Sync), and the
// statement cannot write. Under READ COMMITTED every statement takes a new snapshot anyway, so a
// read that sends two statements sees what one transaction would have seen.
//
// Every setting is transaction-local: whatever a connection ran before, a statement runs with its
// own request's tenant and role, and nothing of them is left on the connection afterwards.

/** The statements an opening binds, prepared on each connection when the pool opens it. */
const PREPARED = {
  begin: { name: 'ponte_begin', text: 'begin' },
  tenant: {
    name: 'ponte_tenant',
    text: `select set_config('${TENANT_SETTING}', $1, true), set_config('role', '${APP_ROLE}', true)`,
  },
  reader: {
    name: 'ponte_reader',
    text:
      `select set_config('${TENANT_SETTING}', $1, true), set_config('role', '${APP_ROLE}', true), ` +
      `set_config('transaction_read_only', 'on', true)`,
  },
  /** The reader's settings and a generic plan for the statement it opens (`GENERIC_PLAN`). */
  genericReader: {
    name: 'ponte_reader_generic',
    text:
      `select set_config('${TENANT_SETTING}', $1, true), set_config('role', '${APP_ROLE}', true), ` +
      `set_config('transaction_read_only', 'on', true), set_config('plan_cache_mode', 'force_generic_plan', true)`,
  },
} as const;

/**
 * A read's statement (pg's query config) that asks for its generic plan: PostgreSQL plans a named
 * statement with its values for its first five runs, then keeps doing so while the generic plan's
 * estimate is the higher, which for searches (a text through a trigram index, a range of dates) is
 * always: every run then pays its planning, 0.3–1 ms of the server's CPU for filtrarAgenda's page,
 * more than running it (docs/performance.md "Plans"). A statement marked so runs its plan made
 * once per connection. Only for statements whose generic plan is the one wanted for every value
 * (reads.ts `PageOptions.plan`); honoured in reads (an `each` opening), where the setting ends with
 * the statement; inside a transaction the statement is planned as any other.
 */
export const GENERIC_PLAN = Symbol('ponte.genericPlan');

/** One statement of an opening: a prepared statement's name and its values. */
interface Step {
  name: string;
  values: unknown[];
}

/**
 * How a transaction opens: before its first statement (`first`) or before every one (`each`; then
 * `generic` before a statement marked with GENERIC_PLAN).
 */
export type Opening = { first: Step[] } | { each: Step[]; generic: Step[] };

export const openings = {
  system: (): Opening => ({ first: [{ name: PREPARED.begin.name, values: [] }] }),
  tenant: (tenant: string): Opening => ({
    first: [
      { name: PREPARED.begin.name, values: [] },
      { name: PREPARED.tenant.name, values: [tenant] },
    ],
  }),
  reads: (tenant: string): Opening => ({
    each: [{ name: PREPARED.reader.name, values: [tenant] }],
    generic: [{ name: PREPARED.genericReader.name, values: [tenant] }],
  }),
};

/** The parts of pg's protocol connection and Query that the opening speaks to (pg/lib/query.js). */
interface Wire {
  stream: { cork(): void; uncork(): void };
  parsedStatements: Record<string, string>;
  parse(config: { name: string; text: string; types: never[] }): void;
  bind(config: { statement: string; values: unknown[] }): void;
  execute(config: Record<string, never>): void;
  sync(): void;
}
interface QueryInternals {
  queryMode?: string;
  callback?: (err: Error | null, result: pg.QueryResult) => void;
  submit(connection: Wire): Error | null;
  handleDataRow(msg: unknown): void;
  handleCommandComplete(msg: unknown, connection: Wire): void;
  handleReadyForQuery(connection: Wire): void;
}
const Query = pg.Query as unknown as new (config: pg.QueryConfig, values?: unknown[]) => QueryInternals;

/**
 * A statement preceded by its opening's steps, in one write and up to one Sync. The steps' answers
 * (a command tag each, and the settings' row) are not the statement's: they are passed over.
 */
class OpenedQuery extends Query {
  private stepsLeft: number;

  constructor(
    config: pg.QueryConfig,
    values: unknown[] | undefined,
    private readonly steps: Step[],
  ) {
    super(config, values);
    this.stepsLeft = steps.length;
    // Extended protocol even without values: a simple-query message would end the steps' transaction.
    this.queryMode = 'extended';
  }

  override submit(connection: Wire): Error | null {
    connection.stream.cork();
    try {
      for (const step of this.steps) {
        // Prepared when the pool opened the connection: no Parse, so no ParseComplete to misread.
        if (connection.parsedStatements[step.name] === undefined)
          return new Error(`statement ${step.name} is not prepared on this connection`);
        connection.bind({ statement: step.name, values: step.values });
        connection.execute({});
      }
      return super.submit(connection);
    } finally {
      connection.stream.uncork();
    }
  }

  override handleDataRow(msg: unknown): void {
    if (this.stepsLeft === 0) super.handleDataRow(msg);
  }

  override handleCommandComplete(msg: unknown, connection: Wire): void {
    if (this.stepsLeft > 0) this.stepsLeft--;
    else super.handleCommandComplete(msg, connection);
  }
}

/**
 * Parses the openings' statements on a connection, in one round trip: Parse messages and a Sync,
 * which run nothing. pg then knows them as prepared on that connection.
 */
class Preparation extends Query {
  constructor() {
    super({ text: 'prepare the openings' });
  }

  override submit(connection: Wire): Error | null {
    connection.stream.cork();
    try {
      for (const { name, text } of Object.values(PREPARED)) connection.parse({ name, text, types: [] });
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
    return null;
  }

  override handleReadyForQuery(connection: Wire): void {
    for (const { name, text } of Object.values(PREPARED)) connection.parsedStatements[name] = text;
    super.handleReadyForQuery(connection);
  }
}

/** One pooled connection as drizzle sees it: pg's `query`, with the opening put in front. */
export class ServerConnection {
  /** The drizzle instance over this connection: a handler's `ctx.tx`. */
  readonly db: Db;
  /** The steps still to send before the next statement, and whether every statement gets them. */
  private steps: Step[] | undefined;
  private each = false;
  /** In reads: the steps before a statement that asks for its generic plan. */
  private genericSteps: Step[] | undefined;
  /** Whether the current transaction was begun on the server (it then needs its commit or rollback). */
  private begun = false;

  private constructor(readonly client: pg.PoolClient) {
    this.db = drizzlePg(this as unknown as pg.PoolClient) as unknown as Db;
  }

  /** A pooled connection's first transaction: its openings' statements are prepared first. */
  static async open(client: pg.PoolClient): Promise<ServerConnection> {
    await submitted(client, new Preparation());
    return new ServerConnection(client);
  }

  /** Whether the socket is corked until the end of this turn of the event loop (`hold`). */
  private holding = false;

  /**
   * Reads' statements sent in one turn of the event loop (a page and its count, a handler's reads
   * started at once, through ctx.call too) leave in one write: the socket is corked at the first
   * and uncorked when the turn ends. On loopback each write is a system call that also wakes the
   * server's backend: about a tenth of a search's CPU when every statement had its own. Only for
   * reads: a transaction that writes may hold a lock (the outbox's, a counter row) from one
   * statement to the next, and a statement held until the turn ends would hold the lock longer
   * (event ingestion fell to half the raw insert's rate when every statement was held).
   */
  private hold(): void {
    if (this.holding) return;
    const stream = (this.client as unknown as { connection: Wire }).connection.stream;
    this.holding = true;
    stream.cork();
    setImmediate(() => {
      this.holding = false;
      stream.uncork();
    });
  }

  /** The pg `query` drizzle calls (a config object and the values). */
  query(config: pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    if (this.each) this.hold();
    const steps =
      this.each && (config as { [GENERIC_PLAN]?: true })[GENERIC_PLAN] ? this.genericSteps : this.steps;
    if (steps === undefined) return this.client.query(config, values);
    if (!this.each) {
      this.steps = undefined;
      this.begun = true;
    }
    return submitted(this.client, new OpenedQuery(config, values, steps));
  }

  /**
   * Runs `work` in the transaction `opening` opens, then commits it (or rolls it back when `work`
   * throws) if it was begun. Answers whether the connection is still sound.
   */
  async transaction<T>(
    opening: Opening,
    work: (db: Db) => Promise<T>,
  ): Promise<{ result: T } | { error: unknown; sound: boolean }> {
    this.each = 'each' in opening;
    this.steps = 'each' in opening ? opening.each : opening.first;
    this.genericSteps = 'each' in opening ? opening.generic : undefined;
    this.begun = false;
    try {
      const result = await work(this.db);
      if (this.begun) await this.client.query('commit');
      return { result };
    } catch (error) {
      // A connection that cannot even roll back is broken: the pool must drop it, not reuse it.
      const sound = this.begun
        ? await this.client.query('rollback').then(
            () => true,
            () => false,
          )
        : true;
      return { error, sound: sound && !staleStatement(error) };
    } finally {
      this.steps = undefined;
      this.genericSteps = undefined;
      this.each = false;
      this.begun = false;
    }
  }
}

/** Submits one of the queries above; answers its result. */
function submitted(client: pg.PoolClient, query: QueryInternals): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    query.callback = (err, result) => (err ? reject(err) : resolve(result));
    client.query(query as unknown as pg.Submittable);
  });
}

/**
 * A named statement prepared on this connection before a schema change whose result columns it
 * changed (a migration by a newer node): pg keeps treating it as prepared, so the connection is
 * dropped instead of failing the same way on every later use.
 */
function staleStatement(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: string }).code === '0A000' &&
    /cached plan must not change result type/.test(String((error as Error).message))
  );
}
