// Issue 22: dates and times show in the company's zone whatever the machine's own zone is. This file
// runs in Los Angeles (UTC-8 in November), where the local calendar and clock differ from Lagos.
process.env.TZ = 'America/Los_Angeles';

import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatDateTimeSeconds,
  formatDateTimeWithZone,
  formatDay,
  formatLongDate,
  formatLongDay,
  formatMonth,
  fromZonedInput,
  todayIso,
  toZonedInput,
} from './dates.ts';

// 23:30 UTC is 00:30 the next day in Lagos (UTC+1) and 15:30 the same day in Los Angeles.
const LATE_EVENING_UTC = '2026-11-26T23:30:00.000Z';

describe('the test runs away from Lagos', () => {
  it('has a local clock eight hours behind UTC', () => {
    const d = new Date(LATE_EVENING_UTC);
    expect([d.getDate(), d.getHours()]).toEqual([26, 15]);
    expect(new Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('America/Los_Angeles');
  });
});

describe('instants are shown in Lagos time', () => {
  it('moves a late-evening UTC time to the next Lagos day', () => {
    expect(formatDateTime(LATE_EVENING_UTC)).toBe('27 Nov 2026, 00:30');
    expect(formatDateTimeSeconds('2026-11-26T23:30:09Z')).toBe('27 Nov 2026, 00:30:09');
    expect(formatDate(LATE_EVENING_UTC)).toBe('27 Nov 2026');
    expect(formatLongDate(LATE_EVENING_UTC)).toBe('27 November 2026');
  });

  it('names the zone where mails and PDFs print a time', () => {
    expect(formatDateTimeWithZone(new Date('2026-11-26T13:05:00Z'))).toBe('26 Nov 2026, 14:05 WAT');
  });

  it("takes today's date from the Lagos calendar", () => {
    expect(todayIso(new Date(LATE_EVENING_UTC))).toBe('2026-11-27');
    expect(todayIso(new Date('2026-11-26T22:59:00Z'))).toBe('2026-11-26');
  });
});

describe('datetime-local inputs read and write Lagos time', () => {
  it('shows a stored instant as the Lagos wall clock', () => {
    expect(toZonedInput(LATE_EVENING_UTC)).toBe('2026-11-27T00:30');
    expect(toZonedInput(null)).toBe('');
  });

  it('reads what staff typed as Lagos time, and round-trips', () => {
    expect(fromZonedInput('2031-05-04T09:30')).toBe('2031-05-04T08:30:00.000Z');
    expect(fromZonedInput('2026-11-27T00:30')).toBe(LATE_EVENING_UTC);
    expect(toZonedInput(fromZonedInput('2026-01-01T00:00'))).toBe('2026-01-01T00:00');
    expect(fromZonedInput('')).toBeNull();
    expect(fromZonedInput('not a time')).toBeNull();
  });
});

describe('calendar days and months do not move with any zone', () => {
  it('prints a stored day as that day', () => {
    expect(formatDay('2026-01-05')).toBe('5 Jan 2026');
    expect(formatDay('')).toBe('Not set');
    expect(formatLongDay('2026-11-27')).toBe('27 November 2026');
    expect(formatLongDay('2026-01-01')).toBe('1 January 2026');
    expect(formatLongDay('')).toBe('Not set');
    expect(formatMonth('2026-03', 'short')).toBe('Mar');
    expect(formatMonth('2026-03', 'long')).toBe('March 2026');
  });
});
