/**
 * SQL of telemetry: records, latest values, events, diagnostics, hourly rollups, the server log
 * and the command queue. Batches go in as one jsonb array per table (jsonb_to_recordset), so a
 * group commit of 500 records is a handful of statements on both engines.
 */
import type { Db } from '../../db/db';

export interface RecordRow {
  device_id: string;
  ts: number;
  received_at: string;
  data: Record<string, unknown>;
}

export interface EventRow {
  device_id: string;
  ts: number;
  topic: string | null;
  msg: string;
  lv: number | null;
  severity: string | null;
}

export interface RollupRow {
  device_id: string;
  key: string;
  bucket: number;
  count: number;
  min: number;
  max: number;
  sum: number;
  first: number;
  last: number;
  first_ts: number;
  last_ts: number;
}

export interface LatestRow {
  device_id: string;
  key: string;
  value: unknown;
  ts: number;
}

export interface ServerLogRow {
  device_id: string;
  ts: string;
  kind: string;
  message: string;
}

export interface DiagnosticsRow {
  device_id: string;
  ts: number;
  data: unknown;
}

/** Inserts records; returns the (device_id, ts) of those stored (a resent record is skipped). */
export async function insertRecords(db: Db, rows: RecordRow[]): Promise<{ device_id: string; ts: number }[]> {
  if (rows.length === 0) return [];
  return db.query(
    `INSERT INTO records (device_id, ts, received_at, data)
     SELECT device_id, ts, received_at, data
       FROM jsonb_to_recordset($1::jsonb) AS x(device_id text, ts double precision, received_at timestamptz, data jsonb)
     ON CONFLICT (device_id, ts) DO NOTHING
     RETURNING device_id, ts`,
    [JSON.stringify(rows)],
  );
}

export async function insertEvents(db: Db, rows: EventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO events (device_id, ts, topic, msg, lv, severity)
     SELECT device_id, ts, topic, msg, lv, severity
       FROM jsonb_to_recordset($1::jsonb) AS x(device_id text, ts double precision, topic text, msg text, lv integer, severity text)`,
    [JSON.stringify(rows)],
  );
}

/** Rows must be unique per (device_id, key, bucket): merge them first. */
export async function upsertRollups(db: Db, rows: RollupRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO rollup_hour AS r (device_id, key, bucket, count, min, max, sum, first, last, first_ts, last_ts)
     SELECT device_id, key, bucket, count, min, max, sum, first, last, first_ts, last_ts
       FROM jsonb_to_recordset($1::jsonb) AS x(device_id text, key text, bucket integer, count integer, min double precision,
            max double precision, sum double precision, first double precision, last double precision,
            first_ts double precision, last_ts double precision)
     ON CONFLICT (device_id, key, bucket) DO UPDATE SET
       count = r.count + excluded.count,
       min = least(r.min, excluded.min),
       max = greatest(r.max, excluded.max),
       sum = r.sum + excluded.sum,
       first = CASE WHEN excluded.first_ts < r.first_ts THEN excluded.first ELSE r.first END,
       first_ts = least(r.first_ts, excluded.first_ts),
       last = CASE WHEN excluded.last_ts >= r.last_ts THEN excluded.last ELSE r.last END,
       last_ts = greatest(r.last_ts, excluded.last_ts)`,
    [JSON.stringify(rows)],
  );
}

/** Rows must be unique per (device_id, key): keep the newest of each first. */
export async function upsertLatest(db: Db, rows: LatestRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO latest AS l (device_id, key, value, ts)
     SELECT device_id, key, value, ts
       FROM jsonb_to_recordset($1::jsonb) AS x(device_id text, key text, value jsonb, ts double precision)
     ON CONFLICT (device_id, key) DO UPDATE SET value = excluded.value, ts = excluded.ts
       WHERE excluded.ts >= l.ts`,
    [JSON.stringify(rows)],
  );
}

export async function insertDiagnostics(db: Db, rows: DiagnosticsRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO diagnostics (device_id, ts, data)
     SELECT device_id, ts, data FROM jsonb_to_recordset($1::jsonb) AS x(device_id text, ts double precision, data jsonb)`,
    [JSON.stringify(rows)],
  );
}

