-- One-time recovery codes of multi-factor authentication (docs/decisions.md, 'MFA recovery
-- codes'): a set of 10 is made when MFA is turned on or renewed, and each signs in once in place
-- of the 6-digit code. Only the sha256 of user id and code is kept; a used code's row is deleted
-- by the statement that accepts it, so two uses of one code cannot both succeed.
CREATE TABLE mfa_recovery_codes (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, code_hash)
);
