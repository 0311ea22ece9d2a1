-- Device config (issue 3): when the pending config was first changed, the device script (the
-- one delivered and the one saved for the next contact) with its edit lock, and files pushed to
-- devices (bytes kept here as base64 text; the queued command carries name, size and sha256).

CREATE TABLE device_config_state (
  device_id text PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  -- When the current pending config was first changed (stale once the pending config is taken).
  pending_since timestamptz
);

CREATE TABLE device_scripts (
  device_id text PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  -- Base64 of the script last delivered to the device.
  script text,
  -- Base64 of the script saved for the next contact.
  pending_script text,
  pending_since timestamptz,
  lock_user_id text REFERENCES users (id) ON DELETE SET NULL,
  locked_at timestamptz
);

CREATE TABLE device_files (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  file_name text NOT NULL,
  size integer NOT NULL,
  sha256 text NOT NULL,
  data text NOT NULL,
  created_at timestamptz NOT NULL,
  created_by text,
  UNIQUE (device_id, file_name)
);
