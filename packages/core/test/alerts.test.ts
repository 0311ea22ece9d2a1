import { describe, expect, it } from 'vitest';
import {
  ALERT_SCHEDULE,
  AlertPhoneBodySchema,
  AlertSubscriptionBodySchema,
  UnsubscribeParamsSchema,
  alertLimits,
  alertPeriod,
  alertQuota,
  alertQuotaMonth,
  alertSmsText,
  crossesLimit,
  digestAlertMessage,
  eventAlertText,
  firstAlertMessage,
  isAlertSchedule,
  limitAlertText,
  limitLevel,
  offlineAlertText,
  unsubscribeUrl,
} from '../src/index';

const at = (iso: string) => Date.parse(iso);

describe('alertPeriod (UTC, counted from the epoch)', () => {
  it('Hourly periods start on the UTC hour; the end is exclusive', () => {
    expect(alertPeriod(at('2026-03-04T10:59:59.999Z'), ALERT_SCHEDULE.Hourly)).toEqual({
      startMs: at('2026-03-04T10:00:00Z'),
      endMs: at('2026-03-04T11:00:00Z'),
    });
    expect(alertPeriod(at('2026-03-04T11:00:00Z'), 3600).startMs).toBe(at('2026-03-04T11:00:00Z'));
  });

  it('Daily at UTC midnight, Every 10 Minutes on the tens, Once in 30-day periods', () => {
    expect(alertPeriod(at('2026-03-04T23:30:00Z'), 86_400)).toEqual({
      startMs: at('2026-03-04T00:00:00Z'),
      endMs: at('2026-03-05T00:00:00Z'),
    });
    expect(alertPeriod(at('2026-03-04T10:19:00Z'), 600)).toEqual({
      startMs: at('2026-03-04T10:10:00Z'),
      endMs: at('2026-03-04T10:20:00Z'),
    });
    const once = alertPeriod(at('2026-03-04T10:19:00Z'), 2_592_000);
    expect(once.endMs - once.startMs).toBe(2_592_000_000);
    expect(once.startMs % 2_592_000_000).toBe(0);
    expect(once.startMs).toBeLessThanOrEqual(at('2026-03-04T10:19:00Z'));
  });

  it('a stored value that is no option is treated as Hourly', () => {
    expect(alertPeriod(at('2026-03-04T10:19:00Z'), 1234)).toEqual(alertPeriod(at('2026-03-04T10:19:00Z'), 3600));
  });
});

describe('schedules, months and quotas', () => {
  it('takes the four schedule values only', () => {
    for (const v of [2_592_000, 600, 3600, 86_400]) expect(isAlertSchedule(v)).toBe(true);
    for (const v of [0, -1, 601, '600', null, 1_296_000]) expect(isAlertSchedule(v)).toBe(false);
  });

  it('the quota month is the UTC calendar month', () => {
    expect(alertQuotaMonth(at('2026-02-28T23:59:59Z'))).toEqual({
      startMs: at('2026-02-01T00:00:00Z'),
      endMs: at('2026-03-01T00:00:00Z'),
    });
    expect(alertQuotaMonth(at('2026-12-31T12:00:00Z')).endMs).toBe(at('2027-01-01T00:00:00Z'));
  });

  it('Hosted 300 e-mails and 100 SMS, Trial as Hosted, Basic none', () => {
    expect([alertQuota('Hosted', 'email'), alertQuota('Hosted', 'sms')]).toEqual([300, 100]);
    expect([alertQuota('Trial', 'email'), alertQuota('Trial', 'sms')]).toEqual([300, 100]);
    expect([alertQuota('Basic', 'email'), alertQuota('Basic', 'sms')]).toEqual([0, 0]);
  });
});

describe('limits', () => {
  it("takes the display setting's gaugeSettings over the catalogue's limits", () => {
    // ambient_temp: catalogue warn -10/50, alarm -20/60.
    const catalogue = alertLimits('ambient_temp', undefined)!;
    expect(catalogue).toMatchObject({ warnLow: -10, warnHigh: 50, alarmLow: -20, alarmHigh: 60 });
    const own = alertLimits('ambient_temp', { gaugeSettings: { warnHigh: 30, alarmHigh: 40 } })!;
    expect(own).toMatchObject({ warnLow: -10, warnHigh: 30, alarmLow: -20, alarmHigh: 40 });
  });

  it('a key with no limit anywhere has none; one side only never alerts on the other', () => {
    expect(alertLimits('my_custom_key', undefined)).toBeNull();
    expect(alertLimits('my_custom_key', { gaugeSettings: { min: 0, max: 10 } })).toBeNull();
    expect(alertLimits('my_custom_key', { gaugeSettings: 'nonsense' })).toBeNull();
    const high = alertLimits('my_custom_key', { gaugeSettings: { alarmHigh: 100 } })!;
    expect(limitLevel(-1e9, high)).toBe('normal');
    expect(limitLevel(99, high)).toBe('normal');
    expect(limitLevel(100, high)).toBe('alarm');
  });

  it('levels: alarm at or beyond an alarm limit, warning at or beyond a warning limit', () => {
    const l = alertLimits('t', { gaugeSettings: { warnLow: 10, warnHigh: 50, alarmLow: 0, alarmHigh: 60 } })!;
    expect([0, 1, 10, 11, 49, 50, 59, 60].map((v) => limitLevel(v, l))).toEqual([
      'alarm',
      'warning',
      'warning',
      'normal',
      'normal',
      'warning',
      'warning',
      'alarm',
    ]);
  });

  it('crossing: entering a higher band alerts; staying, falling or a first normal value does not', () => {
    expect(crossesLimit('normal', 'warning')).toBe(true);
    expect(crossesLimit('normal', 'alarm')).toBe(true);
    expect(crossesLimit('warning', 'alarm')).toBe(true);
    expect(crossesLimit(null, 'alarm')).toBe(true);
    expect(crossesLimit('alarm', 'alarm')).toBe(false);
    expect(crossesLimit('alarm', 'warning')).toBe(false);
    expect(crossesLimit('warning', 'warning')).toBe(false);
    expect(crossesLimit('warning', 'normal')).toBe(false);
    expect(crossesLimit(null, 'normal')).toBe(false);
  });
});

