import { describe, expect, it } from 'vitest';
import {
  CUSTOM_RANGE_SHORTCUTS,
  DEFAULT_VIEW,
  TimeRangeSchema,
  VIEW_RANGE_PRESETS,
  VIEW_RANGE_PRESET_LABELS,
  customTimeRange,
  dataCallRange,
  nextViewSortOrder,
  parseSortOrder,
  presetOfTimeRange,
  presetTimeRange,
  resolveTimeRange,
  shortcutRange,
  startOfWeekIn,
  timeRangeLabel,
} from '../src/index';

const s = (iso: string) => Date.parse(iso) / 1000;

describe('view range presets (VIEW-29, VIEW-28)', () => {
  it('lists exactly the six presets of spec 1 section 9', () => {
    expect(VIEW_RANGE_PRESETS.map((p) => VIEW_RANGE_PRESET_LABELS[p])).toEqual([
      'Last 24 hours',
      '7 days',
      '30 days',
      'Week to date',
      'Month to date',
      'Custom',
    ]);
  });

  it('each preset is a valid stored range and reads back as itself', () => {
    for (const preset of VIEW_RANGE_PRESETS) {
      if (preset === 'custom') continue;
      const range = presetTimeRange(preset);
      expect(TimeRangeSchema.safeParse(range).success).toBe(true);
      expect(presetOfTimeRange(range)).toBe(preset);
    }
    expect(presetOfTimeRange(customTimeRange(100, 200))).toBe('custom');
  });

  it('the default view (day, 7, no rolling) is the 7 days preset; other amounts are no preset', () => {
    expect(presetOfTimeRange(DEFAULT_VIEW.timeRange)).toBe('last7Days');
    expect(presetOfTimeRange({ type: 'week', amount: 3 })).toBeNull();
    expect(timeRangeLabel({ type: 'week', amount: 3 })).toBe('Last 3 weeks');
    expect(timeRangeLabel({ type: 'month', amount: 2, rolling: false })).toBe('Month to date, 2 months');
    expect(timeRangeLabel(DEFAULT_VIEW.timeRange)).toBe('7 days');
  });
});

describe('resolving a range in the viewer’s time zone (VIEW-31)', () => {
  const wednesday = Date.parse('2024-05-15T12:00:00Z');

  it('weeks start on Monday: on Wednesday 2024-05-15 week to date starts Mon 2024-05-13 00:00 local', () => {
    expect(resolveTimeRange(presetTimeRange('weekToDate'), wednesday, 'UTC')).toEqual({
      from: s('2024-05-13T00:00:00Z'),
      to: s('2024-05-15T12:00:00Z'),
    });
    // Berlin is UTC+2 in May: local midnight is 22:00 UTC the day before.
    expect(resolveTimeRange(presetTimeRange('weekToDate'), wednesday, 'Europe/Berlin').from).toBe(
      s('2024-05-12T22:00:00Z'),
    );
    // New York (UTC-4): still Wednesday 08:00 local.
    expect(resolveTimeRange(presetTimeRange('weekToDate'), wednesday, 'America/New_York').from).toBe(
      s('2024-05-13T04:00:00Z'),
    );
  });

  it('a Sunday belongs to the week that began the Monday before; a Monday starts its own', () => {
    expect(startOfWeekIn(Date.parse('2024-05-19T23:00:00Z'), 'UTC')).toBe(Date.parse('2024-05-13T00:00:00Z'));
    expect(startOfWeekIn(Date.parse('2024-05-20T00:00:00Z'), 'UTC')).toBe(Date.parse('2024-05-20T00:00:00Z'));
    // Sydney is already Monday 20 May at 23:00 UTC on the 19th.
    expect(startOfWeekIn(Date.parse('2024-05-19T23:00:00Z'), 'Australia/Sydney')).toBe(
      Date.parse('2024-05-19T14:00:00Z'),
    );
  });

  it('month to date starts on the 1st at 00:00 local; rolling day ranges end now', () => {
    expect(resolveTimeRange(presetTimeRange('monthToDate'), wednesday, 'Europe/Berlin').from).toBe(
      s('2024-04-30T22:00:00Z'),
    );
    expect(resolveTimeRange(presetTimeRange('last24Hours'), wednesday, 'Europe/Berlin')).toEqual({
      from: s('2024-05-14T12:00:00Z'),
      to: s('2024-05-15T12:00:00Z'),
    });
    expect(resolveTimeRange(presetTimeRange('last30Days'), wednesday, 'UTC').from).toBe(s('2024-04-15T12:00:00Z'));
    expect(resolveTimeRange({ type: 'month', amount: 3 }, Date.parse('2024-05-31T10:00:00Z'), 'UTC').from).toBe(
      s('2024-02-29T10:00:00Z'),
    );
    expect(resolveTimeRange(customTimeRange(100, 200), wednesday, 'UTC')).toEqual({ from: 100, to: 200 });
  });

  it('a start across a clock change is local midnight (Berlin, March 2024: UTC+1 before the 31st)', () => {
    const april2 = Date.parse('2024-04-02T10:00:00Z');
    expect(resolveTimeRange({ type: 'week', amount: 2, rolling: false }, april2, 'Europe/Berlin').from).toBe(
      s('2024-03-24T23:00:00Z'),
    );
  });
});

