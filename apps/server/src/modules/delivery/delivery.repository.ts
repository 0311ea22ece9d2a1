/**
 * SQL of delivery: the command queue, and the delivery state of the pending config (devices
 * table, with when it began in device_config_state) and of the saved script (device_scripts):
 * what is queued, what was sent, when, and what the device acknowledged; the files devices fetch.
 */
import type { Db } from '../../db/db';

// ---------------------------------------------------------------- commands

export interface CommandRow {
  id: number;
  device_id: string;
  method: string;
  args: unknown;
  state: string;
  created_at: Date;
  sent_at: Date | null;
  acked_at: Date | null;
  created_by: string | null;
}

const COMMAND_COLUMNS = 'id, device_id, method, args, state, created_at, sent_at, acked_at, created_by';

export async function insertCommand(
  db: Db,
  row: { deviceId: string; method: string; args: unknown; createdAt: Date; createdBy: string | null },
): Promise<CommandRow> {
  const rows = await db.query<CommandRow>(
    `INSERT INTO commands (device_id, method, args, state, created_at, created_by) VALUES ($1, $2, $3::jsonb, 'queued', $4, $5)
     RETURNING ${COMMAND_COLUMNS}`,
    [row.deviceId, row.method, row.args === undefined ? null : JSON.stringify(row.args), row.createdAt, row.createdBy],
  );
  return rows[0]!;
}

export function selectCommands(db: Db, deviceId: string, limit: number): Promise<CommandRow[]> {
  return db.query(
    `SELECT ${COMMAND_COLUMNS} FROM commands WHERE device_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [deviceId, limit],
  );
}

/** Cancels a queued (or sent, unacknowledged) command; returns whether one was cancelled. */
export async function cancelCommand(db: Db, deviceId: string, commandId: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE commands SET state = 'cancelled' WHERE device_id = $1 AND id = $2 AND state = 'queued' RETURNING id`,
    [deviceId, commandId],
  );
  return rows.length > 0;
}

/** A command taken for delivery ('sent' for the first time, or 'resent'), or found 'expired' on the way. */
export interface DeliveryCommandRow {
  id: number;
  method: string;
  args: unknown;
  outcome: 'sent' | 'resent' | 'expired';
}

/** Of the given devices, those with unacknowledged commands (some may be due for sending or expiry). */
export async function devicesWithOpenCommands(db: Db, ids: string[]): Promise<string[]> {
  const rows = await db.query<{ device_id: string }>(
    `SELECT DISTINCT device_id FROM commands WHERE device_id = ANY($1::text[]) AND state IN ('queued', 'sent')`,
    [ids],
  );
  return rows.map((r) => r.device_id);
}

/**
 * Takes the commands to deliver now, oldest first, at most 50: queued ones, and sent ones not
 * acknowledged since `resendBefore`; marks them sent at `now`. In the same statement, the
 * device's unacknowledged commands queued before `expireBefore` become expired (and are
 * returned as such, never to be delivered).
 */
export async function takeCommandsToSend(
  db: Db,
  deviceId: string,
  now: Date,
  resendBefore: Date,
  expireBefore: Date,
): Promise<DeliveryCommandRow[]> {
  const rows = await db.query<DeliveryCommandRow>(
    `WITH expired AS (
       UPDATE commands SET state = 'expired'
        WHERE device_id = $1 AND state IN ('queued', 'sent') AND created_at < $4
       RETURNING id, method, args, 'expired'::text AS outcome
     ), picked AS (
       SELECT id, state AS was FROM commands
        WHERE device_id = $1 AND created_at >= $4 AND (state = 'queued' OR (state = 'sent' AND sent_at < $3))
        ORDER BY id LIMIT 50 FOR UPDATE
     ), sent AS (
       UPDATE commands c SET state = 'sent', sent_at = $2 FROM picked WHERE c.id = picked.id
       RETURNING c.id, c.method, c.args, CASE WHEN picked.was = 'sent' THEN 'resent' ELSE 'sent' END AS outcome
     )
     SELECT id, method, args, outcome FROM expired UNION ALL SELECT id, method, args, outcome FROM sent`,
    [deviceId, now, resendBefore, expireBefore],
  );
  return rows.sort((a, b) => a.id - b.id);
}

