/**
 * SQL of telemetry's reads: records (whole, or averaged into time buckets), rollup buckets and
 * aggregates (metrics), latest values, events, diagnostics, bus messages, a device's newest
 * record receipt and the pages of an export.
 */
import type { Db } from '../../db/db';
import type { BusMessageRow, EventRow, RollupRow } from './telemetry.rows';
import { STORED_NUMBER } from './telemetry-sql.repository';

/** Everything a device's buses told, by bus, group and source. */
export function selectBusMessages(db: Db, deviceId: string): Promise<BusMessageRow[]> {
  return db.query<BusMessageRow>(
    `SELECT device_id, bus, pgn, source, ts, dm1 FROM bus_messages WHERE device_id = $1 ORDER BY bus, pgn, source`,
    [deviceId],
  );
}

/** The newest record of a device: its own time (ts, epoch s) and when the server received it (epoch s). */
export async function newestRecordReceipt(db: Db, deviceId: string): Promise<{ ts: number; received: number } | null> {
  const [row] = await db.query<{ ts: number; received: number }>(
    `SELECT ts, extract(epoch FROM received_at)::double precision AS received
       FROM records WHERE device_id = $1 ORDER BY ts DESC LIMIT 1`,
    [deviceId],
  );
  return row ?? null;
}

export interface TimeRange {
  from: number;
  to: number;
}

/** What each record row of GET /data carries beside its time and data: how it came, when it was received (epoch s). */
const RECORD_ORIGIN = `source, extract(epoch FROM received_at)::double precision AS aws_ts`;

/**
 * Records newest first, at most `limit`; with keys, only records holding one of them. `data` is
 * the jsonb text, unparsed (GET /data copies values from it: see telemetry.serialize.ts).
 */
export function selectRecordsText(
  db: Db,
  deviceId: string,
  range: TimeRange,
  limit: number,
  keys: string[] | null,
): Promise<{ ts: number; data: string; source: string | null; aws_ts: number }[]> {
  if (keys) {
    return db.query(
      `SELECT ts, data::text AS data, ${RECORD_ORIGIN} FROM records
        WHERE device_id = $1 AND ts >= $2 AND ts <= $3 AND data ?| $5::text[] ORDER BY ts DESC LIMIT $4`,
      [deviceId, range.from, range.to, limit, keys],
    );
  }
  return db.query(
    `SELECT ts, data::text AS data, ${RECORD_ORIGIN} FROM records
      WHERE device_id = $1 AND ts >= $2 AND ts <= $3 ORDER BY ts DESC LIMIT $4`,
    [deviceId, range.from, range.to, limit],
  );
}

export interface BucketRow {
  key: string;
  bucket: number;
  v: number;
}

/** Bucket times are integer columns: bounds outside the integer range are clamped to it. */
const INT_MIN = -2_147_483_648;
const INT_MAX = 2_147_483_647;
const toInt = (t: number) => Math.min(INT_MAX, Math.max(INT_MIN, Math.floor(t)));

/** At most this many named keys are read by one pivoted query; more go through jsonb_each. */
const PIVOT_MAX_KEYS = 64;

/**
 * Most records one read of buckets groups (issue 30: a bucket read over an open range grouped every
 * record the device had). It reads the range's newest records only; when the range holds more, the
 * buckets it answers are those the records read cover whole (newer than the bucket of the oldest
 * record read), so a bucket is never an average of part of its records. A week of a record a
 * minute is 10,080 records.
 */
export const BUCKET_READ_MAX_RECORDS = 100_000;

/**
 * The newest records of a range, at most `cap`, each with `total` (how many were read) and
 * `oldest` (the oldest ts read) for BUCKET_WHOLE; `columns` what each row carries.
 */
const newestRecords = (columns: string, cap: string) =>
  `SELECT *, count(*) OVER () AS total, min(ts) OVER () AS oldest FROM (
     SELECT r.ts, ${columns} FROM records r
      WHERE r.device_id = $1 AND r.ts >= $2 AND r.ts <= $3 ORDER BY r.ts DESC LIMIT ${cap}
   ) newest`;

