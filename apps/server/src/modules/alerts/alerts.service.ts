/**
 * Alerts (issue 14, DESIGN.md section 5 'Alerts'). Each device user subscribes per device to
 * e-mail and/or SMS for the device's ALERT/WARN/ALARM events, a key crossing its display-settings
 * limits and the device going offline, with one schedule. Detection runs after ingest commits
 * (events, limit crossings against the last state per device and key) and on a timer (devices
 * gone offline, digests due), one piece of work at a time per process.
 *
 * This file holds the calls (subscriptions, the alert phone, the notification history, the
 * unsubscribe link) and the queue and timer of that work; alert-detection.ts finds alerts and
 * alert-sending.ts decides and sends them (first at once, later ones as a digest, within quota).
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  ALERT_MESSAGES,
  DEFAULT_ALERT_SCHEDULE,
  NOTIFICATION_HISTORY_LIMIT,
  type AlertPhone,
  type AlertPhoneResponse,
  type AlertSubscription,
  type AlertSubscriptionBody,
  type BrandConfig,
  type NotificationsResponse,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, conflict } from '../../errors';
import { randomDigits, sameDigest, sha256 } from '../../security';
import type { AccessService } from '../access/access.service';
import { MAX_MFA_ATTEMPTS } from '../auth/mfa.service';
import type { DeviceLogService } from '../device-log/device-log.service';
import type { Mailer, SmsSender } from '../mail/mail.service';
import type { PublicAddresses } from '../../public-addresses';
import { createAlertDetection, type StoredRecord } from './alert-detection';
import { createAlertSender } from './alert-sending';
import * as repo from './alerts.repository';

export type { StoredRecord } from './alert-detection';
export { ALERT_LOG_KIND } from './alert-sending';

export interface AlertsOptions {
  /** How often the timer checks for devices gone offline and digests due (0: no timer; tests call tick). */
  tickMs: number;
}

export const DEFAULT_ALERTS_OPTIONS: AlertsOptions = { tickMs: 30_000 };

const PHONE_CODE_TTL_MS = 10 * 60_000;

export interface AlertsService {
  /** The timer's options in effect. */
  options: AlertsOptions;
  /** GET /device/{id}/alerts: the caller's subscription (any role; a stranger 404). */
  getSubscription(userId: string, deviceId: string): Promise<AlertSubscription>;
  /** PUT /device/{id}/alerts: SMS needs a verified phone (409 otherwise). */
  putSubscription(userId: string, deviceId: string, body: AlertSubscriptionBody): Promise<AlertSubscription>;
  /** GET /account/notifications: the caller's newest notifications. */
  notifications(userId: string): Promise<NotificationsResponse>;
  /** The caller's verified alert phone, and the one waiting for its code while that code is live. */
  getPhone(userId: string): Promise<AlertPhone>;
  /** Starts verifying a phone: a 6-digit code goes to it by SMS (valid 10 minutes, 5 tries). */
  setPhone(userId: string, brand: BrandConfig, phone: string): Promise<AlertPhoneResponse>;
  /** Confirms the pending phone with its code; it becomes the phone SMS alerts go to. */
  confirmPhone(userId: string, code: string): Promise<AlertPhoneResponse>;
  /** Removes the phone; SMS alerts are turned off on every subscription. */
  removePhone(userId: string): Promise<AlertPhoneResponse>;
  /** The link of an alert e-mail: turns that subscription's e-mail off, without signing in. */
  unsubscribe(token: string): Promise<{ message: string }>;
  /** Ingest, after a commit: the stored records are checked for alerts in the background. */
  recordsStored(stored: readonly StoredRecord[]): void;
  /** Offline checks and digests due, now (the timer calls it; tests too, after moving the clock). */
  tick(): Promise<void>;
  /** Resolves when the alert work queued so far is done. */
  settled(): Promise<void>;
  /** Starts the timer (none when tickMs is 0). */
  start(): void;
  /** Stops the timer, takes no more work and waits for the work queued. */
  close(): Promise<void>;
}

