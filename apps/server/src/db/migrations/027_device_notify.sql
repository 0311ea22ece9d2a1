-- Every instance hears at once that a device was added, changed plan or was removed (issue 17):
-- ingest through an external broker caches which devices exist and their plan, and drops what it
-- caches of a device named on the channel 'portal_devices' (delivered after the commit).
CREATE FUNCTION notify_device_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portal_devices', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  RETURN NULL;
END;
$$;

CREATE TRIGGER devices_notify_change
  AFTER INSERT OR DELETE OR UPDATE OF tier, added_ts, trial_reset_ts, trial_reset_state ON devices
  FOR EACH ROW EXECUTE FUNCTION notify_device_change();
