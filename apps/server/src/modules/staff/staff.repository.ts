/**
 * SQL of the staff pages: distributors and their devices, finding any device or user, the
 * dossiers of a device and of a user, and the device and ingest figures of the statistics.
 * Times leave as Date (timestamptz) or epoch seconds (double precision), as stored.
 */
import type { DeviceRole } from '@portal/core';
import type { Db } from '../../db/db';
import { deviceNameSql } from '../../db/device-name';

// ---- Distributors ----------------------------------------------------------------------------

export interface DistributorRow {
  id: number;
  name: string;
  contact_email: string;
  country: string;
  notes: string;
  created_at: Date;
  updated_at: Date;
  updated_by: string;
  device_count: number;
}

export interface DistributorFields {
  name: string;
  contactEmail: string;
  country: string;
  notes: string;
}

const DISTRIBUTOR_SELECT = `SELECT d.id, d.name, d.contact_email, d.country, d.notes, d.created_at, d.updated_at, d.updated_by,
         (SELECT count(*)::integer FROM distributor_devices dd WHERE dd.distributor_id = d.id) AS device_count
    FROM distributors d`;

export function listDistributors(db: Db): Promise<DistributorRow[]> {
  return db.query(`${DISTRIBUTOR_SELECT} ORDER BY lower(d.name), d.id`);
}

export async function findDistributor(db: Db, id: number): Promise<DistributorRow | null> {
  const rows = await db.query<DistributorRow>(`${DISTRIBUTOR_SELECT} WHERE d.id = $1`, [id]);
  return rows[0] ?? null;
}

/** A new distributor's id; throws a unique violation when the name is taken (any case). */
export async function insertDistributor(db: Db, fields: DistributorFields, by: string, at: Date): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO distributors (name, contact_email, country, notes, created_at, updated_at, updated_by)
     VALUES ($1, $2, $3, $4, $5, $5, $6) RETURNING id`,
    [fields.name, fields.contactEmail, fields.country, fields.notes, at, by],
  );
  return rows[0]!.id;
}

/** True when the distributor exists (and was changed); throws a unique violation when the name is taken. */
export async function updateDistributor(
  db: Db,
  id: number,
  fields: DistributorFields,
  by: string,
  at: Date,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE distributors SET name = $2, contact_email = $3, country = $4, notes = $5, updated_at = $6, updated_by = $7
      WHERE id = $1 RETURNING id`,
    [id, fields.name, fields.contactEmail, fields.country, fields.notes, at, by],
  );
  return rows.length > 0;
}

/** The ids of the list that are devices. */
export async function existingDeviceIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const rows = await db.query<{ id: string }>('SELECT id FROM devices WHERE id = ANY($1::text[])', [ids]);
  return new Set(rows.map((r) => r.id));
}

