-- Failed sign-ins (wrong password or MFA code) per account e-mail and client address, so the
-- slowdown of one client never locks the owner out from another (decisions.md, 'Rate limits').
-- The e-mail is kept whether or not an account has it, so a refusal reveals nothing. An attempt
-- is recorded before its password is checked (the id lets a right one be removed again).
CREATE TABLE sign_in_failures (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL,
  client text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX sign_in_failures_email_created_at_idx ON sign_in_failures (email, created_at);
CREATE INDEX sign_in_failures_created_at_idx ON sign_in_failures (created_at);

-- The per-address sign-in counters these replace.
DELETE FROM auth_attempts WHERE key LIKE 'signin:%';
