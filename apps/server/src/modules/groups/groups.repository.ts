/** SQL of groups: the groups, their members, devices, invitations and server log. */
import type { DeviceRole } from '@portal/core';
import type { Db } from '../../db/db';
import { deviceNameSql } from '../../db/device-name';

/** The user's groups by name, each with its level and how many devices it holds. */
export function groupsOfUser(
  db: Db,
  userId: string,
): Promise<{ groupid: string; group_name: string; permission: DeviceRole; device_count: number }[]> {
  return db.query(
    `SELECT g.groupid, g.group_name, m.permission,
            (SELECT count(*)::int FROM group_devices gd WHERE gd.groupid = g.groupid) AS device_count
     FROM group_members m JOIN groups g ON g.groupid = m.groupid
     WHERE m.user_id = $1 ORDER BY lower(g.group_name), g.groupid`,
    [userId],
  );
}

/**
 * The user's groups whose id or name contains `needle` (lower case), at most `limit`: those
 * starting with it first, then by name.
 */
export function searchGroupsOfUser(
  db: Db,
  userId: string,
  needle: string,
  limit: number,
): Promise<{ groupid: string; group_name: string; permission: DeviceRole }[]> {
  return db.query(
    `SELECT g.groupid, g.group_name, m.permission FROM group_members m JOIN groups g ON g.groupid = m.groupid
     WHERE m.user_id = $1 AND (strpos(lower(g.groupid), $2) > 0 OR strpos(lower(g.group_name), $2) > 0)
     ORDER BY (strpos(lower(g.groupid), $2) = 1 OR strpos(lower(g.group_name), $2) = 1) DESC,
              lower(g.group_name), g.groupid
     LIMIT $3`,
    [userId, needle, limit],
  );
}

export async function insertGroup(db: Db, groupid: string, name: string, now: Date): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO groups (groupid, group_name, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING groupid`,
    [groupid, name, now],
  );
  return rows.length === 1;
}

export async function renameGroup(db: Db, groupid: string, name: string): Promise<void> {
  await db.query('UPDATE groups SET group_name = $2 WHERE groupid = $1', [groupid, name]);
}

export async function deleteGroup(db: Db, groupid: string): Promise<void> {
  await db.query('DELETE FROM groups WHERE groupid = $1', [groupid]);
}

// ---- members and invitations ----------------------------------------------------------------

export async function upsertMember(db: Db, groupid: string, userId: string, permission: DeviceRole): Promise<void> {
  await db.query(
    `INSERT INTO group_members (groupid, user_id, permission) VALUES ($1, $2, $3)
     ON CONFLICT (groupid, user_id) DO UPDATE SET permission = EXCLUDED.permission`,
    [groupid, userId, permission],
  );
}

export async function deleteMember(db: Db, groupid: string, userId: string): Promise<void> {
  await db.query('DELETE FROM group_members WHERE groupid = $1 AND user_id = $2', [groupid, userId]);
}

export function listMembers(
  db: Db,
  groupid: string,
): Promise<{ user_id: string; email: string; permission: DeviceRole }[]> {
  return db.query(
    `SELECT m.user_id, u.email, m.permission FROM group_members m JOIN users u ON u.id = m.user_id
     WHERE m.groupid = $1 ORDER BY u.email`,
    [groupid],
  );
}

export function listInvites(db: Db, groupid: string): Promise<{ email: string; permission: DeviceRole }[]> {
  return db.query('SELECT email, permission FROM group_invites WHERE groupid = $1 ORDER BY email', [groupid]);
}

export async function findInvite(db: Db, groupid: string, email: string): Promise<DeviceRole | null> {
  const rows = await db.query<{ permission: DeviceRole }>(
    'SELECT permission FROM group_invites WHERE groupid = $1 AND email = $2',
    [groupid, email],
  );
  return rows[0]?.permission ?? null;
}

export async function upsertInvite(
  db: Db,
  groupid: string,
  email: string,
  permission: DeviceRole,
  invitedBy: string,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO group_invites (groupid, email, permission, invited_by, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (groupid, email) DO UPDATE SET permission = EXCLUDED.permission, invited_by = EXCLUDED.invited_by`,
    [groupid, email, permission, invitedBy, now],
  );
}

export async function deleteInvite(db: Db, groupid: string, email: string): Promise<void> {
  await db.query('DELETE FROM group_invites WHERE groupid = $1 AND email = $2', [groupid, email]);
}

