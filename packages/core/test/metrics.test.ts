/** The metrics contracts: hour flooring, the periods, and the queries of both metrics calls. */
import { describe, expect, it } from 'vitest';
import {
  COLUMN_OPERATORS,
  GroupMetricsQuerySchema,
  GroupMetricsResponseSchema,
  METRIC_KINDS,
  METRICS_MAX_DAYS,
  METRICS_MAX_INTERMEDIATE,
  MetricsQuerySchema,
  ceilToHour,
  floorToHour,
  hoursCovering,
  metricsPeriods,
  intermediatePeriods,
} from '../src/index';

const H = 3600;
const DAY = 86_400;

describe('floorToHour and metricsPeriods', () => {
  it('a start of 10:37:12 is read as 10:00:00 (t − t mod 3600)', () => {
    const tenOClock = Date.UTC(2026, 10, 26, 10) / 1000;
    expect(floorToHour(tenOClock + 37 * 60 + 12)).toBe(tenOClock);
    expect(floorToHour(tenOClock)).toBe(tenOClock);
    expect(floorToHour(tenOClock - 1)).toBe(tenOClock - H);
    expect(floorToHour(0)).toBe(0);
  });

  it('ceilToHour rounds up to a whole hour; hoursCovering is every hour a range touches, the hour in progress included', () => {
    const tenOClock = Date.UTC(2026, 10, 26, 10) / 1000;
    expect(ceilToHour(tenOClock + 1)).toBe(tenOClock + H);
    expect(ceilToHour(tenOClock)).toBe(tenOClock);
    expect(hoursCovering({ from: tenOClock - 7 * DAY + 600, to: tenOClock + 600 })).toEqual({
      startTime: tenOClock - 7 * DAY,
      endTime: tenOClock + H,
    });
    expect(hoursCovering({ from: tenOClock - DAY, to: tenOClock })).toEqual({
      startTime: tenOClock - DAY,
      endTime: tenOClock,
    });
    // An empty or reversed range is an empty period, never a negative one.
    expect(hoursCovering({ from: tenOClock, to: tenOClock })).toEqual({ startTime: tenOClock, endTime: tenOClock });
    expect(hoursCovering({ from: tenOClock + 2 * H, to: tenOClock })).toEqual({
      startTime: tenOClock + 2 * H,
      endTime: tenOClock + 2 * H,
    });
  });

  it('the previous period defaults to the same hours just before the current one; given times are floored', () => {
    expect(metricsPeriods({ currentStartTime: 10 * H + 5, currentEndTime: 14 * H + 3599 })).toEqual({
      current: { startTime: 10 * H, endTime: 14 * H },
      previous: { startTime: 6 * H, endTime: 10 * H },
    });
    expect(
      metricsPeriods({
        currentStartTime: 10 * H,
        currentEndTime: 11 * H,
        previousStartTime: 2 * H + 1,
        previousEndTime: 3 * H + 1,
      }).previous,
    ).toEqual({ startTime: 2 * H, endTime: 3 * H });
    // Inside one hour: an empty period, and an empty previous one.
    expect(metricsPeriods({ currentStartTime: 10 * H + 1, currentEndTime: 10 * H + 600 })).toEqual({
      current: { startTime: 10 * H, endTime: 10 * H },
      previous: { startTime: 10 * H, endTime: 10 * H },
    });
  });

  it('the metric kinds are min, max, avg, sum, diff and acc (CHT-07)', () => {
    expect(METRIC_KINDS).toEqual(['min', 'max', 'avg', 'sum', 'diff', 'acc']);
  });
});

describe('intermediatePeriods (CHT-08)', () => {
  const H = 3600;
  const D = 86_400;
  it('a day or less: its hours', () => {
    expect(intermediatePeriods({ startTime: 10 * D + 2 * H, endTime: 10 * D + 5 * H })).toEqual({
      width: H,
      periods: [
        { startTime: 10 * D + 2 * H, endTime: 10 * D + 3 * H },
        { startTime: 10 * D + 3 * H, endTime: 10 * D + 4 * H },
        { startTime: 10 * D + 4 * H, endTime: 10 * D + 5 * H },
      ],
    });
    expect(intermediatePeriods({ startTime: 10 * D, endTime: 11 * D }).periods).toHaveLength(24);
  });
  it('longer: its UTC days, clipped to the period; wider whole days past 400', () => {
    expect(intermediatePeriods({ startTime: 10 * D + 20 * H, endTime: 12 * D + 3 * H })).toEqual({
      width: D,
      periods: [
        { startTime: 10 * D + 20 * H, endTime: 11 * D },
        { startTime: 11 * D, endTime: 12 * D },
        { startTime: 12 * D, endTime: 12 * D + 3 * H },
      ],
    });
    const long = intermediatePeriods({ startTime: 0, endTime: 1000 * D });
    expect(long.width).toBe(3 * D);
    expect(long.periods.length).toBeLessThanOrEqual(400);
    expect(long.periods.at(-1)?.endTime).toBe(1000 * D);
  });
  it('an empty period: none', () => {
    expect(intermediatePeriods({ startTime: 5 * H, endTime: 5 * H }).periods).toEqual([]);
  });
});

