/** How many points a call reads, and the data restriction (spec 2 sections 6, 7 and 9). */
import { describe, expect, it } from 'vitest';
import {
  DATA_RESTRICTED_POINTS,
  DEFAULT_DATA_POINTS,
  DEFAULT_RPC_COMMANDS,
  DEFAULT_SERVER_LOG_ENTRIES,
  MAX_DATA_POINTS,
  clampDataPoints,
  dataPointsFor,
  steppableTimes,
} from '../src/index';

describe('data point figures', () => {
  it('default 600, at most 10,000, one when restricted', () => {
    expect(DEFAULT_DATA_POINTS).toBe(600);
    expect(MAX_DATA_POINTS).toBe(10_000);
    expect(DATA_RESTRICTED_POINTS).toBe(1);
    expect(DEFAULT_SERVER_LOG_ENTRIES).toBe(1000);
    expect(DEFAULT_RPC_COMMANDS).toBe(100);
  });
});

describe('clampDataPoints', () => {
  it('missing or not a number: the fallback (600 unless given)', () => {
    for (const requested of [undefined, null, NaN, Infinity, -Infinity, '5' as never, {} as never]) {
      expect(clampDataPoints(requested)).toBe(DEFAULT_DATA_POINTS);
      expect(clampDataPoints(requested, DEFAULT_SERVER_LOG_ENTRIES)).toBe(1000);
      expect(clampDataPoints(requested, DEFAULT_RPC_COMMANDS)).toBe(100);
    }
  });

  it('rounds down and keeps within 1..10,000', () => {
    const cases: [number, number][] = [
      [1, 1],
      [0, 1],
      [-1, 1],
      [-1e308, 1],
      [0.5, 1],
      [1.9, 1],
      [599.99, 599],
      [600, 600],
      [9_999, 9_999],
      [10_000, 10_000],
      [10_000.5, 10_000],
      [10_001, 10_000],
      [Number.MAX_SAFE_INTEGER, 10_000],
      [1e308, 10_000],
    ];
    for (const [requested, expected] of cases) expect(clampDataPoints(requested)).toBe(expected);
  });

  it('a fallback that is itself out of range or not a number is made safe too', () => {
    expect(clampDataPoints(undefined, 0)).toBe(1);
    expect(clampDataPoints(undefined, 1e9)).toBe(MAX_DATA_POINTS);
    expect(clampDataPoints(undefined, NaN)).toBe(DEFAULT_DATA_POINTS);
    expect(clampDataPoints(undefined, Infinity)).toBe(DEFAULT_DATA_POINTS);
  });
});

describe('the data restriction', () => {
  it('dataPointsFor: one point when restricted, else 600', () => {
    expect(dataPointsFor({ dataRestricted: true })).toBe(DATA_RESTRICTED_POINTS);
    expect(dataPointsFor({ dataRestricted: false })).toBe(DEFAULT_DATA_POINTS);
  });

  it('steppableTimes: only the newest time when restricted (no history stepping), all otherwise', () => {
    const times = [300, 200, 100];
    expect(steppableTimes(times, { dataRestricted: true })).toEqual([300]);
    expect(steppableTimes(times, { dataRestricted: false })).toEqual([300, 200, 100]);
    expect(steppableTimes([], { dataRestricted: true })).toEqual([]);
    expect(steppableTimes([], { dataRestricted: false })).toEqual([]);
  });

  it('steppableTimes gives a fresh array: the caller may not change the input through it', () => {
    const times = [2, 1];
    const all = steppableTimes(times, { dataRestricted: false });
    all.push(0);
    expect(times).toEqual([2, 1]);
  });
});
