/** The pure rules of downsampled reads: bucket widths, where buckets come from, the answer's order. */
import { describe, expect, it } from 'vitest';
import {
  HOURLY_MAX_WIDTH,
  RECORDS_MAX_WIDTH,
  bucketSource,
  bucketWidth,
  bucketsByKey,
  floorHour,
  requestedWidth,
} from '../../src/modules/telemetry/downsample';

const HOUR = 3600;
const DAY = 86_400;

describe('bucketWidth', () => {
  it.each([
    [0, 600, 1],
    [-5, 600, 1],
    [600, 600, 1],
    [601, 600, 2],
    [3600, 0, 3600],
    [DAY, 600, 144],
    [600 * (RECORDS_MAX_WIDTH - 1), 600, RECORDS_MAX_WIDTH - 1],
    [600 * RECORDS_MAX_WIDTH, 600, HOUR],
    [7 * DAY, 600, 1008],
    [9 * DAY, 600, HOUR],
    [600 * HOUR, 600, HOUR],
    [600 * HOUR + 1, 600, 2 * HOUR],
    [600 * HOURLY_MAX_WIDTH, 600, HOURLY_MAX_WIDTH],
    [600 * HOURLY_MAX_WIDTH + 1, 600, DAY],
    [90 * DAY, 600, DAY],
    [400 * DAY, 100, 4 * DAY],
  ])('%d s over %d points -> %d s', (range, points, width) => expect(bucketWidth(range, points)).toBe(width));

  it('below 20 minutes keeps the exact width; from 20 minutes whole hours; past two hours whole days', () => {
    for (let range = 1; range < 5000 * DAY; range = Math.ceil(range * 1.7)) {
      const width = bucketWidth(range, 600);
      if (width >= DAY && width > HOURLY_MAX_WIDTH) expect(width % DAY).toBe(0);
      else if (width >= RECORDS_MAX_WIDTH) expect(width % HOUR).toBe(0);
      expect(width * 600).toBeGreaterThanOrEqual(range); // 600 buckets cover the range
    }
  });
});

describe('requestedWidth', () => {
  it.each([
    [1, 1],
    [1.2, 2],
    [3599, 3599],
    [3600, HOUR],
    [3601, 2 * HOUR],
    [DAY, DAY],
  ])('%d -> %d', (asked, width) => expect(requestedWidth(asked)).toBe(width));
});

describe('bucketSource', () => {
  it.each([
    [1, 'records'],
    [1008, 'records'],
    [HOUR, 'rollup_hour'],
    [2 * HOUR, 'rollup_hour'],
    [DAY, 'rollup_day'],
    [3 * DAY, 'rollup_day'],
  ] as const)('%d s buckets come from %s', (width, source) => expect(bucketSource(width)).toBe(source));
});

describe('floorHour', () => {
  it.each([
    [0, 0],
    [3599.9, 0],
    [3600, 3600],
    [7201, 7200],
  ])('%d -> %d', (t, floored) => expect(floorHour(t)).toBe(floored));
});

describe('bucketsByKey', () => {
  it('orders keys by code unit and each key newest first, with no prototype', () => {
    const data = bucketsByKey([
      { key: 'b', bucket: 10, v: 1 },
      { key: 'a', bucket: 10, v: 2 },
      { key: 'b', bucket: 30, v: 3 },
      { key: 'B', bucket: 20, v: 4 },
      { key: '__proto__', bucket: 5, v: 5 },
      { key: 'constructor', bucket: 5, v: 6 },
    ]);
    expect(Object.keys(data)).toEqual(['B', '__proto__', 'a', 'b', 'constructor']);
    expect(data.b).toEqual([
      { v: 3, ts: 30 },
      { v: 1, ts: 10 },
    ]);
    expect(Object.getPrototypeOf(data)).toBeNull();
    expect(data['__proto__']).toEqual([{ v: 5, ts: 5 }]);
    expect(JSON.parse(JSON.stringify(data)).constructor).toEqual([{ v: 6, ts: 5 }]);
  });

  it('answers an empty object for no rows', () => expect(Object.keys(bucketsByKey([]))).toEqual([]));
});
