/**
 * SQL of the ingest writer's crash recovery: ingest_state (from when derived rows may be held
 * back) and rebuilding those rows (rollups, latest values, bus messages, contact times) from the
 * records received since.
 */
import type { CanFrame, DeviceRecord } from '@portal/core';
import type { Db } from '../../db/db';
import { STORED_NUMBER } from './telemetry-sql.repository';

/** The CAN frames of the records received since `since` (of some devices, or all), oldest first. */
export async function selectBusRecordsSince(
  db: Db,
  since: Date,
  deviceIds: string[] | null,
): Promise<{ device_id: string; record: Pick<DeviceRecord, 'ts' | 'can1' | 'can2'> }[]> {
  const rows = await db.query<{ device_id: string; ts: number; can1: CanFrame[] | null; can2: CanFrame[] | null }>(
    `SELECT device_id, ts, data->'can1' AS can1, data->'can2' AS can2
       FROM records
      WHERE received_at >= $1 AND ($2::text[] IS NULL OR device_id = ANY($2::text[]))
        AND (data ? 'can1' OR data ? 'can2')
      ORDER BY ts`,
    [since, deviceIds],
  );
  return rows.map(({ device_id, ts, can1, can2 }) => ({
    device_id,
    record: { ts, ...(can1 ? { can1 } : {}), ...(can2 ? { can2 } : {}) },
  }));
}

/**
 * Receipt time from which the records' derived rows (rollups, latest values, contact times) may
 * not all be written yet; null when they are (see ingest_state in migration 007).
 */
export async function selectUnflushedSince(db: Db): Promise<Date | null> {
  const rows = await db.query<{ unflushed_since: Date | string | null }>(
    'SELECT unflushed_since FROM ingest_state WHERE id',
  );
  const value = rows[0]?.unflushed_since ?? null;
  return value === null ? null : new Date(value);
}

export async function updateUnflushedSince(db: Db, since: Date | null): Promise<void> {
  await db.query('UPDATE ingest_state SET unflushed_since = $1 WHERE id', [since]);
}

export interface DeviceBucket {
  device_id: string;
  bucket: number;
}

/** The (device, hour) of every record received since `since`. */
export function selectHoursReceivedSince(db: Db, since: Date): Promise<DeviceBucket[]> {
  return db.query(
    `SELECT DISTINCT device_id, (floor(ts / 3600) * 3600)::integer AS bucket
       FROM records WHERE received_at >= $1 ORDER BY device_id, bucket`,
    [since],
  );
}

const bucketArrays = (rows: DeviceBucket[]) => [rows.map((r) => r.device_id), rows.map((r) => r.bucket)];

/** Deletes the rows of the given (device, bucket) pairs from a rollup table. */
async function deleteBuckets(db: Db, table: 'rollup_hour' | 'rollup_day', pairs: DeviceBucket[]): Promise<void> {
  await db.query(
    `DELETE FROM ${table} r USING unnest($1::text[], $2::integer[]) AS p(device_id, bucket)
      WHERE r.device_id = p.device_id AND r.bucket = p.bucket`,
    bucketArrays(pairs),
  );
}

/**
 * Recomputes the hourly rollups of the given (device, hour) pairs from the records (delete and
 * insert: running it twice gives the same rows). Sums go through numeric and are clamped to
 * the double range, so hostile values never make the rebuild fail.
 */
export async function rebuildRollupHours(db: Db, hours: DeviceBucket[]): Promise<void> {
  if (hours.length === 0) return;
  await deleteBuckets(db, 'rollup_hour', hours);
  await db.query(
    `INSERT INTO rollup_hour (device_id, key, bucket, count, min, max, sum, first, last, first_ts, last_ts)
     SELECT device_id, key, bucket, count(*)::integer, min(v), max(v),
            least(greatest(sum(v::numeric), -1.7976931348623157e308), 1.7976931348623157e308)::double precision,
            (array_agg(v ORDER BY ts))[1], (array_agg(v ORDER BY ts DESC))[1], min(ts), max(ts)
       FROM (SELECT h.device_id, e.key, h.bucket, r.ts, (e.value)::text::double precision AS v
               FROM unnest($1::text[], $2::integer[]) AS h(device_id, bucket)
               JOIN records r ON r.device_id = h.device_id AND r.ts >= h.bucket AND r.ts < h.bucket + 3600
               CROSS JOIN LATERAL jsonb_each(r.data) AS e(key, value)
              WHERE e.key <> 'ts' AND ${STORED_NUMBER('e.value')}) x
      GROUP BY device_id, key, bucket`,
    bucketArrays(hours),
  );
}

/** Recomputes the daily rollups of the given (device, UTC day) pairs from the hourly ones. */
export async function rebuildRollupDays(db: Db, days: DeviceBucket[]): Promise<void> {
  if (days.length === 0) return;
  await deleteBuckets(db, 'rollup_day', days);
  await db.query(
    `INSERT INTO rollup_day (device_id, key, bucket, count, min, max, sum, first, last, first_ts, last_ts)
     SELECT d.device_id, h.key, d.bucket, sum(h.count)::integer, min(h.min), max(h.max),
            least(greatest(sum(h.sum::numeric), -1.7976931348623157e308), 1.7976931348623157e308)::double precision,
            (array_agg(h.first ORDER BY h.first_ts))[1], (array_agg(h.last ORDER BY h.last_ts DESC))[1],
            min(h.first_ts), max(h.last_ts)
       FROM unnest($1::text[], $2::integer[]) AS d(device_id, bucket)
       JOIN rollup_hour h ON h.device_id = d.device_id AND h.bucket >= d.bucket AND h.bucket < d.bucket + 86400
      GROUP BY d.device_id, h.key, d.bucket`,
    bucketArrays(days),
  );
}

/**
 * Sets each key's latest value from the records received since `since` (of the listed devices
 * only, when given) where it is at least as new as the stored one.
 */
export async function restoreLatestSince(db: Db, since: Date, deviceIds: string[] | null): Promise<void> {
  await db.query(
    `INSERT INTO latest AS l (device_id, key, value, ts)
     SELECT DISTINCT ON (r.device_id, e.key) r.device_id, e.key, e.value, r.ts
       FROM records r CROSS JOIN LATERAL jsonb_each(r.data) AS e(key, value)
      WHERE r.received_at >= $1 AND ($2::text[] IS NULL OR r.device_id = ANY($2::text[]))
        AND e.key NOT IN ('ts', 'events', 'can1', 'can2')
      ORDER BY r.device_id, e.key, r.ts DESC
     ON CONFLICT (device_id, key) DO UPDATE SET value = excluded.value, ts = excluded.ts
       WHERE excluded.ts >= l.ts`,
    [since, deviceIds],
  );
}

/** The latest receipt time (epoch seconds) of each device's records received since `since`. */
export async function selectContactsSince(db: Db, since: Date): Promise<Map<string, number>> {
  const rows = await db.query<{ device_id: string; ts: number }>(
    `SELECT device_id, extract(epoch FROM max(received_at))::double precision AS ts
       FROM records WHERE received_at >= $1 GROUP BY device_id`,
    [since],
  );
  return new Map(rows.map((r) => [r.device_id, r.ts]));
}
