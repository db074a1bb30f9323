import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, index } from 'drizzle-orm/pg-core';

// Partial, case-insensitive text search, shared by the filter language and every service's
// searches (`texto`, `pesquisa`, `descricao`).

/** `%`, `_` and `\` typed by a user are plain characters in a LIKE pattern (PostgreSQL's escape is `\`). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `%text%`: a LIKE pattern of any text containing `text`, taken literally. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;

/** `column ILIKE '%text%'` with the text taken literally. */
export const containsText = (column: AnyPgColumn | SQL, text: string): SQL =>
  sql`${column} ilike ${containsPattern(text)}`;

/** A GIN trigram index, which serves `ILIKE '%text%'` (pg_trgm, enabled by a platform migration). */
export const trigramIndex = (name: string, column: AnyPgColumn) =>
  index(name).using('gin', sql`${column} gin_trgm_ops`);

/**
 * Separates the fields in a stored search column (searchColumnOf): a text without it never matches
 * across two fields.
 */
const SEPARATOR = '\x1f';

/**
 * The expression of a stored search column: the lowercased `columns` (SQL names) joined by SEPARATOR,
 * for `generatedAlwaysAs` and one trigram index. A text searched in several fields then costs one
 * index scan and a plain LIKE on each candidate row, instead of an index scan per field and an ILIKE
 * (which lowercases the row) per field and row: about a fifth less of PostgreSQL's time at 1,000,000
 * rows (docs/agenda.md "Indexes and plans").
 */
export const searchColumnOf = (...columns: string[]): SQL =>
  sql.raw(columns.map((c) => `lower(coalesce("${c}", ''))`).join(` || E'\\x1f' || `));

/**
 * A text a stored search column can answer: one without the separator. `search LIKE lower('%text%')`
 * then finds the rows an ILIKE on each field finds (in a multibyte database ILIKE is lower() on both
 * sides); a text holding the separator is searched with an ILIKE on each field instead (yms/agenda
 * busca.ts).
 */
export const fitsSearchColumn = (text: string) => !text.includes(SEPARATOR);
