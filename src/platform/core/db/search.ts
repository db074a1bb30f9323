import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, index } from 'drizzle-orm/pg-core';

// Partial text search, shared by the filter language and every service's searches (`texto`,
// `pesquisa`, `descricao`): case- and accent-insensitive, so that `joao`, `JOAO` and `João` find
// each other, and `acucar` finds Açúcar. Both sides go through the database function `ponte_fold`
// (PostgreSQL's `unaccent`, then lower case; migration 0041), and every trigram index is on
// `ponte_fold(column)`, so the folded search is served by an index (docs/platform.md "Text search").

/**
 * The database function both sides of a search go through, created by migration 0041 (which holds
 * this very text: search.test.ts checks it). `unaccent` is only STABLE (its dictionary could change),
 * so no index could use it; this wrapper is IMMUTABLE, which holds as long as the dictionary
 * `public.unaccent` is the one the extension ships (an index on it would need a REINDEX otherwise).
 */
export const FOLD_FUNCTION = `CREATE OR REPLACE FUNCTION ponte_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;`;

/** The letters `unaccent` turns into others that Unicode does not decompose (ß → ss, ø → o…). */
const UNDECOMPOSED: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/**
 * What `ponte_fold` makes of a text's letters, in JavaScript: for the conditions checked in memory.
 * Letters with accents lose them (Unicode's decomposition without its combining marks), the few
 * `unaccent` spells otherwise as it does; search.test.ts checks the two agree letter by letter.
 */
export const foldText = (text: string): string =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæœøłđðþı]/g, (c) => UNDECOMPOSED[c] as string);

/** `ponte_fold(expression)`: the folded text the indexes and searches compare. */
export const folded = (expression: AnyPgColumn | SQL): SQL => sql`ponte_fold(${expression})`;

/** `%`, `_` and `\` typed by a user are plain characters in a LIKE pattern (PostgreSQL's escape is `\`). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `%text%`: a LIKE pattern of any text containing `text`, taken literally. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;

/**
 * The pattern of a prepared statement's parameter, folded once per run: a scalar subquery (an
 * InitPlan). `ponte_fold($1)` itself cannot be folded before a generic plan runs (ponte_fold is not
 * inlined: unaccent is only STABLE), so each row the plan reads would fold it again: about 1.3 µs a
 * row, twice the trigram recheck of the row itself (docs/platform.md "Text search").
 */
const foldedOnce = (pattern: unknown): SQL => sql`(select ponte_fold(${pattern}))`;

/**
 * The column matches a LIKE pattern given as a prepared statement's parameter (core/db/statement.ts,
 * where.ts), case and accents aside: served by the column's trigramIndex.
 */
export const likeFolded = (column: AnyPgColumn | SQL, pattern: unknown): SQL =>
  sql`${folded(column)} like ${foldedOnce(pattern)}`;

/**
 * The column contains the text, taken literally, case and accents aside: served by the column's
 * trigramIndex. The text is a value of a statement planned for it, where `ponte_fold('%text%')` is
 * folded into a constant before planning (and the trigram statistics then estimate its rows).
 */
export const containsText = (column: AnyPgColumn | SQL, text: string): SQL =>
  sql`${folded(column)} like ponte_fold(${containsPattern(text)})`;

/**
 * `ponte_fold` written out: what it computes, without its function call. ponte_fold is a SQL
 * function the planner cannot inline (its body is STABLE), so each call runs its own small executor:
 * 2.7× an ILIKE a row, against 1.35× for this expression (100,000 rows, docs/platform.md "Text
 * search"). The one-argument unaccent takes the dictionary `unaccent` of the search path, the
 * extension's own, which ponte_fold names. No index is on it: for reads no index can serve anyway.
 */
const foldedInline = (expression: AnyPgColumn | SQL): SQL => sql`lower(public.unaccent(${expression}))`;

/**
 * The column contains the text, case and accents aside, as containsText, for a table read under
 * its row-level security policy (the entity lists' filter language): there PostgreSQL never uses a
 * non-leakproof operator such as LIKE as an index condition, so every row of the tenant is folded
 * and the cheaper inline fold is the one to pay; the pattern is folded once (an InitPlan).
 */
export const containsTextScanned = (column: AnyPgColumn | SQL, text: string): SQL =>
  sql`${foldedInline(column)} like (select ${foldedInline(sql`${containsPattern(text)}::text`)})`;

/** A GIN trigram index on the folded column, which serves likeFolded (pg_trgm, enabled by a platform migration). */
export const trigramIndex = (name: string, column: AnyPgColumn) =>
  index(name).using('gin', sql`${folded(column)} gin_trgm_ops`);

/**
 * Separates the fields in a stored search column (searchColumnOf): a text without it never matches
 * across two fields.
 */
const SEPARATOR = '\x1f';

/**
 * The expression of a stored search column: the `columns` (SQL names) joined by SEPARATOR and
 * folded, for `generatedAlwaysAs` and one trigram index on the column itself. A text searched in
 * several fields then costs one index scan and a plain LIKE on each candidate row (searchColumnHas),
 * instead of an index scan per field and a fold per field and row: about a fifth less of
 * PostgreSQL's time at 1,000,000 rows (docs/agenda.md "Indexes and plans").
 */
export const searchColumnOf = (...columns: string[]): SQL =>
  sql.raw(`ponte_fold(${columns.map((c) => `coalesce("${c}", '')`).join(` || E'\\x1f' || `)})`);

/** The trigram index of a stored search column: on the column itself, already folded. */
export const searchColumnIndex = (name: string, column: AnyPgColumn) =>
  index(name).using('gin', sql`${column} gin_trgm_ops`);

/** A stored search column (searchColumnOf) matches a statement's LIKE pattern, case and accents aside. */
export const searchColumnHas = (column: AnyPgColumn, pattern: unknown): SQL =>
  sql`${column} like ${foldedOnce(pattern)}`;

/**
 * A text a stored search column can answer: one without the separator. searchColumnHas then finds
 * the rows containsText finds on each field; a text holding the separator is searched with
 * containsText on each field instead (yms/agenda busca.ts).
 */
export const fitsSearchColumn = (text: string) => !text.includes(SEPARATOR);
