-- Request limits shared by every instance (issue 17): one counter per limited route and client
-- address (or API key) and its window's end. Unlogged: a counter lost in a crash only forgives a
-- few requests, and nothing else reads it.
CREATE UNLOGGED TABLE rate_limit_counters (
  key text PRIMARY KEY,
  hits integer NOT NULL,
  reset_at timestamptz NOT NULL
);
CREATE INDEX rate_limit_counters_reset_at_idx ON rate_limit_counters (reset_at);
