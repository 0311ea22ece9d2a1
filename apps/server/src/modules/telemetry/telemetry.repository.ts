/**
 * SQL of telemetry: records, latest values, events, diagnostics and the hourly and daily
 * rollups. Batches go in as one jsonb array per table (jsonb_to_recordset), so a group commit of
 * 500 records is a handful of statements on both engines.
 */
import { GROUP_DATA_MESSAGES_MAX, VALUE_MAX, type CanFrame, type DeviceRecord } from '@portal/core';
import type { Db } from '../../db/db';
import type { BusMessageRow, DiagnosticsRow, EventRow, IngestEventRow, LatestRow, RollupRow } from './telemetry.rows';

export type { DiagnosticsRow, EventRow, IngestEventRow, LatestRow, RollupRow } from './telemetry.rows';

/** How a stored event-count row absorbs new counts of its bucket. */
const EVENT_COUNT_MERGE = `info = c.info + excluded.info, alert = c.alert + excluded.alert,
       warning = c.warning + excluded.warning, alarm = c.alarm + excluded.alarm`;

/** Adds the counts of the events `evs` (per device and bucket of `seconds`, by level) to an event-count table. */
const EVENT_COUNT_UPSERT = (table: 'event_hour' | 'event_day', seconds: number) =>
  `INSERT INTO ${table} AS c (device_id, bucket, info, alert, warning, alarm)
       SELECT device_id, (floor(ts / ${seconds}) * ${seconds})::integer,
              count(*) FILTER (WHERE level = 'info')::integer, count(*) FILTER (WHERE level = 'alert')::integer,
              count(*) FILTER (WHERE level = 'warning')::integer, count(*) FILTER (WHERE level = 'alarm')::integer
         FROM evs GROUP BY 1, 2 ORDER BY 1, 2
       ON CONFLICT (device_id, bucket) DO UPDATE SET ${EVENT_COUNT_MERGE}`;

/** Newest event messages kept per device in event_newest (core GROUP_DATA_MESSAGES_MAX). */
export const EVENT_NEWEST_MAX = GROUP_DATA_MESSAGES_MAX;

/**
 * One event message as the group data call answers it (core GroupMessageSchema), from an events
 * row, as compact JSON text (json_build_object writes ' : ' and ', ': a tenth of the group data
 * answer for 10,000 devices was those spaces).
 */
export const EVENT_MESSAGE_JSON = `('{"ts":' || ts::text || ',"topic":' || coalesce(to_json(topic)::text, 'null') ||
  ',"msg":' || to_json(msg)::text || ',"lv":' || coalesce(lv::text, 'null') ||
  ',"severity":' || coalesce(to_json(severity)::text, 'null') || '}')`;

/**
 * The newest-first lists `src` (device_id, ts, ids, items) merged into event_newest, newest
 * EVENT_NEWEST_MAX kept: an existing list is merged under its row lock, so two writers of one
 * device lose nothing.
 */
const EVENT_NEWEST_MERGE = (src: string) =>
  `INSERT INTO event_newest AS n (device_id, ts, ids, items) SELECT device_id, ts, ids, items FROM ${src} ORDER BY device_id
       ON CONFLICT (device_id) DO UPDATE SET (ts, ids, items) = (
         SELECT (array_agg(t ORDER BY t DESC, i DESC))[1:${EVENT_NEWEST_MAX}],
                (array_agg(i ORDER BY t DESC, i DESC))[1:${EVENT_NEWEST_MAX}],
                (array_agg(m ORDER BY t DESC, i DESC))[1:${EVENT_NEWEST_MAX}]
           FROM (SELECT * FROM unnest(n.ts, n.ids, n.items) AS a(t, i, m)
                 UNION ALL SELECT * FROM unnest(excluded.ts, excluded.ids, excluded.items) AS b(t, i, m)) u)`;

/**
 * Inserts records, each row a JSON object text {device_id, ts, received_at, data}, and the
 * events of those actually stored with their hourly and daily counts (event_hour, event_day)
 * and each device's newest messages (event_newest), in one statement; a resent record (same device and ts, also
 * twice in `rows`) is skipped with its events. Returns how many were stored and, only when some
 * were skipped, the (device_id, ts) of those stored (the usual all-stored batch returns one number).
 */
