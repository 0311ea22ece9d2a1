/**
 * Alerts (issue 14, DESIGN.md section 5 'Alerts'). Each device user subscribes per device to
 * e-mail and/or SMS for the device's ALERT/WARN/ALARM events, a key crossing its display-settings
 * limits and the device going offline, with one schedule. Detection runs after ingest commits
 * (events, limit crossings against the last state per device and key) and on a timer (devices
 * gone offline, digests due).
 *
 * Per subscriber, channel and schedule period (UTC, alertPeriod): the first alert goes at once;
 * later ones wait in alert_pending and go as one digest at the period's end. Never twice: the
 * notification's unique row (user, device, channel, period, first|digest) is inserted in the
 * transaction that decides to send, before sending; a restart or a second server instance that
 * finds the row does not send. Quotas count per device, channel and UTC calendar month (the
 * plan's e-mails and SMS); each send and each refusal is a line of the device's server log.
 * Every alert e-mail carries a link that turns that subscription's e-mail off.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  ALERTING_EVENT_LEVELS,
  ALERT_MESSAGES,
  DEFAULT_ALERT_SCHEDULE,
  appliedIntervalSeconds,
  NOTIFICATION_HISTORY_LIMIT,
  RECORD_STRUCTURED_KEYS,
  alertLimits,
  alertPeriod,
  alertQuota,
  alertQuotaMonth,
  alertSmsText,
  contactStatus,
  crossesLimit,
  devicePlan,
  digestAlertMessage,
  eventAlertText,
  eventLevel,
  firstAlertMessage,
  limitAlertText,
  limitLevel,
  offlineAlertText,
  type AlertChannel,
  type AlertItem,
  type AlertMessage,
  type AlertPeriod,
  type AlertPhone,
  type AlertPhoneResponse,
  type AlertSubscription,
  type AlertSubscriptionBody,
  type BrandConfig,
  type DeviceRecord,
  type NotificationsResponse,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, conflict } from '../../errors';
import { randomDigits, randomToken, sameDigest, sha256 } from '../../security';
import type { AccessService } from '../access/access.service';
import { MAX_MFA_ATTEMPTS } from '../auth/mfa.service';
import type { DeviceLogService } from '../device-log/device-log.service';
import type { Mailer, SmsSender } from '../mail/mail.service';
import type { PublicAddresses } from '../../public-addresses';
import * as repo from './alerts.repository';

export interface AlertsOptions {
  /** How often the timer checks for devices gone offline and digests due (0: no timer; tests call tick). */
  tickMs: number;
}

export const DEFAULT_ALERTS_OPTIONS: AlertsOptions = { tickMs: 30_000 };

/** How long the set of watched devices is kept before it is read again (ms). */
const WATCHED_CACHE_MS = 5000;

/** The device server log's kind for alert sends and refusals. */
export const ALERT_LOG_KIND = 'alert';
/** Digests sent per tick at most (the rest go at the next tick). */
const DIGESTS_PER_TICK = 500;
const PHONE_CODE_TTL_MS = 10 * 60_000;

/** A record ingest stored (after its commit), with how it came. */
export interface StoredRecord {
  deviceId: string;
  record: DeviceRecord;
  source: 'mqtt' | 'http' | 'import';
}

const STRUCTURED = new Set<string>(RECORD_STRUCTURED_KEYS);
const CHANNEL_WORDS: Record<AlertChannel, string> = { email: 'e-mail', sms: 'SMS' };

/** The channels a subscriber's alerts go out on now: e-mail when chosen, SMS when chosen and a phone is verified. */
function channelsOf(sub: repo.SubscriberRow): AlertChannel[] {
  const out: AlertChannel[] = [];
  if (sub.email) out.push('email');
  if (sub.sms && sub.phone) out.push('sms');
  return out;
}

function wants(sub: repo.SubscriberRow, alert: AlertItem): boolean {
  return alert.kind === 'event' ? sub.events : alert.kind === 'limit' ? sub.limits : sub.offline;
}

function recipient(sub: repo.SubscriberRow, channel: AlertChannel): string {
  return channel === 'email' ? sub.user_email : (sub.phone ?? '');
}

