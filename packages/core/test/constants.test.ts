import { describe, expect, it } from 'vitest';
import {
  ALERT_SCHEDULE,
  CHART_RANGES_MS,
  CUSTOM_CHART_LIMIT,
  CUSTOM_WIDGET_LIMIT,
  DEFAULT_VIEW_TIME_RANGE,
  EXPORTED_NUMERIC_CONSTANTS,
  GRID_BREAKPOINTS,
  GRID_COLS,
  GRID_ROW_HEIGHT,
  MAP_DEFAULTS,
  MONITORING_CONFIG,
  PAGE_SIZE_OPTIONS,
  POLLING,
  SESSION_DAYS,
  SESSION_MAX_AGE_S,
  STALE_TIMES_MS,
  alertScheduleLabel,
  alertScheduleSeconds,
  expectedIntervalSeconds,
  gpsAccuracyRadiusMetres,
  gridBreakpointFor,
  legacyAlertScheduleLabel,
  nextPollDelayMs,
  offlineAfterSeconds,
  type AlertScheduleLabel,
} from '../src/index';

describe('alert schedule', () => {
  it.each<[keyof typeof ALERT_SCHEDULE, number]>([
    ['Once', 2_592_000],
    ['Every 10 Minutes', 600],
    ['Hourly', 3600],
    ['Daily', 86_400],
  ])('CONST-09: %s = %i s', (label, seconds) => {
    expect(ALERT_SCHEDULE[label]).toBe(seconds);
    expect(alertScheduleSeconds(label)).toBe(seconds);
  });

  it('Never is 0', () => expect(alertScheduleSeconds('Never')).toBe(0));

  it.each([
    [2_592_000, 'Once'],
    [1_296_001, 'Once'],
    [1_296_000, 'Daily'],
    [600, 'Daily'],
    [0, 'Never'],
    [-1, 'Never'],
  ])('CONST-10: the spec rule reads %i as %s', (seconds, label) =>
    expect(legacyAlertScheduleLabel(seconds)).toBe(label),
  );

  it.each<[number, AlertScheduleLabel]>([
    [2_592_000, 'Once'],
    [600, 'Every 10 Minutes'],
    [3600, 'Hourly'],
    [86_400, 'Daily'],
    [1_296_001, 'Once'],
    [1_296_000, 'Daily'],
    [7200, 'Daily'],
    [0, 'Never'],
    [-1, 'Never'],
    [Number.NaN, 'Never'],
  ])('DESIGN.md (I-08 fixed): alertScheduleLabel(%d) -> %s', (seconds, label) =>
    expect(alertScheduleLabel(seconds)).toBe(label),
  );

  it('every label round-trips', () => {
    for (const label of ['Once', 'Every 10 Minutes', 'Hourly', 'Daily', 'Never'] as const) {
      expect(alertScheduleLabel(alertScheduleSeconds(label))).toBe(label);
    }
  });
});

describe('figures of the specification', () => {
  it('CONST-11: exported numeric constants as given', () => {
    expect(EXPORTED_NUMERIC_CONSTANTS).toEqual([30, 50, 50, 10, 6, 10, 8_388_608]);
    expect(EXPORTED_NUMERIC_CONSTANTS[6]).toBe(8 * 1024 * 1024);
  });

  it('BRD-35: monitoring rates', () => {
    expect(MONITORING_CONFIG).toEqual({
      tracesSampleRate: 1.0,
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1.0,
    });
  });

  it('session 7 days', () => {
    expect(SESSION_DAYS).toBe(7);
    expect(SESSION_MAX_AGE_S).toBe(604_800);
  });

  it('grid', () => {
    expect(GRID_BREAKPOINTS).toEqual({ lg: 992, md: 576, sm: 0 });
    expect(GRID_COLS).toEqual({ lg: 12, md: 6, sm: 4 });
    expect(GRID_ROW_HEIGHT).toBeCloseTo(30.8);
  });

  it.each([
    [1200, 'lg'],
    [992, 'lg'],
    [991, 'md'],
    [576, 'md'],
    [575, 'sm'],
    [0, 'sm'],
    [-1, 'sm'],
  ])('gridBreakpointFor(%i) -> %s', (w, bp) => expect(gridBreakpointFor(w)).toBe(bp));

  it('limits and defaults', () => {
    expect(CUSTOM_WIDGET_LIMIT).toBe(99);
    expect(CUSTOM_CHART_LIMIT).toBe(5);
    expect(DEFAULT_VIEW_TIME_RANGE).toEqual({ type: 'day', amount: 7 });
    expect(PAGE_SIZE_OPTIONS).toEqual([10, 25, 50]);
    expect(CHART_RANGES_MS['10m']).toBe(600_000);
    expect(CHART_RANGES_MS['1M']).toBe(2_628_000_000);
    expect(STALE_TIMES_MS.views).toBe(300_000);
    expect(STALE_TIMES_MS.groupsOfUser).toBe(600_000);
    expect(STALE_TIMES_MS.data).toBe(30_000);
  });

  it('map defaults (MAP-08, MAP-09, MAP-10)', () => {
    expect(MAP_DEFAULTS).toEqual({
      centre: { lat: 26, lng: -135 },
      zoom: 2,
      singleMarkerZoom: 15,
      autoFitPauseMs: 5000,
    });
  });

  it.each([
    [2, 30],
    [0.8, 12],
    [0, 0],
    [-1, 0],
    [Number.NaN, 0],
  ])('MAP-13 gpsAccuracyRadiusMetres(%d) -> %d', (hdop, m) => expect(gpsAccuracyRadiusMetres(hdop)).toBeCloseTo(m));
});