/** Removes and returns the invitations waiting for an address. */
export function takeInvites(db: Db, email: string): Promise<{ groupid: string; permission: DeviceRole }[]> {
  return db.query('DELETE FROM group_invites WHERE email = $1 RETURNING groupid, permission', [email]);
}

/** The account of an address: its id and the brand it signed up under (its mails' links use that brand's host). */
export async function findAccountByEmail(db: Db, email: string): Promise<{ id: string; brand: string } | null> {
  const rows = await db.query<{ id: string; brand: string }>('SELECT id, brand FROM users WHERE email = $1', [email]);
  return rows[0] ?? null;
}

// ---- devices --------------------------------------------------------------------------------

export interface GroupDeviceRow {
  device_id: string;
  name: string;
  fw: string;
  status: string | null;
  asset_type: string | null;
  make: string | null;
  model: string | null;
}

export function listGroupDevices(db: Db, groupid: string): Promise<GroupDeviceRow[]> {
  return db.query(
    `SELECT d.id AS device_id,
            ${deviceNameSql('d')} AS name,
            d.fw, d.notes ->> 'status' AS status, d.notes ->> 'asset_type' AS asset_type,
            d.notes ->> 'make' AS make, d.notes ->> 'model' AS model
     FROM group_devices gd JOIN devices d ON d.id = gd.device_id
     WHERE gd.groupid = $1 ORDER BY d.id`,
    [groupid],
  );
}

/** The ids of the group's devices, in id order (one array: PGlite hands rows across one at a time). */
export async function groupDeviceIds(db: Db, groupid: string): Promise<string[]> {
  // One text rather than an array: 10,000 ids parsed as a text[] took about 20 ms.
  const [row] = await db.query<{ ids: string | null }>(
    `SELECT string_agg(device_id, ',' ORDER BY device_id) AS ids FROM group_devices WHERE groupid = $1`,
    [groupid],
  );
  return row?.ids ? row.ids.split(',') : [];
}

/** Which of the devices are in the group. */
export async function devicesInGroup(db: Db, groupid: string, deviceIds: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ device_id: string }>(
    'SELECT device_id FROM group_devices WHERE groupid = $1 AND device_id = ANY($2::text[])',
    [groupid, deviceIds],
  );
  return rows.map((r) => r.device_id);
}

export async function addDevices(db: Db, groupid: string, deviceIds: readonly string[], now: Date): Promise<void> {
  await db.query(
    `INSERT INTO group_devices (groupid, device_id, created_at)
     SELECT $1, id, $3 FROM unnest($2::text[]) AS id ON CONFLICT DO NOTHING`,
    [groupid, deviceIds, now],
  );
}

export async function removeDevices(db: Db, groupid: string, deviceIds: readonly string[]): Promise<void> {
  await db.query('DELETE FROM group_devices WHERE groupid = $1 AND device_id = ANY($2::text[])', [groupid, deviceIds]);
}

/** A member of one of a device's groups, with the group. */
export interface DeviceGroupMember {
  user_id: string;
  email: string;
  permission: DeviceRole;
  groupid: string;
  group_name: string;
}

/** Every member of every group holding the device, with the group and the member's level. */
export function deviceGroupMembers(db: Db, deviceId: string): Promise<DeviceGroupMember[]> {
  return db.query(
    `SELECT m.user_id, u.email, m.permission, gd.groupid, g.group_name
     FROM group_devices gd JOIN group_members m ON m.groupid = gd.groupid JOIN users u ON u.id = m.user_id
       JOIN groups g ON g.groupid = gd.groupid
     WHERE gd.device_id = $1 ORDER BY u.email, gd.groupid`,
    [deviceId],
  );
}

// ---- server log -----------------------------------------------------------------------------

export async function insertLog(db: Db, groupid: string, actor: string, message: string, now: Date): Promise<void> {
  await db.query('INSERT INTO group_log (groupid, ts, actor, message) VALUES ($1, $2, $3, $4)', [
    groupid,
    now,
    actor,
    message,
  ]);
}

export function selectLog(
  db: Db,
  groupid: string,
  limit: number,
): Promise<{ id: number; ts: Date; actor: string; message: string }[]> {
  return db.query('SELECT id, ts, actor, message FROM group_log WHERE groupid = $1 ORDER BY id DESC LIMIT $2', [
    groupid,
    limit,
  ]);
}
