-- API credentials (issue 16, DESIGN.md section 5): bearer keys that act as their user. Only the
-- sha256 of a key is stored (a key is 32 random bytes, so a fast hash cannot be brute-forced; see
-- docs/decisions.md); `hint` keeps its first characters so the owner can tell keys apart.
CREATE TABLE api_credentials (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  access text NOT NULL CHECK (access IN ('read-only', 'read-write')),
  key_hash text NOT NULL UNIQUE,
  hint text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX api_credentials_user_id_idx ON api_credentials (user_id, created_at);

-- Virtual devices ('0-' + 7) and who created them: the per-user cap counts these rows, so handing
-- a device on does not make room for more.
CREATE TABLE virtual_devices (
  device_id text PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  created_by text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL
);
CREATE INDEX virtual_devices_created_by_idx ON virtual_devices (created_by);
