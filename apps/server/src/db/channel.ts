/** A channel name Db.listen (LISTEN) takes: a plain identifier, used unquoted. */
export const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