export async function insertRecords(
  db: Db,
  rows: string[],
  events: IngestEventRow[] = [],
): Promise<{ stored: number; keys: [string, number][] | null }> {
  if (rows.length === 0) return { stored: 0, keys: null };
  const withEvents = events.length > 0;
  const [result] = await db.query<{ stored: number; keys: string | null }>(
    `WITH ins AS (
       INSERT INTO records (device_id, ts, received_at, source, data)
       SELECT device_id, ts, received_at, source, data
         FROM jsonb_to_recordset($1::jsonb)
              AS x(device_id text, ts double precision, received_at timestamptz, source text, data jsonb)
        ORDER BY device_id, ts
       ON CONFLICT (device_id, ts) DO NOTHING
       RETURNING device_id, ts
     ), ${
       withEvents
         ? `evs AS (
       SELECT e.device_id, e.name, e.ts, e.topic, e.msg, e.lv, e.severity, e.level, e.n
         FROM ROWS FROM (jsonb_to_recordset($3::jsonb)
                AS (device_id text, name text, ts double precision, topic text, msg text, lv integer, severity text, level text))
              WITH ORDINALITY AS e(device_id, name, ts, topic, msg, lv, severity, level, n)
         JOIN ins ON ins.device_id = e.device_id AND ins.ts = e.ts
     ), ev AS (
       INSERT INTO events (device_id, name, ts, topic, msg, lv, severity)
       SELECT device_id, name, ts, topic, msg, lv, severity FROM evs ORDER BY n
       RETURNING id, device_id, ts, ${EVENT_MESSAGE_JSON} AS item
     ), evl AS (
       SELECT device_id, (array_agg(ts ORDER BY ts DESC, id DESC))[1:${EVENT_NEWEST_MAX}] AS ts,
              (array_agg(id ORDER BY ts DESC, id DESC))[1:${EVENT_NEWEST_MAX}] AS ids,
              (array_agg(item ORDER BY ts DESC, id DESC))[1:${EVENT_NEWEST_MAX}] AS items
         FROM ev GROUP BY device_id
     ), evn AS (
       ${EVENT_NEWEST_MERGE('evl')}
     ), evh AS (
       ${EVENT_COUNT_UPSERT('event_hour', 3600)}
     ), evd AS (
       ${EVENT_COUNT_UPSERT('event_day', 86_400)}
     ), `
         : ''
     }n AS (SELECT count(*)::integer AS stored FROM ins)
     SELECT stored, CASE WHEN stored < $2 THEN (SELECT coalesce(json_agg(json_build_array(device_id, ts)), '[]')::text FROM ins) END AS keys
       FROM n`,
    withEvents ? [`[${rows.join(',')}]`, rows.length, JSON.stringify(events)] : [`[${rows.join(',')}]`, rows.length],
  );
  const { stored, keys } = result!;
  return { stored, keys: stored < rows.length ? (JSON.parse(keys ?? '[]') as [string, number][]) : null };
}

/**
 * A jsonb value that counts as a number in aggregates: a number of magnitude at most VALUE_MAX,
 * the rule ingest and import keep (core parseDeviceRecord). Anything larger, stored before that
 * rule, is left out, so no sum or average over a device's values can overflow and fail a read.
 */
const STORED_NUMBER = (value: string) =>
  `(jsonb_typeof(${value}) = 'number' AND abs((${value})::text::double precision) <= ${VALUE_MAX})`;

/** How a stored rollup row absorbs new rows of its bucket (hourly and daily rollups alike). */
const ROLLUP_MERGE = `count = r.count + excluded.count,
       min = least(r.min, excluded.min),
       max = greatest(r.max, excluded.max),
       sum = r.sum + excluded.sum,
       first = CASE WHEN excluded.first_ts < r.first_ts THEN excluded.first ELSE r.first END,
       first_ts = least(r.first_ts, excluded.first_ts),
       last = CASE WHEN excluded.last_ts >= r.last_ts THEN excluded.last ELSE r.last END,
       last_ts = greatest(r.last_ts, excluded.last_ts)`;

const ROLLUP_COLUMNS = 'device_id, key, bucket, count, min, max, sum, first, last, first_ts, last_ts';

/** Aggregates of rollup rows `src` grouped into `bucketExpr` (hours into days): SELECT list and GROUP BY. */
const rollupMerged = (bucketExpr: string, src: string) =>
  `SELECT device_id, key, ${bucketExpr} AS bucket, sum(count)::integer AS count, min(min) AS min, max(max) AS max,
          sum(sum) AS sum, (array_agg(first ORDER BY first_ts))[1] AS first,
          (array_agg(last ORDER BY last_ts DESC))[1] AS last, min(first_ts) AS first_ts, max(last_ts) AS last_ts
     FROM ${src} GROUP BY device_id, key, ${bucketExpr}`;

