/**
 * Deciding and sending alerts. Per subscriber, channel and schedule period (UTC, alertPeriod): the
 * first alert goes at once; later ones wait in alert_pending and go as one digest at the period's
 * end. Never twice: the notification's unique row (user, device, channel, period, first|digest) is
 * inserted in the transaction that decides to send, before sending; a restart or a second server
 * instance that finds the row does not send. Quotas count per device, channel and UTC calendar
 * month (the plan's e-mails and SMS); each send and each refusal is a line of the device's server
 * log. Every alert e-mail carries a link that turns that subscription's e-mail off.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  alertPeriod,
  alertQuota,
  alertQuotaMonth,
  alertSmsText,
  devicePlan,
  digestAlertMessage,
  firstAlertMessage,
  type AlertChannel,
  type AlertItem,
  type AlertMessage,
  type AlertPeriod,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { randomToken, sha256 } from '../../security';
import type { DeviceLogService } from '../device-log/device-log.service';
import type { Mailer, SmsSender } from '../mail/mail.service';
import type { PublicAddresses } from '../../public-addresses';
import * as repo from './alerts.repository';

/** The device server log's kind for alert sends and refusals. */
export const ALERT_LOG_KIND = 'alert';
/** Digests sent per tick at most (the rest go at the next tick). */
const DIGESTS_PER_TICK = 500;

const CHANNEL_WORDS: Record<AlertChannel, string> = { email: 'e-mail', sms: 'SMS' };

export interface AlertSender {
  /** Raises alerts of a device to every subscriber that wants them. */
  raise(deviceId: string, alerts: AlertItem[]): Promise<void>;
  /** Digests of periods that have ended: one per user, device, channel and period. */
  sendDueDigests(): Promise<void>;
}

export interface AlertSenderDeps {
  db: Db;
  clock: Clock;
  deviceLog: DeviceLogService;
  mailer: Mailer;
  sms: SmsSender;
  log: FastifyBaseLogger;
  /** The configured origin of each brand: an alert's links use its recipient's brand. */
  addresses: Pick<PublicAddresses, 'originOf'>;
}

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

export function createAlertSender(deps: AlertSenderDeps): AlertSender {
  const { db, clock, deviceLog, log } = deps;

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

  async function raise(deviceId: string, alerts: AlertItem[]): Promise<void> {
    if (alerts.length === 0) return;
    const device = await repo.findAlertDevice(db, deviceId);
    if (!device) return;
    for (const sub of await repo.selectSubscribers(db, deviceId)) {
      const mine = alerts.filter((a) => wants(sub, a));
      for (const channel of channelsOf(sub)) for (const alert of mine) await deliver(device, sub, channel, alert);
    }
  }

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
  return { raise, sendDueDigests };
}
