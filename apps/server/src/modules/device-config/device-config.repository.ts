/**
 * SQL of device config: the device script as the page reads it and its lock, files for devices.
 * Queuing the pending config and script is the delivery module's.
 */
import type { Db } from '../../db/db';

// ---- script ----------------------------------------------------------------------------------

export interface ScriptRow {
  script: string | null;
  pending_script: string | null;
  pending_since: Date | null;
  lock_user_id: string | null;
  lock_email: string | null;
  locked_at: Date | null;
}

export async function findScript(db: Db, deviceId: string): Promise<ScriptRow | null> {
  const rows = await db.query<ScriptRow>(
    `SELECT s.script, s.pending_script, s.pending_since, s.lock_user_id, u.email AS lock_email, s.locked_at
     FROM device_scripts s LEFT JOIN users u ON u.id = s.lock_user_id WHERE s.device_id = $1`,
    [deviceId],
  );
  return rows[0] ?? null;
}

/** Takes the lock for the user (kept, with its time, when already theirs); false when another user holds it. */
export async function lockScript(db: Db, deviceId: string, userId: string, now: Date): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO device_scripts (device_id, lock_user_id, locked_at) VALUES ($1, $2, $3)
     ON CONFLICT (device_id) DO UPDATE SET lock_user_id = EXCLUDED.lock_user_id,
       locked_at = CASE WHEN device_scripts.lock_user_id = EXCLUDED.lock_user_id THEN device_scripts.locked_at ELSE EXCLUDED.locked_at END
     WHERE device_scripts.lock_user_id IS NULL OR device_scripts.lock_user_id = EXCLUDED.lock_user_id
     RETURNING device_id`,
    [deviceId, userId, now],
  );
  return rows.length === 1;
}

/** Releases the lock held by the user (any holder when userId is null); false when another user holds it. */
export async function unlockScript(db: Db, deviceId: string, userId: string | null): Promise<boolean> {
  const rows = await db.query<{ lock_user_id: string | null }>(
    'SELECT lock_user_id FROM device_scripts WHERE device_id = $1 FOR UPDATE',
    [deviceId],
  );
  const holder = rows[0]?.lock_user_id ?? null;
  if (holder === null) return true;
  if (userId !== null && holder !== userId) return false;
  await db.query(
    'UPDATE device_scripts SET lock_user_id = NULL, locked_at = NULL WHERE device_id = $1 AND lock_user_id = $2',
    [deviceId, holder],
  );
  return true;
}

// ---- files -----------------------------------------------------------------------------------

export interface NewDeviceFile {
  deviceId: string;
  fileName: string;
  size: number;
  sha256: string;
  data: string;
  createdAt: Date;
  createdBy: string;
}

/** Stores a file for a device (replacing one of the same name); returns its id. */
export async function upsertFile(db: Db, f: NewDeviceFile): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO device_files (device_id, file_name, size, sha256, data, created_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (device_id, file_name) DO UPDATE SET size = EXCLUDED.size, sha256 = EXCLUDED.sha256, data = EXCLUDED.data,
       created_at = EXCLUDED.created_at, created_by = EXCLUDED.created_by
     RETURNING id`,
    [f.deviceId, f.fileName, f.size, f.sha256, f.data, f.createdAt, f.createdBy],
  );
  return rows[0]!.id;
}

export async function countFiles(db: Db, deviceId: string): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::integer AS n FROM device_files WHERE device_id = $1', [
    deviceId,
  ]);
  return rows[0]?.n ?? 0;
}