export async function insertServerLog(db: Db, rows: ServerLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO server_log (device_id, ts, kind, message)
     SELECT device_id, ts, kind, message FROM jsonb_to_recordset($1::jsonb) AS x(device_id text, ts timestamptz, kind text, message text)`,
    [JSON.stringify(rows)],
  );
}

/** The newest stored record time of each device (Basic thinning). */
export async function newestRecordTimes(db: Db, deviceIds: string[]): Promise<Map<string, number>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await db.query<{ device_id: string; ts: number }>(
    `SELECT d.id AS device_id, (SELECT r.ts FROM records r WHERE r.device_id = d.id ORDER BY r.ts DESC LIMIT 1) AS ts
       FROM unnest($1::text[]) AS d(id)`,
    [deviceIds],
  );
  return new Map(rows.filter((r) => r.ts !== null).map((r) => [r.device_id, r.ts]));
}

// ---------------------------------------------------------------- reads

export interface TimeRange {
  from: number;
  to: number;
}

/** Records newest first, at most `limit`; with keys, only records holding one of them. */
export function selectRecords(
  db: Db,
  deviceId: string,
  range: TimeRange,
  limit: number,
  keys: string[] | null,
): Promise<{ ts: number; data: Record<string, unknown> }[]> {
  if (keys) {
    return db.query(
      `SELECT ts, data FROM records WHERE device_id = $1 AND ts >= $2 AND ts <= $3 AND data ?| $5::text[]
       ORDER BY ts DESC LIMIT $4`,
      [deviceId, range.from, range.to, limit, keys],
    );
  }
  return db.query(
    `SELECT ts, data FROM records WHERE device_id = $1 AND ts >= $2 AND ts <= $3 ORDER BY ts DESC LIMIT $4`,
    [deviceId, range.from, range.to, limit],
  );
}

export interface BucketRow {
  key: string;
  bucket: number;
  v: number;
}

/**
 * Averages of numeric keys per time bucket of `seconds` over raw records (buckets under an
 * hour), newest bucket first, at most `limit` buckets per key.
 */
export function selectRecordBuckets(
  db: Db,
  deviceId: string,
  range: TimeRange,
  seconds: number,
  limit: number,
  keys: string[] | null,
): Promise<BucketRow[]> {
  return db.query(
    `SELECT key, bucket, v FROM (
       SELECT key, bucket, v, row_number() OVER (PARTITION BY key ORDER BY bucket DESC) AS n FROM (
         SELECT e.key, floor(r.ts / $4) * $4 AS bucket, avg((e.value)::text::double precision) AS v
           FROM records r CROSS JOIN LATERAL jsonb_each(r.data) AS e(key, value)
          WHERE r.device_id = $1 AND r.ts >= $2 AND r.ts <= $3 AND e.key <> 'ts' AND jsonb_typeof(e.value) = 'number'
            AND ($6::text[] IS NULL OR e.key = ANY($6::text[]))
          GROUP BY e.key, floor(r.ts / $4)
       ) b
     ) ranked WHERE n <= $5 ORDER BY key, bucket DESC`,
    [deviceId, range.from, range.to, seconds, limit, keys],
  );
}

/** Averages per bucket of `seconds` (a multiple of 3600) from the hourly rollups. */
export function selectRollupBuckets(
  db: Db,
  deviceId: string,
  range: TimeRange,
  seconds: number,
  limit: number,
  keys: string[] | null,
): Promise<BucketRow[]> {
  return db.query(
    `SELECT key, bucket, v FROM (
       SELECT key, bucket, v, row_number() OVER (PARTITION BY key ORDER BY bucket DESC) AS n FROM (
         SELECT key, (floor(bucket / $4::double precision) * $4)::double precision AS bucket, sum(sum) / sum(count) AS v
           FROM rollup_hour
          WHERE device_id = $1 AND bucket >= floor($2 / 3600) * 3600 AND bucket <= $3
            AND ($6::text[] IS NULL OR key = ANY($6::text[]))
          GROUP BY key, floor(bucket / $4::double precision)
       ) b
     ) ranked WHERE n <= $5 ORDER BY key, bucket DESC`,
    [deviceId, range.from, range.to, seconds, limit, keys],
  );
}

export interface HourAggregate {
  key: string;
  count: number;
  min: number;
  max: number;
  sum: number;
  first: number;
  last: number;
  first_ts: number;
  last_ts: number;
}

/** Aggregates per key of whole hours in [from, to) from the rollups (metrics). */
export function selectRollupAggregates(db: Db, deviceId: string, range: TimeRange): Promise<HourAggregate[]> {
  return db.query(
    `SELECT key, sum(count)::integer AS count, min(min) AS min, max(max) AS max, sum(sum) AS sum,
            (array_agg(first ORDER BY first_ts))[1] AS first, (array_agg(last ORDER BY last_ts DESC))[1] AS last,
            min(first_ts) AS first_ts, max(last_ts) AS last_ts
       FROM rollup_hour WHERE device_id = $1 AND bucket >= $2 AND bucket < $3
      GROUP BY key ORDER BY key`,
    [deviceId, range.from, range.to],
  );
}

export function selectLatest(db: Db, deviceId: string): Promise<{ key: string; value: unknown; ts: number }[]> {
  return db.query(`SELECT key, value, ts FROM latest WHERE device_id = $1 ORDER BY key`, [deviceId]);
}

export function selectEvents(db: Db, deviceId: string, range: TimeRange, limit: number): Promise<EventRow[]> {
  return db.query(
    `SELECT device_id, ts, topic, msg, lv, severity FROM events WHERE device_id = $1 AND ts >= $2 AND ts <= $3
     ORDER BY ts DESC, id DESC LIMIT $4`,
    [deviceId, range.from, range.to, limit],
  );
}

export function selectDiagnostics(db: Db, deviceId: string, limit: number): Promise<{ ts: number; data: unknown }[]> {
  return db.query(`SELECT ts, data FROM diagnostics WHERE device_id = $1 ORDER BY ts DESC, id DESC LIMIT $2`, [
    deviceId,
    limit,
  ]);
}

export function selectServerLog(
  db: Db,
  deviceId: string,
  limit: number,
): Promise<{ id: number; ts: Date; kind: string; message: string }[]> {
  return db.query(
    `SELECT id, ts, kind, message FROM server_log WHERE device_id = $1 ORDER BY ts DESC, id DESC LIMIT $2`,
    [deviceId, limit],
  );
}

// ---------------------------------------------------------------- commands

export interface CommandRow {
  id: number;
  device_id: string;
  method: string;
  args: unknown;
  state: string;
  created_at: Date;
  sent_at: Date | null;
  acked_at: Date | null;
  created_by: string | null;
}

const COMMAND_COLUMNS = 'id, device_id, method, args, state, created_at, sent_at, acked_at, created_by';

export async function insertCommand(
  db: Db,
  row: { deviceId: string; method: string; args: unknown; createdAt: Date; createdBy: string | null },
): Promise<CommandRow> {
  const rows = await db.query<CommandRow>(
    `INSERT INTO commands (device_id, method, args, state, created_at, created_by) VALUES ($1, $2, $3::jsonb, 'queued', $4, $5)
     RETURNING ${COMMAND_COLUMNS}`,
    [row.deviceId, row.method, row.args === undefined ? null : JSON.stringify(row.args), row.createdAt, row.createdBy],
  );
  return rows[0]!;
}

export function selectCommands(db: Db, deviceId: string, limit: number): Promise<CommandRow[]> {
  return db.query(
    `SELECT ${COMMAND_COLUMNS} FROM commands WHERE device_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [deviceId, limit],
  );
}

