/**
 * What the group data call reads for many devices at once (DESIGN.md section 5): latest values,
 * last contact, position, event counts by level and the newest event messages within a range,
 * and the marker severity. Pure reads of what ingest keeps ready (latest, devices.last_contact,
 * event_hour, event_day, the events index), never a scan of records or events.
 */
import { EVENT_LEVELS, markerSeverityOfLevels, type EventLevel, type MapSeverity } from '@portal/core';
import type { Db } from '../../db/db';

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

export interface GroupDataRow {
  deviceId: string;
  /** Epoch seconds of the last contact, or null. */
  lastContact: number | null;
  /** Latest value and its time of each asked key the device has. */
  latest: Record<string, { v: unknown; ts: number }>;
  lat: number | null;
  lon: number | null;
  hdop: number | null;
  /** Events in the range by level. */
  counts: Record<EventLevel, number>;
  /** The newest events in the range, newest first. */
  messages: GroupMessage[];
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
  const limit = q.messages ?? GROUP_MESSAGES_DEFAULT;
  const ids = [...deviceIds];
  const keys = [...new Set([...q.keys, ...Object.values(POSITION_KEYS)])];
  return db.transaction(async (tx) => {
    const contacts = await tx.query<{ id: string; last_contact: number | null }>(
      `SELECT id, last_contact FROM devices WHERE id = ANY($1::text[])`,
      [ids],
    );
    // Each read answers one row per device (aggregates as JSON text): PGlite hands rows to
    // JavaScript one by one, so 10,000 rows cost far less than the 50,000 unaggregated ones.
    const latest = await tx.query<{ device_id: string; latest: string }>(
      `SELECT device_id, json_object_agg(key, json_build_array(value, ts))::text AS latest
         FROM latest WHERE device_id = ANY($1::text[]) AND key = ANY($2::text[]) GROUP BY device_id`,
      [ids, keys],
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
    // The newest `limit` times straight off the (device_id, ts DESC) index (with the events
    // sharing the last of them), then the last stored first among equal times.
    const messages =
      limit > 0
        ? await tx.query<{ device_id: string; messages: string | null }>(
            `SELECT d.device_id,
                    (SELECT json_agg(json_build_array(e.ts, e.topic, e.msg, e.lv, e.severity) ORDER BY e.ts DESC, e.id DESC)::text
                       FROM (SELECT id, ts, topic, msg, lv, severity FROM events
                              WHERE device_id = d.device_id AND ts >= $2 AND ts < $3
                              ORDER BY ts DESC FETCH FIRST $4 ROWS WITH TIES) e) AS messages
               FROM unnest($1::text[]) AS d(device_id)`,
            [ids, fromH, toH + HOUR, limit],
          )
        : [];
    const rows = new Map<string, GroupDataRow>();
    for (const c of contacts) {
      rows.set(c.id, {
        deviceId: c.id,
        lastContact: c.last_contact,
        latest: {},
        lat: null,
        lon: null,
        hdop: null,
        counts: emptyCounts(),
        messages: [],
        marker: 'normal',
      });
    }
    const wanted = new Set(q.keys);
    for (const l of latest) {
      const row = rows.get(l.device_id);
      if (!row) continue;
      for (const [key, [value, ts]] of Object.entries(JSON.parse(l.latest) as Record<string, [unknown, number]>)) {
        if (wanted.has(key)) row.latest[key] = { v: value, ts };
        const n = typeof value === 'number' ? value : null;
        if (key === POSITION_KEYS.lat) row.lat = n;
        else if (key === POSITION_KEYS.lon) row.lon = n;
        else if (key === POSITION_KEYS.hdop) row.hdop = n;
      }
    }
    for (const c of counts) {
      const row = rows.get(c.device_id);
      if (row) for (const level of EVENT_LEVELS) row.counts[level] = c[level];
    }
    for (const m of messages) {
      const row = rows.get(m.device_id);
      if (!row || m.messages === null) continue;
      const list = JSON.parse(m.messages) as [number, string | null, string, number | null, string | null][];
      row.messages = list.slice(0, limit).map(([ts, topic, msg, lv, severity]) => ({ ts, topic, msg, lv, severity }));
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