/**
 * Keeps the rows of newestRecords ($4: the bucket width) whose bucket was read whole: all of
 * them when fewer than the cap + 1 were read, else those in buckets after the oldest one read.
 */
const BUCKET_WHOLE = (cap: string, row: string) =>
  `(${row}.total < ${cap} OR floor(${row}.ts / $4) > floor(${row}.oldest / $4))`;

/**
 * Averages of numeric keys per time bucket of `seconds` over raw records (buckets under an
 * hour), newest bucket first, at most `limit` buckets per key, grouping at most `maxRecords`
 * records (BUCKET_READ_MAX_RECORDS).
 */
export async function selectRecordBuckets(
  db: Db,
  deviceId: string,
  range: TimeRange,
  seconds: number,
  limit: number,
  keys: string[] | null,
  maxRecords = BUCKET_READ_MAX_RECORDS,
): Promise<BucketRow[]> {
  const named = keys && [...new Set(keys)].filter((k) => k !== 'ts');
  if (named && named.length <= PIVOT_MAX_KEYS) {
    if (named.length === 0) return [];
    return selectRecordBucketsOf(db, deviceId, range, seconds, limit, named, maxRecords);
  }
  // $7: one record more than the cap, so that a range holding more is told apart.
  return db.query(
    `SELECT key, bucket, v FROM (
       SELECT key, bucket, v, row_number() OVER (PARTITION BY key ORDER BY bucket DESC) AS n FROM (
         SELECT e.key, floor(l.ts / $4) * $4 AS bucket, avg((e.value)::text::double precision) AS v
           FROM (${newestRecords('r.data', '$7')}) l CROSS JOIN LATERAL jsonb_each(l.data) AS e(key, value)
          WHERE ${BUCKET_WHOLE('$7', 'l')} AND e.key <> 'ts' AND ${STORED_NUMBER('e.value')}
            AND ($6::text[] IS NULL OR e.key = ANY($6::text[]))
          GROUP BY e.key, floor(l.ts / $4)
       ) b
     ) ranked WHERE n <= $5 ORDER BY key, bucket DESC`,
    [deviceId, range.from, range.to, seconds, limit, keys, maxRecords + 1],
  );
}

/**
 * Buckets of named keys, one pass over the records: each bucket is one row holding the average
 * of every key (null where a key has no number in it). Expanding each record into a row per key
 * and grouping those cost about 20 times as much: a week of one device (10,000 records, 10 keys)
 * took 250-400 ms on PostgreSQL that way.
 */
async function selectRecordBucketsOf(
  db: Db,
  deviceId: string,
  range: TimeRange,
  seconds: number,
  limit: number,
  keys: string[],
  maxRecords: number,
): Promise<BucketRow[]> {
  const values = keys
    .map(
      (_, i) =>
        `CASE WHEN ${STORED_NUMBER(`r.data -> $${i + 5}`)} THEN (r.data ->> $${i + 5})::double precision END AS v${i}`,
    )
    .join(', ');
  const averages = keys.map((_, i) => `avg(v${i})`).join(', ');
  // The numbers are taken out of each record before the rows are grouped (the LIMIT keeps the
  // planner from folding the subquery): otherwise the grouping sort carries every record's whole
  // document, and a week of a record a minute (10,080 rows, 5.8 MB) spilled to disk at the default
  // work_mem, twice the time of the read itself (EXPLAIN ANALYZE: 20 ms against 10 ms).
  const cap = `$${keys.length + 5}`;
  const rows = await db.query<{ bucket: number; v: string }>(
    `SELECT floor(s.ts / $4) * $4 AS bucket, json_build_array(${averages})::text AS v
       FROM (${newestRecords(values, cap)}) s
      WHERE ${BUCKET_WHOLE(cap, 's')}
      GROUP BY 1 ORDER BY 1 DESC`,
    [deviceId, range.from, range.to, seconds, ...keys, maxRecords + 1],
  );
  const out: BucketRow[] = [];
  const counts = new Array<number>(keys.length).fill(0);
  for (const row of rows) {
    const values = JSON.parse(row.v) as (number | null)[];
    for (let i = 0; i < keys.length; i += 1) {
      const v = values[i];
      if (v === null || v === undefined || counts[i]! >= limit) continue;
      counts[i]! += 1;
      out.push({ key: keys[i]!, bucket: row.bucket, v });
    }
  }
  return out;
}

