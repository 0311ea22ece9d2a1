-- Accounts and sign-in (issue 2). Column types are chosen so PGlite and pg return the same
-- JavaScript values: timestamptz -> Date, integer -> number, text[] -> string[]; no bigint.

CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  email_verified boolean NOT NULL DEFAULT false,
  marketing_opt_in boolean NOT NULL DEFAULT false,
  phone text,
  mfa_type text NOT NULL DEFAULT 'NONE' CHECK (mfa_type IN ('NONE', 'TOTP', 'SMS')),
  totp_secret text,
  totp_pending_secret text,
  -- An SMS enrolment in progress: the number, the hashed code sent to it, its expiry and wrong tries.
  sms_pending_phone text,
  sms_pending_code_hash text,
  sms_pending_expires_at timestamptz,
  sms_pending_attempts integer NOT NULL DEFAULT 0,
  user_groups text[] NOT NULL DEFAULT '{}',
  brand_image_url text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

CREATE TABLE auth_challenges (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('SOFTWARE_TOKEN_MFA', 'SMS_MFA')),
  code_hash text,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX auth_challenges_user_id_idx ON auth_challenges (user_id);
CREATE INDEX auth_challenges_expires_at_idx ON auth_challenges (expires_at);

CREATE TABLE user_codes (
  code_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('verify', 'reset')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX user_codes_user_id_idx ON user_codes (user_id);

-- Per-address attempt counters (failed sign-ins, reset requests) over a sliding window.
CREATE TABLE auth_attempts (
  key text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX auth_attempts_key_created_at_idx ON auth_attempts (key, created_at);

-- Mail and SMS kept when no SMTP server is configured (and every SMS of the built-in sender).
CREATE TABLE outbox (
  id serial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('mail', 'sms')),
  recipient text NOT NULL,
  subject text NOT NULL DEFAULT '',
  body text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE groups (
  groupid text PRIMARY KEY,
  group_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE group_members (
  groupid text NOT NULL REFERENCES groups (groupid) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  permission text NOT NULL CHECK (permission IN ('ADMIN', 'USER', 'OPERATOR', 'VIEW')),
  PRIMARY KEY (groupid, user_id)
);
CREATE INDEX group_members_user_id_idx ON group_members (user_id);