/** Assigns the devices to the distributor (replacing any earlier one), recording who and when. */
export async function assignDevices(
  db: Db,
  ids: readonly string[],
  distributorId: number,
  by: string,
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO distributor_devices (device_id, distributor_id, assigned_by, assigned_at)
     SELECT id, $2, $3, $4 FROM unnest($1::text[]) AS id
     ON CONFLICT (device_id) DO UPDATE
        SET distributor_id = excluded.distributor_id, assigned_by = excluded.assigned_by, assigned_at = excluded.assigned_at`,
    [ids, distributorId, by, at],
  );
}

export async function unassignDevices(db: Db, ids: readonly string[]): Promise<void> {
  await db.query('DELETE FROM distributor_devices WHERE device_id = ANY($1::text[])', [ids]);
}

// ---- Search ----------------------------------------------------------------------------------

/** A device as the staff pages list it. */
interface DeviceSummaryRow {
  id: string;
  name: string;
  model: string;
  tier: string;
  added_ts: number | null;
  last_contact: number | null;
}

export interface DeviceHitRow extends DeviceSummaryRow {
  distributor: string | null;
}

/**
 * Devices whose id starts with `idPrefix` (upper case) or whose name contains `needle` (lower
 * case), id matches first, then by id; at most `limit`.
 */
export function searchDevices(db: Db, idPrefix: string, needle: string, limit: number): Promise<DeviceHitRow[]> {
  return db.query(
    `SELECT d.id, ${deviceNameSql('d')} AS name, d.model, d.tier, d.added_ts, d.last_contact, ds.name AS distributor
       FROM devices d
       LEFT JOIN distributor_devices dd ON dd.device_id = d.id
       LEFT JOIN distributors ds ON ds.id = dd.distributor_id
      WHERE left(d.id, length($1)) = $1 OR strpos(lower(${deviceNameSql('d')}), $2) > 0
      ORDER BY (left(d.id, length($1)) = $1) DESC, d.id
      LIMIT $3`,
    [idPrefix, needle, limit],
  );
}

export interface UserHitRow {
  id: string;
  email: string;
  user_groups: string[];
  device_count: number;
}

/** Users whose address contains `needle` (lower case): those starting with it first, then by address. */
export function searchUsers(db: Db, needle: string, limit: number): Promise<UserHitRow[]> {
  return db.query(
    `SELECT u.id, u.email, u.user_groups,
            (SELECT count(*)::integer FROM device_users du WHERE du.user_id = u.id) AS device_count
       FROM users u
      WHERE strpos(lower(u.email), $1) > 0
      ORDER BY (strpos(lower(u.email), $1) = 1) DESC, u.email
      LIMIT $2`,
    [needle, limit],
  );
}

// ---- Device dossier --------------------------------------------------------------------------

export interface StaffDeviceRow {
  id: string;
  name: string;
  model: string;
  family: string;
  fw: string;
  tier: string;
  added_ts: number | null;
  trial_reset_state: 'available' | 'active' | 'used';
  add_without_pass: 'INACTIVE' | 'ADMIN';
  created_at: Date;
  last_contact: number | null;
}

export async function findDevice(db: Db, id: string): Promise<StaffDeviceRow | null> {
  const rows = await db.query<StaffDeviceRow>(
    `SELECT id, ${deviceNameSql('d')} AS name, model, family, fw, tier, added_ts, trial_reset_state, add_without_pass,
            created_at, last_contact
       FROM devices d WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export interface DeviceGrantRow {
  user_id: string;
  email: string;
  role: DeviceRole;
  groupid: string | null;
  group_name: string | null;
}

/** Every role a user holds on the device: direct grants (groupid null) and group memberships. */
export function deviceGrants(db: Db, deviceId: string): Promise<DeviceGrantRow[]> {
  return db.query(
    `SELECT du.user_id, u.email, du.permission AS role, NULL::text AS groupid, NULL::text AS group_name
       FROM device_users du JOIN users u ON u.id = du.user_id
      WHERE du.device_id = $1
     UNION ALL
     SELECT m.user_id, u.email, m.permission AS role, g.groupid, g.group_name
       FROM group_devices gd
       JOIN groups g ON g.groupid = gd.groupid
       JOIN group_members m ON m.groupid = gd.groupid
       JOIN users u ON u.id = m.user_id
      WHERE gd.device_id = $1
      ORDER BY email, groupid NULLS FIRST`,
    [deviceId],
  );
}

export function deviceGroups(
  db: Db,
  deviceId: string,
): Promise<{ groupid: string; group_name: string; members: number }[]> {
  return db.query(
    `SELECT g.groupid, g.group_name,
            (SELECT count(*)::integer FROM group_members m WHERE m.groupid = g.groupid) AS members
       FROM group_devices gd JOIN groups g ON g.groupid = gd.groupid
      WHERE gd.device_id = $1
      ORDER BY lower(g.group_name), g.groupid`,
    [deviceId],
  );
}

export async function deviceDistributor(
  db: Db,
  deviceId: string,
): Promise<{ id: number; name: string; assigned_by: string; assigned_at: Date } | null> {
  const rows = await db.query<{ id: number; name: string; assigned_by: string; assigned_at: Date }>(
    `SELECT ds.id, ds.name, dd.assigned_by, dd.assigned_at
       FROM distributor_devices dd JOIN distributors ds ON ds.id = dd.distributor_id
      WHERE dd.device_id = $1`,
    [deviceId],
  );
  return rows[0] ?? null;
}

// ---- User dossier ----------------------------------------------------------------------------

export interface StaffUserRow {
  id: string;
  email: string;
  email_verified: boolean;
  user_groups: string[];
  mfa_type: string;
  created_at: Date;
  /** The customer sub-brand logo's address (BRD-13), or null. */
  brand_image_url: string | null;
}

export async function findUser(db: Db, userId: string): Promise<StaffUserRow | null> {
  const rows = await db.query<StaffUserRow>(
    'SELECT id, email, email_verified, user_groups, mfa_type, created_at, brand_image_url FROM users WHERE id = $1',
    [userId],
  );
  return rows[0] ?? null;
}

export interface UserDeviceRow extends DeviceSummaryRow {
  role: DeviceRole;
}

/** Every role the user holds on each device (direct and through groups); one row per grant. */
export function userDeviceGrants(db: Db, userId: string): Promise<UserDeviceRow[]> {
  return db.query(
    `WITH grants AS (
       SELECT device_id, permission FROM device_users WHERE user_id = $1
       UNION ALL
       SELECT gd.device_id, m.permission FROM group_members m JOIN group_devices gd ON gd.groupid = m.groupid
        WHERE m.user_id = $1
     )
     SELECT d.id, ${deviceNameSql('d')} AS name, d.model, d.tier, d.added_ts, d.last_contact, g.permission AS role
       FROM grants g JOIN devices d ON d.id = g.device_id
      ORDER BY d.id`,
    [userId],
  );
}

export function userGroups(
  db: Db,
  userId: string,
): Promise<{ groupid: string; group_name: string; permission: DeviceRole; devices: number }[]> {
  return db.query(
    `SELECT g.groupid, g.group_name, m.permission,
            (SELECT count(*)::integer FROM group_devices gd WHERE gd.groupid = g.groupid) AS devices
       FROM group_members m JOIN groups g ON g.groupid = m.groupid
      WHERE m.user_id = $1
      ORDER BY lower(g.group_name), g.groupid`,
    [userId],
  );
}

// ---- Statistics ------------------------------------------------------------------------------

export type TrialWindow = 'none' | 'running' | 'over';

/**
 * Devices counted by tier and by where their trial stands at `nowS`: 'none' (nobody added the
 * device), 'running' (added_ts + trial length at or after now), 'over'.
 */
export function devicesByTierAndTrial(
  db: Db,
  nowS: number,
  trialSeconds: number,
): Promise<{ tier: string; trial: TrialWindow; count: number }[]> {
  return db.query(
    `SELECT tier,
            CASE WHEN added_ts IS NULL THEN 'none' WHEN added_ts + $2 >= $1 THEN 'running' ELSE 'over' END AS trial,
            count(*)::integer AS count
       FROM devices GROUP BY 1, 2`,
    [nowS, trialSeconds],
  );
}

export function devicesByModel(db: Db): Promise<{ model: string; count: number }[]> {
  return db.query('SELECT model, count(*)::integer AS count FROM devices GROUP BY model ORDER BY count(*) DESC, model');
}

export async function activeDevices(db: Db, sinceS: number): Promise<number> {
  const rows = await db.query<{ count: number }>(
    'SELECT count(*)::integer AS count FROM devices WHERE last_contact >= $1',
    [sinceS],
  );
  return rows[0]?.count ?? 0;
}

export function devicesByDistributor(
  db: Db,
): Promise<{ distributor_id: number | null; name: string | null; count: number }[]> {
  return db.query(
    `SELECT ds.id AS distributor_id, ds.name, count(*)::integer AS count
       FROM devices d
       LEFT JOIN distributor_devices dd ON dd.device_id = d.id
       LEFT JOIN distributors ds ON ds.id = dd.distributor_id
      GROUP BY ds.id, ds.name
      ORDER BY (ds.id IS NULL), count(*) DESC, ds.name`,
  );
}

/**
 * Records stamped in [fromS, toS) across all devices, per minute from fromS (minute 0 first),
 * read through each device's (device_id, ts) key rather than a scan of every record.
 */
export function recordsPerMinute(db: Db, fromS: number, toS: number): Promise<{ minute: number; count: number }[]> {
  return db.query(
    `SELECT floor((r.ts - $1) / 60)::integer AS minute, count(*)::integer AS count
       FROM devices d
       JOIN LATERAL (SELECT ts FROM records WHERE device_id = d.id AND ts >= $1 AND ts < $2) r ON true
      GROUP BY 1 ORDER BY 1`,
    [fromS, toS],
  );
}

/** Subscriptions created in each month (UTC, 'YYYY-MM') since `since`. */
export function subscriptionsByMonth(db: Db, since: Date): Promise<{ month: string; count: number }[]> {
  return db.query(
    `SELECT to_char(date_trunc('month', created_at AT TIME ZONE 'UTC'), 'YYYY-MM') AS month, count(*)::integer AS count
       FROM billing_subscriptions WHERE created_at >= $1
      GROUP BY 1 ORDER BY 1`,
    [since],
  );
}

/** Paid invoices in `currency` by the month (UTC) they were paid in since `since`: the sum in cents. */
export function revenueByMonth(db: Db, since: Date, currency: string): Promise<{ month: string; cents: number }[]> {
  return db.query(
    `SELECT to_char(date_trunc('month', paid_at AT TIME ZONE 'UTC'), 'YYYY-MM') AS month, sum(amount_cents)::double precision AS cents
       FROM billing_invoices WHERE status = 'paid' AND paid_at >= $1 AND currency = $2
      GROUP BY 1 ORDER BY 1`,
    [since, currency],
  );
}
