-- Failed sign-ins are also counted per client address for every account together (the ceiling
-- of one address, decisions.md 'Rate limits'): the attempt's judgement reads them by client.
CREATE INDEX sign_in_failures_client_created_at_idx ON sign_in_failures (client, created_at);