/** What a decision in the notification's transaction leaves to do after its commit. */
interface Outgoing {
  id: number;
  deviceId: string;
  channel: AlertChannel;
  to: string;
  message: AlertMessage;
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
}) {
  const { db, clock, access, deviceLog, log } = deps;
  const options: AlertsOptions = { ...DEFAULT_ALERTS_OPTIONS, ...deps.options };

  // ------------------------------------------------------------ one queue of alert work per process

  /** Detection and ticks run one at a time, in order. */
  let tail: Promise<void> = Promise.resolve();

  /**
   * The devices someone watches for events or limits, read at most every WATCHED_CACHE_MS: ingest
   * batches of devices nobody watches cost no query and queue no work. A subscription saved here
   * refreshes it at once; one saved on another instance is seen within WATCHED_CACHE_MS.
   */
  let watched: { ids: ReadonlySet<string>; readAt: number } | null = null;
  const watchedFresh = () => watched !== null && Date.now() - watched.readAt < WATCHED_CACHE_MS;
  async function watchedIds(): Promise<ReadonlySet<string>> {
    if (!watched || !watchedFresh())
      watched = { ids: new Set(await repo.selectWatchedDeviceIds(db)), readAt: Date.now() };
    return watched.ids;
  }
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  function enqueue(label: string, work: () => Promise<void>): Promise<void> {
    const run = tail.then(work).catch((error: unknown) => log.error({ err: error }, `${label} failed`));
    tail = run;
    return run;
  }

  // ------------------------------------------------------------ deciding and sending

  /**
   * In the notification's transaction: counts it against the device's monthly quota and writes
   * the server-log line; the e-mail's unsubscribe token is stored. Null when the quota refuses it.
   */
  async function decide(
    tx: Db,
    id: number,
    device: repo.AlertDeviceRow,
    sub: repo.SubscriberRow,
    channel: AlertChannel,
    message: AlertMessage,
    token: string | undefined,
    now: Date,
  ): Promise<Outgoing | null> {
    const plan = devicePlan(device, now.getTime());
    const limit = alertQuota(plan, channel);
    const month = new Date(alertQuotaMonth(now.getTime()).startMs);
    const to = recipient(sub, channel);
    const what = CHANNEL_WORDS[channel];
    const line = (text: string) => [
      { device_id: device.id, ts: now.toISOString(), kind: ALERT_LOG_KIND, message: text },
    ];
    if (!(await repo.claimQuota(tx, device.id, month, channel, limit))) {
      await repo.setNotificationStatus(tx, id, 'refused');
      const why =
        limit === 0
          ? `the ${plan} plan includes no alert ${what}s`
          : `this month's quota of ${limit} alert ${what}s for the device is used`;
      await deviceLog.writeRows(line(`Alert ${what} to ${to} not sent: ${why}. ${message.subject}`), tx);
      return null;
    }
    if (token) await repo.insertUnsubscribeToken(tx, sha256(token), sub.user_id, device.id, now);
    await deviceLog.writeRows(line(`Alert ${what} sent to ${to}: ${message.subject}`), tx);
    return { id, deviceId: device.id, channel, to, message };
  }

  /** Sends after the commit; a failure is logged and marks the notification failed. */
  async function send(out: Outgoing): Promise<void> {
    try {
      if (out.channel === 'email')
        await deps.mailer.send({ to: out.to, subject: out.message.subject, text: out.message.text });
      else await deps.sms.send({ to: out.to, text: alertSmsText(out.message) });
    } catch (error) {
      log.error({ err: error, deviceId: out.deviceId }, 'Sending an alert failed');
      await repo.setNotificationStatus(db, out.id, 'failed');
      await deviceLog.write(
        out.deviceId,
        ALERT_LOG_KIND,
        `Alert ${CHANNEL_WORDS[out.channel]} to ${out.to} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** What an alert message to `sub` says of the device, its period and links (under the subscriber's brand). */
  function messageInput(device: repo.AlertDeviceRow, sub: repo.SubscriberRow, period: AlertPeriod, token?: string) {
    return {
      deviceId: device.id,
      deviceName: device.name,
      schedule: sub.schedule,
      period,
      origin: deps.addresses.originOf(sub.user_brand),
      ...(token ? { unsubscribeToken: token } : {}),
    };
  }

  /** One alert to one subscriber on one channel: the first of its period at once, a later one kept for the digest. */
  async function deliver(
    device: repo.AlertDeviceRow,
    sub: repo.SubscriberRow,
    channel: AlertChannel,
    alert: AlertItem,
  ): Promise<void> {
    const now = clock.now();
    const period = alertPeriod(now.getTime(), sub.schedule);
    const periodStart = new Date(period.startMs);
    const token = channel === 'email' ? randomToken() : undefined;
    const message = firstAlertMessage(messageInput(device, sub, period, token), alert);
    const out = await db.transaction(async (tx) => {
      const id = await repo.insertNotification(
        tx,
        { userId: sub.user_id, deviceId: device.id, channel, periodStart, kind: 'first' },
        message.subject,
        now,
      );
      if (id === null) {
        await repo.insertPending(tx, {
          userId: sub.user_id,
          deviceId: device.id,
          channel,
          schedule: sub.schedule,
          periodStart,
          periodEnd: new Date(period.endMs),
          kind: alert.kind,
          ts: alert.ts,
          text: alert.text,
        });
        return null;
      }
      return decide(tx, id, device, sub, channel, message, token, now);
    });
    if (out) await send(out);
  }

  /** Raises alerts of a device to every subscriber that wants them. */
  async function raise(deviceId: string, alerts: AlertItem[]): Promise<void> {
    if (alerts.length === 0) return;
    const device = await repo.findAlertDevice(db, deviceId);
    if (!device) return;
    for (const sub of await repo.selectSubscribers(db, deviceId)) {
      const mine = alerts.filter((a) => wants(sub, a));
      for (const channel of channelsOf(sub)) for (const alert of mine) await deliver(device, sub, channel, alert);
    }
  }

  // ------------------------------------------------------------ detection

  /** The limit crossings in a device's new records (oldest first), against and updating its key states. */
  async function limitCrossings(device: repo.AlertDeviceRow, records: DeviceRecord[]): Promise<AlertItem[]> {
    const settings = device.display_settings ?? {};
    return db.transaction(async (tx) => {
      const states = new Map((await repo.lockKeyStates(tx, device.id)).map((s) => [s.key, s]));
      const changed = new Map<string, repo.KeyStateRow>();
      const out: AlertItem[] = [];
      for (const record of records) {
        for (const [key, value] of Object.entries(record)) {
          if (STRUCTURED.has(key) || typeof value !== 'number' || !Number.isFinite(value)) continue;
          const setting = Object.hasOwn(settings, key) ? settings[key] : undefined;
          const limits = alertLimits(key, setting);
          if (!limits) continue;
          const previous = changed.get(key) ?? states.get(key);
          if (previous && previous.ts >= record.ts) continue;
          const level = limitLevel(value, limits);
          if (level !== 'normal' && crossesLimit(previous?.level ?? null, level))
            out.push({ kind: 'limit', ts: record.ts, text: limitAlertText(key, setting, value, level) });
          changed.set(key, { key, level, ts: record.ts });
        }
      }
      await repo.upsertKeyStates(tx, device.id, [...changed.values()]);
      return out;
    });
  }

  /** After an ingest commit: events and limit crossings of the devices someone watches. */
  async function detect(stored: readonly StoredRecord[]): Promise<void> {
    const byDevice = new Map<string, DeviceRecord[]>();
    for (const s of stored) {
      if (s.source === 'import') continue; // history brought in from a file is not news
      let list = byDevice.get(s.deviceId);
      if (!list) byDevice.set(s.deviceId, (list = []));
      list.push(s.record);
    }
    const ids = await watchedIds();
    for (const deviceId of [...byDevice.keys()]) if (!ids.has(deviceId)) byDevice.delete(deviceId);
    if (byDevice.size === 0) return;
    for (const watched of await repo.selectWatchedDevices(db, [...byDevice.keys()])) {
      const records = byDevice.get(watched.device_id)!.sort((a, b) => a.ts - b.ts);
      const device = await repo.findAlertDevice(db, watched.device_id);
      if (!device) continue;
      const alerts: AlertItem[] = [];
      if (watched.events) {
        for (const record of records) {
          for (const event of record.events ?? []) {
            const level = eventLevel(event);
            if (ALERTING_EVENT_LEVELS.includes(level))
              alerts.push({ kind: 'event', ts: record.ts, text: eventAlertText(level, event.msg, event.topic) });
          }
        }
      }
      if (watched.limits) alerts.push(...(await limitCrossings(device, records)));
      await raise(
        device.id,
        alerts.sort((a, b) => a.ts - b.ts),
      );
    }
  }

  /** Devices someone watches that have gone offline since their last contact (each silence once). */
  async function checkOffline(): Promise<void> {
    const now = clock.now();
    for (const d of await repo.selectOfflineWatched(db)) {
      const lastContact = Number(d.last_contact);
      // The interval of the config the device applied and reported, as the device page takes it.
      const intervalS = appliedIntervalSeconds({ settings: { device: d.applied_device } });
      if (contactStatus({ lastRecordS: null, lastContactS: lastContact, intervalS }, now.getTime()) !== 'offline')
        continue;
      if (d.alerted_contact !== null && Number(d.alerted_contact) === lastContact) continue;
      if (!(await repo.claimOffline(db, d.id, lastContact, now))) continue;
      await raise(d.id, [{ kind: 'offline', ts: now.getTime() / 1000, text: offlineAlertText(lastContact) }]);
    }
  }

  /** Digests of periods that have ended: one per user, device, channel and period. */
  async function sendDueDigests(): Promise<void> {
    const now = clock.now();
    for (const due of await repo.selectDueDigests(db, now, DIGESTS_PER_TICK)) {
      const device = await repo.findAlertDevice(db, due.device_id);
      const sub = (await repo.selectSubscribers(db, due.device_id)).find((s) => s.user_id === due.user_id);
      const period = { startMs: new Date(due.period_start).getTime(), endMs: new Date(due.period_end).getTime() };
      const token = due.channel === 'email' ? randomToken() : undefined;
      const out = await db.transaction(async (tx) => {
        const items = await repo.takePending(tx, due);
        // Gone: another instance took them, or the user no longer wants this channel or lost the device.
        if (items.length === 0 || !device || !sub || !channelsOf(sub).includes(due.channel)) return null;
        const message = digestAlertMessage(messageInput(device, sub, period, token), items);
        const id = await repo.insertNotification(
          tx,
          {
            userId: due.user_id,
            deviceId: due.device_id,
            channel: due.channel,
            periodStart: new Date(due.period_start),
            kind: 'digest',
          },
          message.subject,
          now,
        );
        return id === null ? null : decide(tx, id, device, sub, due.channel, message, token, now);
      });
      if (out) await send(out);
    }
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

    /** GET /device/{id}/alerts: the caller's subscription (any role; a stranger 404). */
    async getSubscription(userId: string, deviceId: string): Promise<AlertSubscription> {
      await access.authorize(userId, deviceId, null);
      return subscriptionOf(userId, deviceId);
    },

    /** PUT /device/{id}/alerts: SMS needs a verified phone (409 otherwise). */
    async putSubscription(userId: string, deviceId: string, body: AlertSubscriptionBody): Promise<AlertSubscription> {
      await access.authorize(userId, deviceId, null);
      if (body.sms && !(await verifiedPhone(userId))) throw conflict(ALERT_MESSAGES.smsNeedsPhone);
      await repo.upsertSubscription(db, userId, deviceId, body, clock.now());
      watched = null;
      return subscriptionOf(userId, deviceId);
    },

    /** GET /account/notifications: the caller's newest notifications. */
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

    /** Starts verifying a phone: a 6-digit code goes to it by SMS (valid 10 minutes, 5 tries). */
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

    /** Confirms the pending phone with its code; it becomes the phone SMS alerts go to. */
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

    /** Removes the phone; SMS alerts are turned off on every subscription. */
    async removePhone(userId: string): Promise<AlertPhoneResponse> {
      await db.transaction(async (tx) => {
        await repo.deletePhone(tx, userId);
        await repo.turnSmsOff(tx, userId, clock.now());
      });
      return { message: ALERT_MESSAGES.phoneRemoved, phone: await phoneOf(userId) };
    },

    /** The link of an alert e-mail: turns that subscription's e-mail off, without signing in. */
    async unsubscribe(token: string): Promise<{ message: string }> {
      const done = await repo.unsubscribeByToken(db, sha256(token), clock.now());
      if (!done) throw new AppError(404, 'NOT_FOUND', ALERT_MESSAGES.unsubscribeInvalid);
      return { message: ALERT_MESSAGES.unsubscribed(done.device_name) };
    },

    /** Ingest, after a commit: the stored records are checked for alerts in the background. */
    recordsStored(stored: readonly StoredRecord[]): void {
      if (closed || stored.length === 0) return;
      if (watched && watchedFresh() && !stored.some((s) => watched!.ids.has(s.deviceId))) return;
      void enqueue('Alert detection', () => detect(stored));
    },

    /** Offline checks and digests due, now (the timer calls it; tests too, after moving the clock). */
    tick(): Promise<void> {
      return enqueue('Alert tick', async () => {
        await checkOffline();
        await sendDueDigests();
      });
    },

    /** Resolves when the alert work queued so far is done. */
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

export type AlertsService = ReturnType<typeof createAlertsService>;
