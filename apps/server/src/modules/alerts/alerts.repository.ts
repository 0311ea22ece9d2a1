/** SQL of alerts: subscriptions, verified phones, key and offline states, digests, notifications, quotas, unsubscribe tokens. */
import type { AlertChannel, AlertKind, LimitLevel } from '@portal/core';
import type { Db } from '../../db/db';
import { deviceNameSql } from '../../db/device-name';

// ---------------------------------------------------------------- subscriptions

export interface SubscriptionRow {
  email: boolean;
  sms: boolean;
  events: boolean;
  limits: boolean;
  offline: boolean;
  schedule: number;
}

export async function findSubscription(db: Db, userId: string, deviceId: string): Promise<SubscriptionRow | null> {
  const [row] = await db.query<SubscriptionRow>(
    `SELECT email, sms, events, limits, offline, schedule FROM alert_subscriptions WHERE user_id = $1 AND device_id = $2`,
    [userId, deviceId],
  );
  return row ?? null;
}

export async function upsertSubscription(
  db: Db,
  userId: string,
  deviceId: string,
  s: SubscriptionRow,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO alert_subscriptions (user_id, device_id, email, sms, events, limits, offline, schedule, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (user_id, device_id) DO UPDATE SET email = EXCLUDED.email, sms = EXCLUDED.sms,
       events = EXCLUDED.events, limits = EXCLUDED.limits, offline = EXCLUDED.offline,
       schedule = EXCLUDED.schedule, updated_at = EXCLUDED.updated_at`,
    [userId, deviceId, s.email, s.sms, s.events, s.limits, s.offline, s.schedule, now],
  );
}

/** A subscriber of a device who still holds a role on it (directly or through a group), with where alerts go. */
export interface SubscriberRow extends SubscriptionRow {
  user_id: string;
  user_email: string;
  /** The brand the user signed up under: the alert's links use its host. */
  user_brand: string;
  /** The verified phone, or null. */
  phone: string | null;
}

/** SQL: the user still holds a role on the device (a direct grant or a group holding it). */
const HOLDS_ROLE = `(EXISTS (SELECT 1 FROM device_users du WHERE du.device_id = s.device_id AND du.user_id = s.user_id)
  OR EXISTS (SELECT 1 FROM group_devices gd JOIN group_members m ON m.groupid = gd.groupid
              WHERE gd.device_id = s.device_id AND m.user_id = s.user_id))`;

/** The subscribers of a device that want some channel, in a stable order. */
export function selectSubscribers(db: Db, deviceId: string): Promise<SubscriberRow[]> {
  return db.query<SubscriberRow>(
    `SELECT s.user_id, u.email AS user_email, u.brand AS user_brand, p.phone, s.email, s.sms, s.events, s.limits, s.offline, s.schedule
       FROM alert_subscriptions s
       JOIN users u ON u.id = s.user_id
       LEFT JOIN alert_phones p ON p.user_id = s.user_id AND p.verified_at IS NOT NULL
      WHERE s.device_id = $1 AND (s.email OR s.sms) AND ${HOLDS_ROLE}
      ORDER BY s.user_id`,
    [deviceId],
  );
}

/** Of these devices, those with a subscription that wants events or limits on some channel, and which. */
/** Every device someone watches for events or limit crossings, by e-mail or SMS. */
export async function selectWatchedDeviceIds(db: Db): Promise<string[]> {
  const rows = await db.query<{ device_id: string }>(
    `SELECT DISTINCT device_id FROM alert_subscriptions WHERE (email OR sms) AND (events OR limits)`,
  );
  return rows.map((r) => r.device_id);
}

export function selectWatchedDevices(
  db: Db,
  deviceIds: string[],
): Promise<{ device_id: string; events: boolean; limits: boolean }[]> {
  return db.query(
    `SELECT device_id, bool_or(events) AS events, bool_or(limits) AS limits
       FROM alert_subscriptions
      WHERE device_id = ANY($1::text[]) AND (email OR sms) AND (events OR limits)
      GROUP BY device_id`,
    [deviceIds],
  );
}

/** A device's name, plan inputs and display settings. */
export interface AlertDeviceRow {
  id: string;
  name: string;
  tier: string;
  added_ts: number | null;
  display_settings: Record<string, unknown>;
}

export async function findAlertDevice(db: Db, deviceId: string): Promise<AlertDeviceRow | null> {
  const [row] = await db.query<AlertDeviceRow>(
    `SELECT d.id, ${deviceNameSql('d')} AS name, d.tier, d.added_ts, d.display_settings FROM devices d WHERE d.id = $1`,
    [deviceId],
  );
  return row ?? null;
}

/**
 * Devices some subscriber watches for going offline, with their last contact and the device section
 * of their applied config (its intervals: core appliedIntervalSeconds).
 */
export function selectOfflineWatched(db: Db): Promise<
  {
    id: string;
    last_contact: number | null;
    applied_device: unknown;
    alerted_contact: number | null;
  }[]
> {
  return db.query(
    `SELECT d.id, d.last_contact, d.config #> '{settings,device}' AS applied_device, o.last_contact AS alerted_contact
       FROM devices d
       LEFT JOIN alert_offline_states o ON o.device_id = d.id
      WHERE d.id IN (SELECT device_id FROM alert_subscriptions WHERE offline AND (email OR sms))
        AND d.last_contact IS NOT NULL`,
  );
}

/**
 * Claims the offline alert of a device silent since `lastContact`: true for the one caller (of
 * any server instance) that records it; false when it was already reported.
 */
export async function claimOffline(db: Db, deviceId: string, lastContact: number, now: Date): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO alert_offline_states (device_id, last_contact, alerted_at) VALUES ($1, $2, $3)
     ON CONFLICT (device_id) DO UPDATE SET last_contact = EXCLUDED.last_contact, alerted_at = EXCLUDED.alerted_at
       WHERE alert_offline_states.last_contact <> EXCLUDED.last_contact
     RETURNING device_id`,
    [deviceId, lastContact, now],
  );
  return rows.length > 0;
}

