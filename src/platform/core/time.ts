// Dates in a plant's or tenant's time zone (DESIGN.md "Time, ids, text": "today" is local).

/** The date (YYYY-MM-DD) of `now` in `timeZone`. */
export function dateIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}
