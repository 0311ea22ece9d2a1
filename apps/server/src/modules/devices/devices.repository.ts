/**
 * SQL of devices: the device rows, direct grants, invitations, claim attempts and the lines the
 * devices module writes to the provisioning log (a device made or edited).
 */
import type { DeviceRole } from '@portal/core';
import type { Db } from '../../db/db';

export type TrialResetState = 'available' | 'active' | 'used';
export type AddWithoutPass = 'INACTIVE' | 'ADMIN';

export interface DeviceRow {
  id: string;
  model: string;
  family: string;
  fw: string;
  key_hash: string;
  setup_password: string;
  tier: string;
  added_ts: number | null;
  trial_reset_ts: number | null;
  trial_reset_state: TrialResetState;
  add_without_pass: AddWithoutPass;
  portal_name: string | null;
  notes: Record<string, unknown>;
  display_settings: Record<string, unknown>;
  config: Record<string, unknown>;
  pending_config: Record<string, unknown> | null;
  created_at: Date;
  last_contact: number | null;
  /** The brand the device was provisioned for (a brand id): its label's QR code uses that brand's host. */
  brand: string;
}

const DEVICE_COLUMNS = `id, model, family, fw, key_hash, setup_password, tier, added_ts, trial_reset_ts, trial_reset_state,
  add_without_pass, portal_name, notes, display_settings, config, pending_config, created_at, last_contact, brand`;

export interface NewDevice {
  id: string;
  model: string;
  family: string;
  fw: string;
  keyHash: string;
  setupPassword: string;
  config: Record<string, unknown>;
  /** The brand the device is for (a brand id). */
  brand: string;
  createdAt: Date;
}

/** Inserts a device unless the id exists; true when inserted. */
export async function insertDevice(db: Db, d: NewDevice): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO devices (id, model, family, fw, key_hash, setup_password, config, brand, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [d.id, d.model, d.family, d.fw, d.keyHash, d.setupPassword, JSON.stringify(d.config), d.brand, d.createdAt],
  );
  return rows.length === 1;
}

