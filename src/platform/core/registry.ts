import type { Static, TSchema } from 'typebox';
import type { BlobInfo } from '../blobs/store.ts';
import type { Ctx } from './context.ts';
import type { EntityDeclaration } from './entity.ts';
import type { ExportTarget } from './export-target.ts';
import type { ImportTarget } from './import-target.ts';
import type { EventRecord } from './outbox.ts';

// A service is data (DESIGN.md "One declaration per operation"): routing, validation,
// serialization, Swagger and the docs UI all derive from these declarations.

export type Visibility = 'PUBLIC' | 'PRIVATE';
export type Kind = 'queries' | 'actions' | 'events' | 'signals';
/** How an operation touches the database: as its tenant (default), as the platform, or not at all. */
export type TransactionMode = 'tenant' | 'system' | 'none';

export interface OperationOptions<I extends TSchema, O extends TSchema> {
  description?: string;
  visibility?: Visibility;
  /**
   * Kinds of key subject (ctx.caller.subject) whose `public` keys may call this PRIVATE operation:
   * the handler then acts only for that subject (e.g. a carrier's key books only for its carrier).
   */
  subjects?: readonly string[];
  /** Also answers under `/anonymous/rest`, without credentials (spec: login, tenant lookup). */
  anonymous?: boolean;
  deprecated?: boolean;
  transaction?: TransactionMode;
  input: I;
  output?: O;
  handler: (ctx: Ctx, input: Static<I>) => Promise<Static<O>>;
}

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
  transaction: TransactionMode;
  description: string | undefined;
  input: I;
  output: O | undefined;
  handler: (ctx: Ctx, input: Static<I>) => Promise<Static<O>>;
}

function operation<I extends TSchema, O extends TSchema>(
  kind: Kind,
  options: OperationOptions<I, O>,
  shape: Pick<Operation, 'methods' | 'successStatus' | 'hasBody'>,
): Operation<I, O> {
  return {
    kind,
    ...shape,
    visibility: options.visibility ?? 'PRIVATE',
    subjects: options.subjects ?? [],
    anonymous: options.anonymous ?? false,
    deprecated: options.deprecated ?? false,
    transaction: options.transaction ?? 'tenant',
    description: options.description,
    input: options.input,
    output: options.output,
    handler: options.handler,
  };
}

/** A query: POST with a body; `get: true` where the spec also lists GET with query-string parameters. */
export function query<I extends TSchema, O extends TSchema>(
  options: OperationOptions<I, O> & { output: O; get?: boolean },
): Operation<I, O> {
  const methods = options.get ? (['POST', 'GET'] as const) : (['POST'] as const);
  return operation('queries', options, { methods, successStatus: 200, hasBody: true });
}

/** An action: POST → 200 with a JSON object (an empty object when it declares no field). */
export function action<I extends TSchema, O extends TSchema>(
  options: OperationOptions<I, O> & { output: O },
): Operation<I, O> {
  return operation('actions', options, { methods: ['POST'], successStatus: 200, hasBody: true });
}

/** An event: POST with its payload → 200 with no body. */
export function event<I extends TSchema>(options: OperationOptions<I, TSchema>): Operation<I, TSchema> {
  return operation('events', options, { methods: ['POST'], successStatus: 200, hasBody: false });
}

/** A signal: POST → 202; its effect runs afterwards as a durable job. */
export function signal<I extends TSchema>(options: OperationOptions<I, TSchema>): Operation<I, TSchema> {
  return operation('signals', options, { methods: ['POST'], successStatus: 202, hasBody: false });
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

export function defineService<Ops extends Record<string, Operation>>(
  options: ServiceOptions<Ops>,
): ServiceDeclaration<Ops> {
  return {
    ...options,
    description: options.description,
    dependencies: options.dependencies ?? [],
    entities: options.entities ?? [],
    imports: options.imports ?? {},
    exports: options.exports ?? {},
    jobs: options.jobs ?? {},
    blobUploads: options.blobUploads ?? {},
    subscriptions: options.subscriptions ?? {},
    id: `${options.domain}/${options.name}`,
  };
}

export interface ResolvedOperation {
  service: ServiceDeclaration;
  name: string;
  op: Operation;
}

/** All services of this process, by `domain/service`, and their operations by address. */
export class Registry {
  private readonly services = new Map<string, ServiceDeclaration>();
  private readonly jobs = new Map<string, { service: ServiceDeclaration; job: JobDeclaration }>();

  constructor(services: ServiceDeclaration[]) {
    for (const service of services) {
      if (this.services.has(service.id)) throw new Error(`Service ${service.id} is declared twice`);
      this.services.set(service.id, service);
      for (const [name, job] of Object.entries(service.jobs))
        this.jobs.set(`${service.id}/${name}`, { service, job });
    }
    for (const service of services) {
      for (const dep of service.dependencies) {
        if (!this.services.has(dep))
          throw new Error(`Service ${service.id} depends on ${dep}, which is not served`);
      }
    }
  }

  all(): ServiceDeclaration[] {
    return [...this.services.values()];
  }

  service(id: string): ServiceDeclaration | undefined {
    return this.services.get(id);
  }

  /** `domain/service/kind/operation` → the operation, or undefined. */
  resolve(address: string): ResolvedOperation | undefined {
    const [domain, serviceName, kind, name] = address.split('/');
    const service = this.services.get(`${domain}/${serviceName}`);
    const op = name === undefined ? undefined : service?.operations[name];
    if (!service || !op || op.kind !== kind || name === undefined) return undefined;
    return { service, name, op };
  }

  job(kind: string): { service: ServiceDeclaration; job: JobDeclaration } | undefined {
    return this.jobs.get(kind);
  }

  /** The service told when the blob `key` is uploaded, by the longest matching prefix. */
  blobUpload(
    key: string,
  ): { service: ServiceDeclaration; handler: (ctx: Ctx, blob: BlobInfo) => Promise<void> } | undefined {
    let found: ReturnType<Registry['blobUpload']>;
    let length = -1;
    for (const service of this.services.values()) {
      for (const [prefix, handler] of Object.entries(service.blobUploads)) {
        if (key.startsWith(prefix) && prefix.length > length) {
          found = { service, handler };
          length = prefix.length;
        }
      }
    }
    return found;
  }
}
