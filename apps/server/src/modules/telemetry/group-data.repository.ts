/**
 * What the group data call reads for many devices at once (DESIGN.md section 5): latest values,
 * last contact, position, event counts by level and the newest event messages within a range,
 * and the marker severity. Pure reads of what ingest keeps ready (latest, devices.last_contact,
 * event_hour, event_day, event_newest), never a scan of records or events.
 *
 * One statement answers every device as one text: each device's part of the answer written by
 * the database as JSON, the parts joined by U+0001 (which JSON text never holds raw). PGlite
 * hands rows to JavaScript one by one, and four reads of 10,000 rows each, parsed and written
 * again as JSON here, were most of the call: one row of text is one copy.
 */
import { EVENT_LEVELS, MAP_SEVERITIES, markerSeverityOfLevels } from '@portal/core';
import type { Db } from '../../db/db';
import { deviceNameSql } from '../../db/device-name';
import { EVENT_MESSAGE_JSON, EVENT_NEWEST_MAX } from './telemetry-sql.repository';

const HOUR = 3600;
const DAY = 86_400;

/** The keys a device's position is read from. */
export const POSITION_KEYS = { lat: 'gps_lat', lon: 'gps_lon', hdop: 'gps_hdop' } as const;

/** Newest event messages per device unless asked otherwise. */
export const GROUP_MESSAGES_DEFAULT = 5;

export interface GroupDataQuery {
  /** Range start and end, epoch seconds; floored to whole hours (the end's hour is included whole). */
  fromS: number;
  toS: number;
  /** Keys whose latest values are wanted (the position keys are read anyway). */
  keys: readonly string[];
  /** Newest event messages per device within the range (default GROUP_MESSAGES_DEFAULT). */
  messages?: number;
  /** Numeric keys whose count, sum, min and max over the range are wanted (from the rollups). */
  stats?: readonly string[];
}

/** The hourly buckets [fromH, toH] a range covers, floored to whole hours (the end's hour whole). */
export function hourRange(fromS: number, toS: number): { fromH: number; toH: number } {
  return { fromH: Math.floor(fromS / HOUR) * HOUR, toH: Math.floor(toS / HOUR) * HOUR };
}

/** How many newest messages per device a query answers (at most what event_newest keeps). */
function messageLimit(q: GroupDataQuery): number {
  return Math.min(q.messages ?? GROUP_MESSAGES_DEFAULT, EVENT_NEWEST_MAX);
}

/** What a device's part depends on besides its data: the key of the parts kept for `q` (group-data-cache.ts). */
export function groupDataQuestion(q: GroupDataQuery): string {
  const { fromH, toH } = hourRange(q.fromS, q.toS);
  const limit = messageLimit(q);
  return JSON.stringify([fromH, toH, limit, q.keys, q.stats ?? []]);
}

/**
 * How the hours [fromH, toH] are read: the whole UTC days inside them from daily rows
 * [dayFrom, dayTo), the hours before and after from hourly rows (the edges). Without a whole
 * day inside, every hour is an edge (dayFrom = dayTo).
 */
export function rangePlan(fromH: number, toH: number): { dayFrom: number; dayTo: number } {
  const dayFrom = Math.ceil(fromH / DAY) * DAY;
  const dayTo = Math.floor((toH + HOUR) / DAY) * DAY;
  return dayFrom < dayTo ? { dayFrom, dayTo } : { dayFrom: toH + HOUR, dayTo: toH + HOUR };
}

export interface GroupMessage {
  ts: number;
  topic: string | null;
  msg: string;
  lv: number | null;
  severity: string | null;
}

/**
 * The marker severity of a device's counts, in SQL, from core's rule (markerSeverityOfLevels):
 * the most severe severity any level with events maps to, else normal.
 */
const MARKER_SQL = `CASE ${MAP_SEVERITIES.filter((severity) => severity !== 'normal')
  .map((severity) => {
    const levels = EVENT_LEVELS.filter((level) => markerSeverityOfLevels([level]) === severity);
    return `WHEN ${levels.map((level) => `coalesce(c.${level}, 0) > 0`).join(' OR ')} THEN '${severity}'`;
  })
  .join(' ')} ELSE 'normal' END`;

/** Memory the group data statement may sort and hash in (PostgreSQL's work_mem, for its transaction only). */
export const GROUP_DATA_WORK_MEM = '64MB';

/** The members a device with no row of its own gets after its id (an id the database does not know). */
export const EMPTY_GROUP_DATA_PART =
  '"status":"","type":"","fw":"","machineMake":"","machineModel":"","ts":null,"values":{},"alarmCount":0,"warningCount":0,"alertCount":0,"infoCount":0,"messages":[],"lat":null,"lon":null,"hdop":null,"severity":"normal"';

