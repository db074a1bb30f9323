import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { query } from '../../../platform/core/registry.ts';
import { NoInput, Type } from '../../../platform/core/schema.ts';
import { runChecks } from '../../../platform/core/standard.ts';
import { runInSandbox } from '../../../platform/functions/sandbox.ts';
import { userFunctions } from '../../../platform/functions/tables.ts';
import { LIMITS } from './entities.ts';
import {
  endpointStage,
  environmentInformation,
  functionsAccess,
  healthcheckOutput,
  stages,
} from './schemas.ts';
import { consultant, developer } from './tables.ts';

// The tenant's environment for functions (spec 001 §4.10; records designed in docs/functions.md):
// health, the steps of an endpoint and of the environment, its facts, and how to call a function.

export const RUNTIME = 'quickjs-emscripten 0.32 (QuickJS in WebAssembly)';
const BRIDGE = (ctx: Ctx) => `${ctx.baseUrl}/t/${ctx.tenant.name}/bridge/1.0`;

/** The sandbox answers a trivial function: it is loaded and runs. */
async function sandboxCheck(): Promise<{ ok: boolean; detail: string }> {
  try {
    const ran = await runInSandbox(
      'function handler(e) { return e.a + 1 }',
      { a: 1 },
      {
        timeoutMs: 1000,
        memoryLimitMb: 8,
      },
    );
    return ran.value === 2
      ? { ok: true, detail: `runs code (${ran.durationMs.toFixed(1)} ms)` }
      : { ok: false, detail: 'answered wrong' };
  } catch (err) {
    return { ok: false, detail: (err as Error).message };
  }
}

async function blobCheck(ctx: Ctx): Promise<{ ok: boolean; detail: string }> {
  try {
    await ctx.platform.blobs.stat(ctx.tenant.name, 'platform/functions/code/probe');
    return { ok: true, detail: 'reachable' };
  } catch (err) {
    ctx.log.warn({ err }, 'functions: blob store check failed');
    return { ok: false, detail: 'unreachable' };
  }
}

