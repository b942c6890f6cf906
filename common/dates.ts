// The one home of date and time formatting (decision 236). Two kinds of value:
// - calendar days (YYYY-MM-DD) and months (YYYY-MM) are not instants: they are formatted in UTC so a
//   day never shifts by anyone's time zone;
// - instants (ISO times, Dates) are shown in the company's time zone, Africa/Lagos, whatever the
//   server's or the browser's own zone, so staff, clients, mails and PDFs all read the same clock.

/** The company's time zone (issue 22). Nigeria keeps West Africa Time all year (UTC+1, no summer time). */
export const COMPANY_TIME_ZONE = 'Africa/Lagos';
/** How mails and PDFs name the zone after a time: '26 Nov 2026, 14:05 WAT'. */
const COMPANY_TIME_ZONE_LABEL = 'WAT';

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const LONG_DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const MONTH = {
  short: new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' }),
  long: new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
};
const inLagos = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-GB', { ...options, timeZone: COMPANY_TIME_ZONE });
const DATE = inLagos({ day: 'numeric', month: 'short', year: 'numeric' });
const LONG_DATE = inLagos({ day: 'numeric', month: 'long', year: 'numeric' });
const DATE_TIME = inLagos({ day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const DATE_TIME_SECONDS = inLagos({ day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
const PARTS = inLagos({ year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

type Instant = string | number | Date;
const toDate = (value: Instant) => (value instanceof Date ? value : new Date(value));

/** '2026-01-05' → '5 Jan 2026'; empty → the fallback. */
export function formatDay(value: string | null | undefined, fallback = 'Not set'): string {
  if (!value) return fallback;
  const d = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? value : DAY.format(d);
}

/** '2026-11-27' → '27 November 2026' (invoices, credit notes, receipts); empty → the fallback. */
export function formatLongDay(value: string | null | undefined, fallback = 'Not set'): string {
  if (!value) return fallback;
  const d = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? value : LONG_DAY.format(d);
}

/** '2026-03' → 'Mar' (short, for chart headings) or 'March 2026' (long). */
export function formatMonth(value: string, style: 'short' | 'long'): string {
  const d = new Date(`${value.slice(0, 7)}-01T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? value : MONTH[style].format(d);
}

/** An instant's day in Lagos: '26 Nov 2026'. */
export const formatDate = (value: Instant): string => DATE.format(toDate(value));

/** An instant's day in Lagos, month written out: '26 November 2026' (the public articles). */
export const formatLongDate = (value: Instant): string => LONG_DATE.format(toDate(value));

/** An instant as the screens show it, Lagos time: '26 Nov 2026, 14:05'. */
export const formatDateTime = (value: Instant): string => DATE_TIME.format(toDate(value));

/** With seconds, for audit lists where order within a minute matters: '26 Nov 2026, 14:05:09'. */
export const formatDateTimeSeconds = (value: Instant): string => DATE_TIME_SECONDS.format(toDate(value));

/** An instant as mails and PDFs print it, with the zone named: '26 Nov 2026, 14:05 WAT'. */
export const formatDateTimeWithZone = (value: Instant): string => `${formatDateTime(value)} ${COMPANY_TIME_ZONE_LABEL}`;

/** The Lagos wall clock of an instant as 'YYYY-MM-DDTHH:mm' (a datetime-local input's value). */
function lagosWallClock(date: Date): string {
  const p = Object.fromEntries(PARTS.formatToParts(date).map((part) => [part.type, part.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/** Today in Lagos, as YYYY-MM-DD (the default date of a new report). */
export function todayIso(now: Date = new Date()): string {
  return lagosWallClock(now).slice(0, 10);
}

/** An ISO time as a datetime-local input's value, in Lagos time; '' when empty. */
export function toZonedInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : lagosWallClock(d);
}

/** A datetime-local input's value, read as Lagos time, as an ISO time; null when empty or unreadable. */
export function fromZonedInput(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!m) return null;
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  if (Number.isNaN(asUtc)) return null;
  // The zone's offset at that moment, read from the formatter rather than written down here.
  const wall = lagosWallClock(new Date(asUtc));
  const offset = Date.parse(`${wall}:00Z`) - asUtc;
  return new Date(asUtc - offset).toISOString();
}

/** A calendar day ('YYYY-MM-DD') moved by whole days: addDays('2026-11-27', 30) is '2026-12-27'. */
export const addDays = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Whole days from one calendar day to another (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
