import type { Ctx } from '../../../platform/core/declarations.ts';
import { errors } from '../../../platform/core/errors.ts';
import { action, query } from '../../../platform/core/registry.ts';
import { DateTime, Int64, Type } from '../../../platform/core/schema.ts';
import {
  type FunctionRow,
  functionByPrimitive,
  newVersion,
  URL_SECONDS,
  uploadCode,
  versionsOf,
} from './code.ts';
import { LIMITS } from './entities.ts';
import { E } from './errors.ts';
import { persistedFunction, Segment } from './schemas.ts';

// The functions' own operations (spec 001 §4.10 and docs/functions.md): reading one
// (getFunction), uploading code (uploadFunctionCode; requestFunctionUpload, deprecated), running
// one directly (invokeFunction) and the CLI command that fetches its code.

const FileName = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^(?!\\.{1,2}$)[^/\\\\\\u0000-\\u001f\\u007f]+$',
  description: 'the file name of the code (no slash)',
});
const FunctionName = Type.String({ minLength: 1, maxLength: 100, description: 'the function’s name' });

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined);
const defined = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;

/** The persistedFunction record of a row, with its versions and a signed link to its current code. */
export async function persisted(ctx: Ctx, row: FunctionRow) {
  const versions = await versionsOf(ctx, String(row.id));
  const current = versions.find((v) => v.version === row.currentVersion);
  const codeUrl = current
    ? ctx.platform.blobs.sign(ctx.tenant.name, current.blobKey, 'get', URL_SECONDS, { baseUrl: ctx.baseUrl })
        .url
    : undefined;
  return defined({
    id: String(row.id),
    name: row.name,
    domainName: row.domainName,
    serviceName: row.serviceName,
    primitiveName: row.primitiveName,
    stage: row.stage,
    description: row.description ?? undefined,
    timeoutMs: row.timeoutMs,
    memoryLimitMb: row.memoryLimitMb,
    currentVersion: row.currentVersion ?? undefined,
    versions: versions.map((v) =>
      defined({
        version: v.version,
        uploadId: v.id,
        fileName: v.fileName,
        state: v.state,
        size: v.size ?? undefined,
        sha256: v.sha256 ?? undefined,
        createdBy: v.createdBy,
        createdDate: v.createdDate.toISOString(),
        uploadedDate: iso(v.uploadedDate),
      }),
    ),
    codeUrl,
    createdBy: row.createdBy,
    createdDate: iso(row.createdDate),
    lastModifiedBy: row.lastModifiedBy,
    lastModifiedDate: iso(row.lastModifiedDate),
  });
}

