-- The name a device is shown by (the portal name, else config settings.device.name, else the id),
-- kept by the database as the row changes, so reads that name many devices at once (the group
-- data call, GET /group/{groupid}, search) read one short column instead of taking the name out
-- of each device's configuration document (about 15 ms of the group data call for 10,000
-- devices on PostgreSQL). Its twin for one device row is deviceName (devices.summary.ts).
ALTER TABLE devices
  ADD COLUMN display_name text NOT NULL
  GENERATED ALWAYS AS (COALESCE(portal_name, NULLIF(config #>> '{settings,device,name}', ''), id)) STORED;
