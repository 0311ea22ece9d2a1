/**
 * POST /api/support-request (spec 2 section 7, ledger API-51; DESIGN.md section 5) over real HTTP
 * with a real SMTP server catching the mail, on PGlite and on PostgreSQL when reachable: the
 * request reaches the support address with the sender as Reply-To and the brand; about a device,
 * its facts go along, and its newest 50 server-log lines for an ADMIN on a plan with a server log
 * only (a USER, or an ADMIN of a Basic device, sends the facts alone); an id the sender holds no
 * role on is 404 'Device not found' and sends nothing; bad bodies are 400 and send nothing; 5
 * requests per user an hour, then 429 (refused bodies do not count); a mail server that refuses
 * is a 502 with its message. SUPPORT_EMAIL is read from configuration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DAY_MS,
  SUPPORT_MESSAGES,
  UNSTORABLE_TEXT_MESSAGE,
  supportSentText,
  type SupportRequestResponse,
} from '@portal/core';
import { ConfigError, DEFAULT_SUPPORT_EMAIL, loadConfig } from '../../src/config';
import {
  type CaughtMail,
  type DbKind,
  type MailCatcher,
  type TestPortal,
  findPostgres,
  quietTestConfig,
  startMailCatcher,
  startPortalForTest,
  startTestPortal,
} from '../helpers';
import { type RoleFixture, deviceWithRoles, expectError, signedInUser } from '../device-helpers';

const SEND = '/api/support-request';
const body = (extra: Record<string, unknown> = {}) => ({
  subject: 'Pump stopped reporting',
  message: 'It went quiet at noon.\nCan you look?',
  ...extra,
});

/** A header of a caught mail, as nodemailer wrote it. */
function header(mail: CaughtMail, name: string): string | undefined {
  const head = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  const line = head.split('\r\n').find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

function describeSupport(kind: DbKind): void {
  describe(`support requests (${kind})`, () => {
    let tp: TestPortal;
    let mail: MailCatcher;
    let fx: RoleFixture;
    const deviceid = () => fx.device.deviceid;
    const toSupport = () => mail.to(DEFAULT_SUPPORT_EMAIL);

    beforeAll(async () => {
      mail = await startMailCatcher();
      tp = await startTestPortal({ db: kind, smtpUrl: mail.url, seed: false });
      fx = await deviceWithRoles(tp);
      // 60 server-log lines a second apart, the newest 'line 59': a request attaches the newest 50.
      const base = tp.clock.now().getTime() - 120_000;
      const rows = Array.from({ length: 60 }, (_, i) => ({
        device_id: deviceid(),
        ts: new Date(base + i * 1000).toISOString(),
        kind: i % 2 === 0 ? 'config' : 'refused',
        message: `line ${i}`,
      }));
      await tp.portal.db.query(
        `INSERT INTO server_log (device_id, ts, kind, message)
         SELECT device_id, ts, kind, message FROM jsonb_to_recordset($1::jsonb) AS x(device_id text, ts timestamptz, kind text, message text)`,
        [JSON.stringify(rows)],
      );
    });
    afterAll(async () => {
      await tp?.close();
      await mail?.close();
    });

    it('mails a request without a device to the support address, the sender as Reply-To', async () => {
      const user = await signedInUser(tp);
      const res = await user.client.post(SEND, body({ subject: '  Billing question  ' }));
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        message: supportSentText(user.email),
        deviceid: null,
        attached: 'none',
      } satisfies SupportRequestResponse);
      const got = await mail.waitFor((m) => m.text.includes(`Support request from ${user.email}`));
      expect(got.to).toEqual([DEFAULT_SUPPORT_EMAIL]);
      expect(got.subject).toBe('[Portal support] Billing question');
      expect(header(got, 'Reply-To')).toBe(user.email);
      expect(got.text).toContain('Subject: Billing question');
      expect(got.text).toContain('It went quiet at noon.\nCan you look?');
      expect(got.text).toContain('No device named.');
    });

    it('names the brand the request came from', async () => {
      const user = await signedInUser(tp);
      const res = await user.client.post(SEND, body({ subject: 'Tank question' }), { host: 'tank.localhost' });
      expect(res.status, res.text).toBe(200);
      const got = await mail.waitFor((m) => m.subject.includes('Tank question'));
      expect(got.subject).toBe('[Tank support] Tank question');
      expect(got.text).toContain(`Support request from ${user.email} on Tank`);
    });

    it("an ADMIN's request carries the device's facts and its newest 50 server-log lines", async () => {
      const admin = fx.users.ADMIN;
      const res = await admin.client.post(SEND, body({ subject: 'Admin asks', deviceid: deviceid() }));
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        message: supportSentText(admin.email),
        deviceid: deviceid(),
        attached: 'factsAndServerLog',
      });
      const got = await mail.waitFor((m) => m.subject.includes('Admin asks'));
      expect(got.subject).toBe(`[Portal support] Admin asks (${deviceid()})`);
      expect(header(got, 'Reply-To')).toBe(admin.email);
      for (const fact of [
        `Device ${deviceid()}`,
        `  Name: ${deviceid()}`,
        `  Model: ${fx.device.model}`,
        `  Firmware: ${fx.device.fw}`,
        '  Plan: Trial',
        '  Last contact: never',
        "  Sender's role: ADMIN",
        `/data/${deviceid()}`,
        'Recent server log (newest first, at most 50 lines):',
      ]) {
        expect(got.text).toContain(fact);
      }
      const logLines = got.text.split('\n').filter((l) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC {2}\[/.test(l));
      expect(logLines).toHaveLength(50);
      expect(logLines[0]).toMatch(/\[refused\] {2}line 59$/);
      expect(logLines[49]).toMatch(/\[config\] {2}line 10$/);
      expect(got.text).not.toMatch(/ line 9$/m);
      // The device's log records that a request was sent (not what it said).
      const log = await admin.client.get(`/api/device/${deviceid()}/serverlog?kind=support`);
      expect((log.body as { entries: { message: string }[] }).entries.map((e) => e.message)).toContain(
        `Support request sent by ${admin.email}`,
      );
    });

    it("a USER's request carries the device's facts but not its server log", async () => {
      const user = fx.users.USER;
      const res = await user.client.post(SEND, body({ subject: 'User asks', deviceid: deviceid() }));
      expect(res.status, res.text).toBe(200);
      expect((res.body as SupportRequestResponse).attached).toBe('facts');
      const got = await mail.waitFor((m) => m.subject.includes('User asks'));
      expect(got.text).toContain(`Device ${deviceid()}`);
      expect(got.text).toContain("  Sender's role: USER");
      expect(got.text).toContain('Server log: not attached');
      expect(got.text).not.toContain('line 59');
    });

    it('refuses a device the sender has no role on, an unknown or malformed id: 404, and sends nothing', async () => {
      const before = toSupport().length;
      for (const id of [deviceid(), 'ZZZZZZZZZ', 'nope', deviceid().toLowerCase(), '0-ABC1234']) {
        expectError(
          await fx.users.STRANGER.client.post(SEND, body({ deviceid: id })),
          404,
          'NOT_FOUND',
          'Device not found',
        );
      }
      expectError(
        await fx.users.ADMIN.client.post(SEND, body({ deviceid: 'ZZZZZZZZZ' })),
        404,
        'NOT_FOUND',
        'Device not found',
      );
      // A round trip through the server, so a mail sent by mistake would have arrived.
      expect((await fx.users.ADMIN.client.get('/api/groups')).status).toBe(200);
      expect(toSupport().length).toBe(before);
    });

    it('refuses bad bodies with the field and its message (400) and sends nothing; signed out 401, no CSRF 403', async () => {
      const user = await signedInUser(tp);
      const before = toSupport().length;
      const cases: [unknown, RegExp | string][] = [
        [{ message: 'x' }, /^subject: /],
        [body({ subject: '   ' }), `subject: ${SUPPORT_MESSAGES.subjectRequired}`],
        [body({ subject: 'a\r\nBcc: someone@example.com' }), `subject: ${SUPPORT_MESSAGES.subjectOneLine}`],
        [body({ subject: 's'.repeat(121) }), `subject: ${SUPPORT_MESSAGES.subjectTooLong}`],
        [body({ message: '' }), `message: ${SUPPORT_MESSAGES.messageRequired}`],
        [body({ message: 'm'.repeat(5001) }), `message: ${SUPPORT_MESSAGES.messageTooLong}`],
        [body({ message: 'a\u0000b' }), `message: ${UNSTORABLE_TEXT_MESSAGE}`],
        [body({ deviceid: '' }), /^deviceid( must|: )/],
        [body({ to: 'attacker@example.com' }), /Unrecognized key/],
        ['just text', /JSON object/],
      ];
      for (const [input, message] of cases) {
        expectError(await user.client.post(SEND, input), 400, 'BAD_REQUEST', message);
      }
      expectError(await tp.client().post(SEND, body()), 401, 'UNAUTHENTICATED');
      expectError(await user.client.post(SEND, body(), { csrf: false }), 403, 'CSRF');
      expect((await user.client.get('/api/groups')).status).toBe(200);
      expect(toSupport().length).toBe(before);
    });

    it('allows 5 requests per user an hour, then 429 with Retry-After; refused bodies do not count', async () => {
      const user = await signedInUser(tp);
      const other = await signedInUser(tp);
      expect((await user.client.post(SEND, body({ subject: '' }))).status).toBe(400);
      for (let i = 1; i <= 5; i += 1) {
        const res = await user.client.post(SEND, body({ subject: `Limit ${i}` }));
        expect(res.status, res.text).toBe(200);
      }
      const refused = await user.client.post(SEND, body({ subject: 'Limit 6' }));
      expectError(refused, 429, 'RATE_LIMITED', SUPPORT_MESSAGES.tooMany);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
      // Another user is not held back by this one's requests.
      expect((await other.client.post(SEND, body({ subject: 'Other user' }))).status).toBe(200);
      await mail.waitFor((m) => m.subject.includes('Other user'));
      expect(mail.messages.filter((m) => m.subject.includes('Limit 6'))).toEqual([]);
    });

    it('an ADMIN of a Basic-plan device sends the facts only (Basic has no server log)', async () => {
      const basic = await deviceWithRoles(tp);
      await tp.portal.db.query('UPDATE devices SET added_ts = added_ts - $2 WHERE id = $1', [
        basic.device.deviceid,
        (91 * DAY_MS) / 1000,
      ]);
      const res = await basic.users.ADMIN.client.post(
        SEND,
        body({ subject: 'Basic asks', deviceid: basic.device.deviceid }),
      );
      expect(res.status, res.text).toBe(200);
      expect((res.body as SupportRequestResponse).attached).toBe('facts');
      const got = await mail.waitFor((m) => m.subject.includes('Basic asks'));
      expect(got.text).toContain('  Plan: Basic');
      expect(got.text).toContain('Server log: not attached');
    });
  });
}

