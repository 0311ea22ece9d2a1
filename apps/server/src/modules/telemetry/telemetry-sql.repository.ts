/**
 * SQL fragments shared by telemetry's repositories: how event counts, newest-message lists and
 * rollups merge, which stored values count as numbers, and an event message as JSON text.
 */
import { GROUP_DATA_MESSAGES_MAX, VALUE_MAX } from '@portal/core';

/** How a stored event-count row absorbs new counts of its bucket. */
export const EVENT_COUNT_MERGE = `info = c.info + excluded.info, alert = c.alert + excluded.alert,
       warning = c.warning + excluded.warning, alarm = c.alarm + excluded.alarm`;

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
export const EVENT_NEWEST_MERGE = (src: string) =>
  `INSERT INTO event_newest AS n (device_id, ts, ids, items) SELECT device_id, ts, ids, items FROM ${src} ORDER BY device_id
       ON CONFLICT (device_id) DO UPDATE SET (ts, ids, items) = (
         SELECT (array_agg(t ORDER BY t DESC, i DESC))[1:${EVENT_NEWEST_MAX}],
                (array_agg(i ORDER BY t DESC, i DESC))[1:${EVENT_NEWEST_MAX}],
                (array_agg(m ORDER BY t DESC, i DESC))[1:${EVENT_NEWEST_MAX}]
           FROM (SELECT * FROM unnest(n.ts, n.ids, n.items) AS a(t, i, m)
                 UNION ALL SELECT * FROM unnest(excluded.ts, excluded.ids, excluded.items) AS b(t, i, m)) u)`;

/**
 * A jsonb value that counts as a number in aggregates: a number of magnitude at most VALUE_MAX,
 * the rule ingest and import keep (core parseDeviceRecord). Anything larger, stored before that
 * rule, is left out, so no sum or average over a device's values can overflow and fail a read.
 */
export const STORED_NUMBER = (value: string) =>
  `(jsonb_typeof(${value}) = 'number' AND abs((${value})::text::double precision) <= ${VALUE_MAX})`;

export const ROLLUP_COLUMNS = 'device_id, key, bucket, count, min, max, sum, first, last, first_ts, last_ts';

/** Aggregates of rollup rows `src` grouped into `bucketExpr` (hours into days): SELECT list and GROUP BY. */
export const rollupMerged = (bucketExpr: string, src: string) =>
  `SELECT device_id, key, ${bucketExpr} AS bucket, sum(count)::integer AS count, min(min) AS min, max(max) AS max,
          sum(sum) AS sum, (array_agg(first ORDER BY first_ts))[1] AS first,
          (array_agg(last ORDER BY last_ts DESC))[1] AS last, min(first_ts) AS first_ts, max(last_ts) AS last_ts
     FROM ${src} GROUP BY device_id, key, ${bucketExpr}`;
