// The edit masks of ERP screens that some fields of the spec carry as format hints (spec 001 §4.4:
// `U[14]`, `ZZZ9`, `ZZZ.ZZZ.ZZ9,9[5]`, `DD/MM/YYYY`, `#(40,2)#`), enforced as a schema keyword
// (`x-mask`, validation.ts) so a value outside its mask is a 400 naming the field and the mask.
// What each mask means (docs/platform.md "Masks"):
// - `U[n]`: text of at most n characters, upper case (no lower-case letter);
// - a numeric mask of `Z` and `9` digit places with `.` thousands and `,` decimal separators, a
//   place repeated by `[k]` (`ZZZ.ZZZ.ZZ9,9[5]`: 9 integer and 5 decimal digits): a number >= 0
//   with at most that many integer and decimal digits;
// - `DD/MM/YYYY`: a real calendar date, written DD/MM/YYYY or YYYY-MM-DD;
// - `#(c,l)#`: free text of at most l lines of at most c characters each.

/** The mask's rule in words, for messages and documents; undefined for a mask it does not know. */
export function maskRule(mask: string): string | undefined {
  const parsed = parse(mask);
  if (!parsed) return undefined;
  switch (parsed.kind) {
    case 'upper':
      return `upper-case text of at most ${parsed.max} characters`;
    case 'number':
      return parsed.decimals
        ? `a number >= 0 with at most ${parsed.integers} integer and ${parsed.decimals} decimal digits`
        : `an integer from 0 to ${'9'.repeat(parsed.integers)}`;
    case 'date':
      return 'a real calendar date, DD/MM/YYYY (or YYYY-MM-DD)';
    case 'text':
      return `text of at most ${parsed.lines} lines of at most ${parsed.columns} characters`;
  }
}

/**
 * What JSON Schema can say of the mask, to state next to `x-mask` so that the documents (and the
 * clients made from them) carry the limits: a text's length, a number's range. The mask's own
 * rule (upper case, decimal places) stays `x-mask`'s.
 */
export function maskBounds(mask: string): { maxLength?: number; minimum?: number; maximum?: number } {
  const parsed = parse(mask);
  if (parsed?.kind === 'upper') return { maxLength: parsed.max };
  if (parsed?.kind === 'number') {
    const digits = '9'.repeat(parsed.integers);
    return {
      minimum: 0,
      maximum: Number(parsed.decimals ? `${digits}.${'9'.repeat(parsed.decimals)}` : digits),
    };
  }
  return {};
}

type Parsed =
  | { kind: 'upper'; max: number }
  | { kind: 'number'; integers: number; decimals: number }
  | { kind: 'date' }
  | { kind: 'text'; columns: number; lines: number };

const cache = new Map<string, Parsed | undefined>();

function parse(mask: string): Parsed | undefined {
  if (cache.has(mask)) return cache.get(mask);
  let out: Parsed | undefined;
  const upper = /^U\[(\d+)\]$/.exec(mask);
  const text = /^#\((\d+),(\d+)\)#$/.exec(mask);
  if (upper) out = { kind: 'upper', max: Number(upper[1]) };
  else if (text) out = { kind: 'text', columns: Number(text[1]), lines: Number(text[2]) };
  else if (mask === 'DD/MM/YYYY') out = { kind: 'date' };
  else if (/^[Z9](?:[Z9.]|\[\d+\])*(?:,[Z9](?:[Z9]|\[\d+\])*)?$/.test(mask)) {
    const [int = '', dec = ''] = mask.split(',');
    out = { kind: 'number', integers: places(int), decimals: places(dec) };
  }
  cache.set(mask, out);
  return out;
}

/** Digit places of a numeric mask part: each Z or 9, `[k]` repeating the one before k times in all. */
function places(part: string): number {
  let n = 0;
  for (const m of part.matchAll(/([Z9])(\[(\d+)\])?/g)) n += m[3] ? Number(m[3]) : 1;
  return n;
}

/**
 * Whether `value` fits `mask`. A mask it does not know, and a value of another JSON type than the
 * mask's (the schema's `type` refuses that one, with its own message), let everything through.
 */
export function fitsMask(mask: string, value: unknown): boolean {
  const parsed = parse(mask);
  if (!parsed) return true;
  if (typeof value !== (parsed.kind === 'number' ? 'number' : 'string')) return true;
  switch (parsed.kind) {
    case 'upper':
      return [...(value as string)].length <= parsed.max && value === (value as string).toUpperCase();
    case 'number': {
      if (!Number.isFinite(value) || (value as number) < 0) return false;
      if (
        Math.trunc(value as number)
          .toString()
          .replace(/^0$/, '').length > parsed.integers
      )
        return false;
      const scaled = (value as number) * 10 ** parsed.decimals;
      return Math.abs(scaled - Math.round(scaled)) <= 1e-6 * Math.max(1, Math.abs(scaled));
    }
    case 'date':
      return isoDate(value as string) !== undefined;
    case 'text':
      return (
        (value as string).split(/\r?\n/).length <= parsed.lines &&
        (value as string).split(/\r?\n/).every((line) => [...line].length <= parsed.columns)
      );
  }
}

/** A DD/MM/YYYY or YYYY-MM-DD text as YYYY-MM-DD when it is a real calendar date. */
export function isoDate(text: string): string | undefined {
  const br = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const [y, m, d] = br ? [br[3], br[2], br[1]] : iso ? [iso[1], iso[2], iso[3]] : [];
  if (!y || !m || !d) return undefined;
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  if (year < 1 || month < 1 || month > 12 || day < 1) return undefined;
  const last = new Date(Date.UTC(2000, month, 0)).getUTCDate(); // days of the month in a leap year
  const feb29 = month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0));
  if (day > last || feb29) return undefined;
  return `${y}-${m}-${d}`;
}