/** The rollup tables and the span of one row's bucket. */
export type RollupTable = 'rollup_hour' | 'rollup_day';
export const ROLLUP_SECONDS: Record<RollupTable, number> = { rollup_hour: 3600, rollup_day: 86_400 };

/**
 * The keys a device has rollups of ($1: device id), by a loose index scan of the daily rollups'
 * primary key (every key with an hourly row has a daily one): one index probe per key instead of
 * reading every row of the device, so the rollup reads below can look up (device, key, bucket)
 * ranges by index.
 */
const ROLLUP_KEYS = `rollup_keys AS (
       SELECT min(key) AS key FROM rollup_day WHERE device_id = $1
       UNION ALL
       SELECT (SELECT min(key) FROM rollup_day WHERE device_id = $1 AND key > k.key) FROM rollup_keys k WHERE k.key IS NOT NULL
     )`;

/**
 * Averages per bucket of `seconds` from the hourly rollups (`seconds` a multiple of 3600) or the
 * daily ones (a multiple of 86400), the newest `limit` buckets of each key, in no particular
 * order (sorting them here cost PGlite more than the rest of the query). The rows of the hours
 * (days) holding `from` and `to` count whole.
 */
export function selectRollupBuckets(
  db: Db,
  table: RollupTable,
  deviceId: string,
  range: TimeRange,
  seconds: number,
  limit: number,
  keys: string[] | null,
): Promise<BucketRow[]> {
  const unit = ROLLUP_SECONDS[table];
  const from = toInt(Math.floor(range.from / unit) * unit);
  // Per key, a range of the primary key (device, key, bucket), newest buckets first.
  const keyList = keys
    ? 'SELECT DISTINCT key FROM unnest($6::text[]) AS u(key)'
    : 'SELECT key FROM rollup_keys WHERE key IS NOT NULL';
  return db.query(
    `WITH RECURSIVE ${ROLLUP_KEYS}
     SELECT k.key, b.bucket, b.v FROM (${keyList}) k CROSS JOIN LATERAL (
       SELECT floor(bucket / $4::double precision) * $4::double precision AS bucket, sum(sum) / sum(count) AS v
         FROM ${table}
        WHERE device_id = $1 AND key = k.key AND bucket >= $2 AND bucket <= $3
        GROUP BY 1 ORDER BY 1 DESC LIMIT $5
     ) b`,
    [deviceId, from, toInt(range.to), seconds, limit, ...(keys ? [keys] : [])],
  );
}

/** A key's aggregate over whole hours: a rollup row without its device and bucket. */
export type HourAggregate = Omit<RollupRow, 'device_id' | 'bucket'>;

/**
 * Aggregates per key of the whole hours in [from, to) (metrics; `from` and `to` multiples of
 * 3600): the whole UTC days inside the range from the daily rollups, the hours before and after
 * them from the hourly ones. Every key of the device, or only `keys`.
 */
export async function selectRollupAggregates(
  db: Db,
  deviceId: string,
  range: TimeRange,
  keys?: readonly string[],
): Promise<HourAggregate[]> {
  return (await aggregateRollups(db, deviceId, range, null, keys)).map(({ slot: _slot, ...aggregate }) => aggregate);
}

/** A key's aggregate over the hours of one slot (its start, `slot`). */
export type SlotAggregate = HourAggregate & { slot: number };

/**
 * Aggregates per key and slot of `width` seconds (slots aligned to multiples of `width`) of the
 * whole hours in [from, to), as selectRollupAggregates; with slots shorter than a day (or not
 * whole days) every row comes from the hourly rollups.
 */