export const environmentOperations = {
  healthcheck: query({
    description:
      'Health of functions: the database, the blob store that holds the code, and the sandbox that runs it',
    get: true,
    transaction: 'none',
    input: NoInput(),
    output: healthcheckOutput,
    handler: async (ctx) => {
      const [platform, blobs, sandbox] = await Promise.all([
        runChecks(ctx.platform),
        blobCheck(ctx),
        sandboxCheck(),
      ]);
      const checks = [
        ...platform.map((c) => ({ name: c.name, status: c.status })),
        { name: 'blobStore', status: blobs.ok ? ('UP' as const) : ('DOWN' as const), detail: blobs.detail },
        { name: 'sandbox', status: sandbox.ok ? ('UP' as const) : ('DOWN' as const), detail: sandbox.detail },
      ];
      return { status: checks.every((c) => c.status === 'UP') ? ('UP' as const) : ('DOWN' as const), checks };
    },
  }),

  getEndpointStages: query({
    description:
      'The steps of configuring a function endpoint, in order, with how many of the tenant’s functions are at each',
    get: true,
    visibility: 'PUBLIC',
    input: NoInput(),
    output: Type.Object({ stages: Type.Array(endpointStage) }),
    handler: async (ctx) => {
      const count = (where: ReturnType<typeof and>) => ctx.store.count(userFunctions, where);
      const draft = eq(userFunctions.stage, 'DRAFT');
      const steps: Array<[string, string, ReturnType<typeof and>]> = [
        [
          'DECLARED',
          'declared (entity function) and bound to a primitive; no code yet',
          and(draft, isNull(userFunctions.currentVersion)),
        ],
        [
          'UPLOADED',
          'code uploaded (uploadFunctionCode); runs when invoked (invokeFunction), not yet on the primitive',
          and(draft, isNotNull(userFunctions.currentVersion)),
        ],
        [
          'ACTIVE',
          'stage ACTIVE: the bridge runs it after every call of its primitive',
          eq(userFunctions.stage, 'ACTIVE'),
        ],
        ['DISABLED', 'stage DISABLED: kept, run by nobody', eq(userFunctions.stage, 'DISABLED')],
      ];
      const stagesOut = [];
      for (const [i, [name, description, where]] of steps.entries()) {
        stagesOut.push({ order: i + 1, name, description, functions: await count(where) });
      }
      return { stages: stagesOut };
    },
  }),

  getStages: query({
    description: 'The status of the processes that made the tenant’s functions environment',
    get: true,
    visibility: 'PUBLIC',
    transaction: 'none',
    input: NoInput(),
    output: stages,
    handler: async (ctx) => {
      const [checks, blobs, sandbox, keys] = await Promise.all([
        runChecks(ctx.platform),
        blobCheck(ctx),
        sandboxCheck(),
        ctx.platform.credentials.listKeys(ctx.tenant.name),
      ]);
      const database = checks.find((c) => c.name === 'database')?.status === 'UP';
      const active = keys.filter((k) => !k.revokedAt).length;
      const step = (name: string, ok: boolean, detail: string, finishedAt?: string) => ({
        name,
        status: ok ? ('DONE' as const) : ('FAILED' as const),
        detail,
        ...(ok && finishedAt ? { finishedAt } : {}),
      });
      const steps = [
        step('tenant', true, `tenant ${ctx.tenant.name} created`, ctx.tenant.createdAt),
        step('database', database, database ? 'tables migrated and reachable' : 'database unreachable'),
        step('blobStore', blobs.ok, `code storage ${blobs.detail}`),
        step('sandbox', sandbox.ok, `sandbox ${sandbox.detail}`),
        step(
          'credentials',
          active > 0,
          active > 0 ? `${active} active API key(s)` : 'no active API key: create one (ponte key create)',
        ),
      ];
      return {
        status: steps.every((s) => s.status === 'DONE') ? ('DONE' as const) : ('FAILED' as const),
        steps,
      };
    },
  }),

  getEnvironmentInformation: query({
    description: 'The tenant’s functions environment: where it answers, the sandbox, limits and counts',
    get: true,
    visibility: 'PUBLIC',
    input: NoInput(),
    output: environmentInformation,
    handler: async (ctx) => {
      const [functions, active, developers, consultants] = await Promise.all([
        ctx.store.count(userFunctions),
        ctx.store.count(userFunctions, eq(userFunctions.stage, 'ACTIVE')),
        ctx.store.count(developer),
        ctx.store.count(consultant),
      ]);
      return {
        tenant: ctx.tenant.name,
        edition: ctx.tenant.edition,
        timeZone: ctx.tenant.timeZone,
        createdAt: ctx.tenant.createdAt,
        baseUrl: BRIDGE(ctx),
        serviceVersion: ctx.service.version,
        runtime: RUNTIME,
        language: 'JavaScript (ES2023 script): function handler(event) { ... }',
        limits: LIMITS,
        functions,
        activeFunctions: active,
        developers,
        consultants,
      };
    },
  }),

  getFunctionsAccess: query({
    description: 'What a caller needs to run a function over HTTP: its address and the credential to send',
    get: true,
    visibility: 'PUBLIC',
    transaction: 'none',
    input: NoInput(),
    output: functionsAccess,
    handler: async (ctx) => ({
      invokeUrl: `${BRIDGE(ctx)}/rest/platform/functions/actions/invokeFunction`,
      method: 'POST',
      contentType: 'application/json',
      authorizationHeader: 'Authorization',
      credential:
        `an API key of tenant ${ctx.tenant.name} ("Authorization: <apiKey>"), or "Bearer <accessToken>" ` +
        'from loginWithKey; a public-scope key is enough',
      scope: 'public',
      loginUrl: `${BRIDGE(ctx)}/anonymous/rest/platform/authentication/actions/loginWithKey`,
      bodyExample: JSON.stringify({
        domainName: '<domain>',
        serviceName: '<service>',
        name: '<primitive>',
        input: {},
      }),
    }),
  }),
};
