import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Static, TObject, TSchema } from 'typebox';
import type { Caller } from './caller.ts';
import type { Config } from './config.ts';
import type { Database, Tx } from './db/database.ts';
import type { FilterFields } from './db/fields.ts';
import type { Store, TenantTable } from './db/store.ts';
import type { ExportTarget } from './export-target.ts';
import type { ImportTarget } from './import-target.ts';
import type { Leases } from './lease.ts';
import type { EventRecord } from './outbox.ts';
import type { BlobInfo, Blobs, Credentials, Events, FunctionHooks, Jobs, MetadataProvider } from './ports.ts';
import type { TenantDirectory, TenantInfo } from './tenants.ts';

// The declarations a service writes and the context its handlers get, as one model (DESIGN.md "One
// declaration per operation", STYLE.md "Context passed in"): a service's handlers take a context,
// and a context knows its service, so these types refer to each other and live in this one file,
// which holds types only. What builds them: registry.ts (operations, services, the registry),
// entity.ts (entities), context.ts (running a handler).

// ── operations and services ──

export type Visibility = 'PUBLIC' | 'PRIVATE';
export type Kind = 'queries' | 'actions' | 'events' | 'signals';
/**
 * How an operation touches the database: as its tenant in one transaction (`tenant`, the default of
 * actions, events and signals), as its tenant reading only (`reads`, the default of queries: the
 * database refuses a write; docs/platform.md "Storage and tenant isolation"), as the platform, or
 * not at all. A query that must write or lock declares `tenant`.
 */
export type TransactionMode = 'tenant' | 'reads' | 'system' | 'none';

export interface Operation<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  kind: Kind;
  /** HTTP methods; GET only where the spec lists it (queries). */
  methods: ReadonlyArray<'POST' | 'GET'>;
  successStatus: 200 | 202;
  /** false for events and signals: 200 or 202 with no body. */
  hasBody: boolean;
  visibility: Visibility;
  subjects: readonly string[];
  anonymous: boolean;
  deprecated: boolean;
  /** Answers the ids of the durable jobs it enqueues in `x-job-id` (signals always do). */
  enqueues: boolean;
  /**
   * Whether its document lists the 401 `Invalid Credentials` response: spec 000 §5 lists it for every
   * operation; spec 001 §5 names the services and the signal whose documents do not. Undefined: as
   * its service declares.
   */
  declares401: boolean | undefined;
  transaction: TransactionMode;
  description: string | undefined;
  input: I;
  output: O | undefined;
  handler: (ctx: Ctx, input: Static<I>) => Promise<Static<O>>;
}

export interface JobDeclaration {
  /**
   * `tenant`: the job's effect and its completion commit in one tenant transaction.
   * `system`: the same with the platform's role, for work across tenants.
   * `none`: the job opens its own transactions (long work that commits progress as it goes,
   * and must therefore be resumable); it is marked done afterwards.
   */
  transaction: TransactionMode;
  maxAttempts?: number;
  handler: (ctx: Ctx, payload: unknown) => Promise<unknown>;
}

/**
 * A reaction of a service to a published event (docs/events.md "Subscriptions"): each event whose
 * topic matches `topic` (a pattern) is handled once per cluster, at least once, in order per tenant,
 * in a transaction of the event's tenant with the system as caller. A throw rolls the handling back
 * and the event is retried; handlers are idempotent (by state, or by the event id).
 */
export interface SubscriptionDeclaration {
  topic: string;
  handler: (ctx: Ctx, event: EventRecord) => Promise<void>;
}

export interface ServiceOptions<Ops extends Record<string, Operation>> {
  domain: string;
  name: string;
  version: string;
  title: string;
  description?: string;
  /** Services this one calls through `ctx.call` (`domain/service`); getDependencies reports them. */
  dependencies?: string[];
  /** false where spec 001 §5 says the service's documents list no 401 response (default true). */
  declares401?: boolean;
  operations: Ops;
  /** Generic entities (spec 000 §2.3), each with the routes of the entity engine. */
  entities?: EntityDeclaration[];
  /** Importable kinds by name (`Moeda` for importMoeda): see platform/imports. */
  imports?: Record<string, ImportTarget>;
  /** Exportable kinds by name (`Area` for exportArea): see platform/exports. */
  exports?: Record<string, ExportTarget>;
  jobs?: Record<string, JobDeclaration>;
  /**
   * Told when a blob under a key prefix the service owns (`yms/agenda/anexos/`) was uploaded through
   * a signed URL; runs in its own tenant transaction after the bytes are stored.
   */
  blobUploads?: Record<string, (ctx: Ctx, blob: BlobInfo) => Promise<void>>;
  /** Event reactions by name; the dispatcher keeps each one's cursor as `<domain>/<service>/<name>`. */
  subscriptions?: Record<string, SubscriptionDeclaration>;
}

