-- A data point carries how its record came and when the portal received it (CARD-28: source and
-- aws_ts; received_at is already kept): records keep their source (mqtt, http or import; NULL for
-- records stored before this). Events keep the name a device gives them (CARD-27).
-- Nullable columns without a default: added without rewriting the tables; the check is NOT VALID, so
-- it holds for every new row without reading the existing ones (all NULL) under the table's lock.
ALTER TABLE records ADD COLUMN source text;
ALTER TABLE records ADD CONSTRAINT records_source_check CHECK (source IN ('mqtt', 'http', 'import')) NOT VALID;
ALTER TABLE events ADD COLUMN name text;
