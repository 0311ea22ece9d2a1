/** The request-limit counters (migration 026): one row per limited route and client, in the database's time. */
import type { Db } from '../db/db';

/**
 * Counts a hit of `key`: a new window of `windowMs` when there is none or the last one ended.
 * Answers the hits in the window so far and the milliseconds it still runs.
 */
export async function hit(db: Db, key: string, windowMs: number): Promise<{ hits: number; ttlMs: number }> {
  const rows = await db.query<{ hits: number; ttl_ms: number }>(
    `INSERT INTO rate_limit_counters AS c (key, hits, reset_at)
     VALUES ($1, 1, now() + make_interval(secs => $2::float8 / 1000))
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN c.reset_at <= now() THEN 1 ELSE c.hits + 1 END,
       reset_at = CASE WHEN c.reset_at <= now() THEN EXCLUDED.reset_at ELSE c.reset_at END
     RETURNING hits, GREATEST(0, CEIL(EXTRACT(EPOCH FROM (reset_at - now())) * 1000))::float8 AS ttl_ms`,
    [key, windowMs],
  );
  const row = rows[0]!;
  return { hits: row.hits, ttlMs: row.ttl_ms };
}

/** Forgets the counters whose window ended. */
export async function sweepEnded(db: Db): Promise<void> {
  await db.query('DELETE FROM rate_limit_counters WHERE reset_at < now()');
}