export function selectRollupSlots(
  db: Db,
  deviceId: string,
  range: TimeRange,
  width: number,
  keys?: readonly string[],
): Promise<SlotAggregate[]> {
  return aggregateRollups(db, deviceId, range, width, keys);
}

/** selectRollupAggregates (`width` null: one slot, 0) and selectRollupSlots in one statement. */
function aggregateRollups(
  db: Db,
  deviceId: string,
  range: TimeRange,
  width: number | null,
  keys?: readonly string[],
): Promise<SlotAggregate[]> {
  const from = toInt(range.from);
  const to = Math.max(from, toInt(range.to));
  let dayFrom = Math.ceil(from / 86_400) * 86_400;
  let dayTo = Math.floor(to / 86_400) * 86_400;
  // No whole day inside (or slots within a day): every row comes from the hourly rollups.
  if (dayFrom >= dayTo || (width !== null && width % 86_400 !== 0)) dayFrom = dayTo = to;
  const part = (table: RollupTable, lo: string, hi: string) =>
    `SELECT bucket, count, min, max, sum, first, last, first_ts, last_ts FROM ${table}
      WHERE device_id = $1 AND key = k.key AND bucket >= ${lo} AND bucket < ${hi}`;
  const keyList = keys ? '(SELECT DISTINCT key FROM unnest($7::text[]) AS u(key))' : 'rollup_keys';
  return db.query(
    `WITH RECURSIVE ${ROLLUP_KEYS}
     SELECT k.key, a.slot, a.count, a.min, a.max, a.sum, a.first, a.last, a.first_ts, a.last_ts
       FROM ${keyList} k CROSS JOIN LATERAL (
         SELECT CASE WHEN $6::double precision IS NULL THEN 0
                     ELSE floor(bucket / $6::double precision) * $6::double precision END AS slot,
                sum(count)::integer AS count, min(min) AS min, max(max) AS max, sum(sum) AS sum,
                (array_agg(first ORDER BY first_ts))[1] AS first, (array_agg(last ORDER BY last_ts DESC))[1] AS last,
                min(first_ts) AS first_ts, max(last_ts) AS last_ts
           FROM (${part('rollup_hour', '$2', '$4')} UNION ALL ${part('rollup_day', '$4', '$5')}
                 UNION ALL ${part('rollup_hour', '$5', '$3')}) x
          GROUP BY 1
       ) a
      WHERE k.key IS NOT NULL
      ORDER BY a.slot, k.key`,
    [deviceId, from, to, dayFrom, dayTo, width, ...(keys ? [[...keys]] : [])],
  );
}

export function selectLatest(db: Db, deviceId: string): Promise<{ key: string; value: unknown; ts: number }[]> {
  return db.query(`SELECT key, value, ts FROM latest WHERE device_id = $1 ORDER BY key`, [deviceId]);
}

/**
 * Events newest first (at the same time, the last stored first), at most `limit`. The inner
 * query reads the newest `limit` times straight off the (device_id, ts DESC) index (with the
 * events sharing the last time), so only those are sorted by id, however many the range holds.
 */
export function selectEvents(
  db: Db,
  deviceId: string,
  range: TimeRange,
  limit: number,
): Promise<Omit<EventRow, 'device_id'>[]> {
  return db.query(
    `SELECT name, ts, topic, msg, lv, severity FROM (
       SELECT id, name, ts, topic, msg, lv, severity FROM events WHERE device_id = $1 AND ts >= $2 AND ts <= $3
        ORDER BY ts DESC FETCH FIRST $4 ROWS WITH TIES
     ) e ORDER BY ts DESC, id DESC LIMIT $4`,
    [deviceId, range.from, range.to, limit],
  );
}

export function selectDiagnostics(db: Db, deviceId: string, limit: number): Promise<{ ts: number; data: unknown }[]> {
  return db.query(`SELECT ts, data FROM diagnostics WHERE device_id = $1 ORDER BY ts DESC, id DESC LIMIT $2`, [
    deviceId,
    limit,
  ]);
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
