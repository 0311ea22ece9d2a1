-- Several instances write the same devices' rows (issue 17). The version trigger of migration 018
-- locked each statement's devices in no particular order (SELECT DISTINCT), so two instances'
-- batches over overlapping devices could deadlock on device_data_versions: PostgreSQL breaks a
-- deadlock after deadlock_timeout (a second) by failing one batch, which two instances at load
-- did dozens of times a minute. The devices are now locked in id order; the ingest writer also
-- locks all of a transaction's devices in that order before its first statement
-- (lockDeviceData), so transactions over overlapping devices queue instead.
CREATE OR REPLACE FUNCTION device_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO device_data_versions AS v (device_id, version, xact)
    SELECT DISTINCT device_id, 0, txid_current() FROM new_rows ORDER BY 1
    ON CONFLICT (device_id) DO UPDATE SET version = nextval('device_data_version'), xact = excluded.xact
     WHERE v.xact <> excluded.xact;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO device_data_versions AS v (device_id, version, xact)
    SELECT DISTINCT device_id, 0, txid_current() FROM old_rows ORDER BY 1
    ON CONFLICT (device_id) DO UPDATE SET version = nextval('device_data_version'), xact = excluded.xact
     WHERE v.xact <> excluded.xact;
  ELSE
    INSERT INTO device_data_versions AS v (device_id, version, xact)
    SELECT device_id, 0, txid_current() FROM (SELECT device_id FROM new_rows UNION SELECT device_id FROM old_rows) c
     ORDER BY 1
    ON CONFLICT (device_id) DO UPDATE SET version = nextval('device_data_version'), xact = excluded.xact
     WHERE v.xact <> excluded.xact;
  END IF;
  RETURN NULL;
END
$$;
