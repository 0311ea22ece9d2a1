/**
 * What the group data call reads for many devices at once (DESIGN.md section 5): latest values,
 * last contact, position, event counts by level and the newest event messages within a range,
 * and the marker severity. Pure reads of what ingest keeps ready (latest, devices.last_contact,
 * event_hour, event_day, the events index), never a scan of records or events.
 */
import { EVENT_LEVELS, markerSeverityOfLevels, type EventLevel, type MapSeverity } from '@portal/core';
import type { Db } from '../../db/db';
import { EVENT_MESSAGE_JSON, EVENT_NEWEST_MAX } from './telemetry.repository';

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
}

export interface GroupMessage {
  ts: number;
  topic: string | null;
  msg: string;
  lv: number | null;
  severity: string | null;
}

/**
 * One device's group data. Latest values and messages come as JSON text, written by the
 * database as the call answers them, so 10,000 rows are never parsed and written again.
 */
export interface GroupDataRow {
  deviceId: string;
  /** Epoch seconds of the last contact, or null. */
  lastContact: number | null;
  /** JSON object text: the latest value and its time ({v, ts}) of each asked key the device has. */
  valuesJson: string;
  lat: number | null;
  lon: number | null;
  hdop: number | null;
  /** Events in the range by level. */
  counts: Record<EventLevel, number>;
  /** JSON array text: the newest events in the range ({ts, topic, msg, lv, severity}), newest first. */
  messagesJson: string;
  /** Most severe event in the range (spec 1 section 4 'map marker severity'). */
  marker: MapSeverity;
}

