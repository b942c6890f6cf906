// Dates of the portal are calendar days (YYYY-MM-DD) and months (YYYY-MM), not instants: they are
// formatted in UTC so a day never shifts by the viewer's time zone.
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** '2026-01-05' → '5 Jan 2026'; empty → the fallback. */
export function formatDay(value: string | null | undefined, fallback = 'Not set'): string {
  if (!value) return fallback;
  const d = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? value : DAY.format(d);
}

/** Today in the viewer's own calendar, as YYYY-MM-DD (the default date of a new report). */
export function todayIso(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

// Instants (a correction, a sending) are shown as the company's calendar day, in Lagos.
const LAGOS_DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Africa/Lagos' });
const LAGOS_TIME = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Africa/Lagos' });

/** '2026-11-25T23:30:00Z' → '26 Nov 2026' (the day in Lagos, UTC+1). */
export const formatLagosDay = (iso: string): string => LAGOS_DAY.format(new Date(iso));

/** '2026-11-25T23:30:00Z' → '26 Nov 2026, 00:30 WAT' (Lagos time, with its zone). */
export const formatLagosTime = (iso: string): string => `${LAGOS_TIME.format(new Date(iso))} WAT`;
