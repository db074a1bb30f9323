import type { Readable } from 'node:stream';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../core/db/database.ts';
import { ApiError } from '../core/errors.ts';
import type { Blobs, BoundFunction, FunctionHooks, FunctionRun } from '../core/ports.ts';
import { runInSandbox, SandboxError, type SandboxFailure } from './sandbox.ts';
import { userFunctions, userFunctionVersions } from './tables.ts';

// What the bridge asks of the tenant's functions (core/ports.ts FunctionHooks): which ACTIVE function
// is bound to a primitive, and running one. Each node keeps, per tenant, the bindings it read for
// BINDINGS_TTL_MS (every bridge call asks, so this saves a query per call) and evicts them when a
// change commits here; every other node hears of it at once through the database's notices (and,
// should a notice be lost with its listener, forgets every tenant's bindings: docs/functions.md
// "Binding").
// Code is kept by version id: a version's bytes never change once uploaded.

export const BINDINGS_TTL_MS = 5000;
const MAX_CODE_ENTRIES = 1000;

const REASONS: Record<SandboxFailure, string> = {
  threw: 'threw an error',
  timeout: 'was stopped: it ran past its time limit of',
  memory: 'was stopped: it ran out of its memory limit of',
  invalid: 'answered something unusable',
  crashed: 'was stopped',
};

/** The genericError of a function that failed: 422, naming the function and what happened. */
export function functionFailed(fn: BoundFunction, err: SandboxError): ApiError {
  const limited = err.kind === 'timeout' || err.kind === 'memory';
  const detail =
    err.kind === 'timeout'
      ? `${fn.timeoutMs} ms`
      : err.kind === 'memory'
        ? `${fn.memoryLimitMb} MB`
        : err.message;
  return new ApiError(
    'UNPROCESSABLE',
    `Function ${fn.name} (bound to ${fn.primitive}) ${REASONS[err.kind]}${limited ? ' ' : ': '}${detail}`,
    { code: `function_${err.kind}` },
  );
}

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

interface Binding {
  id: string;
  name: string;
  versionId: string;
  version: number;
  blobKey: string;
  timeoutMs: number;
  memoryLimitMb: number;
}

export class FunctionRuntime implements FunctionHooks {
  private readonly bindings = new Map<string, { until: number; byPrimitive: Map<string, Binding> }>();
  private readonly code = new Map<string, string>();

  constructor(
    private readonly db: Database,
    private readonly blobs: Blobs,
  ) {
    db.notices.on(
      'functions',
      (notice) => this.bindings.delete(String(notice.tenant)),
      () => this.bindings.clear(),
    );
  }

  private async bindingsOf(tenant: string): Promise<Map<string, Binding>> {
    const held = this.bindings.get(tenant);
    if (held && held.until > Date.now()) return held.byPrimitive;
    const rows = await this.db.tenant(
      tenant,
      (tx) =>
        tx
          .select({
            id: userFunctions.id,
            name: userFunctions.name,
            domainName: userFunctions.domainName,
            serviceName: userFunctions.serviceName,
            primitiveName: userFunctions.primitiveName,
            timeoutMs: userFunctions.timeoutMs,
            memoryLimitMb: userFunctions.memoryLimitMb,
            versionId: userFunctionVersions.id,
            version: userFunctionVersions.version,
            blobKey: userFunctionVersions.blobKey,
          })
          .from(userFunctions)
          .innerJoin(
            userFunctionVersions,
            and(
              eq(userFunctionVersions.tenant, userFunctions.tenant),
              eq(userFunctionVersions.functionId, userFunctions.id),
              eq(userFunctionVersions.version, userFunctions.currentVersion),
            ),
          )
          .where(
            and(
              eq(userFunctions.tenant, tenant),
              eq(userFunctions.stage, 'ACTIVE'),
              isNotNull(userFunctions.currentVersion),
            ),
          ),
      { reads: true },
    );
    const byPrimitive = new Map<string, Binding>();
    for (const r of rows)
      byPrimitive.set(`${r.domainName}/${r.serviceName}/${r.primitiveName}`, { ...r, id: String(r.id) });
    this.bindings.set(tenant, { until: Date.now() + BINDINGS_TTL_MS, byPrimitive });
    return byPrimitive;
  }

  /** The code of a version, from the blob store once per node. */
  async codeOf(tenant: string, versionId: string, blobKey: string): Promise<string> {
    const key = `${tenant}\n${versionId}`;
    const held = this.code.get(key);
    if (held !== undefined) return held;
    const { stream } = await this.blobs.open(tenant, blobKey);
    const code = await text(stream);
    if (this.code.size >= MAX_CODE_ENTRIES) this.code.delete(this.code.keys().next().value as string);
    this.code.set(key, code);
    return code;
  }

  bound(tenant: string, primitive: string): Promise<BoundFunction | undefined> | undefined {
    const held = this.bindings.get(tenant);
    if (held && held.until > Date.now() && !held.byPrimitive.has(primitive)) return undefined;
    return this.read(tenant, primitive);
  }

  private async read(tenant: string, primitive: string): Promise<BoundFunction | undefined> {
    const binding = (await this.bindingsOf(tenant)).get(primitive);
    if (!binding) return undefined;
    return {
      id: binding.id,
      name: binding.name,
      primitive,
      version: binding.version,
      code: await this.codeOf(tenant, binding.versionId, binding.blobKey),
      timeoutMs: binding.timeoutMs,
      memoryLimitMb: binding.memoryLimitMb,
    };
  }

  async load(
    tenant: string,
    fn: Omit<BoundFunction, 'code'> & { versionId: string; blobKey: string },
  ): Promise<BoundFunction> {
    const { versionId, blobKey, ...rest } = fn;
    return { ...rest, code: await this.codeOf(tenant, versionId, blobKey) };
  }

  async run(fn: BoundFunction, event: unknown): Promise<FunctionRun> {
    try {
      return await runInSandbox(fn.code, event, fn);
    } catch (err) {
      if (err instanceof SandboxError) throw functionFailed(fn, err);
      throw err;
    }
  }

  /** Forgets the tenant's bindings here and on every other node (called after a change commits). */
  evict(tenant: string): void {
    this.bindings.delete(tenant);
    this.db.notices.announce({ about: 'functions', tenant }).catch(() => {});
  }
}
