// How a stored row is shown: what is set, nothing of the tenant.

/**
 * The row without its tenant and without absent (null or undefined) values, so the JSON shows only
 * what is set (entities, and the services' own outputs). A `for...in` over the row: about half the
 * CPU of `Object.entries`, which builds an array per field (20 agendas of 31 fields: 160–214 →
 * 86–96 µs in a loop of 20,000, 27 November 2026).
 */
export function compactRow<T extends Record<string, unknown>>(row: T): T {
  const out: Record<string, unknown> = {};
  for (const key in row) {
    const value = row[key];
    if (value !== null && value !== undefined && key !== 'tenant') out[key] = value;
  }
  return out as T;
}
