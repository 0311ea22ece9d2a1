/** Billing tables (migration 023): subscriptions, invoices, events; and the device rows they change. */
import type { BillingEventKind, DeviceRole, InvoiceStatus, PaidSubscriptionKind } from '@portal/core';
import type { Db } from '../../db/db';
import { deviceNameSql } from '../../db/device-name';

/** Times are read as epoch milliseconds (double precision), written as Date. */
const ms = (column: string, as = column) => `(EXTRACT(EPOCH FROM ${column}) * 1000)::double precision AS ${as}`;

export interface BillingDeviceRow {
  id: string;
  name: string;
  model: string;
  tier: string;
  added_ts: number | null;
}

export interface CustomerDeviceRow extends BillingDeviceRow {
  permissions: DeviceRole[];
  groupids: string[];
}

export interface SubscriptionRow {
  id: number;
  device_id: string;
  user_id: string | null;
  kind: PaidSubscriptionKind;
  status: 'awaiting_payment' | 'active' | 'ended';
  provider: string;
  period_start: number;
  period_end: number | null;
  cancel_at_period_end: boolean;
  previous_tier: string;
  /** The earliest open invoice's due time, if any. */
  grace_ends_at: number | null;
}

export interface InvoiceRow {
  id: number;
  subscription_id: number;
  device_id: string;
  device_name: string;
  user_id: string | null;
  customer_email: string;
  kind: PaidSubscriptionKind;
  amount_cents: number;
  currency: string;
  status: InvoiceStatus;
  period_start: number;
  period_end: number | null;
  issued_at: number;
  due_at: number;
  paid_at: number | null;
}

export interface EventRow {
  id: number;
  device_id: string;
  kind: BillingEventKind;
  actor: string | null;
  ts: number;
  detail: Record<string, unknown>;
}

const SUBSCRIPTION_COLUMNS = `s.id, s.device_id, s.user_id, s.kind, s.status, s.provider, ${ms('s.period_start', 'period_start')},
  ${ms('s.period_end', 'period_end')}, s.cancel_at_period_end, s.previous_tier,
  (SELECT (EXTRACT(EPOCH FROM min(i.due_at)) * 1000)::double precision FROM billing_invoices i
    WHERE i.subscription_id = s.id AND i.status = 'open') AS grace_ends_at`;

const INVOICE_COLUMNS = `i.id, i.subscription_id, i.device_id, ${deviceNameSql('d')} AS device_name, i.user_id, i.customer_email,
  i.kind, i.amount_cents, i.currency, i.status, ${ms('i.period_start', 'period_start')}, ${ms('i.period_end', 'period_end')},
  ${ms('i.issued_at', 'issued_at')}, ${ms('i.due_at', 'due_at')}, ${ms('i.paid_at', 'paid_at')}`;

/** Every device the user holds a role on, directly or through groups: its roles and the user's groups holding it. */
export function customerDevices(db: Db, userId: string): Promise<CustomerDeviceRow[]> {
  return db.query<CustomerDeviceRow>(
    `WITH mine AS (
       SELECT device_id, permission, NULL::text AS groupid FROM device_users WHERE user_id = $1
       UNION ALL
       SELECT gd.device_id, m.permission, m.groupid
         FROM group_members m JOIN group_devices gd ON gd.groupid = m.groupid WHERE m.user_id = $1
     )
     SELECT d.id, ${deviceNameSql('d')} AS name, d.model, d.tier, d.added_ts,
            array_agg(DISTINCT mine.permission) AS permissions,
            COALESCE(array_agg(DISTINCT mine.groupid) FILTER (WHERE mine.groupid IS NOT NULL), '{}') AS groupids
       FROM mine JOIN devices d ON d.id = mine.device_id
      GROUP BY d.id
      ORDER BY lower(${deviceNameSql('d')}), d.id`,
    [userId],
  );
}

/** One device's billing facts; locked for update when `lock`. */
export async function findDevice(db: Db, deviceId: string, lock = false): Promise<BillingDeviceRow | null> {
  const rows = await db.query<BillingDeviceRow>(
    `SELECT d.id, ${deviceNameSql('d')} AS name, d.model, d.tier, d.added_ts FROM devices d WHERE d.id = $1${lock ? ' FOR UPDATE' : ''}`,
    [deviceId],
  );
  return rows[0] ?? null;
}

