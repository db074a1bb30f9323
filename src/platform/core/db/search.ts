import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, index } from 'drizzle-orm/pg-core';

// Partial, case-insensitive text search, shared by the filter language and every service's
// searches (`texto`, `pesquisa`, `descricao`).

/** `%`, `_` and `\` typed by a user are plain characters in a LIKE pattern (PostgreSQL's escape is `\`). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `column ILIKE '%text%'` with the text taken literally. */
export const containsText = (column: AnyPgColumn | SQL, text: string): SQL =>
  sql`${column} ilike ${`%${escapeLike(text)}%`}`;

/** A GIN trigram index, which serves `ILIKE '%text%'` (pg_trgm, enabled by a platform migration). */
export const trigramIndex = (name: string, column: AnyPgColumn) =>
  index(name).using('gin', sql`${column} gin_trgm_ops`);