export function createAlertsService(deps: {
  db: Db;
  clock: Clock;
  access: AccessService;
  deviceLog: DeviceLogService;
  mailer: Mailer;
  sms: SmsSender;
  log: FastifyBaseLogger;
  /** The configured origin of each brand: an alert's links use its recipient's brand. */
  addresses: Pick<PublicAddresses, 'originOf'>;
  options?: Partial<AlertsOptions>;
}): AlertsService {
  const { db, clock, access, log } = deps;
  const options: AlertsOptions = { ...DEFAULT_ALERTS_OPTIONS, ...deps.options };
  const sender = createAlertSender(deps);
  const detection = createAlertDetection({ db, clock, sender });

  // ------------------------------------------------------------ one queue of alert work per process

  /** Detection and ticks run one at a time, in order. */
  let tail: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  function enqueue(label: string, work: () => Promise<void>): Promise<void> {
    const run = tail.then(work).catch((error: unknown) => log.error({ err: error }, `${label} failed`));
    tail = run;
    return run;
  }

  // ------------------------------------------------------------ the calls

  async function verifiedPhone(userId: string): Promise<string | null> {
    const row = await repo.findPhone(db, userId);
    return row?.verified_at ? row.phone : null;
  }

  async function phoneOf(userId: string): Promise<AlertPhone> {
    const row = await repo.findPhone(db, userId);
    const pendingLive = row?.pending_phone && row.pending_expires_at && row.pending_expires_at > clock.now();
    return {
      phone: row?.verified_at ? row.phone : null,
      pendingPhone: pendingLive ? row.pending_phone : null,
    };
  }

  async function subscriptionOf(userId: string, deviceId: string): Promise<AlertSubscription> {
    const row = await repo.findSubscription(db, userId, deviceId);
    return {
      deviceid: deviceId,
      email: row?.email ?? false,
      sms: row?.sms ?? false,
      events: row?.events ?? false,
      limits: row?.limits ?? false,
      offline: row?.offline ?? false,
      schedule: row?.schedule ?? DEFAULT_ALERT_SCHEDULE,
      verifiedPhone: await verifiedPhone(userId),
    };
  }

  const codeInvalid = () => new AppError(400, 'CODE_INVALID', ALERT_MESSAGES.codeInvalid);

  return {
    options,

    async getSubscription(userId: string, deviceId: string): Promise<AlertSubscription> {
      await access.authorize(userId, deviceId, null);
      return subscriptionOf(userId, deviceId);
    },

    async putSubscription(userId: string, deviceId: string, body: AlertSubscriptionBody): Promise<AlertSubscription> {
      await access.authorize(userId, deviceId, null);
      if (body.sms && !(await verifiedPhone(userId))) throw conflict(ALERT_MESSAGES.smsNeedsPhone);
      await repo.upsertSubscription(db, userId, deviceId, body, clock.now());
      detection.forgetWatched();
      return subscriptionOf(userId, deviceId);
    },

    async notifications(userId: string): Promise<NotificationsResponse> {
      const rows = await repo.selectNotifications(db, userId, NOTIFICATION_HISTORY_LIMIT);
      return {
        notifications: rows.map((r) => ({
          id: r.id,
          ts: new Date(r.created_at).getTime() / 1000,
          deviceid: r.device_id,
          deviceName: r.device_name,
          channel: r.channel,
          kind: r.kind,
          subject: r.subject,
          status: r.status,
        })),
      };
    },

    getPhone: phoneOf,

    async setPhone(userId: string, brand: BrandConfig, phone: string): Promise<AlertPhoneResponse> {
      const code = randomDigits(6);
      await repo.setPendingPhone(db, userId, {
        phone,
        codeHash: sha256(code),
        expiresAt: new Date(clock.now().getTime() + PHONE_CODE_TTL_MS),
      });
      await deps.sms.send({ to: phone, text: `${code} is your ${brand.name} code to receive alerts on this phone.` });
      return { message: ALERT_MESSAGES.phoneCodeSent(phone), phone: await phoneOf(userId) };
    },

    async confirmPhone(userId: string, code: string): Promise<AlertPhoneResponse> {
      const row = await repo.findPhone(db, userId);
      const attempts = row?.pending_code_hash
        ? await repo.spendPhoneAttempt(db, userId, clock.now(), MAX_MFA_ATTEMPTS)
        : null;
      if (!row?.pending_phone || !row.pending_code_hash || attempts === null) throw codeInvalid();
      if (!sameDigest(sha256(code), row.pending_code_hash)) {
        if (attempts >= MAX_MFA_ATTEMPTS) await repo.clearPendingPhone(db, userId);
        throw codeInvalid();
      }
      await repo.verifyPendingPhone(db, userId, row.pending_phone, clock.now());
      return { message: ALERT_MESSAGES.phoneVerified(row.pending_phone), phone: await phoneOf(userId) };
    },

    async removePhone(userId: string): Promise<AlertPhoneResponse> {
      await db.transaction(async (tx) => {
        await repo.deletePhone(tx, userId);
        await repo.turnSmsOff(tx, userId, clock.now());
      });
      return { message: ALERT_MESSAGES.phoneRemoved, phone: await phoneOf(userId) };
    },

    async unsubscribe(token: string): Promise<{ message: string }> {
      const done = await repo.unsubscribeByToken(db, sha256(token), clock.now());
      if (!done) throw new AppError(404, 'NOT_FOUND', ALERT_MESSAGES.unsubscribeInvalid);
      return { message: ALERT_MESSAGES.unsubscribed(done.device_name) };
    },

    recordsStored(stored: readonly StoredRecord[]): void {
      if (closed || stored.length === 0) return;
      if (!detection.mayConcern(stored)) return;
      void enqueue('Alert detection', () => detection.detect(stored));
    },

    tick(): Promise<void> {
      return enqueue('Alert tick', async () => {
        await detection.checkOffline();
        await sender.sendDueDigests();
      });
    },

    async settled(): Promise<void> {
      let seen: Promise<void> | undefined;
      while (seen !== tail) {
        seen = tail;
        await seen;
      }
    },

    start(): void {
      if (options.tickMs <= 0 || timer) return;
      timer = setInterval(() => void this.tick(), options.tickMs);
      timer.unref();
    },

    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      timer = null;
      await this.settled();
    },
  };
}