/** The shell-quoted form of a value: safe to paste whatever it holds. */
const quote = (value: string) =>
  /^[A-Za-z0-9_./:@=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;

export const functionOperations = {
  getFunction: query({
    description:
      'The function bound to a primitive: its stage, limits, versions and a signed link to its current code',
    get: true,
    visibility: 'PUBLIC',
    input: Type.Object({
      name: Segment('the primitive’s name'),
      domainName: Segment('the primitive’s domain'),
      serviceName: Segment('the primitive’s service'),
    }),
    output: persistedFunction,
    handler: async (ctx, input) =>
      persisted(ctx, await functionByPrimitive(ctx, input.domainName, input.serviceName, input.name)),
  }),

  getFunctionImportCommand: query({
    description:
      "The command that fetches a function's current code with this project's CLI (ponte function pull); " +
      'it reads the API key from the PONTE_API_KEY environment variable',
    get: true,
    visibility: 'PUBLIC',
    input: Type.Object({
      primitiveName: Segment('the primitive’s name'),
      domainName: Segment('the primitive’s domain'),
      serviceName: Segment('the primitive’s service'),
    }),
    output: Type.Object({ functionImportCommand: Type.String() }),
    handler: async (ctx, input) => {
      const fn = await functionByPrimitive(ctx, input.domainName, input.serviceName, input.primitiveName);
      if (fn.currentVersion === null) throw E.noCode({ name: fn.name, what: 'imported' });
      const primitive = `${fn.domainName}/${fn.serviceName}/${fn.primitiveName}`;
      const command = [
        'npx ponte function pull',
        quote(primitive),
        '--url',
        quote(ctx.baseUrl),
        '--tenant',
        quote(ctx.tenant.name),
        '--out',
        quote(`${fn.name}.js`),
      ].join(' ');
      return { functionImportCommand: command };
    },
  }),

  uploadFunctionCode: action({
    description:
      '(design) Stores JavaScript code as the next version of a function, which becomes its current version',
    transaction: 'none',
    input: Type.Object({
      functionName: FunctionName,
      fileName: Type.Optional(FileName),
      code: Type.String({ minLength: 1, maxLength: LIMITS.maxCodeBytes, description: 'the script' }),
    }),
    output: Type.Object({
      version: Int64(),
      uploadId: Type.String(),
      size: Int64(),
      sha256: Type.String(),
    }),
    handler: async (ctx, input) => {
      const done = await uploadCode(
        ctx,
        input.functionName,
        input.fileName ?? `${input.functionName}.js`,
        input.code,
      );
      return { version: done.version, uploadId: done.id, size: done.size ?? 0, sha256: done.sha256 ?? '' };
    },
  }),

  requestFunctionUpload: query({
    description:
      'Deprecated (due for removal, announced 2022-01-22): a signed, expiring URL to PUT the code of the next ' +
      'version of a function; use uploadFunctionCode',
    get: true,
    deprecated: true,
    // A query of the spec that writes: it records the announced version.
    transaction: 'tenant',
    input: Type.Object({ functionName: FunctionName, fileName: FileName }),
    output: Type.Object({
      uploadUrl: Type.String({ description: 'PUT the code here (at most 256 KiB), before expiresAt' }),
      uploadId: Type.String(),
      version: Type.Optional(Int64()),
      expiresAt: Type.Optional(DateTime()),
    }),
    handler: async (ctx, input) => {
      const version = await newVersion(ctx, input.functionName, input.fileName);
      const signed = ctx.platform.blobs.sign(ctx.tenant.name, version.blobKey, 'put', URL_SECONDS, {
        maxBytes: LIMITS.maxCodeBytes,
        baseUrl: ctx.baseUrl,
      });
      return {
        uploadUrl: signed.url,
        uploadId: version.id,
        version: version.version,
        expiresAt: signed.expiresAt,
      };
    },
  }),

  invokeFunction: action({
    description:
      '(design) Runs a function (DRAFT or ACTIVE) at its current version with the input given: its answer and logs',
    visibility: 'PUBLIC',
    transaction: 'none',
    input: Type.Object({
      name: Segment('the primitive’s name'),
      domainName: Segment('the primitive’s domain'),
      serviceName: Segment('the primitive’s service'),
      input: Type.Optional(
        Type.Object({}, { additionalProperties: true, description: 'what the function gets as event.input' }),
      ),
    }),
    output: Type.Object({
      function: Type.String(),
      version: Int64(),
      output: Type.Optional(Type.Unknown({ description: 'what the handler answered (any JSON)' })),
      logs: Type.Array(Type.String()),
      durationMs: Type.Number(),
    }),
    handler: async (ctx, input) => {
      const found = await ctx.inTransaction(async (tx) => {
        const fn = await functionByPrimitive(tx, input.domainName, input.serviceName, input.name);
        const versions = await versionsOf(tx, String(fn.id));
        return { fn, version: versions.find((v) => v.version === fn.currentVersion) };
      });
      const { fn, version } = found;
      if (!version) throw E.noCode({ name: fn.name, what: 'invoked' });
      if (fn.stage === 'DISABLED') throw E.disabled({ name: fn.name });
      const hooks = ctx.platform.functions;
      if (!hooks) throw errors.unavailable('Functions do not run on this node');
      const primitive = `${fn.domainName}/${fn.serviceName}/${fn.primitiveName}`;
      const loaded = await hooks.load(ctx.tenant.name, {
        id: String(fn.id),
        name: fn.name,
        primitive,
        version: version.version,
        versionId: version.id,
        blobKey: version.blobKey,
        timeoutMs: fn.timeoutMs,
        memoryLimitMb: fn.memoryLimitMb,
      });
      const event = {
        primitive: { domainName: fn.domainName, serviceName: fn.serviceName, name: fn.primitiveName },
        tenant: ctx.tenant.name,
        input: input.input ?? {},
        invoked: true,
      };
      const ran = await hooks.run(loaded, event);
      return {
        function: fn.name,
        version: version.version,
        output: ran.value,
        logs: ran.logs,
        durationMs: Math.round(ran.durationMs * 1000) / 1000,
      };
    },
  }),
};