export async function findDevice(db: Db, id: string, forUpdate = false): Promise<DeviceRow | null> {
  const rows = await db.query<DeviceRow>(
    `SELECT ${DEVICE_COLUMNS} FROM devices WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/** Every device id (broker-sync compares them with the broker's accounts). */
export async function listDeviceIds(db: Db): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM devices ORDER BY id');
  return rows.map((row) => row.id);
}

export async function findKeyHash(db: Db, id: string): Promise<string | null> {
  const rows = await db.query<{ key_hash: string }>('SELECT key_hash FROM devices WHERE id = $1', [id]);
  return rows[0]?.key_hash ?? null;
}

export async function updateProvisioning(
  db: Db,
  id: string,
  fields: { model: string; family: string; fw: string; config: Record<string, unknown>; brand: string },
): Promise<void> {
  await db.query('UPDATE devices SET model = $2, family = $3, fw = $4, config = $5, brand = $6 WHERE id = $1', [
    id,
    fields.model,
    fields.family,
    fields.fw,
    JSON.stringify(fields.config),
    fields.brand,
  ]);
}

/**
 * Moves each device's last contact forward to its given time (epoch seconds); never back. The
 * rows are locked in id order (as every ingest upsert takes its rows in key order), so two
 * instances' batches over the same devices wait for each other instead of deadlocking.
 */
export async function markContacts(db: Db, contacts: ReadonlyMap<string, number>): Promise<void> {
  const sorted = [...contacts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  await db.query(
    `WITH c AS (SELECT * FROM unnest($1::text[], $2::double precision[]) AS c(id, ts)),
     locked AS (SELECT d.id FROM devices d JOIN c ON d.id = c.id
                 WHERE d.last_contact IS NULL OR d.last_contact < c.ts ORDER BY d.id FOR UPDATE OF d)
     UPDATE devices d SET last_contact = c.ts FROM c, locked
      WHERE d.id = c.id AND locked.id = c.id AND (d.last_contact IS NULL OR d.last_contact < c.ts)`,
    [sorted.map(([id]) => id), sorted.map(([, ts]) => ts)],
  );
}

/**
 * Takes the firmware each device reports running (diagnostics `fw`) into its record and the
 * device block of its config (and of a pending config); returns the devices whose firmware changed, with the old and new name.
 */
export async function reportFirmware(
  db: Db,
  reports: ReadonlyMap<string, string>,
): Promise<{ id: string; previous: string; fw: string }[]> {
  return db.query<{ id: string; previous: string; fw: string }>(
    `UPDATE devices d
        SET fw = r.fw,
            config = CASE WHEN jsonb_typeof(d.config #> '{settings,device}') = 'object'
                          THEN jsonb_set(d.config, '{settings,device,fw}', to_jsonb(r.fw)) ELSE d.config END,
            pending_config = CASE WHEN jsonb_typeof(d.pending_config #> '{settings,device}') = 'object'
                          THEN jsonb_set(d.pending_config, '{settings,device,fw}', to_jsonb(r.fw)) ELSE d.pending_config END
       FROM unnest($1::text[], $2::text[]) AS r(id, fw)
       JOIN devices old ON old.id = r.id
      WHERE d.id = r.id AND d.fw IS DISTINCT FROM r.fw
      RETURNING d.id, old.fw AS previous, d.fw`,
    [[...reports.keys()], [...reports.values()]],
  );
}

/** The device section's intervals before and after a report. */
export interface ReportedIntervalChange {
  id: string;
  before_base: unknown;
  before_transmit: unknown;
  base: unknown;
  transmit: unknown;
}

/**
 * The intervals devices report running (diagnostics base_interval / transmit_interval) go into
 * their applied config's device section (the pending config stays as it is: it is what the device
 * has yet to apply); returns the devices whose applied intervals changed.
 */
export async function reportIntervals(
  db: Db,
  reports: ReadonlyMap<string, Record<string, number>>,
): Promise<ReportedIntervalChange[]> {
  return db.query<ReportedIntervalChange>(
    `UPDATE devices d
        SET config = jsonb_set(d.config, '{settings,device}', (d.config #> '{settings,device}') || r.intervals)
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, intervals jsonb)
       JOIN devices old ON old.id = r.id
      WHERE d.id = r.id AND jsonb_typeof(d.config #> '{settings,device}') = 'object'
        AND NOT (d.config #> '{settings,device}') @> r.intervals
      RETURNING d.id, old.config #> '{settings,device,base_interval}' AS before_base,
                old.config #> '{settings,device,transmit_interval}' AS before_transmit,
                d.config #> '{settings,device,base_interval}' AS base,
                d.config #> '{settings,device,transmit_interval}' AS transmit`,
    [JSON.stringify([...reports].map(([id, intervals]) => ({ id, intervals })))],
  );
}

export async function setAppliedConfig(db: Db, id: string, config: Record<string, unknown>): Promise<void> {
  await db.query('UPDATE devices SET config = $2 WHERE id = $1', [id, JSON.stringify(config)]);
}

export async function updateSettings(
  db: Db,
  id: string,
  fields: { portalName?: string; notes?: Record<string, unknown>; displaySettings?: Record<string, unknown> },
): Promise<void> {
  await db.query(
    `UPDATE devices SET
       portal_name = CASE WHEN $2::boolean THEN $3 ELSE portal_name END,
       notes = COALESCE($4::jsonb, notes),
       display_settings = COALESCE($5::jsonb, display_settings)
     WHERE id = $1`,
    [
      id,
      fields.portalName !== undefined,
      fields.portalName ?? null,
      fields.notes ? JSON.stringify(fields.notes) : null,
      fields.displaySettings ? JSON.stringify(fields.displaySettings) : null,
    ],
  );
}

export async function setAddWithoutPass(db: Db, id: string, mode: AddWithoutPass): Promise<void> {
  await db.query('UPDATE devices SET add_without_pass = $2 WHERE id = $1', [id, mode]);
}

/** available -> active; false when the reset is no longer available. */
export async function activateTrialReset(db: Db, id: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE devices SET trial_reset_state = 'active' WHERE id = $1 AND trial_reset_state = 'available' RETURNING id`,
    [id],
  );
  return rows.length === 1;
}

/** The trial (re)starts: added_ts = ts; an active trial reset becomes used. */
export async function startTrial(db: Db, id: string, ts: number, resetUsed: boolean): Promise<void> {
  if (resetUsed) {
    await db.query(`UPDATE devices SET added_ts = $2, trial_reset_ts = $2, trial_reset_state = 'used' WHERE id = $1`, [
      id,
      ts,
    ]);
  } else {
    await db.query('UPDATE devices SET added_ts = $2 WHERE id = $1', [id, ts]);
  }
}

// ---- grants --------------------------------------------------------------------------------

export async function findGrant(db: Db, deviceId: string, userId: string): Promise<DeviceRole | null> {
  const rows = await db.query<{ permission: DeviceRole }>(
    'SELECT permission FROM device_users WHERE device_id = $1 AND user_id = $2',
    [deviceId, userId],
  );
  return rows[0]?.permission ?? null;
}

export async function listGrants(
  db: Db,
  deviceId: string,
): Promise<{ user_id: string; email: string; permission: DeviceRole }[]> {
  return db.query(
    `SELECT du.user_id, u.email, du.permission FROM device_users du JOIN users u ON u.id = du.user_id
     WHERE du.device_id = $1 ORDER BY du.created_at, u.email`,
    [deviceId],
  );
}

export async function countGrants(db: Db, deviceId: string): Promise<{ total: number; admins: number }> {
  const rows = await db.query<{ total: number; admins: number }>(
    `SELECT count(*)::integer AS total, (count(*) FILTER (WHERE permission = 'ADMIN'))::integer AS admins
     FROM device_users WHERE device_id = $1`,
    [deviceId],
  );
  return rows[0] ?? { total: 0, admins: 0 };
}

export async function upsertGrant(
  db: Db,
  deviceId: string,
  userId: string,
  permission: DeviceRole,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO device_users (device_id, user_id, permission, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (device_id, user_id) DO UPDATE SET permission = EXCLUDED.permission`,
    [deviceId, userId, permission, now],
  );
}

export async function deleteGrant(db: Db, deviceId: string, userId: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM device_users WHERE device_id = $1 AND user_id = $2 RETURNING user_id', [
    deviceId,
    userId,
  ]);
  return rows.length === 1;
}

export async function findUserIdByEmail(db: Db, email: string): Promise<string | null> {
  const rows = await db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
  return rows[0]?.id ?? null;
}

// ---- invitations ---------------------------------------------------------------------------

export async function upsertInvite(
  db: Db,
  deviceId: string,
  email: string,
  permission: DeviceRole,
  invitedBy: string,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO device_invites (device_id, email, permission, invited_by, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (device_id, email) DO UPDATE SET permission = EXCLUDED.permission, invited_by = EXCLUDED.invited_by, created_at = EXCLUDED.created_at`,
    [deviceId, email, permission, invitedBy, now],
  );
}

export async function listInvites(db: Db, deviceId: string): Promise<{ email: string; permission: DeviceRole }[]> {
  return db.query('SELECT email, permission FROM device_invites WHERE device_id = $1 ORDER BY created_at, email', [
    deviceId,
  ]);
}

/** Removes and returns every invitation of an address. */
export async function takeInvites(db: Db, email: string): Promise<{ device_id: string; permission: DeviceRole }[]> {
  return db.query('DELETE FROM device_invites WHERE email = $1 RETURNING device_id, permission', [email]);
}

// ---- claim attempts ------------------------------------------------------------------------

export async function countClaimAttempts(db: Db, deviceId: string, since: Date): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::integer AS n FROM device_claim_attempts WHERE device_id = $1 AND created_at > $2',
    [deviceId, since],
  );
  return rows[0]?.n ?? 0;
}

export async function recordClaimAttempt(db: Db, deviceId: string, now: Date, pruneBefore: Date): Promise<void> {
  await db.query('DELETE FROM device_claim_attempts WHERE device_id = $1 AND created_at <= $2', [
    deviceId,
    pruneBefore,
  ]);
  await db.query('INSERT INTO device_claim_attempts (device_id, created_at) VALUES ($1, $2)', [deviceId, now]);
}

// ---- provisioning log ----------------------------------------------------------------------

export async function insertProvLog(
  db: Db,
  deviceId: string,
  message: string,
  author: string | null,
  now: Date,
): Promise<void> {
  await db.query('INSERT INTO prov_log (device_id, message, author, created_at) VALUES ($1, $2, $3, $4)', [
    deviceId,
    message,
    author,
    now,
  ]);
}
