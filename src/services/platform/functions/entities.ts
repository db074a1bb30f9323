import type { Ctx } from '../../../platform/core/declarations.ts';
import { defineEntity } from '../../../platform/core/entity.ts';
import { Int64, Type } from '../../../platform/core/schema.ts';
import { userFunctions } from '../../../platform/functions/tables.ts';
import { E } from './errors.ts';
import { FunctionStage, Segment } from './schemas.ts';
import { consultant as consultantTable, developer as developerTable } from './tables.ts';

// The generic entities of platform/functions (docs/functions.md "Creating, changing, removing"):
// `function` (the binding and its limits; code goes through uploadFunctionCode or
// requestFunctionUpload), `developer` and `consultant`. Create, update, remove and list come from
// the entity engine (spec 000 §2.3).

export const LIMITS = {
  defaultTimeoutMs: 200,
  maxTimeoutMs: 5000,
  defaultMemoryLimitMb: 16,
  maxMemoryLimitMb: 64,
  maxCodeBytes: 256 * 1024,
} as const;

const opt = Type.Optional;
const Name = (description: string) => Type.String({ minLength: 1, maxLength: 150, description });

/** The services whose operations no function may customise: this one (a function would run itself). */
const UNBINDABLE = ['platform/functions'];

/** The primitive a function names must be a query or action this process declares. */
export function primitiveOf(ctx: Ctx, row: Record<string, unknown>): string {
  const service = `${row.domainName}/${row.serviceName}`;
  const primitive = `${service}/${row.primitiveName}`;
  if (UNBINDABLE.includes(service)) throw E.unbindable({ field: 'serviceName', service });
  const declared = ctx.platform.registry.service(service);
  const op = declared?.operations[String(row.primitiveName)];
  if (!op?.hasBody || !op.output) throw E.unknownPrimitive({ primitive });
  return primitive;
}

const evictAfterCommit = (ctx: Ctx) => ctx.afterCommit(() => ctx.platform.functions?.evict(ctx.tenant.name));

export const functionEntity = defineEntity({
  name: 'function',
  description:
    "The tenant's user functions, each bound to one primitive (a query or action of a service). " +
    'Upload its code with uploadFunctionCode; stage ACTIVE makes the bridge run it on every call',
  table: userFunctions,
  naturalKey: ['name'],
  fields: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' }),
    domainName: Segment('domain of the primitive (yms)'),
    serviceName: Segment('service of the primitive (agenda)'),
    primitiveName: Segment('the query or action customised'),
    stage: opt(FunctionStage),
    description: opt(Type.String({ maxLength: 500 })),
    timeoutMs: opt(
      Int64({
        minimum: 1,
        maximum: LIMITS.maxTimeoutMs,
        description: `time limit of one run, ms (default ${LIMITS.defaultTimeoutMs})`,
      }),
    ),
    memoryLimitMb: opt(
      Int64({
        minimum: 1,
        maximum: LIMITS.maxMemoryLimitMb,
        description: `memory limit of one run, MB (default ${LIMITS.defaultMemoryLimitMb})`,
      }),
    ),
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      // Not-null fields left out (a create, or a PUT, which replaces every field) take their defaults.
      next.stage ??= 'DRAFT';
      next.timeoutMs ??= LIMITS.defaultTimeoutMs;
      next.memoryLimitMb ??= LIMITS.defaultMemoryLimitMb;
      primitiveOf(ctx, next);
      const stage = next.stage;
      // ACTIVE needs code to run: the version is set by an upload, never by this entity.
      if (stage === 'ACTIVE' && (previous?.currentVersion ?? null) === null) {
        throw E.noCode({ name: String(next.name ?? previous?.name), what: 'ACTIVE' });
      }
      evictAfterCommit(ctx);
    },
    beforeDelete: async (ctx) => evictAfterCommit(ctx),
  },
});

/** `active` left out (a create, or a PUT, which replaces every field) is true. */
async function activeByDefault(_ctx: Ctx, next: Record<string, unknown>): Promise<void> {
  next.active ??= true;
}

export const developerEntity = defineEntity({
  name: 'developer',
  description: "The tenant's developers, who write its functions",
  table: developerTable,
  naturalKey: ['email'],
  hooks: { beforeSave: activeByDefault },
  fields: Type.Object({
    name: Name('full name'),
    email: Type.String({ format: 'email', maxLength: 200 }),
    login: opt(Type.String({ maxLength: 100 })),
    phone: opt(Type.String({ maxLength: 30 })),
    active: opt(Type.Boolean({ description: 'false once the person left (default true)' })),
  }),
});

export const consultantEntity = defineEntity({
  name: 'consultant',
  description: "Consultants of partner firms who write the tenant's functions",
  table: consultantTable,
  naturalKey: ['email'],
  hooks: { beforeSave: activeByDefault },
  fields: Type.Object({
    name: Name('full name'),
    email: Type.String({ format: 'email', maxLength: 200 }),
    company: opt(Type.String({ maxLength: 150, description: 'the consultancy firm' })),
    phone: opt(Type.String({ maxLength: 30 })),
    active: opt(Type.Boolean({ description: 'false once the person left (default true)' })),
  }),
});
