// What an input may hold so that PostgreSQL can store it and JSON can give it back unchanged
// (docs/platform.md "Refused input"). Validation (validation.ts) and the filter language
// (entities/filter.ts) apply these limits, so no value beyond them ever reaches the database.

/**
 * The largest integer an input may hold: beyond 2^53 - 1 a JSON number has already lost digits in
 * JavaScript, and every int64 (bigint) column holds it. Offsets computed from it stay in int64.
 */
export const MAX_INTEGER = Number.MAX_SAFE_INTEGER;

/**
 * Years a date or date-time may have: PostgreSQL refuses year 0 in text, and ISO 8601 as written by
 * `Date.toISOString` needs a sign and six digits outside 0001-9999, which no client reads back.
 */
export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

/** The UTC year of a wall-clock time written with an offset (minutes east of UTC). */
export function utcYear(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  offsetMinutes = 0,
): number {
  // setUTCFullYear, not Date.UTC: the latter reads years 0-99 as 1900-1999.
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, day);
  instant.setUTCHours(hour, minute - offsetMinutes, Math.floor(second));
  return instant.getUTCFullYear();
}

export const yearInRange = (year: number): boolean => year >= MIN_YEAR && year <= MAX_YEAR;

const DATE_PARTS = /^(\d{4})-/;
// The shapes ajv-formats accepts for `date-time` (RFC 3339: `T` or a space, offset required).
const DATE_TIME_PARTS =
  /^(\d{4})-(\d\d)-(\d\d)[t\s](\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:z|([+-])(\d\d)(?::?(\d\d))?)$/i;

/** A date already of the form YYYY-MM-DD whose year PostgreSQL and JSON clients can carry. */
export function dateInRange(text: string): boolean {
  const m = DATE_PARTS.exec(text);
  return m !== null && yearInRange(Number(m[1]));
}

/** A well-formed RFC 3339 date-time whose instant, once its offset is applied, is within the years. */
export function dateTimeInRange(text: string): boolean {
  const m = DATE_TIME_PARTS.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[];
  const offset = (m[7] === '-' ? -1 : 1) * (Number(m[8] ?? 0) * 60 + Number(m[9] ?? 0));
  return yearInRange(year!) && yearInRange(utcYear(year!, month!, day!, hour, minute, second, offset));
}

// A UTF-16 surrogate without its pair: JSON.parse makes one from "\ud800", but it is no character.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What in `text` PostgreSQL cannot store, if anything. */
export function textProblem(text: string): string | undefined {
  // PostgreSQL text and jsonb cannot hold U+0000 at all (SQLSTATE 22021 / 22P05).
  if (text.includes('\u0000')) return 'the NUL character (\\u0000)';
  // node-postgres would silently write U+FFFD in text columns; jsonb refuses it (22P02).
  if (LONE_SURROGATE.test(text)) return 'an unpaired UTF-16 surrogate (not valid Unicode)';
  return undefined;
}

/**
 * How deep a value may nest: far beyond any record of the spec (custom fields, event payloads), and
 * far below what a recursive walk of it (here, ajv, jsonb) can take before the stack runs out.
 */
export const MAX_JSON_DEPTH = 64;

export interface InputProblem {
  /** The path to the value, as JSON Pointer segments (unescaped). */
  path: string[];
  rule: string;
}

/**
 * Every string of `value`, field names included, that the database cannot store: walked whatever
 * the schema declares, because undeclared fields are kept (event payloads are stored whole). With
 * `numbers`, also every number that is not finite: ajv's coercion of a query string turns "1e400"
 * into Infinity after its own finiteness check, and Infinity then skips every bound. A value nested
 * deeper than MAX_JSON_DEPTH is one problem, and is not walked further.
 */
export function unstorable(
  value: unknown,
  options: { numbers?: boolean; limit?: number } = {},
): InputProblem[] {
  const limit = options.limit ?? 10;
  const out: InputProblem[] = [];
  const path: string[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (out.length >= limit) return;
    if (depth > MAX_JSON_DEPTH) {
      out.push({ path: [...path], rule: `must not nest deeper than ${MAX_JSON_DEPTH} levels` });
      return;
    }
    if (typeof node === 'string') {
      const what = textProblem(node);
      if (what) out.push({ path: [...path], rule: `must not contain ${what}` });
    } else if (typeof node === 'number') {
      if (options.numbers && !Number.isFinite(node))
        out.push({ path: [...path], rule: 'must be a finite number' });
    } else if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        path.push(String(i));
        walk(node[i], depth + 1);
        path.pop();
      }
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        const what = textProblem(key);
        if (what) out.push({ path: [...path], rule: `must not have a field name containing ${what}` });
        path.push(key);
        walk(item, depth + 1);
        path.pop();
      }
    }
  };
  walk(value, 0);
  return out;
}