describe('polling and contact', () => {
  it.each<[number | null | undefined, number | null | undefined, number]>([
    [undefined, undefined, 60], // a config without them runs the default config's 60 x 1
    [null, null, 60],
    [30, 2, 60], // TL-13
    [60, 1, 60],
    [5, undefined, 5],
    [0, 1, 60],
    [-10, 3, 180],
    [Number.NaN, 2, 120],
  ])('expectedIntervalSeconds(%j, %j) -> %i', (base, transmit, s) =>
    expect(expectedIntervalSeconds(base, transmit)).toBe(s),
  );

  it('TL-14: without a device config (interval unknown) the poll after new data is 5 s', () => {
    const nowMs = 1_000_000_000;
    expect(
      nextPollDelayMs({ previousDelayMs: 80_000, newData: true, intervalS: null, lastRecordS: nowMs / 1000, nowMs }),
    ).toBe(POLLING.initialMs);
  });

  it.each([
    [60, 360], // TL-16: not 120
    [600, 660],
    [300, 360],
    [301, 361],
    [5, 360],
  ])('TL-16 offlineAfterSeconds(%i) -> %i', (interval, s) => expect(offlineAfterSeconds(interval)).toBe(s));

  it('TL-10/TL-11: with nothing new the delay goes 5, 10, 20, 40, 80, 120, 120 s', () => {
    const gaps: number[] = [POLLING.initialMs];
    for (let i = 0; i < 6; i += 1) {
      gaps.push(
        nextPollDelayMs({
          previousDelayMs: gaps.at(-1) ?? 0,
          newData: false,
          intervalS: 60,
          lastRecordS: 0,
          nowMs: 1e12,
        }),
      );
    }
    expect(gaps.map((g) => g / 1000)).toEqual([5, 10, 20, 40, 80, 120, 120]);
  });

  it('TL-12: new data with an unknown interval resets to 5 s', () => {
    expect(
      nextPollDelayMs({ previousDelayMs: 80_000, newData: true, intervalS: null, lastRecordS: null, nowMs: 1e12 }),
    ).toBe(5000);
  });

  it('new data polls at the expected next transmission, at least 5 s', () => {
    const nowMs = 1_000_000_000;
    expect(
      nextPollDelayMs({ previousDelayMs: 80_000, newData: true, intervalS: 60, lastRecordS: nowMs / 1000 - 10, nowMs }),
    ).toBe(50_000);
    expect(
      nextPollDelayMs({ previousDelayMs: 80_000, newData: true, intervalS: 60, lastRecordS: nowMs / 1000 - 58, nowMs }),
    ).toBe(5000);
    expect(
      nextPollDelayMs({
        previousDelayMs: 80_000,
        newData: true,
        intervalS: 60,
        lastRecordS: nowMs / 1000 - 600,
        nowMs,
      }),
    ).toBe(5000);
  });

  it('a bad previous delay restarts at 5 s', () => {
    expect(
      nextPollDelayMs({ previousDelayMs: Number.NaN, newData: false, intervalS: null, lastRecordS: null, nowMs: 0 }),
    ).toBe(5000);
    expect(nextPollDelayMs({ previousDelayMs: -1, newData: false, intervalS: null, lastRecordS: null, nowMs: 0 })).toBe(
      5000,
    );
  });
});
