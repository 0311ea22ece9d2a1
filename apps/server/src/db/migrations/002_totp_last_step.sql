-- TOTP replay protection (RFC 6238 section 5.2): the last time step (unix seconds / 30) whose
-- code was accepted for the user; a code of this or an earlier step is refused. integer holds
-- steps until the year 4011 and reads as a number on both PGlite and pg. 0 = none yet.
ALTER TABLE users ADD COLUMN totp_last_step integer NOT NULL DEFAULT 0;
