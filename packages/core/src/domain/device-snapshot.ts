/**
 * The readings of a device at one point of its timeline (spec 2 sections 2 and 4): GET /data
 * gives each key's points newest first, the settings call the newest value of every key
 * (DATA_latest). Index 0 of the timeline is the newest record, higher indexes are older ones.
 * A key without a value in the selected record shows its last known value before it (stale).
 */
import type { DataPoint } from '../contracts/device-data';
import { RECORD_STRUCTURED_KEYS } from '../contracts/device-record';
import { SPARKLINE_POINTS } from './constants';

/** Keys of a record that are not readings of their own (its time, events and raw CAN frames). */
const NON_READING_KEYS: ReadonlySet<string> = new Set(RECORD_STRUCTURED_KEYS);

export interface KeyReading {
  key: string;
  value: unknown;
  ts: number;
  /** The key had no value in the selected record: this is its last known value from `ts`. */
  stale: boolean;
  /** The key's value in the point before this one, when there is one. */
  previous: unknown;
  /** Up to SPARKLINE_POINTS points ending at this one, oldest first. */
  recent: DataPoint[];
}

const isPoint = (p: unknown): p is DataPoint =>
  typeof p === 'object' &&
  p !== null &&
  typeof (p as DataPoint).ts === 'number' &&
  Number.isFinite((p as DataPoint).ts);

/** Each key's points, newest first, with DATA_latest's value added when it is newer (or the key has none). */
export function mergeSeries(
  data: Readonly<Record<string, readonly unknown[]>> | null | undefined,
  latest: Readonly<Record<string, unknown>> | null | undefined,
): Map<string, DataPoint[]> {
  const series = new Map<string, DataPoint[]>();
  for (const [key, points] of Object.entries(data ?? {})) {
    if (NON_READING_KEYS.has(key) || !Array.isArray(points)) continue;
    series.set(
      key,
      points.filter(isPoint).sort((a, b) => b.ts - a.ts),
    );
  }
  for (const [key, point] of Object.entries(latest ?? {})) {
    if (NON_READING_KEYS.has(key) || !isPoint(point)) continue;
    const points = series.get(key) ?? [];
    if (points.length === 0 || point.ts > points[0]!.ts) points.unshift({ v: point.v, ts: point.ts });
    series.set(key, points);
  }
  return series;
}

/** The timeline: the distinct record times, newest first. */
export function recordTimes(series: ReadonlyMap<string, readonly DataPoint[]>): number[] {
  const times = new Set<number>();
  for (const points of series.values()) for (const p of points) times.add(p.ts);
  return [...times].sort((a, b) => b - a);
}

/** Every key's reading at timeline `index` (null: the key had no value yet at that time). */
export function readingsAt(
  series: ReadonlyMap<string, readonly DataPoint[]>,
  times: readonly number[],
  index: number,
): Map<string, KeyReading | null> {
  const at = times[Math.min(Math.max(0, index), times.length - 1)];
  const readings = new Map<string, KeyReading | null>();
  for (const [key, points] of series) {
    if (at === undefined) {
      readings.set(key, null);
      continue;
    }
    const i = points.findIndex((p) => p.ts <= at);
    if (i < 0) {
      readings.set(key, null);
      continue;
    }
    const point = points[i]!;
    readings.set(key, {
      key,
      value: point.v,
      ts: point.ts,
      stale: point.ts !== at,
      previous: points[i + 1]?.v,
      recent: points.slice(i, i + SPARKLINE_POINTS).reverse(),
    });
  }
  return readings;
}
