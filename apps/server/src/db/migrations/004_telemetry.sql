-- Telemetry (issue 3): device records, latest values, events, diagnostics, hourly rollups,
-- the per-device server log and the command queue. Record times are epoch seconds
-- (double precision); no bigint.

-- One row per record; a resent record (same device and ts) is stored once.
CREATE TABLE records (
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  ts double precision NOT NULL,
  received_at timestamptz NOT NULL,
  data jsonb NOT NULL,
  PRIMARY KEY (device_id, ts)
);
CREATE INDEX records_device_ts_desc_idx ON records (device_id, ts DESC);

-- The newest value of every key of a device.
CREATE TABLE latest (
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  key text NOT NULL,
  value jsonb NOT NULL,
  ts double precision NOT NULL,
  PRIMARY KEY (device_id, key)
);

CREATE TABLE events (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  ts double precision NOT NULL,
  topic text,
  msg text NOT NULL,
  lv integer,
  severity text
);
CREATE INDEX events_device_ts_desc_idx ON events (device_id, ts DESC);

CREATE TABLE diagnostics (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  ts double precision NOT NULL,
  data jsonb NOT NULL
);
CREATE INDEX diagnostics_device_ts_desc_idx ON diagnostics (device_id, ts DESC);

-- Hourly aggregates of numeric keys, kept up to date at ingest (bucket = floor(ts/3600)*3600).
CREATE TABLE rollup_hour (
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
);

-- What happened to a device as the server saw it: connections, refusals, dropped keys.
CREATE TABLE server_log (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  ts timestamptz NOT NULL,
  kind text NOT NULL,
  message text NOT NULL
);
CREATE INDEX server_log_device_ts_desc_idx ON server_log (device_id, ts DESC);

-- Commands queued for a device (POST /device/{id}/rpc), delivered on its next contact.
CREATE TABLE commands (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  method text NOT NULL,
  args jsonb,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'delivered', 'cancelled', 'expired')),
  created_at timestamptz NOT NULL,
  sent_at timestamptz,
  acked_at timestamptz,
  created_by text
);
CREATE INDEX commands_device_created_desc_idx ON commands (device_id, created_at DESC);
CREATE INDEX commands_device_pending_idx ON commands (device_id) WHERE state IN ('queued', 'sent');
