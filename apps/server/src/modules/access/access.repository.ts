/** The roles a user holds on a device, from every source that grants one. */
import type { DeviceRole } from '@portal/core';
import type { Db } from '../../db/db';

/**
 * Every role the user holds on the device: the direct grant, and the member level of every group
 * the device is in (a group member's level applies to each of its devices).
 */
export async function findRoles(db: Db, deviceId: string, userId: string): Promise<DeviceRole[]> {
  const rows = await db.query<{ permission: DeviceRole }>(
    `SELECT permission FROM device_users WHERE device_id = $1 AND user_id = $2
     UNION ALL
     SELECT m.permission FROM group_devices gd JOIN group_members m ON m.groupid = gd.groupid
     WHERE gd.device_id = $1 AND m.user_id = $2`,
    [deviceId, userId],
  );
  return rows.map((r) => r.permission);
}