/** Puts commands back in the queue (delivery failed). */
export async function requeueCommands(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE commands SET state = 'queued', sent_at = NULL WHERE id = ANY($1::integer[]) AND state = 'sent'`,
    [ids],
  );
}

/** Acknowledged: queued or sent commands of the device become delivered; returns those that changed. */
export async function markCommandsDelivered(
  db: Db,
  deviceId: string,
  ids: number[],
  now: Date,
): Promise<{ id: number; method: string }[]> {
  if (ids.length === 0) return [];
  return db.query(
    `UPDATE commands SET state = 'delivered', acked_at = $3 WHERE device_id = $1 AND id = ANY($2::integer[]) AND state IN ('queued', 'sent')
     RETURNING id, method`,
    [deviceId, ids, now],
  );
}

// ---------------------------------------------------------------- command acknowledgement and expiry

/** The states of those of `ids` that are commands of this device (another device's ids are not found). */
export function selectCommandStates(
  db: Db,
  deviceId: string,
  ids: number[],
): Promise<{ id: number; method: string; state: string }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.query(`SELECT id, method, state FROM commands WHERE device_id = $1 AND id = ANY($2::integer[])`, [
    deviceId,
    ids,
  ]);
}

/**
 * Unacknowledged (queued or sent) commands queued before `before` become expired, of one device
 * or of all (deviceId null); returns them.
 */
export function expireCommands(
  db: Db,
  before: Date,
  deviceId: string | null,
): Promise<{ id: number; device_id: string; method: string }[]> {
  return db.query(
    `UPDATE commands SET state = 'expired'
      WHERE state IN ('queued', 'sent') AND created_at < $1 AND ($2::text IS NULL OR device_id = $2)
     RETURNING id, device_id, method`,
    [before, deviceId],
  );
}

// ---------------------------------------------------------------- config

/** Of the given devices, those with a pending config (it may be due for sending). */
export async function devicesWithPendingConfig(db: Db, ids: string[]): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM devices WHERE id = ANY($1::text[]) AND pending_config IS NOT NULL',
    [ids],
  );
  return rows.map((r) => r.id);
}

/** Sets the pending config; a new pending config (not null) gets the next version. */
export async function setPendingConfig(db: Db, id: string, config: Record<string, unknown> | null): Promise<void> {
  await db.query(
    `UPDATE devices SET pending_config = $2::jsonb,
       config_version = CASE WHEN $2::jsonb IS NULL THEN config_version ELSE config_version + 1 END
     WHERE id = $1`,
    [id, config === null ? null : JSON.stringify(config)],
  );
}

export async function findPendingSince(db: Db, deviceId: string): Promise<Date | null> {
  const rows = await db.query<{ pending_since: Date | null }>(
    'SELECT pending_since FROM device_config_state WHERE device_id = $1',
    [deviceId],
  );
  return rows[0]?.pending_since ?? null;
}

/** Sets when the pending config began: now for a fresh pending config, else keeps the time already there. */
export async function touchPendingSince(db: Db, deviceId: string, now: Date, fresh: boolean): Promise<void> {
  await db.query(
    `INSERT INTO device_config_state (device_id, pending_since) VALUES ($1, $2)
     ON CONFLICT (device_id) DO UPDATE SET pending_since =
       CASE WHEN $3::boolean THEN EXCLUDED.pending_since ELSE COALESCE(device_config_state.pending_since, EXCLUDED.pending_since) END`,
    [deviceId, now, fresh],
  );
}

/** Where a device's pending config stands: its version, what was sent (and when) and the last version applied. */
export interface ConfigDeliveryRow {
  config: Record<string, unknown>;
  pending_config: Record<string, unknown> | null;
  config_version: number;
  applied_config_version: number;
  sent_config: Record<string, unknown> | null;
  sent_config_version: number | null;
  config_sent_at: Date | null;
}

export async function findConfigDelivery(db: Db, id: string, forUpdate = false): Promise<ConfigDeliveryRow | null> {
  const rows = await db.query<ConfigDeliveryRow>(
    `SELECT config, pending_config, config_version, applied_config_version, sent_config, sent_config_version, config_sent_at
     FROM devices WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * The pending config to send now, with its version, marked sent at `now`: when that version was
 * not sent yet, or was sent before `resendBefore` and is still not acknowledged. Null otherwise.
 */
export async function takeConfigToSend(
  db: Db,
  id: string,
  now: Date,
  resendBefore: Date,
): Promise<{ config: Record<string, unknown>; version: number } | null> {
  const rows = await db.query<{ config: Record<string, unknown>; version: number }>(
    `UPDATE devices SET sent_config = pending_config, sent_config_version = config_version, config_sent_at = $2
     WHERE id = $1 AND pending_config IS NOT NULL
       AND (sent_config_version IS DISTINCT FROM config_version OR config_sent_at IS NULL OR config_sent_at < $3)
     RETURNING pending_config AS config, config_version AS version`,
    [id, now, resendBefore],
  );
  return rows[0] ?? null;
}

/**
 * The device applied the config it was sent: `config` becomes the applied one, `version` the
 * applied version; the pending config is cleared when nothing newer was merged into it since.
 */
export async function applySentConfig(
  db: Db,
  id: string,
  config: Record<string, unknown>,
  version: number,
): Promise<void> {
  await db.query(
    `UPDATE devices SET config = $2, applied_config_version = $3,
       pending_config = CASE WHEN config_version = $3 THEN NULL ELSE pending_config END,
       sent_config = NULL, sent_config_version = NULL, config_sent_at = NULL
     WHERE id = $1`,
    [id, JSON.stringify(config), version],
  );
}

// ---------------------------------------------------------------- script

/** Saves the script for the next contact unless another user holds the lock; false when locked. */
export async function savePendingScript(
  db: Db,
  deviceId: string,
  userId: string,
  script: string,
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO device_scripts (device_id, pending_script, pending_since, pending_version) VALUES ($1, $3, $4, 1)
     ON CONFLICT (device_id) DO UPDATE SET pending_script = EXCLUDED.pending_script,
       pending_since = COALESCE(device_scripts.pending_since, EXCLUDED.pending_since),
       pending_version = device_scripts.pending_version + 1
     WHERE device_scripts.lock_user_id IS NULL OR device_scripts.lock_user_id = $2
     RETURNING device_id`,
    [deviceId, userId, script, now],
  );
  return rows.length === 1;
}

/** Of the given devices, those with a pending script (it may be due for sending). */
export async function devicesWithPendingScript(db: Db, ids: string[]): Promise<string[]> {
  const rows = await db.query<{ device_id: string }>(
    'SELECT device_id FROM device_scripts WHERE device_id = ANY($1::text[]) AND pending_script IS NOT NULL',
    [ids],
  );
  return rows.map((r) => r.device_id);
}

/**
 * The saved script to send now, with its version, marked sent at `now`: when that version was
 * not sent yet, or was sent before `resendBefore` and is still not acknowledged. Null otherwise.
 */
export async function takeScriptToSend(
  db: Db,
  deviceId: string,
  now: Date,
  resendBefore: Date,
): Promise<{ script: string; version: number } | null> {
  const rows = await db.query<{ script: string; version: number }>(
    `UPDATE device_scripts SET sent_script = pending_script, sent_version = pending_version, sent_at = $2
     WHERE device_id = $1 AND pending_script IS NOT NULL
       AND (sent_version IS DISTINCT FROM pending_version OR sent_at IS NULL OR sent_at < $3)
     RETURNING pending_script AS script, pending_version AS version`,
    [deviceId, now, resendBefore],
  );
  return rows[0] ?? null;
}

/**
 * The device acknowledges script `version`: when it is the version sent, that script becomes the
 * one the device runs (and stops being pending unless a newer one was saved since): 'applied';
 * a version already applied: 'already'; an older version than the one now saved (a newer one is
 * on its way): 'superseded', nothing changed; anything else: 'unknown', nothing changed. With
 * checkOnly, answers the same and changes nothing at all.
 */
export async function acknowledgeScript(
  db: Db,
  deviceId: string,
  version: number,
  checkOnly = false,
): Promise<'applied' | 'already' | 'superseded' | 'unknown'> {
  const state = async () => {
    const rows = await db.query<{ sent: boolean; applied_version: number; pending_version: number }>(
      `SELECT (sent_script IS NOT NULL AND sent_version = $2) AS sent, applied_version, pending_version
       FROM device_scripts WHERE device_id = $1`,
      [deviceId, version],
    );
    const row = rows[0];
    if (!row) return 'unknown';
    if (row.sent) return 'applied';
    if (version <= row.applied_version) return 'already';
    return version < row.pending_version ? 'superseded' : 'unknown';
  };
  if (checkOnly) return state();
  const applied = await db.query(
    `UPDATE device_scripts SET script = sent_script, applied_version = sent_version,
       pending_script = CASE WHEN pending_version = sent_version THEN NULL ELSE pending_script END,
       pending_since = CASE WHEN pending_version = sent_version THEN NULL ELSE pending_since END,
       sent_script = NULL, sent_version = NULL, sent_at = NULL
     WHERE device_id = $1 AND sent_version = $2 AND sent_script IS NOT NULL
     RETURNING device_id`,
    [deviceId, version],
  );
  if (applied.length > 0) return 'applied';
  const after = await state();
  return after === 'applied' ? 'unknown' : after;
}

// ---------------------------------------------------------------- files for devices

export interface DeviceFileRow {
  file_name: string;
  size: number;
  sha256: string;
  /** Base64 of the bytes. */
  data: string;
}

/** A file stored for this device (null for another device's file or an unknown id). */
export async function findFile(db: Db, deviceId: string, fileId: number): Promise<DeviceFileRow | null> {
  const rows = await db.query<DeviceFileRow>(
    'SELECT file_name, size, sha256, data FROM device_files WHERE device_id = $1 AND id = $2',
    [deviceId, fileId],
  );
  return rows[0] ?? null;
}
