-- Numbers beyond +-(2^53 - 1) are no longer stored (core VALUE_MAX: ingest and import drop such a
-- value and keep the rest of the record), so no sum over a device's values can overflow. Rollup
-- rows holding such a value, stored before the rule, are rebuilt here from their records without
-- it (the reads leave such values out of the records too: telemetry.repository STORED_NUMBER).
-- A database without them, as every new one, does nothing here.
CREATE TEMP TABLE extreme_hours ON COMMIT DROP AS
  SELECT DISTINCT device_id, bucket FROM rollup_hour
   WHERE abs(min) > 9007199254740991 OR abs(max) > 9007199254740991 OR abs(sum) > 1e300;

DELETE FROM rollup_hour r USING extreme_hours x WHERE r.device_id = x.device_id AND r.bucket = x.bucket;

INSERT INTO rollup_hour (device_id, key, bucket, count, min, max, sum, first, last, first_ts, last_ts)
SELECT device_id, key, bucket, count(*)::integer, min(v), max(v), sum(v),
       (array_agg(v ORDER BY ts))[1], (array_agg(v ORDER BY ts DESC))[1], min(ts), max(ts)
  FROM (SELECT x.device_id, e.key, x.bucket, r.ts, (e.value)::text::double precision AS v
          FROM extreme_hours x
          JOIN records r ON r.device_id = x.device_id AND r.ts >= x.bucket AND r.ts < x.bucket + 3600
          CROSS JOIN LATERAL jsonb_each(r.data) AS e(key, value)
         WHERE e.key <> 'ts' AND jsonb_typeof(e.value) = 'number'
           AND abs((e.value)::text::double precision) <= 9007199254740991) v
 GROUP BY device_id, key, bucket;

CREATE TEMP TABLE extreme_days ON COMMIT DROP AS
  SELECT DISTINCT device_id, (bucket / 86400 * 86400)::integer AS bucket FROM extreme_hours;

DELETE FROM rollup_day r USING extreme_days d WHERE r.device_id = d.device_id AND r.bucket = d.bucket;

INSERT INTO rollup_day (device_id, key, bucket, count, min, max, sum, first, last, first_ts, last_ts)
SELECT d.device_id, h.key, d.bucket, sum(h.count)::integer, min(h.min), max(h.max), sum(h.sum),
       (array_agg(h.first ORDER BY h.first_ts))[1], (array_agg(h.last ORDER BY h.last_ts DESC))[1],
       min(h.first_ts), max(h.last_ts)
  FROM extreme_days d
  JOIN rollup_hour h ON h.device_id = d.device_id AND h.bucket >= d.bucket AND h.bucket < d.bucket + 86400
 GROUP BY d.device_id, h.key, d.bucket;