// ---------------------------------------------------------------- key states

export interface KeyStateRow {
  key: string;
  level: LimitLevel;
  ts: number;
}

/** The key states of a device, locked for the caller's transaction. */
export function lockKeyStates(tx: Db, deviceId: string): Promise<KeyStateRow[]> {
  return tx.query<KeyStateRow>(
    'SELECT key, level, ts FROM alert_key_states WHERE device_id = $1 ORDER BY key FOR UPDATE',
    [deviceId],
  );
}

export async function upsertKeyStates(tx: Db, deviceId: string, rows: KeyStateRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO alert_key_states (device_id, key, level, ts)
     SELECT $1, key, level, ts FROM jsonb_to_recordset($2::jsonb) AS x(key text, level text, ts double precision)
     ON CONFLICT (device_id, key) DO UPDATE SET level = EXCLUDED.level, ts = EXCLUDED.ts
       WHERE alert_key_states.ts <= EXCLUDED.ts`,
    [deviceId, JSON.stringify(rows)],
  );
}

// ---------------------------------------------------------------- notifications and digests

export interface NotificationKey {
  userId: string;
  deviceId: string;
  channel: AlertChannel;
  periodStart: Date;
  kind: 'first' | 'digest';
}

/**
 * Records a notification before it is sent; null when the row exists already (sent by an
 * earlier process or another instance), so it is not sent again.
 */
export async function insertNotification(
  tx: Db,
  key: NotificationKey,
  subject: string,
  now: Date,
): Promise<number | null> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO alert_notifications (user_id, device_id, channel, period_start, kind, status, subject, created_at)
     VALUES ($1, $2, $3, $4, $5, 'sent', $6, $7)
     ON CONFLICT (user_id, device_id, channel, period_start, kind) DO NOTHING
     RETURNING id`,
    [key.userId, key.deviceId, key.channel, key.periodStart, key.kind, subject, now],
  );
  return row?.id ?? null;
}

