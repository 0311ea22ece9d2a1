import { describe, expect, it } from 'vitest';
import { mergeSeries, readingsAt, recordTimes } from '../src';

const data = {
  temp: [
    { v: 21, ts: 300 },
    { v: 20, ts: 200 },
    { v: 19, ts: 100 },
  ],
  hum: [{ v: 50, ts: 200 }],
  can1: [{ v: [{ id: 1, data: '00' }], ts: 300 }],
  junk: 'not an array',
};

describe('device snapshot', () => {
  it('merges DATA_latest when newer, drops events and CAN frames, sorts newest first', () => {
    const series = mergeSeries(data as never, {
      temp: { v: 22, ts: 400 },
      hum: { v: 49, ts: 150 },
      volts: { v: 12, ts: 50 },
    });
    expect([...series.keys()].sort()).toEqual(['hum', 'temp', 'volts']);
    expect(series.get('temp')!.map((p) => p.ts)).toEqual([400, 300, 200, 100]);
    expect(series.get('hum')!.map((p) => p.ts)).toEqual([200]);
    expect(recordTimes(series)).toEqual([400, 300, 200, 100, 50]);
  });

  it('index 0 is the newest record; a key missing from it shows its last known value as stale (TL-02, CARD-23)', () => {
    const series = mergeSeries(data as never, {});
    const times = recordTimes(series);
    const now = readingsAt(series, times, 0);
    expect(now.get('temp')).toMatchObject({ value: 21, ts: 300, stale: false, previous: 20 });
    expect(now.get('hum')).toMatchObject({ value: 50, ts: 200, stale: true });
    const older = readingsAt(series, times, 2);
    expect(older.get('temp')).toMatchObject({ value: 19, ts: 100, stale: false, previous: undefined });
    expect(older.get('hum')).toBeNull();
  });

  it('keeps at most 20 points for the sparkline, oldest first, ending at the reading', () => {
    const many = { v: Array.from({ length: 30 }, (_, i) => ({ v: i, ts: 1000 - i })) };
    const series = mergeSeries(many, {});
    const r = readingsAt(series, recordTimes(series), 5).get('v')!;
    expect(r.recent).toHaveLength(20);
    expect(r.recent.at(-1)).toEqual({ v: 5, ts: 995 });
    expect(r.recent[0]).toEqual({ v: 24, ts: 976 });
  });

  it('an empty answer has no times and no readings', () => {
    const series = mergeSeries({}, null);
    expect(recordTimes(series)).toEqual([]);
    expect(readingsAt(series, [], 0).size).toBe(0);
  });
});
