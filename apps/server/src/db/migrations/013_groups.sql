-- Groups (issue 12): the devices of each group, invitations to addresses without an account
-- yet, and the group's server log. groups and group_members exist since 001.

CREATE TABLE group_devices (
  groupid text NOT NULL REFERENCES groups (groupid) ON DELETE CASCADE,
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (groupid, device_id)
);
-- The access gate looks up a device's groups.
CREATE INDEX group_devices_device_id_idx ON group_devices (device_id);

-- Memberships offered to addresses without an account; applied when the address signs up.
CREATE TABLE group_invites (
  groupid text NOT NULL REFERENCES groups (groupid) ON DELETE CASCADE,
  email text NOT NULL,
  permission text NOT NULL CHECK (permission IN ('ADMIN', 'USER', 'OPERATOR', 'VIEW')),
  invited_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (groupid, email)
);
CREATE INDEX group_invites_email_idx ON group_invites (email);

-- Every change to a group, with the address of who made it.
CREATE TABLE group_log (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  groupid text NOT NULL REFERENCES groups (groupid) ON DELETE CASCADE,
  ts timestamptz NOT NULL,
  actor text NOT NULL,
  message text NOT NULL
);
CREATE INDEX group_log_groupid_idx ON group_log (groupid, id);
