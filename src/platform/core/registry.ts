import type { Static, TSchema } from 'typebox';
import type {
  Ctx,
  EntityDeclaration,
  EntityReference,
  JobDeclaration,
  Kind,
  Operation,
  Registry,
  ResolvedOperation,
  ServiceDeclaration,
  ServiceOptions,
  TransactionMode,
  Visibility,
} from './declarations.ts';
import type { BlobInfo } from './ports.ts';

// A service is data (DESIGN.md "One declaration per operation"): routing, validation,
// serialization, Swagger and the docs UI all derive from these declarations.

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
  /** Enqueues durable jobs, whose ids the bridge answers in `x-job-id` (always true for signals). */
  enqueues?: boolean;
  /** false where spec 001 §5 lists no 401 response for the operation (default: the service's). */
  declares401?: boolean;
  transaction?: TransactionMode;
  input: I;
  output?: O;
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
    enqueues: options.enqueues ?? kind === 'signals',
    declares401: options.declares401,
    transaction: options.transaction ?? (kind === 'queries' ? 'reads' : 'tenant'),
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

export function defineService<Ops extends Record<string, Operation>>(
  options: ServiceOptions<Ops>,
): ServiceDeclaration<Ops> {
  return {
    ...options,
    description: options.description,
    dependencies: options.dependencies ?? [],
    declares401: options.declares401 ?? true,
    entities: options.entities ?? [],
    imports: options.imports ?? {},
    exports: options.exports ?? {},
    jobs: options.jobs ?? {},
    blobUploads: options.blobUploads ?? {},
    subscriptions: options.subscriptions ?? {},
    id: `${options.domain}/${options.name}`,
  };
}

/** All services of this process, by `domain/service`, and their operations by address. */
export class ServiceRegistry implements Registry {
  private readonly services = new Map<string, ServiceDeclaration>();
  private readonly jobs = new Map<string, { service: ServiceDeclaration; job: JobDeclaration }>();
  private readonly entities = new Map<string, EntityDeclaration>();
  private readonly references = new Map<EntityDeclaration, EntityReference[]>();

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
      // Child collections by their own name too: what names one names its record.
      for (const entity of service.entities) {
        this.entities.set(`${service.id}/${entity.name}`, entity);
        for (const child of Object.values(entity.children))
          this.entities.set(`${service.id}/${child.entity.name}`, child.entity);
      }
    }
    for (const service of services) {
      for (const entity of service.entities) {
        for (const [column, address] of Object.entries(entity.references)) {
          const target = this.entities.get(address);
          if (!target)
            throw new Error(
              `Entity ${service.id}/${entity.name}: ${column} names ${address}, which is not served`,
            );
          const list = this.references.get(target) ?? [];
          list.push({ service: service.id, entity, column });
          this.references.set(target, list);
        }
      }
    }
  }

  entity(address: string): EntityDeclaration | undefined {
    return this.entities.get(address);
  }

  referencesTo(entity: EntityDeclaration): readonly EntityReference[] {
    return this.references.get(entity) ?? [];
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

/**
 * A service's import or export `kind`, only as the service declares it (`constructor` is no kind),
 * and what it does offer, for the message that refuses another: `its imports: A, B`, `it has no
 * imports`, or `no such service`.
 */
export function declaredKind<W extends 'imports' | 'exports'>(
  registry: Registry,
  service: string,
  which: W,
  kind: string,
): { target: ServiceDeclaration[W][string] | undefined; known: string } {
  const kinds = registry.service(service)?.[which];
  if (!kinds) return { target: undefined, known: 'no such service' };
  const names = Object.keys(kinds).sort();
  return {
    target: Object.hasOwn(kinds, kind) ? (kinds[kind] as ServiceDeclaration[W][string]) : undefined,
    known: names.length ? `its ${which}: ${names.join(', ')}` : `it has no ${which}`,
  };
}
