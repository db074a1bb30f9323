import type { Tx } from './db/database.ts';
import { sqlState } from './db/errors.ts';
import { Store } from './db/store.ts';
import type {
  Ctx,
  Invocation,
  Platform,
  ResolvedOperation,
  ServiceDeclaration,
  TransactionMode,
} from './declarations.ts';
import { ApiError, errors } from './errors.ts';
import { appendEvent, appendQueued, checkTopic, QUEUED_EVENTS, type QueuedEvent } from './outbox.ts';
import { validate } from './validation.ts';

// The context every handler gets (STYLE.md "Context passed in, never global"): who calls, for which
// tenant, in which transaction, with which clock; and the only way to reach another service.

/** The signal of work that is never asked to stop early (requests). */
const NEVER = new AbortController().signal;

/**
 * What lives as long as one transaction, shared by every context in it (ctx.call's too): the hooks
 * that run after its commit and the state kept by `Ctx.transactionLocal`. Never keyed by `ctx.tx`:
 * on a PostgreSQL server that object is the pooled connection's, the same for every transaction the
 * connection runs (core/db/session.ts).
 */
interface TransactionScope {
  hooks: Array<() => unknown>;
  locals: Map<symbol, unknown>;
}
const newScope = (): TransactionScope => ({ hooks: [], locals: new Map() });
const queuedOf = (scope: TransactionScope) => scope.locals.get(QUEUED_EVENTS) as QueuedEvent[] | undefined;

class OperationContext implements Ctx {
  readonly service: ServiceDeclaration;
  private readonly scope: TransactionScope;
  private storeInstance: Store | undefined;

  constructor(
    readonly platform: Platform,
    service: ServiceDeclaration,
    private readonly invocation: Invocation,
    private readonly transaction: Tx | undefined,
    scope: TransactionScope,
  ) {
    this.service = service;
    this.scope = scope;
  }

  get tenant() {
    return this.invocation.tenant;
  }
  get caller() {
    return this.invocation.caller;
  }
  get log() {
    return this.invocation.log;
  }
  get requestId() {
    return this.invocation.requestId;
  }
  get baseUrl() {
    return this.invocation.baseUrl ?? this.platform.config.publicUrl;
  }
  get signal() {
    return this.invocation.signal ?? NEVER;
  }

  get tx(): Tx {
    if (!this.transaction)
      throw errors.internal(`Operation of ${this.service.id} declared without a transaction`);
    return this.transaction;
  }

  get store(): Store {
    this.storeInstance ??= new Store(this.tx, this.tenant.name);
    return this.storeInstance;
  }

  now(): Date {
    return this.platform.now();
  }

  async call<O>(address: string, input: unknown): Promise<O> {
    const target = this.platform.registry.resolve(address);
    if (!target) throw errors.internal(`Unknown operation ${address}`);
    if (target.service !== this.service && !this.service.dependencies.includes(target.service.id)) {
      throw errors.internal(`${this.service.id} calls ${target.service.id} without declaring the dependency`);
    }
    const value = validate(target.op.input, structuredClone(input));
    const ctx = new OperationContext(
      this.platform,
      target.service,
      this.invocation,
      this.transaction,
      this.scope,
    );
    return (await invoke(ctx, target, value)) as O;
  }

  async enqueue(job: string, payload: unknown = {}, options: { runAt?: Date } = {}): Promise<string> {
    const kind = `${this.service.id}/${job}`;
    if (!this.platform.registry.job(kind)) throw errors.internal(`Unknown job ${kind}`);
    const id = await this.platform.jobs.enqueue(this.tx, this.tenant.name, kind, payload, options);
    // Told once the job exists: not for an attempt the database undid (run() runs it again).
    this.afterCommit(() => {
      this.invocation.onJob?.(id);
      this.platform.jobs.wake();
    });
    return id;
  }

  async emit(topic: string, payload: unknown): Promise<void> {
    // Appended last, just before the commit (outbox.ts appendQueued); an operation without a
    // transaction commits its event on its own.
    checkTopic(topic);
    if (this.transaction)
      this.transactionLocal<QueuedEvent[]>(QUEUED_EVENTS, () => []).push({ topic, payload });
    else
      await this.platform.db.tenant(this.tenant.name, (tx) =>
        appendEvent(tx, this.tenant.name, topic, payload),
      );
    this.afterCommit(() => this.platform.events.wake());
  }

  afterCommit(fn: () => unknown): void {
    this.scope.hooks.push(fn);
  }

  transactionLocal<T>(key: symbol, make: () => T): T {
    if (!this.scope.locals.has(key)) this.scope.locals.set(key, make());
    return this.scope.locals.get(key) as T;
  }

  inTransaction<T>(work: (ctx: Ctx) => Promise<T>): Promise<T> {
    // A second transaction beside an open one would wait on it forever on PGlite.
    if (this.transaction) throw errors.internal(`${this.service.id}: ctx.inTransaction inside a transaction`);
    return run(this.platform, this.service, 'tenant', this.invocation, work);
  }
}

/**
 * Runs `work` as `service` in a transaction of the given mode; after-commit hooks run only once it
 * committed. In mode `reads` the tenant's work may only read (Database.tenant).
 */
