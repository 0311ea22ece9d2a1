import { describe, expect, it } from 'vitest';
import {
  NO_TIME_TEXT,
  formatDate,
  formatDayAndTime,
  formatDateTime,
  formatDateTimeWithOffset,
  formatTimeOfDay,
  formatUtcOffset,
  notAfterNow,
  timeAxisLabels,
} from '../src/index';

describe('notAfterNow: a relative time is never in the future', () => {
  const now = 1_800_000_000_000;
  it.each([
    [now - 60_000, now - 60_000], // the past stays as it is
    [now, now],
    [now + 1, now], // a record newer than the page clock reads as now
    [now + 2_000, now],
    [now + 300_000, now], // a device clock 5 minutes fast
  ])('notAfterNow(%d) -> %d', (time, expected) => expect(notAfterNow(time, now)).toBe(expected));

  it('leaves what is not a time alone', () => {
    expect(notAfterNow(Number.NaN, now)).toBeNaN();
    expect(notAfterNow(now + 5, Number.NaN)).toBe(now + 5);
  });
});

describe('one way of writing times: the viewer locale and zone, the zone shown in full (DESIGN.md section 5)', () => {
  // 2026-11-28 06:20:30 UTC
  const at = Date.UTC(2026, 10, 28, 6, 20, 30);
  const gb = { locale: 'en-GB', timeZone: 'Europe/Berlin' };
  const us = { locale: 'en-US', timeZone: 'America/New_York' };

  it('a time in full carries the date, the time to the second and the zone', () => {
    expect(formatDateTime(at, gb)).toBe('28 Nov 2026, 07:20:30 CET');
    expect(formatDateTime(at, us)).toBe('Nov 28, 2026, 1:20:30 AM EST');
    expect(formatDateTime(new Date(at), { locale: 'en-GB', timeZone: 'UTC' })).toBe('28 Nov 2026, 06:20:30 UTC');
  });

  it('the hover text has the weekday, the long date and the UTC offset', () => {
    expect(formatDateTimeWithOffset(at, gb)).toBe('Saturday, 28 November 2026 at 07:20:30 (GMT+01:00)');
    expect(formatDateTimeWithOffset(at, us)).toBe('Saturday, November 28, 2026 at 1:20:30 AM (GMT-05:00)');
    expect(formatUtcOffset(at, { locale: 'en-GB', timeZone: 'UTC' })).toBe('GMT+00:00');
    expect(formatUtcOffset(at, { locale: 'en-GB', timeZone: 'Asia/Kolkata' })).toBe('GMT+05:30');
  });

  it('dates and times of day alone', () => {
    expect(formatDate(at, gb)).toBe('28 Nov 2026');
    expect(formatDate(at, us)).toBe('Nov 28, 2026');
    expect(formatTimeOfDay(at, gb)).toBe('07:20');
    expect(formatTimeOfDay(at, us)).toBe('1:20 AM');
    expect(formatTimeOfDay(at, { ...gb, seconds: true })).toBe('07:20:30');
    expect(formatDayAndTime(at, gb)).toBe('28 Nov, 07:20');
    expect(formatDayAndTime(at, { ...gb, year: true })).toBe('28 Nov 2026, 07:20');
  });

  it('what is not a time reads ---', () => {
    for (const bad of [Number.NaN, new Date(Number.NaN), 1e20]) {
      expect(formatDateTime(bad, gb)).toBe(NO_TIME_TEXT);
      expect(formatDateTimeWithOffset(bad, gb)).toBe(NO_TIME_TEXT);
      expect(formatDate(bad, gb)).toBe(NO_TIME_TEXT);
      expect(formatTimeOfDay(bad, gb)).toBe(NO_TIME_TEXT);
    }
  });

  it('a time axis: times, with the day at the first tick and where the day changes; days; months', () => {
    const s = at / 1000;
    const hours = [s, s + 6 * 3600, s + 12 * 3600, s + 18 * 3600];
    expect(timeAxisLabels(hours, 6 * 3600, gb)).toEqual(['07:20\n28 Nov', '13:20', '19:20', '01:20\n29 Nov']);
    expect(timeAxisLabels(hours, 6 * 3600, us)).toEqual(['1:20 AM\nNov 28', '7:20 AM', '1:20 PM', '7:20 PM']);
    expect(timeAxisLabels([s, s + 30], 30, gb)).toEqual(['07:20:30\n28 Nov', '07:21:00']);
    expect(timeAxisLabels([s, s + 86_400], 86_400, gb)).toEqual(['28 Nov', '29 Nov']);
    expect(timeAxisLabels([s, s + 31 * 86_400], 31 * 86_400, gb)).toEqual(['Nov 2026', 'Dec 2026']);
  });
});