/**
 * Adds hourly aggregates to the hourly rollups and, in the same statement, to the daily ones
 * (the hours grouped by UTC day), so every writer keeps both. Rows must be unique per
 * (device_id, key, bucket): merge them first.
 *
 * Every ingest upsert takes its rows in key order (ORDER BY): two instances writing the same
 * devices' rows then wait for each other rather than deadlock (which PostgreSQL breaks after
 * deadlock_timeout, a second, by failing one batch).
 */
export async function upsertRollups(db: Db, rows: RollupRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `WITH x AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(device_id text, key text, bucket integer, count integer,
              min double precision, max double precision, sum double precision, first double precision,
              last double precision, first_ts double precision, last_ts double precision)
     ), hourly AS (
       INSERT INTO rollup_hour AS r (${ROLLUP_COLUMNS}) SELECT ${ROLLUP_COLUMNS} FROM x ORDER BY device_id, key, bucket
       ON CONFLICT (device_id, key, bucket) DO UPDATE SET ${ROLLUP_MERGE}
     )
     INSERT INTO rollup_day AS r (${ROLLUP_COLUMNS}) ${rollupMerged('bucket / 86400 * 86400', 'x')} ORDER BY 1, 2, 3
     ON CONFLICT (device_id, key, bucket) DO UPDATE SET ${ROLLUP_MERGE}`,
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
      ORDER BY device_id, key
     ON CONFLICT (device_id, key) DO UPDATE SET value = excluded.value, ts = excluded.ts
       WHERE excluded.ts >= l.ts`,
    [JSON.stringify(rows)],
  );
}

/** What the devices' buses told: each group's newest time (and a DM1's report) replaces an older one. */
export async function upsertBusMessages(db: Db, rows: BusMessageRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO bus_messages AS b (device_id, bus, pgn, source, ts, dm1)
     SELECT device_id, bus, pgn, source, ts, dm1
       FROM jsonb_to_recordset($1::jsonb) AS x(device_id text, bus smallint, pgn integer, source smallint, ts double precision, dm1 jsonb)
      ORDER BY device_id, bus, pgn, source
     ON CONFLICT (device_id, bus, pgn, source) DO UPDATE SET ts = excluded.ts, dm1 = excluded.dm1
       WHERE excluded.ts >= b.ts`,
    [JSON.stringify(rows)],
  );
}

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

/** Everything a device's buses told, by bus, group and source. */
export function selectBusMessages(db: Db, deviceId: string): Promise<BusMessageRow[]> {
  return db.query<BusMessageRow>(
    `SELECT device_id, bus, pgn, source, ts, dm1 FROM bus_messages WHERE device_id = $1 ORDER BY bus, pgn, source`,
    [deviceId],
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

/** The newest stored record time of each device (Basic thinning). */
/** The newest record of a device: its own time (ts, epoch s) and when the server received it (epoch s). */
export async function newestRecordReceipt(db: Db, deviceId: string): Promise<{ ts: number; received: number } | null> {
  const [row] = await db.query<{ ts: number; received: number }>(
    `SELECT ts, extract(epoch FROM received_at)::double precision AS received
       FROM records WHERE device_id = $1 ORDER BY ts DESC LIMIT 1`,
    [deviceId],
  );
  return row ?? null;
}

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

// ---------------------------------------------------------------- retention, deletion, transfer

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

// ---------------------------------------------------------------- ingest writer state and recovery

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

/**
 * Takes the data-version rows of every device a transaction will write, in id order, before its
 * first write (and moves their versions, as the triggers would): transactions of several
 * instances over overlapping devices then wait for each other instead of deadlocking.
 */
export async function lockDeviceData(db: Db, deviceIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(deviceIds)].sort();
  if (ids.length === 0) return;
  await db.query(
    `INSERT INTO device_data_versions AS v (device_id, version, xact)
     SELECT id, 0, txid_current() FROM unnest($1::text[]) AS d(id) ORDER BY id
     ON CONFLICT (device_id) DO UPDATE SET version = nextval('device_data_version'), xact = excluded.xact
      WHERE v.xact <> excluded.xact`,
    [ids],
  );
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
