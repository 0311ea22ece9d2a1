-- The primary key (device_id, ts) already serves newest-first reads by a backward index scan;
-- the second index on the same columns only cost write time and about 8% of the records' space
-- (measured by the storage and ingest benchmarks).
DROP INDEX IF EXISTS records_device_ts_desc_idx;
