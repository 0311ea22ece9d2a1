/**
 * Pure rules of downsampled reads: how wide a bucket is for a range and a number of points, and
 * which table computes buckets of that width.
 */
import type { RollupTable } from './telemetry-reads.repository';

/** Epoch seconds floored to the hour. */
export const floorHour = (t: number) => Math.floor(t / 3600) * 3600;

/**
 * Widest bucket read from the hourly rollups when the server picks the width: wider ones would
 * read more than twice as many hourly rows as the buckets asked for (a 90-day chart of 600
 * points: 2,160 hours a key), so they become whole days, read from the daily rollups.
 */
export const HOURLY_MAX_WIDTH = 2 * 3600;

/**
 * Widest bucket computed from the records when the server picks the width: from this width on,
 * buckets are whole hours read from the hourly rollups (fewer points than asked, each an hour).
 * Twenty minutes keeps a 7-day chart of 600 points (1,008 s buckets, 10,080 records a series at a
 * record a minute) on the records, so it gets its 600 points, and bounds a read at 20 records a
 * bucket at that rate (12,000 for 600 points); longer ranges read the hourly rows
 * (docs/decisions.md, 'Chart bucket widths').
 */
export const RECORDS_MAX_WIDTH = 20 * 60;

/**
 * The bucket width for a range and a number of points: at least 1 s; from RECORDS_MAX_WIDTH (20
 * minutes), whole hours (hourly rollups); above HOURLY_MAX_WIDTH, whole days (daily rollups).
 */
export function bucketWidth(rangeSeconds: number, dataPoints: number): number {
  const raw = Math.max(1, Math.ceil(rangeSeconds / Math.max(1, dataPoints)));
  if (raw < RECORDS_MAX_WIDTH) return raw;
  return raw <= HOURLY_MAX_WIDTH ? Math.ceil(raw / 3600) * 3600 : Math.ceil(raw / 86_400) * 86_400;
}

/** A width the caller asked for (seconds): whole seconds, whole hours from an hour. */
export function requestedWidth(seconds: number): number {
  return seconds >= 3600 ? Math.ceil(seconds / 3600) * 3600 : Math.ceil(seconds);
}

/** Widest bucket a caller may ask for (downsample=N): a year. */
export const DOWNSAMPLE_MAX_WIDTH = 366 * 86_400;

/** Where buckets of a width are computed: whole days from the daily rollups, whole hours from the hourly ones, else raw records. */
export function bucketSource(seconds: number): RollupTable | 'records' {
  if (seconds % 86_400 === 0) return 'rollup_day';
  return seconds % 3600 === 0 ? 'rollup_hour' : 'records';
}

/**
 * Bucket rows as GET /data answers them: keys in code-unit order (the same on both engines),
 * each key's buckets newest first; no prototype (a device key may be called 'constructor').
 */
export function bucketsByKey(
  rows: readonly { key: string; bucket: number; v: unknown }[],
): Record<string, { v: unknown; ts: number }[]> {
  const byKey = new Map<string, { v: unknown; ts: number }[]>();
  for (const row of rows) {
    const list = byKey.get(row.key);
    if (list) list.push({ v: row.v, ts: row.bucket });
    else byKey.set(row.key, [{ v: row.v, ts: row.bucket }]);
  }
  const data = Object.create(null) as Record<string, { v: unknown; ts: number }[]>;
  for (const key of [...byKey.keys()].sort()) data[key] = byKey.get(key)!.sort((x, y) => y.ts - x.ts);
  return data;
}
