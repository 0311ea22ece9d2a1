-- The server log read by kind (GET /device/{id}/serverlog?kind=), and the kinds a device's log
-- holds read by a loose index scan (one probe per kind) rather than every line of the device.
CREATE INDEX server_log_device_kind_ts_idx ON server_log (device_id, kind, ts DESC, id DESC);
