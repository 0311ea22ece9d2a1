/**
 * Alert rules (DESIGN.md section 5 'Alerts', spec 1 section 9): the schedule period a time falls
 * in, a key's limits and when a value crosses them, the plan's monthly quota of a channel, and
 * the texts of alert e-mails and SMS. Pure: the server passes the time and the device's data.
 */
import { ALERT_SCHEDULE, ALERT_SCHEDULE_OPTIONS, alertScheduleLabel } from './constants';
import { gaugeState } from './display-format';
import { GAUGE_FIELDS, keyDisplayName, type GaugeLimits } from './display-resolve';
import { measurementOf } from './measurements';
import { PLANS, type PlanName } from './plans';
import { EVENT_LEVEL_LABELS, type EventLevel } from './severity';

/** The channels an alert goes out on. */
export const ALERT_CHANNELS = ['email', 'sms'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

/** What raised an alert: an ALERT/WARN/ALARM event, a key crossing its limits, the device going offline. */
export const ALERT_KINDS = ['event', 'limit', 'offline'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Event levels that alert (INFO does not). */
export const ALERTING_EVENT_LEVELS: readonly EventLevel[] = ['alert', 'warning', 'alarm'];

/** A new subscription's schedule: Hourly. */
export const DEFAULT_ALERT_SCHEDULE = ALERT_SCHEDULE.Hourly;

/** Whether `seconds` is one of the schedule options (Once, Every 10 Minutes, Hourly, Daily). */
export function isAlertSchedule(seconds: unknown): seconds is number {
  return ALERT_SCHEDULE_OPTIONS.some((o) => o.value === seconds);
}

/** A schedule period: from `startMs` (inclusive) to `endMs` (exclusive), epoch milliseconds, UTC. */
export interface AlertPeriod {
  startMs: number;
  endMs: number;
}

/**
 * The period of a schedule that `nowMs` falls in: periods of `scheduleS` seconds counted from
 * the Unix epoch, so Hourly periods start on the UTC hour, Daily ones at UTC midnight, Every 10
 * Minutes ones at :00, :10 ... and Once ones every 30 days. The first alert of a period goes at
 * once; later ones go in one digest at the period's end.
 */
export function alertPeriod(nowMs: number, scheduleS: number): AlertPeriod {
  const lengthMs = (isAlertSchedule(scheduleS) ? scheduleS : DEFAULT_ALERT_SCHEDULE) * 1000;
  const startMs = Math.floor(nowMs / lengthMs) * lengthMs;
  return { startMs, endMs: startMs + lengthMs };
}

/** The UTC calendar month of `nowMs`: its first instant and the next month's (quotas count per device per month). */
export function alertQuotaMonth(nowMs: number): AlertPeriod {
  const d = new Date(nowMs);
  return {
    startMs: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
    endMs: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
  };
}

/** The plan's monthly quota of a channel per device: Hosted 300 e-mails and 100 SMS, Trial as Hosted, Basic none. */
export function alertQuota(plan: PlanName, channel: AlertChannel): number {
  return channel === 'email' ? PLANS[plan].emails : PLANS[plan].sms;
}

// ---- Limits ------------------------------------------------------------------------------

/** Where a value stands against its key's limits. */
export type LimitLevel = 'normal' | 'warning' | 'alarm';
const LIMIT_RANK: Record<LimitLevel, number> = { normal: 0, warning: 1, alarm: 2 };

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function gaugeField(setting: unknown, name: string): unknown {
  if (setting === null || typeof setting !== 'object' || Array.isArray(setting)) return undefined;
  const gauge = Object.hasOwn(setting, 'gaugeSettings')
    ? (setting as Record<string, unknown>).gaugeSettings
    : undefined;
  if (gauge === null || typeof gauge !== 'object' || Array.isArray(gauge)) return undefined;
  return Object.hasOwn(gauge, name) ? (gauge as Record<string, unknown>)[name] : undefined;
}

/**
 * A key's warning and alarm limits: its display setting's gaugeSettings over the catalogue's
 * default limits; a side without a limit never alerts. Null when the key has no limit at all
 * (neither its setting nor the catalogue gives one).
 */
export function alertLimits(key: string, setting: unknown): GaugeLimits | null {
  const m = measurementOf(key);
  const given: Partial<Record<(typeof GAUGE_FIELDS)[number], number>> = { ...m.limits };
  for (const f of GAUGE_FIELDS) {
    const v = gaugeField(setting, f);
    if (isFiniteNumber(v)) given[f] = v;
  }
  const { warnLow, warnHigh, alarmLow, alarmHigh } = given;
  if (![warnLow, warnHigh, alarmLow, alarmHigh].some(isFiniteNumber)) return null;
  const low = alarmLow ?? -Infinity;
  const high = alarmHigh ?? Infinity;
  return {
    min: given.min ?? m.range?.min ?? 0,
    max: given.max ?? m.range?.max ?? 100,
    alarmLow: low,
    alarmHigh: high,
    warnLow: warnLow ?? low,
    warnHigh: warnHigh ?? high,
  };
}

/** Where a value stands: alarm at or beyond an alarm limit, warning at or beyond a warning limit, else normal. */
export function limitLevel(value: number, limits: GaugeLimits): LimitLevel {
  return gaugeState(value, limits);
}

/**
 * Whether moving from `previous` to `current` alerts: entering the warning or alarm band from a
 * lower one (normal to warning, normal to alarm, warning to alarm). Staying, falling back, or a
 * key seen for the first time (`previous` null) in the normal band do not; a first value already
 * past a limit does.
 */
export function crossesLimit(previous: LimitLevel | null, current: LimitLevel): boolean {
  return LIMIT_RANK[current] > LIMIT_RANK[previous ?? 'normal'];
}

// ---- Texts -------------------------------------------------------------------------------

/** One alert, as detected. `ts` is epoch seconds. */
export interface AlertItem {
  kind: AlertKind;
  ts: number;
  /** One line saying what happened. */
  text: string;
}

/** The longest text of one alert (an event's message is cut here). */
export const ALERT_TEXT_MAX_LENGTH = 200;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** 'ALARM event: Engine over temperature' (the topic before the message when it has one). */
export function eventAlertText(level: EventLevel, msg: string, topic?: string | null): string {
  const what = topic ? `${topic}: ${msg}` : msg;
  return cut(`${EVENT_LEVEL_LABELS[level]} event: ${what}`, ALERT_TEXT_MAX_LENGTH);
}

/** 'Temperature (ambient_temp) is 61.0 °C: past its alarm limit' — the value with the key's decimals and units. */
export function limitAlertText(
  key: string,
  setting: unknown,
  value: number,
  level: Exclude<LimitLevel, 'normal'>,
): string {
  const m = measurementOf(key);
  const name = keyDisplayName(key, setting);
  const label = name === key ? key : `${name} (${key})`;
  const units = m.units ? ` ${m.units}` : '';
  return cut(
    `${label} is ${value.toFixed(Math.max(0, Math.min(8, m.dp)))}${units}: past its ${level === 'alarm' ? 'alarm' : 'warning'} limit`,
    ALERT_TEXT_MAX_LENGTH,
  );
}

/** 'The device is offline: no contact since 2026-03-01 10:20 UTC' (null: never any contact). */
export function offlineAlertText(lastContactS: number | null): string {
  return lastContactS === null
    ? 'The device is offline: it has made no contact'
    : `The device is offline: no contact since ${utcText(lastContactS * 1000)}`;
}

/** '2026-03-01 10:20 UTC'. */
export function utcText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export interface AlertMessageInput {
  deviceId: string;
  deviceName: string;
  /** Schedule seconds of the subscription. */
  schedule: number;
  period: AlertPeriod;
  /** The portal's address, for links: 'https://portal.example.com'. */
  origin: string;
  /** The unsubscribe token of this e-mail (e-mail only). */
  unsubscribeToken?: string;
}

/** An alert e-mail or SMS: its subject (e-mail) and text. */
export interface AlertMessage {
  subject: string;
  text: string;
}

const SUBJECT_MAX_LENGTH = 150;
/** SMS text at most this long (a few concatenated messages). */
export const ALERT_SMS_MAX_LENGTH = 300;

function deviceLabel(input: AlertMessageInput): string {
  return input.deviceName && input.deviceName !== input.deviceId
    ? `${input.deviceName} (${input.deviceId})`
    : input.deviceId;
}

/** The link that turns this subscription's e-mail off, without signing in. */
export function unsubscribeUrl(origin: string, token: string): string {
  return `${origin}/unsubscribe/${token}`;
}

function footer(input: AlertMessageInput): string[] {
  const lines = ['', `Device: ${input.origin}/data/${input.deviceId}`];
  if (input.unsubscribeToken)
    lines.push(`Stop alert e-mails for this device: ${unsubscribeUrl(input.origin, input.unsubscribeToken)}`);
  return lines;
}

/**
 * The first alert of a period, sent at once: the alert, and that later alerts of the period
 * come in one digest at its end.
 */
export function firstAlertMessage(input: AlertMessageInput, alert: AlertItem): AlertMessage {
  const schedule = alertScheduleLabel(input.schedule);
  const subject = cut(`${deviceLabel(input)}: ${alert.text}`, SUBJECT_MAX_LENGTH);
  const text = [
    `${utcText(alert.ts * 1000)}  ${alert.text}`,
    '',
    `Your alert schedule for this device is ${schedule}: further alerts until ${utcText(input.period.endMs)} come in one digest then.`,
    ...footer(input),
  ].join('\n');
  return { subject, text };
}

/** The digest of a period: every later alert, oldest first, one line each. */
export function digestAlertMessage(input: AlertMessageInput, alerts: readonly AlertItem[]): AlertMessage {
  const n = alerts.length;
  const subject = cut(
    `${deviceLabel(input)}: ${n} more ${n === 1 ? 'alert' : 'alerts'} until ${utcText(input.period.endMs)}`,
    SUBJECT_MAX_LENGTH,
  );
  const lines = [...alerts].sort((a, b) => a.ts - b.ts).map((a) => `${utcText(a.ts * 1000)}  ${a.text}`);
  const text = [
    `Alerts from ${utcText(input.period.startMs)} to ${utcText(input.period.endMs)} after the first one:`,
    '',
    ...lines,
    ...footer(input),
  ].join('\n');
  return { subject, text };
}

/** An SMS: the e-mail's subject, cut to ALERT_SMS_MAX_LENGTH. */
export function alertSmsText(message: AlertMessage): string {
  return cut(message.subject, ALERT_SMS_MAX_LENGTH);
}
