/** The roles a user holds on a device, from every source that grants one, and a member's level in a group. */
import type { DeviceRole } from '@portal/core';
import type { Db } from '../../db/db';
import { deviceNameSql } from '../../db/device-name';

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

/**
 * The devices the user holds any role on (a direct grant, or a group holding the device) whose
 * id or name contains `needle` (lower case), at most `limit`: those whose id or name starts with
 * it first, then by name. The name is the one the device calls show (portal name, else the
 * configured name, else the id).
 */
export function searchDevices(
  db: Db,
  userId: string,
  needle: string,
  limit: number,
): Promise<{ deviceid: string; name: string }[]> {
  return db.query(
    `WITH mine AS (
       SELECT device_id FROM device_users WHERE user_id = $1
       UNION
       SELECT gd.device_id FROM group_members m JOIN group_devices gd ON gd.groupid = m.groupid WHERE m.user_id = $1
     ), named AS (
       SELECT d.id, ${deviceNameSql('d')} AS name
         FROM mine JOIN devices d ON d.id = mine.device_id
     )
     SELECT id AS deviceid, name FROM named
      WHERE strpos(lower(id), $2) > 0 OR strpos(lower(name), $2) > 0
      ORDER BY (strpos(lower(id), $2) = 1 OR strpos(lower(name), $2) = 1) DESC, lower(name), id
      LIMIT $3`,
    [userId, needle, limit],
  );
}

/** A page of home's devices not in a group, and how many there are in all. */
export interface UngroupedDevicesPage {
  total: number;
  devices: { deviceid: string; name: string; type: string; ts: number | null }[];
}

/**
 * A page of the devices the user holds a direct grant on that none of the user's groups holds
 * (home's list of devices not in a group), by name then id, and how many there are in all.
 */
export async function ungroupedDevices(
  db: Db,
  userId: string,
  limit: number,
  offset: number,
): Promise<UngroupedDevicesPage> {
  const mine = `FROM device_users du JOIN devices d ON d.id = du.device_id
     WHERE du.user_id = $1
       AND NOT EXISTS (SELECT 1 FROM group_devices gd JOIN group_members m ON m.groupid = gd.groupid AND m.user_id = $1
                        WHERE gd.device_id = du.device_id)`;
  const rows = await db.query<{ deviceid: string; name: string; type: string; ts: number | null; total: string }>(
    `SELECT d.id AS deviceid, ${deviceNameSql('d')} AS name, coalesce(d.notes ->> 'asset_type', '') AS type,
            d.last_contact AS ts, count(*) OVER () AS total
     ${mine}
     ORDER BY lower(${deviceNameSql('d')}), d.id
     LIMIT $2 OFFSET $3`,
    [userId, limit, offset],
  );
  // A page past the end has no row to carry the count.
  const total =
    rows.length > 0
      ? Number(rows[0]!.total)
      : offset > 0
        ? Number((await db.query<{ n: string }>(`SELECT count(*) AS n ${mine}`, [userId]))[0]?.n ?? 0)
        : 0;
  return { total, devices: rows.map(({ total: _total, ...device }) => device) };
}

/** What a device's plan is decided from (devicePlan): its tier and when it was first added. */
export async function findDevicePlan(
  db: Db,
  deviceId: string,
): Promise<{ tier: string; added_ts: number | null } | null> {
  const rows = await db.query<{ tier: string; added_ts: number | null }>(
    'SELECT tier, added_ts FROM devices WHERE id = $1',
    [deviceId],
  );
  return rows[0] ?? null;
}

/** The group and the user's level in it, or null when the user is not a member (or no such group). */
export async function findMembership(
  db: Db,
  groupid: string,
  userId: string,
  lock = false,
): Promise<{ group_name: string; permission: DeviceRole } | null> {
  const rows = await db.query<{ group_name: string; permission: DeviceRole }>(
    `SELECT g.group_name, m.permission FROM groups g JOIN group_members m ON m.groupid = g.groupid
     WHERE g.groupid = $1 AND m.user_id = $2${lock ? ' FOR UPDATE OF g' : ''}`,
    [groupid, userId],
  );
  return rows[0] ?? null;
}
