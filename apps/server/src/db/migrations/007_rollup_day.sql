-- Daily rollups (per device, key and UTC day): long chart ranges (weeks to years) read these
-- instead of up to 24 times as many hourly rows. Kept up to date at ingest with the hourly ones.
CREATE TABLE rollup_day (
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  key text NOT NULL,
  bucket integer NOT NULL,
  count integer NOT NULL,
  min double precision NOT NULL,
  max double precision NOT NULL,
  sum double precision NOT NULL,
  first double precision NOT NULL,
  last double precision NOT NULL,
  first_ts double precision NOT NULL,
  last_ts double precision NOT NULL,
  PRIMARY KEY (device_id, key, bucket)
) WITH (fillfactor = 70);
-- A daily row is rewritten by every batch that brings its device a value that day: room left on
-- each page keeps those updates on the page (HOT: no new index entry, old versions pruned in
-- place). The storage benchmark's daily rollups took 1.8 MiB with it, 4.2 MiB without.

-- Existing data: the days follow from the hours.
INSERT INTO rollup_day (device_id, key, bucket, count, min, max, sum, first, last, first_ts, last_ts)
SELECT device_id, key, (bucket / 86400) * 86400, sum(count)::integer, min(min), max(max), sum(sum),
       (array_agg(first ORDER BY first_ts))[1], (array_agg(last ORDER BY last_ts DESC))[1],
       min(first_ts), max(last_ts)
  FROM rollup_hour
 GROUP BY device_id, key, (bucket / 86400) * 86400;

-- The ingest writer's state. While derived rows (rollups, latest values, contact times) are
-- held back to be written together under load, unflushed_since is the receipt time of the
-- oldest record whose derived rows are not yet written; after a crash, start-up rebuilds them
-- from the records received since then. NULL when everything is written.
CREATE TABLE ingest_state (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  unflushed_since timestamptz
);
INSERT INTO ingest_state (id, unflushed_since) VALUES (true, NULL);

-- Start-up finds the records received since unflushed_since through this index: a few pages for
-- millions of records, as records arrive in receipt order.
CREATE INDEX records_received_at_brin ON records USING brin (received_at);