/** The hourly buckets [fromH, toH] a range covers, floored to whole hours (the end's hour whole). */
export function hourRange(fromS: number, toS: number): { fromH: number; toH: number } {
  return { fromH: Math.floor(fromS / HOUR) * HOUR, toH: Math.floor(toS / HOUR) * HOUR };
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

const emptyCounts = (): Record<EventLevel, number> => ({ info: 0, alert: 0, warning: 0, alarm: 0 });

/** Reads the group data of `deviceIds` (unknown ids are left out), in the order given. */
export async function groupDataRows(db: Db, deviceIds: readonly string[], q: GroupDataQuery): Promise<GroupDataRow[]> {
  const { fromH, toH } = hourRange(q.fromS, q.toS);
  const { dayFrom, dayTo } = rangePlan(fromH, toH);
  const end = toH + HOUR;
  const limit = Math.min(q.messages ?? GROUP_MESSAGES_DEFAULT, EVENT_NEWEST_MAX);
  const ids = [...deviceIds];
  return db.transaction(async (tx) => {
    // One row per device each, the JSON already written by the database: PGlite hands rows to
    // JavaScript one by one, so 10,000 rows cost far less than 50,000, and no value is parsed here.
    const contacts = await tx.query<{ id: string; last_contact: number | null }>(
      `SELECT id, last_contact FROM devices WHERE id = ANY($1::text[])`,
      [ids],
    );
    const latest = await tx.query<{
      device_id: string;
      vals: string | null;
      lat: number | null;
      lon: number | null;
      hdop: number | null;
    }>(
      `SELECT device_id,
              json_object_agg(key, json_build_object('v', value, 'ts', ts)) FILTER (WHERE key = ANY($2::text[]))::text AS vals,
              max(CASE WHEN key = $3 AND jsonb_typeof(value) = 'number' THEN (value #>> '{}')::double precision END) AS lat,
              max(CASE WHEN key = $4 AND jsonb_typeof(value) = 'number' THEN (value #>> '{}')::double precision END) AS lon,
              max(CASE WHEN key = $5 AND jsonb_typeof(value) = 'number' THEN (value #>> '{}')::double precision END) AS hdop
         FROM latest WHERE device_id = ANY($1::text[]) AND key = ANY($6::text[]) GROUP BY device_id`,
      [
        ids,
        q.keys,
        POSITION_KEYS.lat,
        POSITION_KEYS.lon,
        POSITION_KEYS.hdop,
        [...q.keys, ...Object.values(POSITION_KEYS)],
      ],
    );
    const counts = await tx.query<{ device_id: string } & Record<EventLevel, number>>(
      `SELECT device_id, sum(info)::integer AS info, sum(alert)::integer AS alert, sum(warning)::integer AS warning,
              sum(alarm)::integer AS alarm FROM (
         SELECT device_id, info, alert, warning, alarm FROM event_day
          WHERE device_id = ANY($1::text[]) AND bucket >= $4 AND bucket < $5
         UNION ALL
         SELECT device_id, info, alert, warning, alarm FROM event_hour
          WHERE device_id = ANY($1::text[]) AND bucket >= $2 AND bucket <= $3 AND (bucket < $4 OR bucket >= $5)
       ) c GROUP BY device_id`,
      [ids, fromH, toH, dayFrom, dayTo],
    );
    const messages = limit > 0 ? await newestMessages(tx, ids, fromH, end, limit) : new Map<string, string>();
    const rows = new Map<string, GroupDataRow>();
    for (const c of contacts) {
      rows.set(c.id, {
        deviceId: c.id,
        lastContact: c.last_contact,
        valuesJson: '{}',
        lat: null,
        lon: null,
        hdop: null,
        counts: emptyCounts(),
        messagesJson: messages.get(c.id) ?? '[]',
        marker: 'normal',
      });
    }
    for (const l of latest) {
      const row = rows.get(l.device_id);
      if (!row) continue;
      if (l.vals !== null) row.valuesJson = l.vals;
      row.lat = l.lat;
      row.lon = l.lon;
      row.hdop = l.hdop;
    }
    for (const c of counts) {
      const row = rows.get(c.device_id);
      if (row) for (const level of EVENT_LEVELS) row.counts[level] = c[level];
    }
    const out: GroupDataRow[] = [];
    for (const id of ids) {
      const row = rows.get(id);
      if (!row) continue;
      row.marker = markerSeverityOfLevels(EVENT_LEVELS.filter((level) => row.counts[level] > 0));
      out.push(row);
    }
    return out;
  });
}

/**
 * The newest `limit` messages in [from, end) of each device, as JSON array text, from the lists
 * ingest keeps (event_newest: a device's newest EVENT_NEWEST_MAX events). A list answers for its
 * device when its first `limit` messages lie in the range (the usual case: a range ending now),
 * else its messages in the range do when the list is known to hold them all (shorter than the
 * maximum, reaching back before the range, or with `limit` of them in it). Only a device whose
 * list cannot answer (a range that ends long before its newest events) is read from the events
 * index.
 */
async function newestMessages(
  db: Db,
  ids: string[],
  from: number,
  end: number,
  limit: number,
): Promise<Map<string, string>> {
  const lists = await db.query<{ device_id: string; messages: string | null; complete: boolean }>(
    `SELECT device_id,
            CASE WHEN fast THEN array_to_string(items[1:$4], ',')
                 ELSE (SELECT string_agg(m, ',' ORDER BY o) FROM (
                         SELECT m, o FROM unnest(ts, items) WITH ORDINALITY AS u(t, m, o)
                          WHERE t >= $2 AND t < $3 ORDER BY o LIMIT $4) s) END AS messages,
            fast OR cardinality(ts) < $5 OR ts[cardinality(ts)] < $2
              OR (SELECT count(*) FROM unnest(ts) AS u(t) WHERE t >= $2 AND t < $3) >= $4 AS complete
       FROM (SELECT device_id, ts, items, cardinality(ts) >= $4 AND ts[1] < $3 AND ts[$4] >= $2 AS fast
               FROM event_newest WHERE device_id = ANY($1::text[])) n`,
    [ids, from, end, limit, EVENT_NEWEST_MAX],
  );
  const out = new Map<string, string>();
  const probe: string[] = [];
  for (const l of lists) {
    if (!l.complete) probe.push(l.device_id);
    else if (l.messages !== null) out.set(l.device_id, `[${l.messages}]`);
  }
  if (probe.length > 0) {
    // The newest `limit` times straight off the (device_id, ts DESC) index (with the events
    // sharing the last of them), then the last stored first among equal times.
    const probed = await db.query<{ device_id: string; messages: string | null }>(
      `SELECT d.device_id,
              (SELECT array_to_string((array_agg(e.item ORDER BY e.ts DESC, e.id DESC))[1:$4], ',') FROM (
                 SELECT id, ts, ${EVENT_MESSAGE_JSON} AS item FROM events
                  WHERE device_id = d.device_id AND ts >= $2 AND ts < $3
                  ORDER BY ts DESC FETCH FIRST $4 ROWS WITH TIES) e) AS messages
         FROM unnest($1::text[]) AS d(device_id)`,
      [probe, from, end, limit],
    );
    for (const p of probed) if (p.messages !== null) out.set(p.device_id, `[${p.messages}]`);
  }
  return out;
}