describe('texts', () => {
  const input = {
    deviceId: 'ABC123456',
    deviceName: 'Pump 3',
    schedule: 3600,
    period: alertPeriod(at('2026-03-04T10:05:00Z'), 3600),
    origin: 'https://portal.example.com',
    unsubscribeToken: 't'.repeat(43),
  };

  it('alert lines', () => {
    expect(eventAlertText('alarm', 'Over temperature')).toBe('ALARM event: Over temperature');
    expect(eventAlertText('warning', 'Low', 'engine')).toBe('WARN event: engine: Low');
    expect(eventAlertText('alert', 'x'.repeat(500)).length).toBe(200);
    expect(limitAlertText('ambient_temp', undefined, 61, 'alarm')).toMatch(
      /^Ambient Temp.*\(ambient_temp\) is 61.*: past its alarm limit$/,
    );
    expect(limitAlertText('my_key', undefined, 3, 'warning')).toBe('my_key is 3.00: past its warning limit');
    expect(offlineAlertText(at('2026-03-04T10:05:00Z') / 1000)).toBe(
      'The device is offline: no contact since 2026-03-04 10:05 UTC',
    );
  });

  it('the first alert names the device, the schedule, the digest time and carries the unsubscribe link', () => {
    const m = firstAlertMessage(input, {
      kind: 'event',
      ts: at('2026-03-04T10:05:00Z') / 1000,
      text: 'ALARM event: Hot',
    });
    expect(m.subject).toBe('Pump 3 (ABC123456): ALARM event: Hot');
    expect(m.text).toContain('2026-03-04 10:05 UTC  ALARM event: Hot');
    expect(m.text).toContain('Hourly');
    expect(m.text).toContain('until 2026-03-04 11:00 UTC');
    expect(m.text).toContain('https://portal.example.com/data/ABC123456');
    expect(m.text).toContain(unsubscribeUrl(input.origin, input.unsubscribeToken));
    expect(alertSmsText(m)).toBe(m.subject);
  });

  it('the digest lists the later alerts oldest first', () => {
    const m = digestAlertMessage(input, [
      { kind: 'limit', ts: at('2026-03-04T10:30:00Z') / 1000, text: 'B' },
      { kind: 'event', ts: at('2026-03-04T10:20:00Z') / 1000, text: 'A' },
    ]);
    expect(m.subject).toBe('Pump 3 (ABC123456): 2 more alerts until 2026-03-04 11:00 UTC');
    expect(m.text.indexOf('10:20 UTC  A')).toBeLessThan(m.text.indexOf('10:30 UTC  B'));
    expect(m.text).toContain('/unsubscribe/');
  });
});

describe('contracts', () => {
  const valid = { email: true, sms: false, events: true, limits: true, offline: false, schedule: 600 };

  it('a subscription needs every field and one of the schedule values', () => {
    expect(AlertSubscriptionBodySchema.safeParse(valid).success).toBe(true);
    expect(AlertSubscriptionBodySchema.safeParse({ ...valid, schedule: 601 }).error?.issues[0]?.message).toMatch(
      /schedule must be one of 2592000 \(Once\), 600 \(Every 10 Minutes\)/,
    );
    expect(AlertSubscriptionBodySchema.safeParse({ ...valid, email: 'yes' }).success).toBe(false);
    expect(AlertSubscriptionBodySchema.safeParse({ ...valid, extra: 1 }).success).toBe(false);
    const { offline: _offline, ...missing } = valid;
    expect(AlertSubscriptionBodySchema.safeParse(missing).success).toBe(false);
  });

  it('phones in international format; tokens of 43 base64url characters', () => {
    expect(AlertPhoneBodySchema.safeParse({ phone: '+61412345678' }).success).toBe(true);
    expect(AlertPhoneBodySchema.safeParse({ phone: '0412345678' }).success).toBe(false);
    expect(UnsubscribeParamsSchema.safeParse({ token: 'a'.repeat(43) }).success).toBe(true);
    expect(UnsubscribeParamsSchema.safeParse({ token: 'a'.repeat(42) }).success).toBe(false);
  });
});
