/** The headline tile's rules: settings resolved, value text, '---', the trend, and the periods it reads. */
import { describe, expect, it } from 'vitest';
import {
  HEADLINE_NO_DATA,
  HEADLINE_NO_KEY,
  HEADLINE_OPERATOR_LABELS,
  headlineDisplay,
  headlineMissingReason,
  headlinePeriods,
  headlineTitle,
  resolveHeadline,
} from '../src/domain/headline';

const H = 3600;
const DAY = 86_400;

describe('resolveHeadline', () => {
  it('operator avg unless the tile names another (CHT-02); an unknown one reads as avg', () => {
    expect(resolveHeadline({ key: 'batt' }).operator).toBe('avg');
    for (const op of ['sum', 'max', 'min', 'latest', 'avg'] as const)
      expect(resolveHeadline({ key: 'batt', operator: op }).operator).toBe(op);
    for (const bad of ['median', '', null, '__proto__', 3])
      expect(resolveHeadline({ key: 'batt', operator: bad }).operator).toBe('avg');
    expect(Object.keys(HEADLINE_OPERATOR_LABELS)).toEqual(['avg', 'sum', 'max', 'min', 'latest']);
  });

  it('dp clamped 0 to 5 (CHT-03); without one the catalogue decimals of the key, clamped too', () => {
    expect(resolveHeadline({ key: 'batt', dp: -1 }).dp).toBe(0);
    expect(resolveHeadline({ key: 'batt', dp: 9 }).dp).toBe(5);
    expect(resolveHeadline({ key: 'batt', dp: 3 }).dp).toBe(3);
    expect(resolveHeadline({ key: 'batt' }).dp).toBe(2);
    expect(resolveHeadline({ key: 'gps_lat' }).dp).toBe(5); // the catalogue's 6, clamped
    expect(resolveHeadline({ key: 'batt', dp: '4' }).dp).toBe(2); // not a number: the catalogue's
  });

  it('the unit is the tile’s, else the catalogue’s; the name is the catalogue’s, else the key', () => {
    expect(resolveHeadline({ key: 'batt' })).toMatchObject({ name: 'Battery Voltage', unit: 'V', trendColor: null });
    expect(resolveHeadline({ key: 'batt', unit: 'volts', trendColor: '#123456' })).toMatchObject({
      unit: 'volts',
      trendColor: '#123456',
    });
    expect(resolveHeadline({ key: 'flow_rate', unit: '' })).toMatchObject({ name: 'flow_rate', unit: '' });
    expect(resolveHeadline({ key: 42 })).toMatchObject({ key: '', name: '' });
  });

  it('the title names the key and the operator', () => {
    expect(headlineTitle(resolveHeadline({ key: 'batt', operator: 'max' }))).toBe('Battery Voltage · Maximum');
    expect(headlineTitle(resolveHeadline({ key: 'flow' }))).toBe('flow · Average');
  });
});

describe('headlineDisplay', () => {
  it("'---' when the current period has no value (CHT-04), with no trend", () => {
    expect(headlineDisplay(null, 3, 1)).toEqual({ value: '---', missing: true, trend: null });
    expect(headlineDisplay(Number.NaN, 3, 1)).toEqual({ value: '---', missing: true, trend: null });
    expect(headlineDisplay(Number.POSITIVE_INFINITY, null, 1).value).toBe('---');
  });

  it('the value with dp decimals, clamped 0-5; never -0', () => {
    expect(headlineDisplay(12.345, null, 2).value).toBe('12.35');
    expect(headlineDisplay(12.345, null, 0).value).toBe('12');
    expect(headlineDisplay(12, null, 3).value).toBe('12.000');
    expect(headlineDisplay(1 / 3, null, 9).value).toBe('0.33333');
    expect(headlineDisplay(2.5, null, -2).value).toBe('3');
    expect(headlineDisplay(-0.001, null, 1).value).toBe('0.0');
  });

  it('a trend only when the rounded values differ (CHT-05), the previous value with the same decimals', () => {
    expect(headlineDisplay(1.04, 1.01, 1).trend).toBeNull();
    expect(headlineDisplay(1.2, 1.0, 1).trend).toEqual({ direction: 'up', text: 'Increased from 1.0' });
    expect(headlineDisplay(7, 9.25, 2).trend).toEqual({ direction: 'down', text: 'Decreased from 9.25' });
    expect(headlineDisplay(1.04, 1.01, 2).trend).toEqual({ direction: 'up', text: 'Increased from 1.01' });
    expect(headlineDisplay(5, 5, 0).trend).toBeNull();
  });

  it('no trend without a previous value', () => {
    expect(headlineDisplay(4, null, 1)).toEqual({ value: '4.0', missing: false, trend: null });
  });
});

describe('headlinePeriods', () => {
  // Thursday 2026-11-26 15:42:10 UTC.
  const now = Date.UTC(2026, 10, 26, 15, 42, 10) / 1000;
  const hour = Date.UTC(2026, 10, 26, 15) / 1000;
  const next = hour + H;

  it('the last 7 days: the whole hours they touch, up to the end of the hour in progress, and as many before', () => {
    expect(headlinePeriods({ from: now - 7 * DAY, to: now })).toEqual({
      current: { startTime: hour - 7 * DAY, endTime: next },
      previous: { startTime: hour - 14 * DAY - H, endTime: hour - 7 * DAY },
    });
  });

  it('the hour in progress counts: a record of ten minutes ago lies inside the current period', () => {
    const { current } = headlinePeriods({ from: now - 7 * DAY, to: now });
    const tenMinutesAgo = now - 600;
    expect(tenMinutesAgo >= current.startTime && tenMinutesAgo < current.endTime).toBe(true);
  });

  it('a range from a whole hour (week to date from Monday 00:00) keeps its start; the previous period is as long', () => {
    const monday = Date.UTC(2026, 10, 23) / 1000;
    const { current, previous } = headlinePeriods({ from: monday, to: now });
    expect(current).toEqual({ startTime: monday, endTime: next });
    expect(previous).toEqual({ startTime: monday - (next - monday), endTime: monday });
  });

  it('a range ending on the hour (last week, Monday to Monday) reads no hour past its end', () => {
    const monday = Date.UTC(2026, 10, 23) / 1000;
    expect(headlinePeriods({ from: monday - 7 * DAY, to: monday }).current).toEqual({
      startTime: monday - 7 * DAY,
      endTime: monday,
    });
  });

  it('the same periods all hour long; a range inside one hour reads that hour', () => {
    const later = now + 17 * 60;
    expect(headlinePeriods({ from: later - DAY, to: later })).toEqual(headlinePeriods({ from: now - DAY, to: now }));
    expect(headlinePeriods({ from: now - DAY, to: now }).current).toEqual({ startTime: hour - 24 * H, endTime: next });
    expect(headlinePeriods({ from: hour + 60, to: now })).toEqual({
      current: { startTime: hour, endTime: next },
      previous: { startTime: hour - H, endTime: hour },
    });
  });
});

describe('headlineMissingReason', () => {
  it('a tile without a key says so; a period without values says there is no data; a value needs no reason', () => {
    expect(headlineMissingReason('', { value: null, count: 0 })).toBe(HEADLINE_NO_KEY);
    expect(headlineMissingReason('vsys', { value: null, count: 0 })).toBe(HEADLINE_NO_DATA);
    expect(HEADLINE_NO_DATA).toBe('No data in this period');
    expect(headlineMissingReason('vsys', { value: 12.1, count: 3 })).toBeNull();
    expect(headlineMissingReason('vsys', { value: 0, count: 1 })).toBeNull();
  });
});
