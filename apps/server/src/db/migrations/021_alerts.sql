-- Alerts (issue 14, DESIGN.md section 5 'Alerts'): each device user's subscription, the phone
-- SMS alerts go to (verified by a code), the state that turns readings into crossings and the
-- device into 'gone offline' once, the alerts waiting for their period's digest, every
-- notification sent or refused (one unique row per user, device, channel, period and kind,
-- written before sending: a restart or a second instance never sends it again), the monthly
-- quota used per device and channel, and the unsubscribe links of the e-mails.

CREATE TABLE alert_subscriptions (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  email boolean NOT NULL,
  sms boolean NOT NULL,
  events boolean NOT NULL,
  limits boolean NOT NULL,
  offline boolean NOT NULL,
  schedule integer NOT NULL CHECK (schedule IN (600, 3600, 86400, 2592000)),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, device_id)
);
CREATE INDEX alert_subscriptions_device_idx ON alert_subscriptions (device_id);

-- One row per alert e-mail sent: the sha256 of its link's token (the token is only in the e-mail).
CREATE TABLE alert_unsubscribe_tokens (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL,
  device_id text NOT NULL,
  created_at timestamptz NOT NULL,
  FOREIGN KEY (user_id, device_id) REFERENCES alert_subscriptions (user_id, device_id) ON DELETE CASCADE
);
CREATE INDEX alert_unsubscribe_tokens_subscription_idx ON alert_unsubscribe_tokens (user_id, device_id);

CREATE TABLE alert_phones (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  phone text,
  verified_at timestamptz,
  pending_phone text,
  pending_code_hash text,
  pending_expires_at timestamptz,
  pending_attempts integer NOT NULL DEFAULT 0
);

-- Where each key of a device last stood against its limits (only for devices someone watches).
CREATE TABLE alert_key_states (
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  key text NOT NULL,
  level text NOT NULL CHECK (level IN ('normal', 'warning', 'alarm')),
  ts double precision NOT NULL,
  PRIMARY KEY (device_id, key)
);

-- The last contact (epoch s) a device was last reported offline after: a new contact, then
-- silence again, is a new offline alert; the same silence is never reported twice.
CREATE TABLE alert_offline_states (
  device_id text PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  last_contact double precision NOT NULL,
  alerted_at timestamptz NOT NULL
);

-- Alerts after the first of their period, waiting for the period's digest.
CREATE TABLE alert_pending (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  schedule integer NOT NULL,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  kind text NOT NULL CHECK (kind IN ('event', 'limit', 'offline')),
  ts double precision NOT NULL,
  text text NOT NULL
);
CREATE INDEX alert_pending_due_idx ON alert_pending (period_end);

CREATE TABLE alert_notifications (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  period_start timestamptz NOT NULL,
  kind text NOT NULL CHECK (kind IN ('first', 'digest')),
  status text NOT NULL CHECK (status IN ('sent', 'refused', 'failed')),
  subject text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, device_id, channel, period_start, kind)
);
CREATE INDEX alert_notifications_user_idx ON alert_notifications (user_id, created_at DESC, id DESC);

-- Notifications sent per device, channel and UTC calendar month, counted against the plan's quota.
CREATE TABLE alert_quota_use (
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  month timestamptz NOT NULL,
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  used integer NOT NULL,
  PRIMARY KEY (device_id, month, channel)
);