export async function setNotificationStatus(db: Db, id: number, status: 'sent' | 'refused' | 'failed'): Promise<void> {
  await db.query('UPDATE alert_notifications SET status = $2 WHERE id = $1', [id, status]);
}

/** Counts one notification against the month's quota: false (nothing counted) when `limit` are used already. */
export async function claimQuota(
  tx: Db,
  deviceId: string,
  month: Date,
  channel: AlertChannel,
  limit: number,
): Promise<boolean> {
  if (limit <= 0) return false;
  const rows = await tx.query(
    `INSERT INTO alert_quota_use (device_id, month, channel, used) VALUES ($1, $2, $3, 1)
     ON CONFLICT (device_id, month, channel) DO UPDATE SET used = alert_quota_use.used + 1
       WHERE alert_quota_use.used < $4
     RETURNING used`,
    [deviceId, month, channel, limit],
  );
  return rows.length > 0;
}

export interface PendingAlert {
  userId: string;
  deviceId: string;
  channel: AlertChannel;
  schedule: number;
  periodStart: Date;
  periodEnd: Date;
  kind: AlertKind;
  ts: number;
  text: string;
}

export async function insertPending(tx: Db, p: PendingAlert): Promise<void> {
  await tx.query(
    `INSERT INTO alert_pending (user_id, device_id, channel, schedule, period_start, period_end, kind, ts, text)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [p.userId, p.deviceId, p.channel, p.schedule, p.periodStart, p.periodEnd, p.kind, p.ts, p.text],
  );
}

/** A digest due: the user, device, channel and period of alerts waiting past their period's end. */
export interface DueDigest {
  user_id: string;
  device_id: string;
  channel: AlertChannel;
  schedule: number;
  period_start: Date;
  period_end: Date;
}

export function selectDueDigests(db: Db, now: Date, limit: number): Promise<DueDigest[]> {
  return db.query<DueDigest>(
    `SELECT user_id, device_id, channel, min(schedule) AS schedule, period_start, max(period_end) AS period_end
       FROM alert_pending WHERE period_end <= $1
      GROUP BY user_id, device_id, channel, period_start
      ORDER BY period_start, user_id, device_id, channel
      LIMIT $2`,
    [now, limit],
  );
}

/** Takes the waiting alerts of a digest out (in the caller's transaction). */
export function takePending(
  tx: Db,
  d: Pick<DueDigest, 'user_id' | 'device_id' | 'channel' | 'period_start'>,
): Promise<{ kind: AlertKind; ts: number; text: string }[]> {
  return tx.query(
    `DELETE FROM alert_pending WHERE user_id = $1 AND device_id = $2 AND channel = $3 AND period_start = $4
     RETURNING kind, ts, text`,
    [d.user_id, d.device_id, d.channel, d.period_start],
  );
}

export function selectNotifications(
  db: Db,
  userId: string,
  limit: number,
): Promise<
  {
    id: number;
    created_at: Date;
    device_id: string;
    device_name: string;
    channel: AlertChannel;
    kind: 'first' | 'digest';
    subject: string;
    status: 'sent' | 'refused' | 'failed';
  }[]
> {
  return db.query(
    `SELECT n.id, n.created_at, n.device_id, ${deviceNameSql('d')} AS device_name, n.channel, n.kind, n.subject, n.status
       FROM alert_notifications n JOIN devices d ON d.id = n.device_id
      WHERE n.user_id = $1
      ORDER BY n.created_at DESC, n.id DESC LIMIT $2`,
    [userId, limit],
  );
}

// ---------------------------------------------------------------- unsubscribe tokens

export async function insertUnsubscribeToken(
  tx: Db,
  tokenHash: string,
  userId: string,
  deviceId: string,
  now: Date,
): Promise<void> {
  await tx.query(
    'INSERT INTO alert_unsubscribe_tokens (token_hash, user_id, device_id, created_at) VALUES ($1, $2, $3, $4)',
    [tokenHash, userId, deviceId, now],
  );
}

/** Turns off the e-mail of the subscription a token belongs to; the device's name, or null for an unknown token. */
export async function unsubscribeByToken(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<{ device_name: string } | null> {
  const [row] = await db.query<{ device_name: string }>(
    `WITH t AS (SELECT user_id, device_id FROM alert_unsubscribe_tokens WHERE token_hash = $1),
          off AS (UPDATE alert_subscriptions s SET email = false, updated_at = $2
                    FROM t WHERE s.user_id = t.user_id AND s.device_id = t.device_id RETURNING s.device_id)
     SELECT ${deviceNameSql('d')} AS device_name FROM t JOIN devices d ON d.id = t.device_id`,
    [tokenHash, now],
  );
  return row ?? null;
}

// ---------------------------------------------------------------- phones

export interface PhoneRow {
  phone: string | null;
  verified_at: Date | null;
  pending_phone: string | null;
  pending_code_hash: string | null;
  pending_expires_at: Date | null;
  pending_attempts: number;
}

export async function findPhone(db: Db, userId: string): Promise<PhoneRow | null> {
  const [row] = await db.query<PhoneRow>(
    `SELECT phone, verified_at, pending_phone, pending_code_hash, pending_expires_at, pending_attempts
       FROM alert_phones WHERE user_id = $1`,
    [userId],
  );
  return row ?? null;
}

export async function setPendingPhone(
  db: Db,
  userId: string,
  pending: { phone: string; codeHash: string; expiresAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO alert_phones (user_id, pending_phone, pending_code_hash, pending_expires_at, pending_attempts)
     VALUES ($1, $2, $3, $4, 0)
     ON CONFLICT (user_id) DO UPDATE SET pending_phone = EXCLUDED.pending_phone,
       pending_code_hash = EXCLUDED.pending_code_hash, pending_expires_at = EXCLUDED.pending_expires_at,
       pending_attempts = 0`,
    [userId, pending.phone, pending.codeHash, pending.expiresAt],
  );
}