describe('custom picker shortcuts (VIEW-30)', () => {
  const wednesday = Date.parse('2024-05-15T12:34:56Z');

  it('lists the five shortcuts in the spec’s order', () => {
    expect(CUSTOM_RANGE_SHORTCUTS).toEqual([
      'previous30Days',
      'previous7Days',
      'previous24Hours',
      'previousWeek',
      'previousMonth',
    ]);
  });

  it('previous week is Monday to Monday, previous month the whole last month, the rest end now', () => {
    const now = s('2024-05-15T12:34:56Z');
    expect(shortcutRange('previous24Hours', wednesday, 'UTC')).toEqual({ from: now - 86_400, to: now });
    expect(shortcutRange('previous7Days', wednesday, 'UTC')).toEqual({ from: now - 7 * 86_400, to: now });
    expect(shortcutRange('previous30Days', wednesday, 'UTC')).toEqual({ from: now - 30 * 86_400, to: now });
    expect(shortcutRange('previousWeek', wednesday, 'UTC')).toEqual({
      from: s('2024-05-06T00:00:00Z'),
      to: s('2024-05-13T00:00:00Z'),
    });
    expect(shortcutRange('previousMonth', wednesday, 'Europe/Berlin')).toEqual({
      from: s('2024-03-31T22:00:00Z'),
      to: s('2024-04-30T22:00:00Z'),
    });
  });
});

describe('the data call’s range', () => {
  it('floors both ends to whole hours', () => {
    expect(dataCallRange({ from: s('2024-05-08T12:34:56Z'), to: s('2024-05-15T12:34:56Z') })).toEqual({
      from: s('2024-05-08T12:00:00Z'),
      to: s('2024-05-15T12:00:00Z'),
    });
  });
});

describe('a new view’s display order (VIEW-05 fallback)', () => {
  it('is one after the last tab, at most 100; parseSortOrder falls back to it for abc, 0 and 101', () => {
    expect(nextViewSortOrder([])).toBe(1);
    expect(nextViewSortOrder([{ sortOrder: 1 }, { sortOrder: 7 }, { sortOrder: 3 }])).toBe(8);
    expect(nextViewSortOrder([{ sortOrder: 100 }])).toBe(100);
    const fallback = nextViewSortOrder([DEFAULT_VIEW]);
    expect(parseSortOrder('abc', fallback)).toBe(2);
    expect(parseSortOrder('0', fallback)).toBe(2);
    expect(parseSortOrder('101', fallback)).toBe(2);
    expect(parseSortOrder(' 42 ', fallback)).toBe(42);
  });
});
