/** The virtual_devices table: who created each virtual device (the per-user cap counts these rows). */
import type { Db } from '../../db/db';

/** Locks the creator's row and counts the virtual devices they created (in a transaction). */
export async function lockAndCount(tx: Db, userId: string): Promise<number> {
  await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
  const [row] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM virtual_devices WHERE created_by = $1', [
    userId,
  ]);
  return row?.n ?? 0;
}

export async function insertVirtualDevice(tx: Db, deviceId: string, userId: string, now: Date): Promise<void> {
  await tx.query('INSERT INTO virtual_devices (device_id, created_by, created_at) VALUES ($1, $2, $3)', [
    deviceId,
    userId,
    now,
  ]);
}
