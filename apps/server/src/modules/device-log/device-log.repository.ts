/** SQL of the device's server log: what the server did with and for each device. */
import type { Db } from '../../db/db';

export interface ServerLogRow {
  device_id: string;
  ts: string;
  kind: string;
  message: string;
}

export async function insertServerLog(db: Db, rows: ServerLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO server_log (device_id, ts, kind, message)
     SELECT device_id, ts, kind, message FROM jsonb_to_recordset($1::jsonb) AS x(device_id text, ts timestamptz, kind text, message text)`,
    [JSON.stringify(rows)],
  );
}

/**
 * The newest `limit` lines of a device, newest first (by time, then id): only those of `kind`
 * when given, and only those after the line `before` in that order (the next page) when given; a
 * `before` that is not a line of this device gives none.
 */
export function selectServerLog(
  db: Db,
  deviceId: string,
  limit: number,
  options: { kind?: string; before?: number } = {},
): Promise<{ id: number; ts: Date; kind: string; message: string }[]> {
  return db.query(
    `SELECT id, ts, kind, message FROM server_log
      WHERE device_id = $1
        AND ($3::text IS NULL OR kind = $3)
        AND ($4::integer IS NULL OR (ts, id) < (SELECT ts, id FROM server_log WHERE id = $4 AND device_id = $1))
      ORDER BY ts DESC, id DESC LIMIT $2`,
    [deviceId, limit, options.kind ?? null, options.before ?? null],
  );
}

/** The kinds of a device's lines, in order: one index probe per kind (server_log_device_kind_ts_idx). */
export async function selectServerLogKinds(db: Db, deviceId: string): Promise<string[]> {
  const rows = await db.query<{ kind: string }>(
    `WITH RECURSIVE k AS (
       SELECT min(kind) AS kind FROM server_log WHERE device_id = $1
       UNION ALL
       SELECT (SELECT min(kind) FROM server_log WHERE device_id = $1 AND kind > k.kind) FROM k WHERE k.kind IS NOT NULL
     )
     SELECT kind FROM k WHERE kind IS NOT NULL`,
    [deviceId],
  );
  return rows.map((r) => r.kind);
}
