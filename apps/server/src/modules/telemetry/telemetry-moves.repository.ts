/**
 * SQL of a device's data as a whole: deleting it (not its server log) and moving it to another
 * device, with the rollups of the hours touched rebuilt.
 */
import type { Db } from '../../db/db';
import {
  EVENT_COUNT_MERGE,
  EVENT_NEWEST_MERGE,
  ROLLUP_COLUMNS,
  STORED_NUMBER,
  rollupMerged,
} from './telemetry-sql.repository';

export interface DataCounts {
  records: number;
  events: number;
  diagnostics: number;
  rollups: number;
  latest: number;
}

async function countOf(db: Db, sql: string, params: unknown[]): Promise<number> {
  const rows = await db.query<{ n: number }>(sql, params);
  return rows[0]?.n ?? 0;
}

/**
 * Deletes every record, latest value, event, diagnostics message, rollup and event count of a
 * device (not its server log). `rollups` counts the hourly rows; the daily rows (derived from
 * them) and the event counts go too.
 */
export async function deleteDeviceData(db: Db, deviceId: string): Promise<DataCounts> {
  const del = (table: string) =>
    countOf(
      db,
      `WITH d AS (DELETE FROM ${table} WHERE device_id = $1 RETURNING 1) SELECT count(*)::integer AS n FROM d`,
      [deviceId],
    );
  const counts = {
    records: await del('records'),
    events: await del('events'),
    diagnostics: await del('diagnostics'),
    rollups: await del('rollup_hour'),
    latest: await del('latest'),
  };
  await db.query(`DELETE FROM rollup_day WHERE device_id = $1`, [deviceId]);
  await db.query(`DELETE FROM event_hour WHERE device_id = $1`, [deviceId]);
  await db.query(`DELETE FROM event_day WHERE device_id = $1`, [deviceId]);
  await db.query(`DELETE FROM event_newest WHERE device_id = $1`, [deviceId]);
  await db.query(`DELETE FROM bus_messages WHERE device_id = $1`, [deviceId]);
  return counts;
}

/**
 * Moves a device's data to another device (run in one transaction). A record at a time the
 * target already holds stays the target's (so does a latest value of the same time); the hourly rollups of the hours touched are rebuilt
 * from the records, and a latest value moves when it is newer than the target's. Events move
 * whole (events are not deduplicated), so their counts are added to the target's.
 */