/** Spends one attempt at the pending code while it is unexpired and has attempts left; the attempts made, or null. */
export async function spendPhoneAttempt(
  db: Db,
  userId: string,
  now: Date,
  maxAttempts: number,
): Promise<number | null> {
  const [row] = await db.query<{ pending_attempts: number }>(
    `UPDATE alert_phones SET pending_attempts = pending_attempts + 1
      WHERE user_id = $1 AND pending_code_hash IS NOT NULL AND pending_expires_at > $2 AND pending_attempts < $3
      RETURNING pending_attempts`,
    [userId, now, maxAttempts],
  );
  return row?.pending_attempts ?? null;
}

export async function clearPendingPhone(db: Db, userId: string): Promise<void> {
  await db.query(
    `UPDATE alert_phones SET pending_phone = NULL, pending_code_hash = NULL, pending_expires_at = NULL, pending_attempts = 0
      WHERE user_id = $1`,
    [userId],
  );
}

/** The pending phone becomes the verified one. */
export async function verifyPendingPhone(db: Db, userId: string, phone: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE alert_phones SET phone = $2, verified_at = $3, pending_phone = NULL, pending_code_hash = NULL,
       pending_expires_at = NULL, pending_attempts = 0
      WHERE user_id = $1`,
    [userId, phone, now],
  );
}

/** Removes the verified phone (and any pending one); SMS alerts stop, the subscriptions keep their choice. */
export async function deletePhone(db: Db, userId: string): Promise<void> {
  await db.query('DELETE FROM alert_phones WHERE user_id = $1', [userId]);
}

/** SMS off on every subscription of the user (their phone is gone). */
export async function turnSmsOff(db: Db, userId: string, now: Date): Promise<void> {
  await db.query('UPDATE alert_subscriptions SET sms = false, updated_at = $2 WHERE user_id = $1 AND sms', [
    userId,
    now,
  ]);
}
