import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { DEFAULT_LIMITE, DEFAULT_TAMANHO } from './schemas.ts';

// What every com_comum search shares: partial, case-insensitive matching with the caller's
// wildcards taken literally, paging by recPagina and the cut at quantidadeLimiteRegistros.

import { containsText, escapeLike } from '../../../platform/core/db/search.ts';
import { compactRow } from '../../../platform/core/rows.ts';

export { escapeLike };

/** Partial match, case and accents aside, served by the column's trigram index where it has one. */
export const contains = (column: AnyPgColumn, text: string): SQL => containsText(column, text);

/** A search text, trimmed; blank means no filter. */
export function textoOf(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}

/** The int64 a search text names, when it is one (texto matches ids exactly). */
export function idOf(text: string): number | undefined {
  if (!/^\d{1,15}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

export interface Pagina {
  pagina?: number | undefined;
  tamanho?: number | undefined;
}

/** LIMIT and OFFSET of a recPagina (page index from 0). */
export function pageOf(pagina: Pagina | undefined): { limit: number; offset: number } {
  const size = pagina?.tamanho ?? DEFAULT_TAMANHO;
  return { limit: size, offset: (pagina?.pagina ?? 0) * size };
}

/** Rows fetched with LIMIT limit+1 → the first `limit` and whether more matched. */
export function cut<T>(rows: T[], limit: number | undefined): { rows: T[]; truncado: boolean } {
  const max = limit ?? DEFAULT_LIMITE;
  return { rows: rows.slice(0, max), truncado: rows.length > max };
}

type NullableKeys<T> = { [K in keyof T]: null extends T[K] ? K : never }[keyof T];
/** A row without its tenant, whose nullable fields became optional. */
export type Compact<T> = { [K in Exclude<keyof T, NullableKeys<T> | 'tenant'>]: T[K] } & {
  [K in Exclude<NullableKeys<T>, 'tenant'>]?: Exclude<T[K], null>;
};

/** Drops null fields and the tenant: the outputs show only what is set (the serializer never sees null). */
export function compact<T extends Record<string, unknown>>(row: T): Compact<T> {
  return compactRow(row) as unknown as Compact<T>;
}

/** Codes ordered as an ERP user expects: numeric codes numerically ("2" before "10"). */
export const byCode = (column: AnyPgColumn): SQL[] => [sql`length(${column})`, sql`${column}`];

/** The date (YYYY-MM-DD) of `now` in the tenant's time zone. */
export { dateIn as todayIn } from '../../../platform/core/time.ts';