/**
 * Each device's part of the group data answer, in the order of `deviceIds`: the members
 * `"deviceid"`, the summary of GET /group/{groupid} (`"name"` as deviceNameSql, `"status"`,
 * `"type"`, `"fw"`, `"machineMake"`, `"machineModel"` from the device's asset notes), `"ts"` (last contact), `"values"` (latest value and time, {v, ts}, of each asked key the
 * device has), `"alarmCount"`, `"warningCount"`, `"alertCount"`, `"infoCount"`, `"messages"`
 * (the newest in the range, newest first, {ts, topic, msg, lv, severity}), `"lat"`, `"lon"`,
 * `"hdop"` and `"severity"` (the marker severity), and with `stats` asked `"stats"` (count, sum,
 * min and max over the range of each asked key the device has rollups of: the whole UTC days
 * from daily rollups, the edge hours from hourly ones), as JSON object members without the braces.
 *
 * The messages come from each device's newest-message list (event_newest): its first `limit`
 * when they lie in the range (the usual case: a range ending now), else those of the list in
 * the range when the list is known to hold them all (shorter than the maximum, reaching back
 * before the range, or with `limit` of them in it); only a device whose list cannot answer (a
 * range ending long before its newest events) is read from the events index.
 */
export async function groupDataParts(db: Db, deviceIds: readonly string[], q: GroupDataQuery): Promise<string[]> {
  if (deviceIds.length === 0) return [];
  const { fromH, toH } = hourRange(q.fromS, q.toS);
  const { dayFrom, dayTo } = rangePlan(fromH, toH);
  const end = toH + HOUR;
  const limit = messageLimit(q);
  const readKeys = [...new Set([...q.keys, ...Object.values(POSITION_KEYS)])];
  const stats = q.stats ?? [];
  const number = (column: string) => `coalesce(${column}::text, 'null')`;
  const text = (value: string) => `to_json(coalesce(${value}, ''))::text`;
  // The values' aggregation sorts about 60,000 rows for 10,000 devices: over the default 4 MB
  // of work_mem that sort went to disk. Parallel workers made the statement about a quarter
  // slower on 2 cores (each scan is tens of milliseconds; starting workers costs as much).
  const [row] = await db.transaction(async (tx) => {
    await tx.exec(
      `SET LOCAL work_mem = '${GROUP_DATA_WORK_MEM}'; SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL jit = off`,
    );
    return tx.query<{ parts: string | null }>(
      `WITH lv AS (
       SELECT device_id,
              string_agg(to_json(key)::text || ':{"v":' || value::text || ',"ts":' || ts::text || '}', ',')
                FILTER (WHERE key = ANY($2::text[])) AS vals,
              max(CASE WHEN key = $9 AND jsonb_typeof(value) = 'number' THEN (value #>> '{}')::double precision END) AS lat,
              max(CASE WHEN key = $10 AND jsonb_typeof(value) = 'number' THEN (value #>> '{}')::double precision END) AS lon,
              max(CASE WHEN key = $11 AND jsonb_typeof(value) = 'number' THEN (value #>> '{}')::double precision END) AS hdop
         FROM latest WHERE device_id = ANY($1::text[]) AND key = ANY($3::text[]) GROUP BY device_id
     ), c AS (
       SELECT device_id, sum(info)::integer AS info, sum(alert)::integer AS alert, sum(warning)::integer AS warning,
              sum(alarm)::integer AS alarm FROM (
         SELECT device_id, info, alert, warning, alarm FROM event_day
          WHERE device_id = ANY($1::text[]) AND bucket >= $6 AND bucket < $7
         UNION ALL
         SELECT device_id, info, alert, warning, alarm FROM event_hour
          WHERE device_id = ANY($1::text[])
            AND ((bucket >= $4 AND bucket < $6) OR (bucket >= greatest($7, $6) AND bucket <= $5))
       ) x GROUP BY device_id
     ), n AS (
       SELECT device_id, ts, items, cardinality(ts) >= $8 AND ts[1] < $12 AND ts[$8] >= $4 AS fast
         FROM event_newest WHERE device_id = ANY($1::text[])
     ), m AS (
       SELECT device_id,
              CASE WHEN fast THEN array_to_string(items[1:$8], ',')
                   WHEN cardinality(ts) < $13 OR ts[cardinality(ts)] < $4
                        OR (SELECT count(*) FROM unnest(ts) AS u(t) WHERE t >= $4 AND t < $12) >= $8
                     THEN (SELECT string_agg(i, ',' ORDER BY o) FROM (
                             SELECT i, o FROM unnest(ts, items) WITH ORDINALITY AS u(t, i, o)
                              WHERE t >= $4 AND t < $12 ORDER BY o LIMIT $8) s)
                   ELSE (SELECT array_to_string((array_agg(e.item ORDER BY e.ts DESC, e.id DESC))[1:$8], ',') FROM (
                           SELECT id, ts, ${EVENT_MESSAGE_JSON} AS item FROM events
                            WHERE events.device_id = n.device_id AND ts >= $4 AND ts < $12
                            ORDER BY ts DESC FETCH FIRST $8 ROWS WITH TIES) e)
              END AS messages
         FROM n WHERE $8 > 0
     )${
       stats.length === 0
         ? ''
         : `, st AS (
       SELECT device_id,
              string_agg(to_json(key)::text || ':{"count":' || n || ',"sum":' || s::text || ',"min":' || lo::text ||
                         ',"max":' || hi::text || '}', ',' ORDER BY key) AS stats
         FROM (SELECT device_id, key, sum(count) AS n, sum(sum) AS s, min(min) AS lo, max(max) AS hi FROM (
                 SELECT device_id, key, count, sum, min, max FROM rollup_day
                  WHERE device_id = ANY($1::text[]) AND key = ANY($15::text[]) AND bucket >= $6 AND bucket < $7
                 UNION ALL
                 SELECT device_id, key, count, sum, min, max FROM rollup_hour
                  WHERE device_id = ANY($1::text[]) AND key = ANY($15::text[])
                    AND ((bucket >= $4 AND bucket < $6) OR (bucket >= greatest($7, $6) AND bucket <= $5))
               ) r GROUP BY device_id, key) k
        GROUP BY device_id
     )`
     }
     SELECT string_agg(
              '"deviceid":' || to_json(i.id)::text || ',"name":' || to_json(coalesce(${deviceNameSql('d')}, i.id))::text || ',' ||
              CASE WHEN d.id IS NULL THEN $14 ELSE
                '"status":' || ${text("d.notes ->> 'status'")} || ',"type":' || ${text("d.notes ->> 'asset_type'")} ||
                ',"fw":' || to_json(d.fw)::text || ',"machineMake":' || ${text("d.notes ->> 'make'")} ||
                ',"machineModel":' || ${text("d.notes ->> 'model'")} || ',"ts":' || ${number('d.last_contact')} || ',"values":{' || coalesce(lv.vals, '') || '}' ||
                ',"alarmCount":' || coalesce(c.alarm, 0) || ',"warningCount":' || coalesce(c.warning, 0) ||
                ',"alertCount":' || coalesce(c.alert, 0) || ',"infoCount":' || coalesce(c.info, 0) ||
                ',"messages":[' || coalesce(m.messages, '') || '],"lat":' || ${number('lv.lat')} ||
                ',"lon":' || ${number('lv.lon')} || ',"hdop":' || ${number('lv.hdop')} ||
                ',"severity":"' || ${MARKER_SQL} || '"'${stats.length === 0 ? '' : ` || ',"stats":{' || coalesce(st.stats, '') || '}'`} END,
              chr(1) ORDER BY i.o) AS parts
       FROM unnest($1::text[]) WITH ORDINALITY AS i(id, o)
       LEFT JOIN devices d ON d.id = i.id
       LEFT JOIN lv ON lv.device_id = i.id
       LEFT JOIN c ON c.device_id = i.id
       LEFT JOIN m ON m.device_id = i.id${stats.length === 0 ? '' : ' LEFT JOIN st ON st.device_id = i.id'}`,
      [
        [...deviceIds],
        q.keys,
        readKeys,
        fromH,
        toH,
        dayFrom,
        dayTo,
        limit,
        POSITION_KEYS.lat,
        POSITION_KEYS.lon,
        POSITION_KEYS.hdop,
        end,
        EVENT_NEWEST_MAX,
        stats.length === 0 ? EMPTY_GROUP_DATA_PART : `${EMPTY_GROUP_DATA_PART},"stats":{}`,
        ...(stats.length === 0 ? [] : [stats]),
      ],
    );
  });
  const parts = (row?.parts ?? '').split('\u0001');
  if (parts.length !== deviceIds.length)
    throw new Error(`group data: ${parts.length} parts for ${deviceIds.length} devices`);
  return parts;
}

/**
 * Each device's data version (migration 018: the device row's xmin and its device_data_versions
 * row) in the order of `deviceIds`, as text; '' for an id the database does not know. One row of
 * text, as the parts.
 */
export async function deviceDataVersions(db: Db, deviceIds: readonly string[]): Promise<string[]> {
  if (deviceIds.length === 0) return [];
  const [row] = await db.query<{ versions: string | null }>(
    `SELECT string_agg(coalesce(d.xmin::text || '.' || coalesce(v.version::text, ''), ''), ',' ORDER BY i.o) AS versions
       FROM unnest($1::text[]) WITH ORDINALITY AS i(id, o)
       LEFT JOIN devices d ON d.id = i.id
       LEFT JOIN device_data_versions v ON v.device_id = i.id`,
    [[...deviceIds]],
  );
  const versions = (row?.versions ?? '').split(',');
  if (versions.length !== deviceIds.length)
    throw new Error(`group data: ${versions.length} versions for ${deviceIds.length} devices`);
  return versions;
}
