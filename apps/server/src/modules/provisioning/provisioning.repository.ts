/** SQL of provisioning: the devices labels print, and the provisioning log (its lines and label downloads). */
import type { Db } from '../../db/db';

export interface LabelDeviceRow {
  id: string;
  model: string;
  fw: string;
  setup_password: string;
  /** The brand the device was provisioned for: its label's QR code opens that brand's host. */
  brand: string;
}

/** The devices among `ids` that exist (any order). */
export async function findLabelDevices(db: Db, ids: readonly string[]): Promise<LabelDeviceRow[]> {
  if (ids.length === 0) return [];
  const placeholders = ids.map((_, i) => `$${i + 1}`).join(', ');
  return db.query<LabelDeviceRow>(
    `SELECT id, model, fw, setup_password, brand FROM devices WHERE id IN (${placeholders})`,
    [...ids],
  );
}

/** One provisioning-log line per device, all with the same message, author and time. */
export async function insertProvLogLines(
  db: Db,
  ids: readonly string[],
  message: string,
  author: string | null,
  now: Date,
): Promise<void> {
  if (ids.length === 0) return;
  const rows = ids.map((_, i) => `($${i + 4}, $1, $2, $3)`).join(', ');
  await db.query(`INSERT INTO prov_log (device_id, message, author, created_at) VALUES ${rows}`, [
    message,
    author,
    now,
    ...ids,
  ]);
}

/** A device's provisioning log, oldest first. */
export async function listProvLog(
  db: Db,
  deviceId: string,
): Promise<{ id: number; message: string; author: string | null; created_at: Date }[]> {
  return db.query('SELECT id, message, author, created_at FROM prov_log WHERE device_id = $1 ORDER BY id', [deviceId]);
}
