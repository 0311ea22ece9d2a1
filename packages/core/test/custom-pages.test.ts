import { describe, expect, it } from 'vitest';
import {
  CUSTOM_PAGES,
  VIBRATION_WINDOW_POINTS,
  accelerometerKeys,
  axisVibration,
  combinedVibration,
  customPageOf,
  customPagePath,
  readingLevel,
} from '../src/index';

describe('custom page names (spec 1 section 5; DLG-20)', () => {
  it.each<[unknown, string | null]>([
    ['vibracorder', 'vibracorder'],
    ['securified', 'securified'],
    ['Securified', 'securified'],
    ['vibra-corder!', 'vibracorder'],
    [' securified ', 'securified'],
    ['foo', null],
    ['', null],
    ['__proto__', null],
    ['constructor', null],
    [null, null],
    [42, null],
  ])('%j names %j', (name, page) => {
    expect(customPageOf(name)).toBe(page);
  });

  it('lists the two pages', () => {
    expect(CUSTOM_PAGES).toEqual(['vibracorder', 'securified']);
  });

  it('a device notes home_page gives /custom/{home_page}/{deviceid}, word characters only', () => {
    expect(customPagePath('securified', 'AB12CD34E')).toBe('/custom/securified/AB12CD34E');
    expect(customPagePath('my-page 1!', 'AB12CD34E')).toBe('/custom/mypage1/AB12CD34E');
    expect(customPagePath('foo', '0-ABC1234')).toBe('/custom/foo/0-ABC1234');
    expect(customPagePath('!!', 'AB12CD34E')).toBeNull();
    expect(customPagePath(undefined, 'AB12CD34E')).toBeNull();
    expect(customPagePath({}, 'AB12CD34E')).toBeNull();
  });
});

describe('vibracorder figures', () => {
  it('takes the accelerometer keys in catalogue order', () => {
    expect(accelerometerKeys(['vsys', 'accel_z', 'accel_x', 'gps_lat', 'accel_y', 'accel_x'])).toEqual([
      'accel_x',
      'accel_y',
      'accel_z',
    ]);
    expect(accelerometerKeys(['vsys', '__proto__'])).toEqual([]);
  });

  it('an axis: newest value, mean, RMS about the mean, peak; gravity taken out', () => {
    // Newest first, as GET /data answers: 1.1, 0.9, 1.1, 0.9 g about a mean of 1 g.
    const points = [
      { ts: 40, v: 1.1 },
      { ts: 30, v: 0.9 },
      { ts: 20, v: 'x' },
      { ts: 10, v: 1.1 },
      { ts: 0, v: 0.9 },
    ];
    const axis = axisVibration(points);
    expect(axis.latest).toEqual({ ts: 40, v: 1.1 });
    expect(axis.count).toBe(4);
    expect(axis.mean).toBeCloseTo(1, 12);
    expect(axis.rms).toBeCloseTo(0.1, 12);
    expect(axis.peak).toBeCloseTo(0.1, 12);
    expect(axis.points.map((p) => p.ts)).toEqual([0, 10, 30, 40]);
  });

  it('a still axis vibrates 0; the window keeps the newest points; no numbers give nulls', () => {
    expect(
      axisVibration([
        { ts: 1, v: 1 },
        { ts: 0, v: 1 },
      ]).rms,
    ).toBe(0);
    const many = Array.from({ length: VIBRATION_WINDOW_POINTS + 10 }, (_, i) => ({ ts: 1000 - i, v: i % 2 }));
    const axis = axisVibration(many);
    expect(axis.count).toBe(VIBRATION_WINDOW_POINTS);
    expect(axis.points.at(-1)?.ts).toBe(1000);
    expect(axisVibration(many, 2).count).toBe(2);
    expect(
      axisVibration([
        { ts: 1, v: null },
        { ts: 2, v: Number.NaN },
      ]),
    ).toEqual({
      latest: null,
      count: 0,
      mean: null,
      rms: null,
      peak: null,
      points: [],
    });
    expect(axisVibration([], -3).count).toBe(0);
  });

  it('the overall vibration is the root of the summed squares', () => {
    expect(combinedVibration([{ rms: 0.3 }, { rms: 0.4 }, { rms: null }])).toBeCloseTo(0.5, 12);
    expect(combinedVibration([{ rms: null }])).toBeNull();
    expect(combinedVibration([])).toBeNull();
  });
});

describe('kiosk reading level', () => {
  it('judges a number against its limits (setting over catalogue); null without limits or a number', () => {
    expect(readingLevel('cpu_temp', undefined, 60)).toBe('normal');
    expect(readingLevel('cpu_temp', undefined, 75)).toBe('warning');
    expect(readingLevel('cpu_temp', undefined, 90)).toBe('alarm');
    expect(readingLevel('cpu_temp', { gaugeSettings: { alarmHigh: 50 } }, 60)).toBe('alarm');
    expect(readingLevel('accel_x', undefined, 1)).toBeNull();
    expect(readingLevel('cpu_temp', undefined, '90')).toBeNull();
    expect(readingLevel('cpu_temp', undefined, Number.POSITIVE_INFINITY)).toBeNull();
    expect(readingLevel('__proto__', undefined, 1)).toBeNull();
  });
});
