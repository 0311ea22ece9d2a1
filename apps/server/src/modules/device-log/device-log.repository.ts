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

export function selectServerLog(
  db: Db,
  deviceId: string,
  limit: number,
): Promise<{ id: number; ts: Date; kind: string; message: string }[]> {
  return db.query(
    `SELECT id, ts, kind, message FROM server_log WHERE device_id = $1 ORDER BY ts DESC, id DESC LIMIT $2`,
    [deviceId, limit],
  );
}
