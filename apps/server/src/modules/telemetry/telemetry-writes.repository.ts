/**
 * SQL of ingest's writes: records with their events, event counts and newest messages, the
 * hourly and daily rollups, latest values, bus messages and diagnostics, and the device locks a
 * batch takes first. Batches go in as one jsonb array per table (jsonb_to_recordset), so a group
 * commit of 500 records is a handful of statements on both engines.
 */
import type { Db } from '../../db/db';
import type { BusMessageRow, DiagnosticsRow, IngestEventRow, LatestRow, RollupRow } from './telemetry.rows';
import {
  EVENT_COUNT_MERGE,
  EVENT_MESSAGE_JSON,
  EVENT_NEWEST_MAX,
  EVENT_NEWEST_MERGE,
  ROLLUP_COLUMNS,
  rollupMerged,
} from './telemetry-sql.repository';

/** Adds the counts of the events `evs` (per device and bucket of `seconds`, by level) to an event-count table. */
const EVENT_COUNT_UPSERT = (table: 'event_hour' | 'event_day', seconds: number) =>
  `INSERT INTO ${table} AS c (device_id, bucket, info, alert, warning, alarm)
       SELECT device_id, (floor(ts / ${seconds}) * ${seconds})::integer,
              count(*) FILTER (WHERE level = 'info')::integer, count(*) FILTER (WHERE level = 'alert')::integer,
              count(*) FILTER (WHERE level = 'warning')::integer, count(*) FILTER (WHERE level = 'alarm')::integer
         FROM evs GROUP BY 1, 2 ORDER BY 1, 2
       ON CONFLICT (device_id, bucket) DO UPDATE SET ${EVENT_COUNT_MERGE}`;

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

/** How a stored rollup row absorbs new rows of its bucket (hourly and daily rollups alike). */
const ROLLUP_MERGE = `count = r.count + excluded.count,
       min = least(r.min, excluded.min),
       max = greatest(r.max, excluded.max),
       sum = r.sum + excluded.sum,
       first = CASE WHEN excluded.first_ts < r.first_ts THEN excluded.first ELSE r.first END,
       first_ts = least(r.first_ts, excluded.first_ts),
       last = CASE WHEN excluded.last_ts >= r.last_ts THEN excluded.last ELSE r.last END,
       last_ts = greatest(r.last_ts, excluded.last_ts)`;

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

export async function insertDiagnostics(db: Db, rows: DiagnosticsRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO diagnostics (device_id, ts, data)
     SELECT device_id, ts, data FROM jsonb_to_recordset($1::jsonb) AS x(device_id text, ts double precision, data jsonb)`,
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