describe('GroupMetricsQuerySchema', () => {
  const ok = { key: 'temp', currentStartTime: '0', currentEndTime: String(DAY) };

  it('reads times from query text; operator defaults to avg (CHT-02)', () => {
    expect(GroupMetricsQuerySchema.parse(ok)).toEqual({
      key: 'temp',
      operator: 'avg',
      currentStartTime: 0,
      currentEndTime: DAY,
    });
    for (const operator of COLUMN_OPERATORS)
      expect(GroupMetricsQuerySchema.parse({ ...ok, operator }).operator).toBe(operator);
    expect(GroupMetricsQuerySchema.parse({ ...ok, operator: '' }).operator).toBe('avg');
  });

  it.each([
    [{ ...ok, key: undefined }, 'key is required'],
    [{ ...ok, key: '' }, 'key is required'],
    [{ ...ok, key: 'a\u0000b' }, undefined],
    [{ ...ok, operator: 'median' }, 'operator must be one of avg, sum, max, min, latest'],
    [{ ...ok, operator: '__proto__' }, 'operator must be one of avg, sum, max, min, latest'],
    [{ ...ok, currentStartTime: '10', currentEndTime: '5' }, 'currentStartTime must not be after currentEndTime'],
    [
      { ...ok, currentEndTime: String((METRICS_MAX_DAYS + 1) * DAY) },
      `A period covers at most ${METRICS_MAX_DAYS} days`,
    ],
    [{ ...ok, previousStartTime: '0' }, 'previousStartTime and previousEndTime go together'],
    [{ ...ok, previousStartTime: '9', previousEndTime: '1' }, 'previousStartTime must not be after previousEndTime'],
    [{ ...ok, currentEndTime: undefined }, 'currentEndTime is required'],
    [{ ...ok, currentEndTime: 'x' }, 'currentEndTime must be epoch seconds from 0 to 4102444800'],
    [{ ...ok, currentEndTime: '99999999999999999999999' }, 'currentEndTime must be epoch seconds from 0 to 4102444800'],
    [{ ...ok, currentStartTime: '-1e23' }, 'currentStartTime must be epoch seconds from 0 to 4102444800'],
    [{ ...ok, currentStartTime: null }, undefined],
    [{ ...ok, extra: '1' }, undefined],
  ])('%j is refused', (query, message) => {
    const result = GroupMetricsQuerySchema.safeParse(query);
    expect(result.success).toBe(false);
    if (message) expect(result.error?.issues.map((i) => i.message)).toContain(message);
  });

  it('the answer names the operator and both periods', () => {
    const period = { startTime: 0, endTime: H, value: null, devices: 0, count: 0, deviceid: null, ts: null };
    const answer = { groupid: 'G1', key: 'temp', operator: 'latest', currentPeriod: period, previousPeriod: period };
    expect(GroupMetricsResponseSchema.parse(answer)).toEqual(answer);
    expect(GroupMetricsResponseSchema.safeParse({ ...answer, operator: 'median' }).success).toBe(false);
  });
});

describe('MetricsQuerySchema (device)', () => {
  it('dataKeys is a comma list of distinct keys; times from 0 to 2100 (open ranges), previous times in pairs', () => {
    expect(
      MetricsQuerySchema.parse({ currentStartTime: '0', currentEndTime: '3600', dataKeys: 'a, b,a' }).dataKeys,
    ).toEqual(['a', 'b']);
    expect(MetricsQuerySchema.parse({ currentStartTime: '0', currentEndTime: '3600' }).dataKeys).toBeUndefined();
    expect(
      MetricsQuerySchema.parse({
        currentStartTime: '0',
        currentEndTime: '4102444800',
        previousStartTime: '9',
        previousEndTime: '1',
      }),
    ).toMatchObject({ currentStartTime: 0, currentEndTime: 4102444800, previousStartTime: 9, previousEndTime: 1 });
    for (const bad of [
      { currentStartTime: '0' },
      { currentStartTime: '1795764516', currentEndTime: '99999999999999999999999' },
      { currentStartTime: '-1e23', currentEndTime: '1e23' },
      { currentStartTime: '0', currentEndTime: '1e308' },
      { currentStartTime: '-1', currentEndTime: '3600' },
      { currentStartTime: '0', currentEndTime: '3600', previousStartTime: '0', previousEndTime: '4102444801' },
      { currentStartTime: '0', currentEndTime: 'Infinity' },
      { currentStartTime: null, currentEndTime: '3600' },
      { currentStartTime: '0', currentEndTime: '3600', previousEndTime: '0' },
      { currentStartTime: '0', currentEndTime: '3600', dataKeys: 'a,,b' },
      { currentStartTime: '0', currentEndTime: '3600', dataKeys: 'a\u0000' },
    ])
      expect(MetricsQuerySchema.safeParse(bad).success).toBe(false);
  });
});

describe('intermediatePeriods', () => {
  it('stays within METRICS_MAX_INTERMEDIATE + 1 slots over the widest period a request may name', () => {
    const { periods } = intermediatePeriods({ startTime: 0, endTime: 4_102_444_800 });
    expect(periods.length).toBeLessThanOrEqual(METRICS_MAX_INTERMEDIATE + 1);
    expect(periods[0]!.startTime).toBe(0);
    expect(periods.at(-1)!.endTime).toBe(4_102_444_800);
  });
});