describeSupport('pglite');
if (await findPostgres()) describeSupport('postgres');

describe('support configuration and a mail server that refuses', () => {
  it('SUPPORT_EMAIL: one address, lower-cased; the default otherwise; anything else is refused at start', () => {
    expect(loadConfig({}).supportEmail).toBe(DEFAULT_SUPPORT_EMAIL);
    expect(loadConfig({ SUPPORT_EMAIL: ' Help@Example.COM ' }).supportEmail).toBe('help@example.com');
    expect(() => loadConfig({ SUPPORT_EMAIL: 'not an address' })).toThrow(ConfigError);
    expect(() => loadConfig({ SUPPORT_EMAIL: 'a@example.com, b@example.com' })).toThrow(/SUPPORT_EMAIL/);
  });

  it('mails SUPPORT_EMAIL; a mail server that does not take the message is a 502 with its message', async () => {
    const mail = await startMailCatcher();
    const tp = await startPortalForTest(quietTestConfig({ SMTP_URL: mail.url, SUPPORT_EMAIL: 'desk@help.example' }));
    try {
      const user = await signedInUser(tp);
      expect((await user.client.post(SEND, body({ subject: 'To the desk' }))).status).toBe(200);
      const got = await mail.waitFor((m) => m.subject.includes('To the desk'));
      expect(got.to).toEqual(['desk@help.example']);
    } finally {
      await tp.close();
      await mail.close();
    }
    // Nothing listens on the SMTP port any more.
    const down = await startPortalForTest(quietTestConfig({ SMTP_URL: mail.url }));
    try {
      const user = await signedInUser(down);
      expectError(await user.client.post(SEND, body()), 502, 'INTERNAL', SUPPORT_MESSAGES.notSent);
    } finally {
      await down.close();
    }
  });
});