export interface ServiceDeclaration<Ops extends Record<string, Operation> = Record<string, Operation>>
  extends Required<Omit<ServiceOptions<Ops>, 'description'>> {
  description: string | undefined;
  /** `domain/service` */
  id: string;
}

export interface ResolvedOperation {
  service: ServiceDeclaration;
  name: string;
  op: Operation;
}

/** All services of this process (registry.ts `ServiceRegistry`). */
export interface Registry {
  all(): ServiceDeclaration[];
  service(id: string): ServiceDeclaration | undefined;
  /** `domain/service/kind/operation` → the operation, or undefined. */
  resolve(address: string): ResolvedOperation | undefined;
  job(kind: string): { service: ServiceDeclaration; job: JobDeclaration } | undefined;
  /** The entity `domain/service/name`, or undefined. */
  entity(address: string): EntityDeclaration | undefined;
  /** Every column of any service's entities that names records of `entity` (EntityOptions.references). */
  referencesTo(entity: EntityDeclaration): readonly EntityReference[];
  /** The service told when the blob `key` is uploaded, by the longest matching prefix. */
  blobUpload(
    key: string,
  ): { service: ServiceDeclaration; handler: (ctx: Ctx, blob: BlobInfo) => Promise<void> } | undefined;
}

// ── entities (spec 000 §2.3) ──

export type EntityRow = Record<string, unknown> & { id: string | number };

export interface EntityHooks {
  /** Checks (and may adjust) the entity about to be written; `previous` is absent on create. */
  beforeSave?: (ctx: Ctx, next: Record<string, unknown>, previous: EntityRow | undefined) => Promise<void>;
  beforeDelete?: (ctx: Ctx, row: EntityRow) => Promise<void>;
  /**
   * The rows the caller may reach, ANDed to every read, update and delete (and to the parent of a
   * child collection): e.g. a partner's key sees only its partner's agendas; others are 404.
   */
  rowScope?: (ctx: Ctx) => Promise<SQL | undefined>;
}

export interface EntityOptions {
  /** The record name of the spec (`moeda`, `agenda`); it is the path segment. */
  name: string;
  table: TenantTable;
  /** The entity's own fields as the API shows them (not id, not audit fields). */
  fields: TObject;
  idType?: 'uuid' | 'int64';
  /** Fields unique within a tenant: a duplicate is 409; imports upsert by them. */
  naturalKey?: string[];
  /**
   * The table's other unique indexes, by index name, with the fields each holds: a duplicate of one
   * is 409 naming its fields (not the natural key's). E.g. `{ patio_planta_cnpj: ['cnpj'] }`.
   */
  uniqueKeys?: Record<string, string[]>;
  description?: string;
  visibility?: Visibility;
  /** Kinds of key subject whose `public` keys may use this PRIVATE entity (its `rowScope` hook restricts them). */
  subjects?: readonly string[];
  /** Child collections: `/<name>/{parentId}/<child>`; `parentField` is the child's link column. */
  children?: Record<string, { entity: EntityDeclaration; parentField: string }>;
  hooks?: EntityHooks;
  /**
   * Writes the entity routes do not serve, because another way makes them (a service's actions, an
   * upload): `writes`, every POST, PUT, PATCH and DELETE; `creates`, the POSTs that add records.
   * Each text says why and what to call instead: the routes answer 405 with it, and the documents
   * leave them out.
   */
  refuses?: { writes?: string; creates?: string };
  /**
   * Columns that name a record of another service's entity (`domain/service/entity`), where no
   * foreign key can: the engine checks a value it writes names a record of the tenant, and refuses
   * to delete a record still named (core/references.ts).
   */
  references?: Record<string, string>;
}

