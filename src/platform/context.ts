import type { FastifyBaseLogger } from 'fastify';
import type { Credentials } from './auth/credentials.ts';
import type { Config } from './config.ts';
import type { Database, Tx } from './db/database.ts';
import { Store } from './db/store.ts';
import { errors } from './errors.ts';
import type { MetadataProvider } from './http/bridge.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { Registry, ResolvedOperation, ServiceDeclaration } from './registry.ts';
import type { TenantDirectory, TenantInfo } from './tenants.ts';
import { validate } from './validation.ts';

// The context every handler gets (STYLE.md "Context passed in, never global"): who calls, for which
// tenant, in which transaction, with which clock; and the only way to reach another service.

export type Scope = 'full' | 'public';

export interface Caller {
  kind: 'key' | 'token' | 'anonymous' | 'system';
  scope: Scope;
  keyId?: string;
  sessionId?: string;
  /** The raw bearer token, so logout can end its own session. */
  token?: string;
}

/** What the process shares with every request: built once by buildApp. */
export interface Platform {
  config: Config;
  db: Database;
  registry: Registry;
  tenants: TenantDirectory;
  credentials: Credentials;
  jobs: JobQueue;
  /** Each service's generated Swagger 2.0 / OpenAPI 3 document. */
  metadata: MetadataProvider;
  log: FastifyBaseLogger;
  now: () => Date;
}

export interface Ctx {
  readonly tenant: TenantInfo;
  readonly caller: Caller;
  readonly service: ServiceDeclaration;
  readonly platform: Platform;
  readonly log: FastifyBaseLogger;
  readonly requestId: string;
  /** The operation's transaction; an operation declared `transaction: 'none'` has none. */
  readonly tx: Tx;
  /** Tenant-scoped queries on the operation's transaction (DESIGN.md "Persistence"). */
  readonly store: Store;
  now(): Date;
  /** Calls an operation of this service or of a declared dependency, in the same transaction. */
  call<O = unknown>(address: string, input: unknown): Promise<O>;
  /** Enqueues a durable job of this service; it commits (or not) with the operation. */
  enqueue(job: string, payload?: unknown, options?: { runAt?: Date }): Promise<string>;
  /** Runs after the transaction commits (cache eviction, waking workers). */
  afterCommit(fn: () => void): void;
}

export interface Invocation {
  tenant: TenantInfo;
  caller: Caller;
  requestId: string;
  log: FastifyBaseLogger;
}

class OperationContext implements Ctx {
  readonly service: ServiceDeclaration;
  private readonly commitHooks: Array<() => void>;
  private storeInstance: Store | undefined;

  constructor(
    readonly platform: Platform,
    target: ResolvedOperation,
    private readonly invocation: Invocation,
    private readonly transaction: Tx | undefined,
    commitHooks: Array<() => void>,
  ) {
    this.service = target.service;
    this.commitHooks = commitHooks;
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
      target,
      this.invocation,
      this.transaction,
      this.commitHooks,
    );
    return (await target.op.handler(ctx, value as never)) as O;
  }

  async enqueue(job: string, payload: unknown = {}, options: { runAt?: Date } = {}): Promise<string> {
    const kind = `${this.service.id}/${job}`;
    if (!this.platform.registry.job(kind)) throw errors.internal(`Unknown job ${kind}`);
    const id = await this.platform.jobs.enqueue(this.tx, this.tenant.name, kind, payload, options);
    this.afterCommit(() => this.platform.jobs.wake());
    return id;
  }

  afterCommit(fn: () => void): void {
    this.commitHooks.push(fn);
  }
}

/** Runs one operation in its own transaction; after-commit hooks run only when it committed. */
export async function execute(
  platform: Platform,
  target: ResolvedOperation,
  invocation: Invocation,
  input: unknown,
): Promise<unknown> {
  const hooks: Array<() => void> = [];
  const run = (tx: Tx | undefined) =>
    target.op.handler(new OperationContext(platform, target, invocation, tx, hooks), input as never);
  const mode = target.op.transaction;
  const result =
    mode === 'none'
      ? await run(undefined)
      : mode === 'system'
        ? await platform.db.system(run)
        : await platform.db.tenant(invocation.tenant.name, run);
  for (const hook of hooks) hook();
  return result;
}

/** A context for platform work outside a request (jobs): same shape, same rules. */
export async function executeJob(
  platform: Platform,
  service: ServiceDeclaration,
  invocation: Invocation,
  tx: Tx,
  handler: (ctx: Ctx) => Promise<unknown>,
): Promise<{ result: unknown; hooks: Array<() => void> }> {
  const hooks: Array<() => void> = [];
  const target: ResolvedOperation = { service, name: 'job', op: undefined as never };
  const result = await handler(new OperationContext(platform, target, invocation, tx, hooks));
  return { result, hooks };
}
