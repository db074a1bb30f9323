import { MAX_INTEGER, utcYear, yearInRange } from '../storable.ts';

// The literals of the filter language checked against a field's type (filter.ts): only values
// PostgreSQL reads for that column reach it as parameters, so a bad one is a 400, never a 500.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|([+-])(\d{2}):?(\d{2}))?$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (text: string): boolean => UUID.test(text);

function isCalendarDate(year: string, month: string, day: string): boolean {
  const d = new Date(0);
  d.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  // Years outside 0001-9999 are no date PostgreSQL reads (docs/platform.md "Refused input").
  return (
    d.getUTCFullYear() === Number(year) &&
    d.getUTCMonth() === Number(month) - 1 &&
    yearInRange(d.getUTCFullYear())
  );
}

export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  return m !== null && isCalendarDate(m[1]!, m[2]!, m[3]!);
}

export function isDateTime(text: string): boolean {
  const m = DATETIME.exec(text);
  if (!m || !isCalendarDate(m[1]!, m[2]!, m[3]!)) return false;
  const [hour, minute, second] = m.slice(4, 7).map((v) => Number(v ?? 0));
  const [offsetHour, offsetMinute] = m.slice(8, 10).map((v) => Number(v ?? 0));
  const offset = (m[7] === '-' ? -1 : 1) * (offsetHour! * 60 + offsetMinute!);
  return (
    hour! < 24 &&
    minute! < 60 &&
    second! < 60 &&
    offsetHour! < 24 &&
    offsetMinute! < 60 &&
    yearInRange(utcYear(Number(m[1]), Number(m[2]), Number(m[3]), hour, minute, second, offset))
  );
}

/**
 * The largest integer a field's column holds (drizzle's column type; an expression is taken as
 * int64): int4 and int2 columns hold less than an input integer may.
 */
export function integerLimit(column: object): number {
  const type = (column as { columnType?: string }).columnType;
  if (type === 'PgInteger' || type === 'PgSerial') return 2 ** 31 - 1;
  if (type === 'PgSmallInt' || type === 'PgSmallSerial') return 2 ** 15 - 1;
  return MAX_INTEGER;
}
