/** The roles a user holds on a device, from every source that grants one. */
import type { DeviceRole } from '@portal/core';
import type { Db } from '../../db/db';

/** Every role the user holds on the device: today the direct grant (groups add their rows here). */
export async function findRoles(db: Db, deviceId: string, userId: string): Promise<DeviceRole[]> {
  const rows = await db.query<{ permission: DeviceRole }>(
    'SELECT permission FROM device_users WHERE device_id = $1 AND user_id = $2',
    [deviceId, userId],
  );
  return rows.map((r) => r.permission);
}
