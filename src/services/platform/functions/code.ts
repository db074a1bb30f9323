import { Readable } from 'node:stream';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import type { BlobInfo } from '../../../platform/core/ports.ts';
import { syntaxError } from '../../../platform/functions/sandbox.ts';
import { userFunctions, userFunctionVersions } from '../../../platform/functions/tables.ts';
import { LIMITS } from './entities.ts';
import { E } from './errors.ts';

// The code of functions (docs/functions.md "Code and versions"): each upload is a new version, its
// bytes in the blob store under BLOB_PREFIX<versionId>, numbered under the function row's lock (the
// counter `last_version`), so concurrent uploads get distinct numbers and the latest stored wins.

export const BLOB_PREFIX = 'platform/functions/code/';
export const URL_SECONDS = 900;

export type FunctionRow = typeof userFunctions.$inferSelect;
type VersionRow = typeof userFunctionVersions.$inferSelect;

const who = (ctx: Ctx) => (ctx.caller.keyId ? `${ctx.caller.kind}:${ctx.caller.keyId}` : ctx.caller.kind);

export async function functionByName(ctx: Ctx, name: string, forUpdate = false): Promise<FunctionRow> {
  const [row] = await ctx.store.select(userFunctions, eq(userFunctions.name, name), { forUpdate });
  if (!row) throw E.functionNameNotFound({ name });
  return row;
}

export async function functionByPrimitive(
  ctx: Ctx,
  domainName: string,
  serviceName: string,
  primitiveName: string,
): Promise<FunctionRow> {
  const [row] = await ctx.store.select(
    userFunctions,
    and(
      eq(userFunctions.domainName, domainName),
      eq(userFunctions.serviceName, serviceName),
      eq(userFunctions.primitiveName, primitiveName),
    ),
  );
  if (!row) throw E.functionNotFound({ primitive: `${domainName}/${serviceName}/${primitiveName}` });
  return row;
}

export function versionsOf(ctx: Ctx, functionId: string): Promise<VersionRow[]> {
  return ctx.tx
    .select()
    .from(userFunctionVersions)
    .where(ctx.store.scope(userFunctionVersions, eq(userFunctionVersions.functionId, functionId)))
    .orderBy(asc(userFunctionVersions.version));
}

/** A new version of the function named `name`, PENDING until its bytes are stored. */
export async function newVersion(ctx: Ctx, name: string, fileName: string): Promise<VersionRow> {
  const fn = await functionByName(ctx, name);
  // The counter row: its update locks the function until commit, so numbers never repeat.
  const [counted] = await ctx.store
    .update(
      userFunctions,
      { lastVersion: sql`${userFunctions.lastVersion} + 1` },
      eq(userFunctions.id, String(fn.id)),
    )
    .returning({ lastVersion: userFunctions.lastVersion });
  const id = crypto.randomUUID();
  const [row] = await ctx.store
    .insert(userFunctionVersions, [
      {
        id,
        functionId: String(fn.id),
        version: counted!.lastVersion,
        fileName,
        blobKey: `${BLOB_PREFIX}${id}`,
        state: 'PENDING',
        createdBy: who(ctx),
        createdDate: ctx.now(),
      },
    ])
    .returning();
  return row!;
}

/**
 * Records that a version's bytes are stored, and makes it the function's current version unless a
 * later-numbered one is already current (concurrent uploads: the highest number wins).
 */
export async function markUploaded(
  ctx: Ctx,
  versionId: string,
  blob: BlobInfo,
): Promise<VersionRow | undefined> {
  const [row] = await ctx.store
    .update(
      userFunctionVersions,
      { state: 'UPLOADED', size: blob.size, sha256: blob.sha256, uploadedDate: ctx.now() },
      eq(userFunctionVersions.id, versionId),
    )
    .returning();
  if (!row) return undefined;
  await ctx.store.update(
    userFunctions,
    {
      currentVersion: sql`greatest(coalesce(${userFunctions.currentVersion}, 0), ${row.version})`,
      lastModifiedBy: who(ctx),
      lastModifiedDate: ctx.now(),
    },
    eq(userFunctions.id, row.functionId),
  );
  ctx.afterCommit(() => ctx.platform.functions?.evict(ctx.tenant.name));
  return row;
}

/** The blob store tells when a signed upload (requestFunctionUpload) completed. */
export async function codeUploaded(ctx: Ctx, blob: BlobInfo): Promise<void> {
  await markUploaded(ctx, blob.key.slice(BLOB_PREFIX.length), blob);
}

/** Checks code before it is stored: its size and that it compiles. */
export async function checkCode(code: string): Promise<void> {
  const bytes = Buffer.byteLength(code, 'utf8');
  if (bytes > LIMITS.maxCodeBytes) throw E.codeTooLarge({ max: LIMITS.maxCodeBytes });
  // Code that breaks the compiler itself (or outlasts the check) is refused as well.
  const error = await syntaxError(code).catch((err: Error) => `the compiler stopped: ${err.message}`);
  if (error) throw E.invalidCode({ error });
}

/** Stores `code` as a new version (uploadFunctionCode): three steps, since the blob store commits on its own. */
export async function uploadCode(ctx: Ctx, name: string, fileName: string, code: string) {
  await checkCode(code);
  const version = await ctx.inTransaction((tx) => newVersion(tx, name, fileName));
  const blob = await ctx.platform.blobs.write(
    ctx.tenant.name,
    version.blobKey,
    Readable.from([Buffer.from(code, 'utf8')]),
    'application/javascript',
    LIMITS.maxCodeBytes,
  );
  const done = await ctx.inTransaction((tx) => markUploaded(tx, version.id, blob));
  return done!;
}
