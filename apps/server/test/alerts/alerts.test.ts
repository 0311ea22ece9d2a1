/**
 * Alerts (issue 14, DESIGN.md section 5 'Alerts'), on PGlite (files, so a second portal can open
 * the same database) and on PostgreSQL when reachable, with a real SMTP server and the server's
 * clock moved by the test: an ALARM event and a limit crossing reach the SMTP server once per
 * schedule period (the first at once, the rest as one digest at the period's end); a device gone
 * offline alerts once; a Basic device's alerts are refused and logged; a quota used up refuses; a
 * restart (a new portal on the same database) sends nothing twice; SMS only to a phone verified
 * by a code; the unsubscribe link turns e-mail off; the history lists what was sent and refused;
 * bad input gets 400 and changes nothing; a stranger 404, signed out 401.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALERT_MESSAGES,
  DAY_MS,
  type AlertSubscription,
  type AlertSubscriptionSaved,
  type NotificationsResponse,
} from '@portal/core';
import {
  type DbKind,
  type MailCatcher,
  type TestPortal,
  dropSchema,
  findPostgres,
  lastSmsCode,
  newSchemaName,
  quietTestConfig,
  startMailCatcher,
  startPortalForTest,
} from '../helpers';
import { type RoleFixture, type SignedInUser, deviceWithRoles, expectError, signedInUser } from '../device-helpers';
import { postRecords } from '../ingest-helpers';

const HOUR = 3_600_000;
const MINUTE = 60_000;

const SUBSCRIBE = { email: true, sms: false, events: true, limits: true, offline: false, schedule: 3600 };

function describeAlerts(kind: DbKind): void {
  describe(`alerts (${kind})`, () => {
    let mail: MailCatcher;
    let tp: TestPortal;
    let dir: string | null = null;
    let schema: string | null = null;
    let databaseUrl: string | undefined;
    let fx: RoleFixture;
    /** The test's 'now' (epoch ms): the portal's clock follows it. */
    let nowMs: number;

    async function start(): Promise<TestPortal> {
      const config = quietTestConfig({ DATA_DIR: dir ?? 'memory://', DATABASE_URL: databaseUrl, SMTP_URL: mail.url });
      const portal = await startPortalForTest(config, {
        alerts: { tickMs: 0 },
        ...(schema ? { dbSchema: schema } : {}),
      });
      portal.clock.offsetMs = nowMs - Date.now();
      return portal;
    }

    /** Moves the portal's clock to `ms`. */
    function setNow(ms: number): void {
      nowMs = ms;
      tp.clock.offsetMs = ms - Date.now();
    }

    const alerts = () => tp.portal.app.services.alerts;
    const device = () => ({ id: fx.device.deviceid, key: fx.device.deviceKey });
    const tsNow = () => tp.clock.now().getTime() / 1000;

    async function ingest(target: { id: string; key: string }, record: Record<string, unknown>): Promise<void> {
      expect(await postRecords(tp, target, { ts: tsNow(), ...record })).toBe(200);
      await alerts().settled();
    }

    async function tick(): Promise<void> {
      await alerts().tick();
      await alerts().settled();
    }

    async function subscribe(user: SignedInUser, deviceid: string, body: Record<string, unknown> = SUBSCRIBE) {
      const res = await user.client.put(`/api/device/${deviceid}/alerts`, body);
      expect(res.status, res.text).toBe(200);
      return res.body as AlertSubscription;
    }

    const mailsTo = (user: { email: string }) => mail.to(user.email);

    async function serverLog(deviceid: string): Promise<string[]> {
      const rows = await tp.portal.db.query<{ message: string }>(
        `SELECT message FROM server_log WHERE device_id = $1 AND kind = 'alert' ORDER BY id`,
        [deviceid],
      );
      return rows.map((r) => r.message);
    }

    beforeAll(async () => {
      mail = await startMailCatcher();
      if (kind === 'pglite') dir = mkdtempSync(join(tmpdir(), 'alerts-'));
      else {
        databaseUrl = (await findPostgres()) ?? undefined;
        schema = newSchemaName();
      }
      // Five minutes into a UTC hour an hour or so ahead: the Hourly periods of the test are known.
      nowMs = Math.ceil(Date.now() / HOUR) * HOUR + 5 * MINUTE;
      tp = await start();
      fx = await deviceWithRoles(tp);
    }, 120_000);
    afterAll(async () => {
      await tp?.close();
      await mail?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      if (databaseUrl && schema) await dropSchema(databaseUrl, schema);
    });

    it('any device user reads and sets their own subscription; all off and Hourly before any', async () => {
      const path = `/api/device/${fx.device.deviceid}/alerts`;
      const before = await fx.users.VIEW.client.get(path);
      expect(before.status, before.text).toBe(200);
      expect(before.body).toEqual({
        deviceid: fx.device.deviceid,
        email: false,
        sms: false,
        events: false,
        limits: false,
        offline: false,
        schedule: 3600,
        verifiedPhone: null,
      });
      const saved = await subscribe(fx.users.VIEW, fx.device.deviceid, { ...SUBSCRIBE, schedule: 600, events: false });
      expect(saved).toMatchObject({ email: true, events: false, schedule: 600 });
      // The save's answer carries the message the page shows in its 'Success' dialog (ERR-06).
      const { message, ...subscription } = saved as AlertSubscriptionSaved;
      expect(message).toBe(ALERT_MESSAGES.saved);
      expect((await fx.users.VIEW.client.get(path)).body).toEqual(subscription);
      // Each user's own: the USER's is still all off.
      expect((await fx.users.USER.client.get(path)).body).toMatchObject({ email: false, schedule: 3600 });
      // Through a group too.
      const groupMember = await signedInUser(tp);
      const made = await fx.users.ADMIN.client.post('/api/group', { groupName: 'Alerts' });
      const groupid = (made.body as { groupid: string }).groupid;
      const placed = await fx.users.ADMIN.client.post(`/api/device/${fx.device.deviceid}/user`, {
        setupPassword: fx.device.setupPassword,
        groupid,
      });
      expect(placed.body, placed.text).toMatchObject({ groupid });
      const shared = await fx.users.ADMIN.client.post(`/api/group/${groupid}/user`, {
        targetEmail: groupMember.email,
        targetPermission: 'VIEW',
      });
      expect(shared.status, shared.text).toBe(200);
      expect((await groupMember.client.get(path)).status).toBe(200);
      // Back to nothing for the VIEW user, so the alerts below go to the ADMIN only.
      await subscribe(fx.users.VIEW, fx.device.deviceid, { ...SUBSCRIBE, email: false });
    });

    it('a stranger gets 404 like an unknown device, signed out 401; nothing is saved', async () => {
      const path = `/api/device/${fx.device.deviceid}/alerts`;
      expectError(await fx.users.STRANGER.client.get(path), 404, 'NOT_FOUND', 'Device not found');
      expectError(await fx.users.STRANGER.client.put(path, SUBSCRIBE), 404, 'NOT_FOUND', 'Device not found');
      expectError(await fx.users.ADMIN.client.get('/api/device/NOPE00000/alerts'), 404, 'NOT_FOUND');
      expectError(await tp.client().get(path), 401, 'UNAUTHENTICATED');
      expectError(await tp.client().get('/api/account/notifications'), 401, 'UNAUTHENTICATED');
      const [row] = await tp.portal.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM alert_subscriptions WHERE user_id = $1',
        [fx.users.STRANGER.id],
      );
      expect(row!.n).toBe(0);
    });

    it.each([
      [{ ...SUBSCRIBE, schedule: 601 }, /schedule must be one of 2592000 \(Once\)/],
      [{ ...SUBSCRIBE, schedule: 0 }, /schedule/],
      [{ ...SUBSCRIBE, schedule: '3600' }, /schedule/],
      [{ ...SUBSCRIBE, email: 'yes' }, /email/],
      [{ ...SUBSCRIBE, extra: true }, /extra|Unrecognized/i],
      [{ email: true }, /sms|Required|expected/i],
      [[], /object|expected/i],
    ])('refuses the subscription %j with 400 and changes nothing', async (body, message) => {
      const path = `/api/device/${fx.device.deviceid}/alerts`;
      const before = (await fx.users.USER.client.get(path)).body;
      expectError(await fx.users.USER.client.put(path, body), 400, 'BAD_REQUEST', message);
      expect((await fx.users.USER.client.get(path)).body).toEqual(before);
    });

    it('SMS needs a phone verified by a code; bad phones and codes 400, nothing changes', async () => {
      const user = fx.users.USER;
      const path = `/api/device/${fx.device.deviceid}/alerts`;
      expectError(await user.client.put(path, { ...SUBSCRIBE, sms: true }), 409, 'CONFLICT', /Verify a phone/);
      expectError(await user.client.post('/api/account/alert-phone', { phone: '0412345678' }), 400, 'BAD_REQUEST');
      expectError(await user.client.post('/api/account/alert-phone', {}), 400, 'BAD_REQUEST');
      expect((await user.client.get('/api/account/alert-phone')).body).toEqual({ phone: null, pendingPhone: null });
      const phone = `+6141${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
      const started = await user.client.post('/api/account/alert-phone', { phone });
      expect(started.status, started.text).toBe(200);
      expect(started.body).toEqual({
        message: `We have sent a code to ${phone}. Enter it to verify the phone.`,
        phone: { phone: null, pendingPhone: phone },
      });
      const code = await lastSmsCode(tp, phone);
      expectError(await user.client.post('/api/account/alert-phone/confirm', { code: 'abc' }), 400, 'BAD_REQUEST');
      const wrong = code === '000000' ? '111111' : '000000';
      expectError(
        await user.client.post('/api/account/alert-phone/confirm', { code: wrong }),
        400,
        'CODE_INVALID',
        'Invalid Code',
      );
      expect((await user.client.get('/api/account/alert-phone')).body).toEqual({ phone: null, pendingPhone: phone });
      const confirmed = await user.client.post('/api/account/alert-phone/confirm', { code });
      expect(confirmed.status, confirmed.text).toBe(200);
      expect(confirmed.body).toEqual({
        message: `${phone} is verified. SMS alerts go to it.`,
        phone: { phone, pendingPhone: null },
      });
      // SMS alerts now; e-mail off for this user.
      const saved = await subscribe(user, fx.device.deviceid, { ...SUBSCRIBE, email: false, sms: true, limits: false });
      expect(saved).toMatchObject({ sms: true, verifiedPhone: phone });
      await ingest(device(), { events: [{ msg: 'Pressure low', severity: 'WARN' }] });
      const sms = await tp.portal.db.query<{ body: string }>(
        `SELECT body FROM outbox WHERE kind = 'sms' AND recipient = $1 ORDER BY id`,
        [phone],
      );
      expect(sms.map((s) => s.body).at(-1)).toMatch(/WARN event: Pressure low$/);
      expect(sms).toHaveLength(2); // the code, then the alert
      // Nobody else subscribed to e-mail: no mail.
      expect(mailsTo(fx.users.ADMIN)).toHaveLength(0);
      // Removing the phone turns SMS off.
      const removed = await user.client.request('DELETE', '/api/account/alert-phone');
      expect(removed.status, removed.text).toBe(200);
      expect((await user.client.get(`/api/device/${fx.device.deviceid}/alerts`)).body).toMatchObject({
        sms: false,
        verifiedPhone: null,
      });
    });

    it('an ALARM event and a limit crossing: the first at once, the rest in one digest at the period end', async () => {
      const admin = fx.users.ADMIN;
      await subscribe(admin, fx.device.deviceid);
      await ingest(device(), { ambient_temp: 20, events: [{ msg: 'Engine hot', severity: 'ALARM' }] });
      expect(mailsTo(admin)).toHaveLength(1);
      const first = mailsTo(admin)[0]!;
      expect(first.subject).toMatch(/ALARM event: Engine hot$/);
      expect(first.text).toContain(`/data/${fx.device.deviceid}`);
      expect(first.text).toMatch(/\/unsubscribe\/[A-Za-z0-9_-]{43}/);
      // Later in the same hour: the crossing and another event wait; INFO events, a value still
      // in alarm and a value back to normal do not alert.
      await ingest(device(), { ambient_temp: 61 });
      await ingest(device(), { ambient_temp: 62, events: [{ msg: 'Just so you know', lv: 5 }] });
      await ingest(device(), { ambient_temp: 20 });
      await ingest(device(), { events: [{ msg: 'Door open', lv: 15 }] });
      expect(mailsTo(admin)).toHaveLength(1);
      await tick();
      expect(mailsTo(admin)).toHaveLength(1);
      // The hour ends: one digest with both.
      setNow(nowMs + HOUR);
      await tick();
      expect(mailsTo(admin)).toHaveLength(2);
      const digest = mailsTo(admin)[1]!;
      expect(digest.subject).toMatch(/2 more alerts until/);
      expect(digest.text).toMatch(/Ambient Temp \(ambient_temp\) is 61\.0 °C: past its alarm limit/);
      expect(digest.text).toContain('ALERT event: Door open');
      expect(digest.text).not.toContain('Just so you know');
      await tick();
      expect(mailsTo(admin)).toHaveLength(2);
      // The next hour's first alert goes at once.
      await ingest(device(), { ambient_temp: 55 }); // normal to warning
      expect(mailsTo(admin)).toHaveLength(3);
      // (The subject carries '°C', so it is MIME-encoded; the text has the same line.)
      expect(mailsTo(admin)[2]!.text).toMatch(/Ambient Temp \(ambient_temp\) is 55\.0 °C: past its warning limit\n/);

      const history = (await admin.client.get('/api/account/notifications')).body as NotificationsResponse;
      expect(history.notifications.map((n) => [n.kind, n.channel, n.status, n.deviceid])).toEqual([
        ['first', 'email', 'sent', fx.device.deviceid],
        ['digest', 'email', 'sent', fx.device.deviceid],
        ['first', 'email', 'sent', fx.device.deviceid],
      ]);
      expect(history.notifications[1]!.subject).toBe(digest.subject);
      const log = await serverLog(fx.device.deviceid);
      expect(log.filter((l) => l.startsWith(`Alert e-mail sent to ${admin.email}`))).toHaveLength(3);
    });

    it('a device that goes offline alerts once per silence', async () => {
      const other = await deviceWithRoles(tp);
      const target = { id: other.device.deviceid, key: other.device.deviceKey };
      await subscribe(other.users.USER, target.id, { ...SUBSCRIBE, events: false, limits: false, offline: true });
      await ingest(target, { level: 1 });
      await tick();
      expect(mailsTo(other.users.USER)).toHaveLength(0);
      // 360 s without contact (the default interval's 60 + 60 is less) is offline.
      setNow(nowMs + 7 * MINUTE);
      await tick();
      await tick();
      expect(mailsTo(other.users.USER)).toHaveLength(1);
      expect(mailsTo(other.users.USER)[0]!.subject).toMatch(/The device is offline: no contact since/);
      // Back, then silent again: a new alert, this time kept for the digest (same hour).
      await ingest(target, { level: 2 });
      setNow(nowMs + 7 * MINUTE);
      await tick();
      expect(mailsTo(other.users.USER)).toHaveLength(1);
      const [pending] = await tp.portal.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM alert_pending WHERE device_id = $1',
        [target.id],
      );
      expect(pending!.n).toBe(1);
    });

    it('offline follows the interval the device applied and reported, not the default 60 s (TL-15)', async () => {
      const other = await deviceWithRoles(tp);
      const target = { id: other.device.deviceid, key: other.device.deviceKey };
      await subscribe(other.users.USER, target.id, { ...SUBSCRIBE, events: false, limits: false, offline: true });
      // The device reports running 300 s x 2 in its diagnostics: its applied config says so from now on.
      const diag = await tp.portal.app.services.telemetry.ingest({
        deviceId: target.id,
        kind: 'diag',
        body: { ts: tsNow(), fw: 'SFW100-2.4.1', base_interval: 300, transmit_interval: 2 },
        basic: false,
        receivedAt: tp.clock.now(),
        source: 'mqtt',
      });
      expect(diag.stored).toBe(1);
      const config = await other.users.ADMIN.client.get(`/api/device/${target.id}/config`);
      expect((config.body as { config: { settings: { device: unknown } } }).config.settings.device).toMatchObject({
        base_interval: 300,
        transmit_interval: 2,
      });
      await ingest(target, { level: 1 });
      const start = nowMs;
      // 7 minutes: offline for a device on the default 60 s (360 s), not for one on 600 s (max(600 + 60, 360) = 660 s).
      setNow(start + 7 * MINUTE);
      await tick();
      expect(mailsTo(other.users.USER)).toHaveLength(0);
      setNow(start + 11 * MINUTE + 1000);
      await tick();
      await tick();
      expect(mailsTo(other.users.USER)).toHaveLength(1);
      expect(mailsTo(other.users.USER)[0]!.subject).toMatch(/The device is offline/);
    });

    it('Basic plan: nothing is sent, each refusal is logged and listed', async () => {
      const basic = await deviceWithRoles(tp);
      await tp.portal.db.query('UPDATE devices SET added_ts = added_ts - $2 WHERE id = $1', [
        basic.device.deviceid,
        (91 * DAY_MS) / 1000,
      ]);
      await subscribe(basic.users.ADMIN, basic.device.deviceid);
      // Basic thins ingest to one record per 5 minutes: one record carries the event.
      await ingest({ id: basic.device.deviceid, key: basic.device.deviceKey }, { events: [{ msg: 'Hot', lv: 35 }] });
      expect(mailsTo(basic.users.ADMIN)).toHaveLength(0);
      expect(await serverLog(basic.device.deviceid)).toEqual([
        `Alert e-mail to ${basic.users.ADMIN.email} not sent: the Basic plan includes no alert e-mails. ${basic.device.deviceid}: ALARM event: Hot`,
      ]);
      const history = (await basic.users.ADMIN.client.get('/api/account/notifications')).body as NotificationsResponse;
      expect(history.notifications).toMatchObject([{ status: 'refused', deviceid: basic.device.deviceid }]);
    });

    it("a Hosted or Trial device's monthly quota used up refuses", async () => {
      const full = await deviceWithRoles(tp);
      const month = new Date(nowMs);
      await tp.portal.db.query(
        `INSERT INTO alert_quota_use (device_id, month, channel, used) VALUES ($1, $2, 'email', 300)`,
        [full.device.deviceid, new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1))],
      );
      await subscribe(full.users.ADMIN, full.device.deviceid);
      await ingest({ id: full.device.deviceid, key: full.device.deviceKey }, { events: [{ msg: 'Hot', lv: 35 }] });
      expect(mailsTo(full.users.ADMIN)).toHaveLength(0);
      expect(await serverLog(full.device.deviceid)).toEqual([
        expect.stringMatching(/not sent: this month's quota of 300 alert e-mails for the device is used/),
      ]);
    });

    it('the unsubscribe link turns that e-mail off without signing in; a bad link 400, an unknown one 404', async () => {
      const admin = fx.users.ADMIN;
      const token = /\/unsubscribe\/([A-Za-z0-9_-]{43})/.exec(mailsTo(admin)[0]!.text)![1]!;
      const anonymous = tp.client();
      expectError(await anonymous.post('/api/alerts/unsubscribe/short'), 400, 'BAD_REQUEST');
      expectError(
        await anonymous.post(`/api/alerts/unsubscribe/${'x'.repeat(43)}`),
        404,
        'NOT_FOUND',
        'This unsubscribe link is invalid.',
      );
      expect((await admin.client.get(`/api/device/${fx.device.deviceid}/alerts`)).body).toMatchObject({ email: true });
      const res = await anonymous.post(`/api/alerts/unsubscribe/${token}`);
      expect(res.status, res.text).toBe(200);
      expect((res.body as { message: string }).message).toMatch(/^You will no longer receive alert e-mails for /);
      expect((await admin.client.get(`/api/device/${fx.device.deviceid}/alerts`)).body).toMatchObject({
        email: false,
        events: true,
      });
      // Turned back on for the restart test.
      await subscribe(admin, fx.device.deviceid);
    });

    it('a restart (a new portal on the same database) sends nothing twice', async () => {
      const admin = fx.users.ADMIN;
      const sent = mailsTo(admin).length;
      // This hour's first alert went already (the warning above); this one waits for the digest.
      await ingest(device(), { events: [{ msg: 'Before restart', severity: 'ALARM' }] });
      expect(mailsTo(admin)).toHaveLength(sent);
      await tp.close();
      tp = await start();
      // The same hour: the first row is there, so this alert waits too.
      await ingest(device(), { events: [{ msg: 'After restart', severity: 'ALARM' }] });
      await tick();
      expect(mailsTo(admin)).toHaveLength(sent);
      setNow(nowMs + HOUR);
      await tick();
      await tick();
      expect(mailsTo(admin)).toHaveLength(sent + 1);
      const digest = mailsTo(admin).at(-1)!;
      expect(digest.text).toContain('Before restart');
      expect(digest.text).toContain('After restart');
      // A second portal on the database finds every row written: nothing more goes.
      await tp.close();
      tp = await start();
      await tick();
      expect(mailsTo(admin)).toHaveLength(sent + 1);
      const [dupes] = await tp.portal.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (
           SELECT 1 FROM alert_notifications GROUP BY user_id, device_id, channel, period_start, kind HAVING count(*) > 1
         ) d`,
      );
      expect(dupes!.n).toBe(0);
    }, 60_000);

    it.runIf(kind === 'postgres')(
      'two instances at once: one first alert, one digest',
      async () => {
        const admin = fx.users.ADMIN;
        setNow(nowMs + HOUR);
        const second = await start();
        const both = [tp, second];
        try {
          const sent = mailsTo(admin).length;
          // The same hour's first alert raised by both instances at the same moment: one goes, one waits.
          await Promise.all(
            both.map(async (p, i) =>
              expect(
                await postRecords(p, device(), {
                  ts: tsNow() + i,
                  events: [{ msg: `Both ${i}`, severity: 'ALARM' }],
                }),
              ).toBe(200),
            ),
          );
          await Promise.all(both.map((p) => p.portal.app.services.alerts.settled()));
          expect(mailsTo(admin)).toHaveLength(sent + 1);
          // The hour ends; both instances send due digests at once: one digest.
          nowMs += HOUR;
          for (const p of both) p.clock.offsetMs = nowMs - Date.now();
          await Promise.all(both.map((p) => p.portal.app.services.alerts.tick()));
          await Promise.all(both.map((p) => p.portal.app.services.alerts.settled()));
          expect(mailsTo(admin)).toHaveLength(sent + 2);
          expect(mailsTo(admin).at(-1)!.subject).toMatch(/1 more alert until/);
        } finally {
          await second.close();
        }
      },
      60_000,
    );
  });
}

describeAlerts('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeAlerts('postgres');
