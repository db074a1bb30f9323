// What a database error says, the same through drizzle's wrapping on both drivers.

/** A database error's SQLSTATE (e.g. 23505 unique violation, 22003 out of range). */
export function sqlState(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } } | undefined;
  return e?.cause?.code ?? e?.code;
}

/** Class 22 (data exception): a value the statement cannot take, such as 2^31 for an int4. */
export const isDataException = (err: unknown): boolean => sqlState(err)?.startsWith('22') === true;
