-- The newest event messages of each device (at most GROUP_DATA_MESSAGES_MAX = 20), kept at ingest
-- in the statement that stores the events, so the group data call reads one row per device
-- instead of probing the events index 10,000 times (bench group-data: that probe was most of
-- the call). Newest first, ordered as the events are read (ts DESC, id DESC): the times, the
-- event ids (for merging) and each message already written as the JSON object the call answers.
-- The list is the newest 20 events of the device: a shorter list holds every event it has.
-- Kept right by delete-data (dropped), transfer-data (merged into the target's) and retention
-- (messages older than the cutoff dropped), as event_hour and event_day are.
CREATE TABLE event_newest (
  device_id text PRIMARY KEY,
  ts double precision[] NOT NULL,
  ids integer[] NOT NULL,
  items text[] NOT NULL
);

INSERT INTO event_newest (device_id, ts, ids, items)
SELECT device_id, array_agg(ts ORDER BY ts DESC, id DESC), array_agg(id ORDER BY ts DESC, id DESC),
       array_agg(json_build_object('ts', ts, 'topic', topic, 'msg', msg, 'lv', lv, 'severity', severity)::text
                 ORDER BY ts DESC, id DESC)
  FROM (SELECT e.*, row_number() OVER (PARTITION BY device_id ORDER BY ts DESC, id DESC) AS rn FROM events e) e
 WHERE rn <= 20
 GROUP BY device_id;