export async function setTier(db: Db, deviceId: string, tier: string): Promise<void> {
  await db.query('UPDATE devices SET tier = $2 WHERE id = $1', [deviceId, tier]);
}

/** Starts a fresh trial (staff putting a device whose trial is over back on Trial). */
export async function setAddedTs(db: Db, deviceId: string, addedTs: number): Promise<void> {
  await db.query('UPDATE devices SET added_ts = $2 WHERE id = $1', [deviceId, addedTs]);
}

/** The running subscriptions (not ended) of these devices. */
export function runningSubscriptions(db: Db, deviceIds: readonly string[]): Promise<SubscriptionRow[]> {
  if (deviceIds.length === 0) return Promise.resolve([]);
  return db.query<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM billing_subscriptions s WHERE s.device_id = ANY($1::text[]) AND s.status <> 'ended'`,
    [deviceIds],
  );
}

export async function runningSubscription(db: Db, deviceId: string, lock = false): Promise<SubscriptionRow | null> {
  const rows = await db.query<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM billing_subscriptions s WHERE s.device_id = $1 AND s.status <> 'ended'${lock ? ' FOR UPDATE OF s' : ''}`,
    [deviceId],
  );
  return rows[0] ?? null;
}

export async function subscriptionById(db: Db, id: number, lock = false): Promise<SubscriptionRow | null> {
  const rows = await db.query<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM billing_subscriptions s WHERE s.id = $1${lock ? ' FOR UPDATE OF s' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export interface NewSubscription {
  deviceId: string;
  userId: string;
  kind: PaidSubscriptionKind;
  provider: string;
  providerRef: string | null;
  periodStart: Date;
  periodEnd: Date | null;
  previousTier: string;
  createdAt: Date;
}

export async function insertSubscription(db: Db, s: NewSubscription): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO billing_subscriptions
       (device_id, user_id, kind, status, provider, provider_ref, period_start, period_end, previous_tier, created_at)
     VALUES ($1, $2, $3, 'awaiting_payment', $4, $5, $6, $7, $8, $9) RETURNING id`,
    [s.deviceId, s.userId, s.kind, s.provider, s.providerRef, s.periodStart, s.periodEnd, s.previousTier, s.createdAt],
  );
  return rows[0]!.id;
}

export async function setCancelAtPeriodEnd(db: Db, id: number, cancel: boolean): Promise<void> {
  await db.query('UPDATE billing_subscriptions SET cancel_at_period_end = $2 WHERE id = $1', [id, cancel]);
}

export async function setSubscriptionStatus(db: Db, id: number, status: 'awaiting_payment' | 'active'): Promise<void> {
  await db.query(`UPDATE billing_subscriptions SET status = $2 WHERE id = $1 AND status <> 'ended'`, [id, status]);
}

/** The next period of a renewed subscription, awaiting its invoice's payment. */
export async function renewPeriod(db: Db, id: number, start: Date, end: Date | null): Promise<void> {
  await db.query(
    `UPDATE billing_subscriptions SET period_start = $2, period_end = $3, status = 'awaiting_payment' WHERE id = $1`,
    [id, start, end],
  );
}

/**
 * Ends a subscription. Its open invoices are void unless it ran to its period's end (a
 * cancellation): that period was used, so its invoice stays due.
 */
export async function endSubscription(
  db: Db,
  id: number,
  reason: 'cancelled' | 'unpaid' | 'changed' | 'staff',
  at: Date,
): Promise<void> {
  await db.query(`UPDATE billing_subscriptions SET status = 'ended', ended_at = $2, end_reason = $3 WHERE id = $1`, [
    id,
    at,
    reason,
  ]);
  if (reason !== 'cancelled')
    await db.query(`UPDATE billing_invoices SET status = 'void' WHERE subscription_id = $1 AND status = 'open'`, [id]);
}

/** Running subscriptions with something due at `now`: a period that ended, or an open invoice past its grace. */
export async function dueSubscriptionIds(db: Db, now: Date): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `SELECT s.id FROM billing_subscriptions s
      WHERE s.status <> 'ended'
        AND ((s.period_end IS NOT NULL AND s.period_end <= $1)
          OR EXISTS (SELECT 1 FROM billing_invoices i WHERE i.subscription_id = s.id AND i.status = 'open' AND i.due_at <= $1))
      ORDER BY s.id`,
    [now],
  );
  return rows.map((r) => r.id);
}

export interface NewInvoice {
  subscriptionId: number;
  deviceId: string;
  userId: string | null;
  customerEmail: string;
  kind: PaidSubscriptionKind;
  amountCents: number;
  currency: string;
  periodStart: Date;
  periodEnd: Date | null;
  issuedAt: Date;
  dueAt: Date;
}

export async function insertInvoice(db: Db, i: NewInvoice): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO billing_invoices
       (subscription_id, device_id, user_id, customer_email, kind, amount_cents, currency, status,
        period_start, period_end, issued_at, due_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $9, $10, $11) RETURNING id`,
    [
      i.subscriptionId,
      i.deviceId,
      i.userId,
      i.customerEmail,
      i.kind,
      i.amountCents,
      i.currency,
      i.periodStart,
      i.periodEnd,
      i.issuedAt,
      i.dueAt,
    ],
  );
  return rows[0]!.id;
}

