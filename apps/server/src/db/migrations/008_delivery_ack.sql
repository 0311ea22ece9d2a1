-- Device acknowledgements (issue 3). The pending config and the saved script are sent with a
-- version and stay pending until the device acknowledges that version; a change made while a
-- version is in flight bumps the version (it is sent next). Commands not acknowledged within
-- COMMAND_EXPIRY_S of being queued become 'expired'.

ALTER TABLE devices
  -- Version of the pending config: bumped by every change merged into it, never reused.
  ADD COLUMN config_version integer NOT NULL DEFAULT 0,
  -- The last version the device acknowledged.
  ADD COLUMN applied_config_version integer NOT NULL DEFAULT 0,
  -- What was last sent (the pending config as it was then) and when; applied on its acknowledgement.
  ADD COLUMN sent_config jsonb,
  ADD COLUMN sent_config_version integer,
  ADD COLUMN config_sent_at timestamptz;
UPDATE devices SET config_version = 1 WHERE pending_config IS NOT NULL;

ALTER TABLE device_scripts
  ADD COLUMN pending_version integer NOT NULL DEFAULT 0,
  ADD COLUMN applied_version integer NOT NULL DEFAULT 0,
  ADD COLUMN sent_script text,
  ADD COLUMN sent_version integer,
  ADD COLUMN sent_at timestamptz;
UPDATE device_scripts SET pending_version = 1 WHERE pending_script IS NOT NULL;

-- The expiry sweep reads unacknowledged commands by age.
CREATE INDEX commands_unacked_created_idx ON commands (created_at) WHERE state IN ('queued', 'sent');
