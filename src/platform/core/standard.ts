import type { Operation, Platform, Visibility } from './declarations.ts';
import { errors } from './errors.ts';
import { query } from './registry.ts';
import { Enum, Record, Type } from './schema.ts';
import { CheckData, Dependency, UpDown } from './shared-records.ts';

// The standard operations of spec 001 §2.1, declared once and added to each service with the
// variant that service's document gives (health operation name, shape of `checks`, visibility of
// getDependencies).

export type CheckStatus = 'UP' | 'DOWN';
export interface Check {
  name: string;
  status: CheckStatus;
}

const HEALTH_TIMEOUT_MS = 2000;

async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The platform's dependencies as named checks: the database now; the broker and blob store later. */
export async function runChecks(platform: Platform): Promise<Check[]> {
  const probes: Array<[string, () => Promise<unknown>]> = [['database', () => platform.db.ping()]];
  return Promise.all(
    probes.map(async ([name, probe]) => {
      try {
        await within(probe(), HEALTH_TIMEOUT_MS);
        return { name, status: 'UP' as const };
      } catch (err) {
        platform.log.warn({ err, check: name }, 'health check failed');
        return { name, status: 'DOWN' as const };
      }
    }),
  );
}

const overall = (checks: Check[]): CheckStatus => (checks.every((c) => c.status === 'UP') ? 'UP' : 'DOWN');

const METADATA_FORMATS: Record<string, 'swagger' | 'openapi'> = {
  swagger: 'swagger',
  swagger2: 'swagger',
  'swagger-2.0': 'swagger',
  openapi: 'openapi',
  openapi3: 'openapi',
  'openapi-3.0': 'openapi',
};

export interface StandardOptions {
  /** Name of the health operation (`healthCheck` in com_comum); omitted where the spec has none. */
  health?: 'healthcheck' | 'healthCheck';
  /**
   * `checkDTO`: status heathcheckDTO and one checkDTO object (platform_integration, managementpanel);
   * `checkData`: status upDown and an array of checkData (oficina, com_comum, sku_produto).
   */
  healthShape?: 'checkDTO' | 'checkData';
  dependenciesVisibility?: Visibility;
  metadata?: boolean;
}

// The health enum by the spec's name (spec 001 §2: heathcheckDTO, as spelled there), a named
// definition in the documents as functions' healthCheckStatus is; upDown is shared (spec 000 §2.2).
const HeathcheckDTO = Record('heathcheckDTO', Enum(['UP', 'DOWN']));

export function standardOperations(options: StandardOptions): Record<string, Operation> {
  const ops: Record<string, Operation> = {};
  if (options.metadata !== false) {
    ops.getMetadata = query({
      description:
        "The service's Swagger 2.0 document (OpenAPI 3 on request), generated from its declarations and addressed to the tenant as the caller reached it",
      get: true,
      transaction: 'none',
      input: Type.Object({
        metadataFormat: Type.Optional(
          Type.String({ description: 'swagger (default) or openapi; case-insensitive', maxLength: 20 }),
        ),
      }),
      output: Type.Object({ metadata: Type.String() }),
      handler: async (ctx, input) => {
        const requested = (input.metadataFormat ?? 'swagger').toLowerCase();
        const format = METADATA_FORMATS[requested];
        if (!format) {
          throw errors.badRequest(
            `Invalid field 'metadataFormat': must be one of swagger, openapi (got ${requested})`,
          );
        }
        // Addressed to the tenant as the caller reached it, so a client generated from it works.
        const address = { baseUrl: ctx.baseUrl, tenant: ctx.tenant.name };
        return { metadata: JSON.stringify(ctx.platform.metadata(ctx.service.id, format, address)) };
      },
    });
  }
  ops.getDependencies = query({
    description: 'The services this service calls, with their versions',
    get: true,
    visibility: options.dependenciesVisibility ?? 'PRIVATE',
    transaction: 'none',
    input: Type.Object({}),
    output: Type.Object({
      dependencies: Type.Array(Dependency),
    }),
    handler: async (ctx) => ({
      dependencies: ctx.service.dependencies.map((id) => {
        const dep = ctx.platform.registry.service(id)!;
        return { domain: dep.domain, service: dep.name, version: dep.version };
      }),
    }),
  });
  if (options.health) {
    ops[options.health] =
      options.healthShape === 'checkData'
        ? query({
            description: 'Health of the service and of what it depends on',
            get: true,
            transaction: 'none',
            input: Type.Object({}),
            output: Type.Object({
              status: UpDown,
              checks: Type.Array(CheckData, { minItems: 1 }),
            }),
            handler: async (ctx) => {
              const checks = await runChecks(ctx.platform);
              return { status: overall(checks), checks };
            },
          })
        : query({
            description: 'Health of the service and of what it depends on',
            get: true,
            transaction: 'none',
            input: Type.Object({}),
            output: Type.Object({
              status: HeathcheckDTO,
              checks: Record('checkDTO', Type.Object({ name: Type.String(), status: HeathcheckDTO })),
            }),
            handler: async (ctx) => {
              // One checkDTO object (spec 001 §2.1): it names the failing checks, or all when UP.
              const checks = await runChecks(ctx.platform);
              const down = checks.filter((c) => c.status === 'DOWN');
              const status = overall(checks);
              return {
                status,
                checks: { name: (down.length ? down : checks).map((c) => c.name).join(','), status },
              };
            },
          });
  }
  return ops;
}
