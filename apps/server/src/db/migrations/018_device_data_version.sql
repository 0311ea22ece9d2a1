-- A version of everything a device's part of the group data call is read from, so the server can
-- keep each device's part and write again only the parts of devices whose data changed
-- (modules/telemetry/group-data-cache.ts). The version is the device row's xmin (any change of
-- the row: name, notes, firmware, last contact, or the row deleted and made again) with the
-- device's row here, which moves in the same transaction as its latest values, events, event
-- counts, newest messages and rollups. A part read at a committed version is therefore current
-- for as long as that version stays.
--
-- The triggers are on the tables themselves, so every writer (ingest, derived rows, retention,
-- delete and transfer of data) moves the version without knowing of it. A narrow table of its
-- own keeps those updates small and on their page (the devices rows are wide: config documents),
-- and a transaction moves each device's version once (xact): ingest's batch statement touches
-- four of these tables for the same devices, and only the first update writes.
CREATE SEQUENCE device_data_version;

CREATE TABLE device_data_versions (
  device_id text PRIMARY KEY,
  version bigint NOT NULL,
  xact bigint NOT NULL
) WITH (fillfactor = 50);

CREATE FUNCTION device_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO device_data_versions AS v (device_id, version, xact)
    SELECT DISTINCT device_id, 0, txid_current() FROM new_rows
    ON CONFLICT (device_id) DO UPDATE SET version = nextval('device_data_version'), xact = excluded.xact
     WHERE v.xact <> excluded.xact;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO device_data_versions AS v (device_id, version, xact)
    SELECT DISTINCT device_id, 0, txid_current() FROM old_rows
    ON CONFLICT (device_id) DO UPDATE SET version = nextval('device_data_version'), xact = excluded.xact
     WHERE v.xact <> excluded.xact;
  ELSE
    INSERT INTO device_data_versions AS v (device_id, version, xact)
    SELECT device_id, 0, txid_current() FROM (SELECT device_id FROM new_rows UNION SELECT device_id FROM old_rows) c
    ON CONFLICT (device_id) DO UPDATE SET version = nextval('device_data_version'), xact = excluded.xact
     WHERE v.xact <> excluded.xact;
  END IF;
  RETURN NULL;
END
$$;

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['latest', 'events', 'event_hour', 'event_day', 'event_newest', 'rollup_hour', 'rollup_day'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
                      FOR EACH STATEMENT EXECUTE FUNCTION device_data_changed()', t || '_data_version_ins', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
                      FOR EACH STATEMENT EXECUTE FUNCTION device_data_changed()', t || '_data_version_upd', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
                      FOR EACH STATEMENT EXECUTE FUNCTION device_data_changed()', t || '_data_version_del', t);
  END LOOP;
END
$$;