export async function moveDeviceData(db: Db, from: string, to: string): Promise<DataCounts> {
  const span = (
    await db.query<{ lo: number | null; hi: number | null }>(
      `SELECT min(bucket) AS lo, max(bucket) AS hi FROM rollup_hour WHERE device_id = $1`,
      [from],
    )
  )[0];
  const records = await countOf(
    db,
    `WITH m AS (INSERT INTO records (device_id, ts, received_at, source, data)
                SELECT $2, ts, received_at, source, data FROM records WHERE device_id = $1
                ON CONFLICT (device_id, ts) DO NOTHING RETURNING 1)
     SELECT count(*)::integer AS n FROM m`,
    [from, to],
  );
  await db.query(`DELETE FROM records WHERE device_id = $1`, [from]);
  const events = await countOf(
    db,
    `WITH m AS (UPDATE events SET device_id = $2 WHERE device_id = $1 RETURNING 1) SELECT count(*)::integer AS n FROM m`,
    [from, to],
  );
  for (const table of ['event_hour', 'event_day']) {
    await db.query(
      `WITH d AS (DELETE FROM ${table} WHERE device_id = $1 RETURNING bucket, info, alert, warning, alarm)
       INSERT INTO ${table} AS c (device_id, bucket, info, alert, warning, alarm)
       SELECT $2, bucket, info, alert, warning, alarm FROM d
       ON CONFLICT (device_id, bucket) DO UPDATE SET ${EVENT_COUNT_MERGE}`,
      [from, to],
    );
  }
  // The events keep their ids, so the two newest-message lists merge exactly.
  await db.query(
    `WITH d AS (DELETE FROM event_newest WHERE device_id = $1 RETURNING ts, ids, items),
     src AS (SELECT $2::text AS device_id, ts, ids, items FROM d)
     ${EVENT_NEWEST_MERGE('src')}`,
    [from, to],
  );
  const diagnostics = await countOf(
    db,
    `WITH m AS (UPDATE diagnostics SET device_id = $2 WHERE device_id = $1 RETURNING 1) SELECT count(*)::integer AS n FROM m`,
    [from, to],
  );
  const latest = await countOf(
    db,
    `WITH m AS (INSERT INTO latest AS l (device_id, key, value, ts)
                SELECT $2, key, value, ts FROM latest WHERE device_id = $1
                ON CONFLICT (device_id, key) DO UPDATE SET value = excluded.value, ts = excluded.ts WHERE excluded.ts > l.ts
                RETURNING 1)
     SELECT count(*)::integer AS n FROM m`,
    [from, to],
  );
  await db.query(`DELETE FROM latest WHERE device_id = $1`, [from]);
  await db.query(
    `WITH d AS (DELETE FROM bus_messages WHERE device_id = $1 RETURNING bus, pgn, source, ts, dm1)
     INSERT INTO bus_messages AS b (device_id, bus, pgn, source, ts, dm1)
     SELECT $2, bus, pgn, source, ts, dm1 FROM d
     ON CONFLICT (device_id, bus, pgn, source) DO UPDATE SET ts = excluded.ts, dm1 = excluded.dm1 WHERE excluded.ts > b.ts`,
    [from, to],
  );
  const rollups = await countOf(
    db,
    `WITH d AS (DELETE FROM rollup_hour WHERE device_id = $1 RETURNING 1) SELECT count(*)::integer AS n FROM d`,
    [from],
  );
  await db.query(`DELETE FROM rollup_day WHERE device_id = $1`, [from]);
  if (span && span.lo !== null && span.hi !== null) await rebuildRollups(db, to, span.lo, span.hi);
  return { records, events, diagnostics, rollups, latest };
}

/**
 * Recomputes a device's hourly rollups of the hours [fromBucket, toBucket] from its records, then
 * the daily rollups of the days those hours touch from the hourly ones.
 */
export async function rebuildRollups(db: Db, deviceId: string, fromBucket: number, toBucket: number): Promise<void> {
  await db.query(`DELETE FROM rollup_hour WHERE device_id = $1 AND bucket >= $2 AND bucket <= $3`, [
    deviceId,
    fromBucket,
    toBucket,
  ]);
  await db.query(
    `INSERT INTO rollup_hour (device_id, key, bucket, count, min, max, sum, first, last, first_ts, last_ts)
     SELECT $1, key, bucket, count(*)::integer, min(v), max(v), sum(v),
            (array_agg(v ORDER BY ts))[1], (array_agg(v ORDER BY ts DESC))[1], min(ts), max(ts)
       FROM (SELECT e.key, (floor(r.ts / 3600) * 3600)::integer AS bucket, r.ts, (e.value)::text::double precision AS v
               FROM records r CROSS JOIN LATERAL jsonb_each(r.data) AS e(key, value)
              WHERE r.device_id = $1 AND r.ts >= $2 AND r.ts < $3::double precision + 3600
                AND e.key <> 'ts' AND ${STORED_NUMBER('e.value')}) x
      GROUP BY key, bucket`,
    [deviceId, fromBucket, toBucket],
  );
  const days = [Math.floor(fromBucket / 86_400) * 86_400, Math.floor(toBucket / 86_400) * 86_400];
  await db.query(`DELETE FROM rollup_day WHERE device_id = $1 AND bucket >= $2 AND bucket <= $3`, [deviceId, ...days]);
  await db.query(
    `INSERT INTO rollup_day (${ROLLUP_COLUMNS})
     ${rollupMerged('bucket / 86400 * 86400', `(SELECT * FROM rollup_hour WHERE device_id = $1 AND bucket >= $2 AND bucket < $3::integer + 86400) h`)}`,
    [deviceId, ...days],
  );
}
