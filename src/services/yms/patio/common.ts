import type { Ctx } from '../../../platform/core/declarations.ts';
import { compactRow } from '../../../platform/core/rows.ts';
import { type TSchema, Type } from '../../../platform/core/schema.ts';

// Small helpers every part of yms/patio shares.

/** Drops null fields and the tenant: outputs show only what is set (as the entity engine does). */
export const compact = compactRow;

/** The audit name of the caller, as the entity engine writes it. */
export const quem = (ctx: Ctx) =>
  ctx.caller.keyId ? `${ctx.caller.kind}:${ctx.caller.keyId}` : ctx.caller.kind;

/** The audit fields of a change made by an action. */
export const alteradoPor = (ctx: Ctx) => ({ lastModifiedBy: quem(ctx), lastModifiedDate: ctx.now() });

export { containsPattern, containsText, likeFolded } from '../../../platform/core/db/search.ts';
export { dateIn } from '../../../platform/core/time.ts';

/** A string schema of at most `max` characters (at least `min` when given). */
export const Str = (max: number, description?: string, min = 0) =>
  Type.String({
    maxLength: max,
    ...(min ? { minLength: min } : {}),
    ...(description ? { description } : {}),
  });
/** A UUID reference. */
export const Id = (description: string) => Type.String({ format: 'uuid', description });
/** A field only the yard's actions change: shown, and ignored when sent. */
export const ReadOnly = <T extends TSchema>(schema: T, what: string) =>
  Type.Optional({ ...schema, description: `read-only: ${what}; a value sent is ignored` } as T);