/** Cancels a queued (or sent, unacknowledged) command; returns whether one was cancelled. */
export async function cancelCommand(db: Db, deviceId: string, commandId: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE commands SET state = 'cancelled' WHERE device_id = $1 AND id = $2 AND state = 'queued' RETURNING id`,
    [deviceId, commandId],
  );
  return rows.length > 0;
}

/**
 * Takes the commands to deliver now: queued ones, and sent ones not acknowledged since
 * `resendBefore`; marks them sent at `now`. Oldest first.
 */
export async function takeCommandsToSend(
  db: Db,
  deviceId: string,
  now: Date,
  resendBefore: Date,
): Promise<CommandRow[]> {
  const rows = await db.query<CommandRow>(
    `UPDATE commands SET state = 'sent', sent_at = $2
      WHERE id IN (SELECT id FROM commands WHERE device_id = $1
                     AND (state = 'queued' OR (state = 'sent' AND sent_at < $3)) ORDER BY id LIMIT 50)
      RETURNING ${COMMAND_COLUMNS}`,
    [deviceId, now, resendBefore],
  );
  return rows.sort((a, b) => a.id - b.id);
}

/** Puts commands back in the queue (delivery failed). */
export async function requeueCommands(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE commands SET state = 'queued', sent_at = NULL WHERE id = ANY($1::integer[]) AND state = 'sent'`,
    [ids],
  );
}

