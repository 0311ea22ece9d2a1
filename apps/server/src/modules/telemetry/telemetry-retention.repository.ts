/** SQL of retention: the devices with data, and deleting what is older than a device's plan keeps. */
import type { Db } from '../../db/db';

/** Devices that have stored data (latest values or diagnostics): the ones retention visits. */
export async function devicesWithData(db: Db): Promise<string[]> {
  const rows = await db.query<{ device_id: string }>(
    `SELECT device_id FROM latest UNION SELECT device_id FROM diagnostics ORDER BY device_id`,
  );
  return rows.map((r) => r.device_id);
}

export type RetentionTable =
  'records' | 'events' | 'diagnostics' | 'rollup_hour' | 'rollup_day' | 'event_hour' | 'event_day';

/**
 * Deletes at most `limit` rows of one device older than `cutoff` (epoch seconds) from one table;
 * returns how many. A rollup or event count goes once its whole hour (day) is older than the cutoff.
 */
export async function deleteOlderThan(
  db: Db,
  table: RetentionTable,
  deviceId: string,
  cutoff: number,
  limit: number,
): Promise<number> {
  const sql: Record<RetentionTable, string> = {
    records: `DELETE FROM records WHERE device_id = $1 AND ts IN (SELECT ts FROM records WHERE device_id = $1 AND ts < $2::double precision ORDER BY ts LIMIT $3) RETURNING 1`,
    events: `DELETE FROM events WHERE id IN (SELECT id FROM events WHERE device_id = $1 AND ts < $2::double precision ORDER BY ts LIMIT $3) RETURNING 1`,
    diagnostics: `DELETE FROM diagnostics WHERE id IN (SELECT id FROM diagnostics WHERE device_id = $1 AND ts < $2::double precision ORDER BY ts LIMIT $3) RETURNING 1`,
    rollup_hour: `DELETE FROM rollup_hour WHERE device_id = $1 AND (key, bucket) IN
                    (SELECT key, bucket FROM rollup_hour WHERE device_id = $1 AND bucket + 3600 <= $2::double precision ORDER BY bucket LIMIT $3) RETURNING 1`,
    rollup_day: `DELETE FROM rollup_day WHERE device_id = $1 AND (key, bucket) IN
                    (SELECT key, bucket FROM rollup_day WHERE device_id = $1 AND bucket + 86400 <= $2::double precision ORDER BY bucket LIMIT $3) RETURNING 1`,
    event_hour: `DELETE FROM event_hour WHERE device_id = $1 AND bucket IN
                    (SELECT bucket FROM event_hour WHERE device_id = $1 AND bucket + 3600 <= $2::double precision ORDER BY bucket LIMIT $3) RETURNING 1`,
    event_day: `DELETE FROM event_day WHERE device_id = $1 AND bucket IN
                    (SELECT bucket FROM event_day WHERE device_id = $1 AND bucket + 86400 <= $2::double precision ORDER BY bucket LIMIT $3) RETURNING 1`,
  };
  return (await db.query(sql[table], [deviceId, cutoff, limit])).length;
}

/**
 * Drops the messages older than `cutoff` (epoch seconds) from a device's newest messages
 * (retention, after the events themselves); a list left empty goes.
 */
export async function trimEventNewest(db: Db, deviceId: string, cutoff: number): Promise<void> {
  await db.query(`DELETE FROM event_newest WHERE device_id = $1 AND ts[1] < $2::double precision`, [deviceId, cutoff]);
  await db.query(
    `UPDATE event_newest SET (ts, ids, items) = (
       SELECT array_agg(t ORDER BY o), array_agg(i ORDER BY o), array_agg(m ORDER BY o)
         FROM unnest(ts, ids, items) WITH ORDINALITY AS u(t, i, m, o) WHERE t >= $2::double precision)
     WHERE device_id = $1 AND ts[cardinality(ts)] < $2::double precision`,
    [deviceId, cutoff],
  );
}
