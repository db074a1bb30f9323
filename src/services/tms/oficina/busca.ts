import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { containsText } from '../../../platform/core/db/search.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { Int64, Type } from '../../../platform/core/schema.ts';
import { falhas } from './errors.ts';
import { OrderBy } from './ordem.ts';
import { missing, REF } from './refs.ts';

// What the seven queries of spec 001 §4.7 share (docs/oficina.md "Queries"): every filter is
// optional and ANDed; text filters on descriptions match a part, case-insensitive; codes match
// exactly; cdSetores is a comma-separated list of sector codes. A filter naming a branch or a sector
// the tenant does not hold is answered ok false with dsErro (spec 001 §7) and an empty list; a
// malformed filter is a 400 genericError naming it.

export const MAX_SIZE = 1000;

/**
 * recPageRequest (spec 001 §8: offset ≥ 0, the page index; size ≥ 1; orderBy, ordem.ts), flat so
 * GET carries offset and size.
 */
export const Page = {
  offset: Type.Optional(Int64({ minimum: 0, description: 'recPageRequest offset: the page index, from 0' })),
  size: Type.Optional(
    Int64({
      minimum: 1,
      maximum: MAX_SIZE,
      description: `recPageRequest size: rows per page (default ${MAX_SIZE})`,
    }),
  ),
  orderBy: OrderBy,
};

export const CdSetores = () =>
  Type.Optional(
    Type.String({
      pattern: '^\\s*\\d{1,15}(\\s*,\\s*\\d{1,15})*\\s*$',
      maxLength: 2000,
      description: 'sectors: a comma-separated list of cdSetor (1,4,7); an item in any of them',
    }),
  );

export const setoresOf = (cdSetores: string | undefined): number[] | undefined =>
  cdSetores === undefined ? undefined : [...new Set(cdSetores.split(',').map((s) => Number(s.trim())))];

/** The text of an in-response failure for filters naming a branch or sectors not held, if any. */
export async function falhaDosFiltros(
  ctx: Ctx,
  input: { cdEmpresa?: number; cdSetores?: string },
): Promise<string | undefined> {
  if (input.cdEmpresa !== undefined && (await missing(ctx, REF.filial, [input.cdEmpresa])).length)
    return falhas.filial(input.cdEmpresa);
  const setores = setoresOf(input.cdSetores);
  if (setores) {
    const faltam = await missing(ctx, REF.setor, setores);
    if (faltam.length) return faltas(faltam);
  }
  return undefined;
}
const faltas = (cds: number[]) => (cds.length === 1 ? falhas.setor(cds[0]!) : falhas.setores(cds));

/** limit and offset of a page (offset is the page index). */
export const pageOf = (input: { offset?: number; size?: number }) => {
  const size = input.size ?? MAX_SIZE;
  return { limit: size, offset: (input.offset ?? 0) * size };
};

/** The condition when a value is given. */
export const when = <V>(value: V | undefined, cond: (v: V) => SQL | undefined): SQL | undefined =>
  value === undefined || value === '' ? undefined : cond(value);

export const like = (column: AnyPgColumn | SQL, text: string | undefined) =>
  when(text?.trim(), (t) => containsText(column, t));

export const placa = (column: AnyPgColumn, nrPlaca: string | undefined) =>
  when(nrPlaca?.trim(), (p) => sql`upper(${column}) = ${p.toUpperCase()}`);

export const naLista = (column: AnyPgColumn, cdSetores: string | undefined) =>
  when(setoresOf(cdSetores), (cds) => inArray(column, cds));

/** The item's branch, or its vehicle's when the item names none. */
export const empresaDe = (item: AnyPgColumn, doVeiculo: AnyPgColumn, cdEmpresa: number | undefined) =>
  when(cdEmpresa, (cd) => eq(sql`coalesce(${item}, ${doVeiculo})`, cd));

/** A row as a record: null fields left out, instants as ISO 8601. */
export function record<R>(row: Record<string, unknown>): R {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === null || v === undefined) continue;
    out[k] = v instanceof Date ? v.toISOString() : v;
  }
  return out as R;
}

/** A timestamptz read through sql``: ISO 8601 (drivers differ in what they return). */
export const iso = (column: AnyPgColumn | SQL) =>
  sql<string | null>`to_char((${column}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A double read through sql``: a number on every driver. */
export const dbl = (expr: SQL) => sql<number | null>`(${expr})::float8`.mapWith(Number);