/** A column of an entity that names records of another entity (EntityOptions.references). */
export interface EntityReference {
  /** `domain/service` of the entity that names. */
  service: string;
  entity: EntityDeclaration;
  column: string;
}

export interface EntityDeclaration
  extends Required<Omit<EntityOptions, 'description' | 'children' | 'hooks' | 'refuses'>> {
  description: string | undefined;
  refuses: { writes?: string | undefined; creates?: string | undefined };
  children: Record<string, { entity: EntityDeclaration; parentField: string }>;
  hooks: EntityHooks;
  /** Output: id, fields and audit fields. */
  schema: TObject;
  /** Input of POST and PUT: the fields, id optional (audit fields are ignored if sent). */
  input: TObject;
  /** Input of PATCH: every field optional. */
  patch: TObject;
  /** JSON field → column, for the filter language and orderby. */
  filterFields: FilterFields;
  /** The JSON fields stored in the table (id and audit fields excluded). */
  writable: string[];
  tableName: string;
}

// ── the context of a handler ──

/** What the process shares with every request: built once by buildApp. */
export interface Platform {
  config: Config;
  db: Database;
  registry: Registry;
  tenants: TenantDirectory;
  credentials: Credentials;
  jobs: Jobs;
  blobs: Blobs;
  /** The outbox's dispatcher: in-process subscribers (`events.subscribe`), webhooks, NATS. */
  events: Events;
  /** What this node holds (jobs, outbox cursors, webhook subscriptions), renewed while held. */
  leases: Leases;
  /** Each service's generated Swagger 2.0 / OpenAPI 3 document. */
  metadata: MetadataProvider;
  /** The tenant's user functions that the bridge runs after the primitive they are bound to. */
  functions?: FunctionHooks;
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
  /**
   * Where the caller reached the platform (scheme, host, any path before `/t/`): PUBLIC_URL when it
   * is configured, else the request's own address; PUBLIC_URL's default outside a request.
   */
  readonly baseUrl: string;
  /**
   * Aborted when long work should stop at its next safe point: the node is shutting down, or the
   * job's lease was lost (jobs only; a request's never aborts). Resumable jobs check it between steps.
   */
  readonly signal: AbortSignal;
  /** The operation's transaction; an operation declared `transaction: 'none'` has none. */
  readonly tx: Tx;
  /** Tenant-scoped queries on the operation's transaction (DESIGN.md "Persistence"). */
  readonly store: Store;
  now(): Date;
  /** Calls an operation of this service or of a declared dependency, in the same transaction. */
  call<O = unknown>(address: string, input: unknown): Promise<O>;
  /** Enqueues a durable job of this service; it commits (or not) with the operation. */
  enqueue(job: string, payload?: unknown, options?: { runAt?: Date }): Promise<string>;
  /** Appends an event to the outbox in this transaction: it is published exactly if the operation commits. */
  emit(topic: string, payload: unknown): Promise<void>;
  /**
   * Runs after the transaction commits (cache eviction, waking workers); the operation answers once
   * what `fn` returns has settled.
   */
  afterCommit(fn: () => unknown): void;
  /**
   * State that lives as long as this transaction, shared by the contexts of its ctx.call's: made by
   * `make` on the first use of `key`, gone with the transaction. (Never key state by `ctx.tx`: on a
   * PostgreSQL server it is the pooled connection's object, the same for all its transactions.)
   */
  transactionLocal<T>(key: symbol, make: () => T): T;
  /**
   * Runs `work` in a transaction of its own, committed when it returns: for operations declared
   * `transaction: 'none'` that must keep a record of a failure they then report (the failed part
   * rolls back, the record of it does not).
   */
  inTransaction<T>(work: (ctx: Ctx) => Promise<T>): Promise<T>;
}

export interface Invocation {
  tenant: TenantInfo;
  caller: Caller;
  requestId: string;
  log: FastifyBaseLogger;
  /** Ctx.baseUrl: the bridge sets it from the request; absent outside a request. */
  baseUrl?: string;
  /** Told the id of each job the operation enqueues (the bridge answers it in `x-job-id`). */
  onJob?: (id: string) => void;
  /** A job's: aborted when it should stop at its next safe point (Ctx.signal). */
  signal?: AbortSignal;
}