export async function findInvoice(db: Db, id: number, lock = false): Promise<InvoiceRow | null> {
  const rows = await db.query<InvoiceRow>(
    `SELECT ${INVOICE_COLUMNS} FROM billing_invoices i JOIN devices d ON d.id = i.device_id WHERE i.id = $1${lock ? ' FOR UPDATE OF i' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export function userInvoices(db: Db, userId: string): Promise<InvoiceRow[]> {
  return db.query<InvoiceRow>(
    `SELECT ${INVOICE_COLUMNS} FROM billing_invoices i JOIN devices d ON d.id = i.device_id
      WHERE i.user_id = $1 ORDER BY i.id DESC`,
    [userId],
  );
}

export function deviceInvoices(db: Db, deviceId: string): Promise<InvoiceRow[]> {
  return db.query<InvoiceRow>(
    `SELECT ${INVOICE_COLUMNS} FROM billing_invoices i JOIN devices d ON d.id = i.device_id
      WHERE i.device_id = $1 ORDER BY i.id DESC`,
    [deviceId],
  );
}

export async function markInvoicePaid(db: Db, id: number, at: Date, by: string): Promise<void> {
  await db.query(`UPDATE billing_invoices SET status = 'paid', paid_at = $2, paid_by = $3 WHERE id = $1`, [id, at, by]);
}

/** The address a renewal's invoice goes to: the subscriber's, else (account deleted) the last invoice's. */
export async function subscriptionCustomerEmail(
  db: Db,
  subscriptionId: number,
  userId: string | null,
): Promise<string | null> {
  const rows = await db.query<{ email: string | null }>(
    `SELECT COALESCE(
       (SELECT email FROM users WHERE id = $1),
       (SELECT customer_email FROM billing_invoices WHERE subscription_id = $2 ORDER BY id DESC LIMIT 1)
     ) AS email`,
    [userId, subscriptionId],
  );
  return rows[0]?.email ?? null;
}

export async function openInvoiceCount(db: Db, subscriptionId: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM billing_invoices WHERE subscription_id = $1 AND status = 'open'`,
    [subscriptionId],
  );
  return rows[0]?.n ?? 0;
}

export async function insertEvent(
  db: Db,
  deviceId: string,
  kind: BillingEventKind,
  actor: string | null,
  at: Date,
  detail: Record<string, unknown>,
): Promise<void> {
  await db.query('INSERT INTO billing_events (device_id, kind, actor, ts, detail) VALUES ($1, $2, $3, $4, $5::jsonb)', [
    deviceId,
    kind,
    actor,
    at,
    JSON.stringify(detail),
  ]);
}

export function deviceEvents(db: Db, deviceId: string, limit: number): Promise<EventRow[]> {
  return db.query<EventRow>(
    `SELECT id, device_id, kind, actor, (EXTRACT(EPOCH FROM ts))::double precision AS ts, detail
       FROM billing_events WHERE device_id = $1 ORDER BY id DESC LIMIT $2`,
    [deviceId, limit],
  );
}