export async function run<T>(
  platform: Platform,
  service: ServiceDeclaration,
  mode: TransactionMode,
  invocation: Invocation,
  work: (ctx: Ctx) => Promise<T>,
): Promise<T> {
  // A fresh scope for every attempt of the transaction's work: nothing of one carries into the next.
  let scope = newScope();
  const inTx = async (tx: Tx | undefined) => {
    scope = newScope();
    const result = await work(new OperationContext(platform, service, invocation, tx, scope));
    if (tx) await appendQueued(tx, invocation.tenant.name, queuedOf(scope));
    return result;
  };
  const once = () =>
    mode === 'none'
      ? inTx(undefined)
      : mode === 'system'
        ? platform.db.system(inTx)
        : platform.db.tenant(invocation.tenant.name, inTx, { reads: mode === 'reads' });
  let result: T;
  for (let attempt = 1; ; attempt++) {
    try {
      result = await once();
      break;
    } catch (err) {
      // The database undid this transaction for what another one did at the same time (a deadlock,
      // a serialization failure; a key or a referenced row another committed meanwhile): nothing of
      // it happened, so it runs again, a few times, each after a short random pause, and answers as
      // it would have after the other one (docs/platform.md "Transactions run again").
      // An ApiError is the answer the operation chose (the entity engine's 409 for a key, a
      // service's 422): never run again, whatever its catalogue `code` (which sqlState also reads).
      if (err instanceof ApiError) throw err;
      const state = sqlState(err) ?? '';
      if (mode === 'none' || !(state in RUN_AGAIN)) throw err;
      if (attempt >= RUNS) throw RUN_AGAIN[state as keyof typeof RUN_AGAIN]();
      invocation.log.info(
        { attempt, sqlState: sqlState(err) },
        'transaction undone by the database; running it again',
      );
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
  for (const hook of scope.hooks) await hook();
  return result;
}

/**
 * SQLSTATEs of a transaction the database undid whole, which may succeed (or be refused by its own
 * checks) when run again; and the answer when every run was undone.
 */
const RUN_AGAIN = {
  '40P01': () => errors.conflict('The request met other changes at the same time; try again'),
  '40001': () => errors.conflict('The request met other changes at the same time; try again'),
  '23505': () => errors.conflict('The request conflicts with a record written at the same time'),
  '23503': () =>
    errors.unprocessable('A record the request names does not exist, or was deleted at the same time'),
};
/** Runs of one transaction at most. */
const RUNS = 4;

/**
 * Runs one declared operation in its own transaction. Where the tenant bound an ACTIVE function to
 * it (docs/functions.md "Binding"), the function runs after the handler, in the same transaction,
 * with the input and the output: it may answer a replacement output (checked against the declared
 * one) or throw to reject the call, which rolls the operation back.
 */
export async function execute(
  platform: Platform,
  target: ResolvedOperation,
  invocation: Invocation,
  input: unknown,
) {
  const { service, name, op } = target;
  const primitive = `${service.domain}/${service.name}/${name}`;
  const lookup =
    platform.functions && op.hasBody && op.output
      ? platform.functions.bound(invocation.tenant.name, primitive)
      : undefined;
  // An operation that needs no database (a healthcheck) still answers when the bindings cannot be
  // read; any other would fail on its own transaction anyway, so there the failure is reported.
  const bound =
    lookup === undefined
      ? undefined
      : op.transaction === 'none'
        ? await lookup.catch((err: unknown) => {
            invocation.log.warn({ err, primitive }, 'functions: bindings unreadable; running without');
            return undefined;
          })
        : await lookup;
  return run(platform, service, op.transaction, invocation, async (ctx) => {
    const output = await invoke(ctx, target, input);
    if (!bound || !platform.functions) return output;
    const event = {
      primitive: { domainName: service.domain, serviceName: service.name, name, kind: op.kind },
      tenant: invocation.tenant.name,
      input,
      output: output ?? {},
    };
    const ran = await platform.functions.run(bound, event);
    for (const line of ran.logs) ctx.log.info({ function: bound.name, version: bound.version }, line);
    if (ran.value === undefined) return output;
    try {
      return validate(op.output!, ran.value);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw errors.unprocessable(
        `Function ${bound.name} (bound to ${primitive}) answered an output that ${name} cannot give: ${why}`,
      );
    }
  });
}

/** A declared operation's handler; an event operation is then published under its own address, in its transaction. */
async function invoke(ctx: Ctx, target: ResolvedOperation, input: unknown): Promise<unknown> {
  const result = await target.op.handler(ctx, input as never);
  if (target.op.kind === 'events') await ctx.emit(`${target.service.id}/${target.name}`, input);
  return result;
}

/** A context for platform work outside a request (jobs), inside the caller's transaction. */
export async function executeJob(
  platform: Platform,
  service: ServiceDeclaration,
  invocation: Invocation,
  tx: Tx | undefined,
  handler: (ctx: Ctx) => Promise<unknown>,
): Promise<{ result: unknown; hooks: Array<() => unknown> }> {
  const scope = newScope();
  const result = await handler(new OperationContext(platform, service, invocation, tx, scope));
  if (tx) await appendQueued(tx, invocation.tenant.name, queuedOf(scope));
  return { result, hooks: scope.hooks };
}
