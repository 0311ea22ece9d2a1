-- Devices (issue 3): provisioned devices, their users, invitations, claim attempts and the
-- provisioning log. Record times are epoch seconds (double precision); no bigint.

CREATE TABLE devices (
  id text PRIMARY KEY,
  model text NOT NULL,
  family text NOT NULL,
  fw text NOT NULL,
  -- sha256 (hex) of the device key (base64url of 32 random bytes); the key itself is shown once.
  key_hash text NOT NULL,
  -- Printed on the label; kept readable because POST /device/{id}/passwords returns it to an ADMIN.
  setup_password text NOT NULL,
  tier text NOT NULL DEFAULT 'TRIAL',
  added_ts double precision,
  trial_reset_ts double precision,
  trial_reset_state text NOT NULL DEFAULT 'available' CHECK (trial_reset_state IN ('available', 'active', 'used')),
  add_without_pass text NOT NULL DEFAULT 'INACTIVE' CHECK (add_without_pass IN ('INACTIVE', 'ADMIN')),
  portal_name text,
  notes jsonb NOT NULL DEFAULT '{}'::jsonb,
  display_settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  config jsonb NOT NULL DEFAULT '{}'::jsonb,
  pending_config jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_contact double precision
);

-- Direct grants of a device role to a user.
CREATE TABLE device_users (
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  permission text NOT NULL CHECK (permission IN ('ADMIN', 'USER', 'OPERATOR', 'VIEW')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (device_id, user_id)
);
CREATE INDEX device_users_user_id_idx ON device_users (user_id);

-- Grants to addresses without an account yet; applied when the address signs up.
CREATE TABLE device_invites (
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  email text NOT NULL,
  permission text NOT NULL CHECK (permission IN ('ADMIN', 'USER', 'OPERATOR', 'VIEW')),
  invited_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (device_id, email)
);
CREATE INDEX device_invites_email_idx ON device_invites (email);

-- Wrong setup passwords per device id (known or not) over a sliding window.
CREATE TABLE device_claim_attempts (
  device_id text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX device_claim_attempts_device_created_idx ON device_claim_attempts (device_id, created_at);

-- The provisioning log of a device (GET/POST /prov-portal-*-device-log).
CREATE TABLE prov_log (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  message text NOT NULL,
  author text,
  created_at timestamptz NOT NULL
);
CREATE INDEX prov_log_device_idx ON prov_log (device_id, id);
