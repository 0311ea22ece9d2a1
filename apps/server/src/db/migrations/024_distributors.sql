-- Distributors (issue 16; spec 2 section 7 GET/POST/PUT /distributors) and the devices assigned
-- to each, with who assigned them and when (shown in /sqadmin and /sqstats). A device has at most
-- one distributor; unassigning deletes its row (the device's server log keeps the history).

CREATE TABLE distributors (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  contact_email text NOT NULL,
  country text NOT NULL,
  notes text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- The address of who last created or edited it.
  updated_by text NOT NULL
);
CREATE UNIQUE INDEX distributors_name_idx ON distributors (lower(name));

CREATE TABLE distributor_devices (
  device_id text PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  distributor_id integer NOT NULL REFERENCES distributors (id) ON DELETE CASCADE,
  assigned_by text NOT NULL,
  assigned_at timestamptz NOT NULL
);
CREATE INDEX distributor_devices_distributor_idx ON distributor_devices (distributor_id);