export async function markCommandsDelivered(db: Db, deviceId: string, ids: number[], now: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db.query(
    `UPDATE commands SET state = 'delivered', acked_at = $3 WHERE device_id = $1 AND id = ANY($2::integer[]) AND state IN ('queued', 'sent')
     RETURNING id`,
    [deviceId, ids, now],
  );
  return rows.length;
}

// ---------------------------------------------------------------- retention, deletion, transfer

/** Devices that have stored data (latest values or diagnostics): the ones retention visits. */
export async function devicesWithData(db: Db): Promise<string[]> {
  const rows = await db.query<{ device_id: string }>(
    `SELECT device_id FROM latest UNION SELECT device_id FROM diagnostics ORDER BY device_id`,
  );
  return rows.map((r) => r.device_id);
}

export type RetentionTable = 'records' | 'events' | 'diagnostics' | 'rollup_hour';

/**
 * Deletes at most `limit` rows of one device older than `cutoff` (epoch seconds) from one table;
 * returns how many. An hourly rollup goes once its whole hour is older than the cutoff.
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
  };
  return (await db.query(sql[table], [deviceId, cutoff, limit])).length;
}

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

/** Deletes every record, latest value, event, diagnostics message and rollup of a device (not its server log). */
export async function deleteDeviceData(db: Db, deviceId: string): Promise<DataCounts> {
  const del = (table: string) =>
    countOf(
      db,
      `WITH d AS (DELETE FROM ${table} WHERE device_id = $1 RETURNING 1) SELECT count(*)::integer AS n FROM d`,
      [deviceId],
    );
  return {
    records: await del('records'),
    events: await del('events'),
    diagnostics: await del('diagnostics'),
    rollups: await del('rollup_hour'),
    latest: await del('latest'),
  };
}

/**
 * Moves a device's data to another device (run in one transaction). A record at a time the
 * target already holds stays the target's (so does a latest value of the same time); the hourly rollups of the hours touched are rebuilt
 * from the records, and a latest value moves when it is newer than the target's.
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
    `WITH m AS (INSERT INTO records (device_id, ts, received_at, data)
                SELECT $2, ts, received_at, data FROM records WHERE device_id = $1
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
  const rollups = await countOf(
    db,
    `WITH d AS (DELETE FROM rollup_hour WHERE device_id = $1 RETURNING 1) SELECT count(*)::integer AS n FROM d`,
    [from],
  );
  if (span && span.lo !== null && span.hi !== null) await rebuildRollups(db, to, span.lo, span.hi);
  return { records, events, diagnostics, rollups, latest };
}

/** Recomputes a device's hourly rollups of the hours [fromBucket, toBucket] from its records. */
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
                AND e.key <> 'ts' AND jsonb_typeof(e.value) = 'number') x
      GROUP BY key, bucket`,
    [deviceId, fromBucket, toBucket],
  );
}

/** One page of records in time order after `afterTs` (export reads the whole range page by page). */
export function selectRecordPage(
  db: Db,
  deviceId: string,
  range: { from: number; to: number; inclusive: boolean },
  limit: number,
): Promise<{ ts: number; data: Record<string, unknown> }[]> {
  return db.query(
    `SELECT ts, data FROM records WHERE device_id = $1 AND ts ${range.inclusive ? '>=' : '>'} $2 AND ts <= $3 ORDER BY ts LIMIT $4`,
    [deviceId, range.from, range.to, limit],
  );
}
