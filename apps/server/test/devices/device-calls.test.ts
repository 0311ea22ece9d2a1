/**
 * The remaining device calls over real HTTP: config import (and its round trip through
 * export?format=config), the provisioning test run (answered by a simulated device
 * over real MQTT), and the setup password behind TOTP and SMS step-up codes. Every role, a
 * stranger and bad bodies. Runs on PGlite, and on PostgreSQL when reachable.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authenticator } from 'otplib';
import {
  CONFIG_IMPORT_MESSAGES,
  DEVICE_MESSAGES,
  PASSWORDS_MESSAGES,
  PROV_MESSAGES,
  PROV_TEST_COMMAND,
  mergeDeviceConfig,
  type DeviceRole,
} from '@portal/core';
import { startFleet, type Fleet } from '@portal/simulator';
import { latestOutboxMessages } from '../../src/modules/mail/mail.repository';
import { type ApiClient, type DbKind, type TestPortal, findPostgres, startTestPortal, totpCode } from '../helpers';
import {
  type RoleFixture,
  type SignedInUser,
  claim,
  deviceWithRoles,
  expectError,
  provision,
  provisioningStaff,
  randomDeviceId,
  signedInUser,
} from '../device-helpers';
import { until } from '../ingest-helpers';

const PUBLIC_URL = 'https://portal.example.com';
const ROLES: DeviceRole[] = ['ADMIN', 'USER', 'OPERATOR', 'VIEW'];
const MINUTE = 60_000;

type Doc = { settings: Record<string, Record<string, unknown>> };
type ConfigView = { deviceid: string; config: Doc; pending: Doc | null; pendingSince: string | null };

const body = <T>(res: { body: unknown }) => res.body as T;

function describeDeviceCalls(kind: DbKind): void {
  describe(`device calls (${kind})`, () => {
    let tp: TestPortal;

    beforeAll(async () => {
      tp = await startTestPortal({ db: kind, seed: false, publicUrl: PUBLIC_URL });
    });
    afterAll(async () => {
      await tp?.close();
    });
    afterEach(() => {
      tp.clock.reset();
      // No call of this suite may end in a server error.
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });

    const serverLog = async (client: ApiClient, id: string) =>
      body<{ entries: { message: string }[] }>(await client.get(`/api/device/${id}/serverlog?dataPoints=1000`)).entries;
    const provLog = async (id: string) =>
      body<{ entries: { message: string; author: string }[] }>(
        await (await provisioningStaff(tp)).client.get(`/api/prov-portal-get-device-log/${id}`),
      ).entries;

    /** Device roles, a stranger and a distributor: none is provisioning staff. */
    function nonStaff(fx: RoleFixture): [string, ApiClient][] {
      return [...ROLES, 'STRANGER' as const].map((r) => [r, fx.users[r].client]);
    }

    // ---- config import -------------------------------------------------------------------------

    describe('POST /device/{id}/import with a config document', () => {
      let fx: RoleFixture;
      let id: string;
      const getConfig = async (client: ApiClient = fx.users.ADMIN.client, deviceId = id) =>
        body<ConfigView>(await client.get(`/api/device/${deviceId}/config`));
      const exportConfig = async (client: ApiClient, deviceId: string) =>
        client.get(`/api/device/${deviceId}/export?format=config`);

      beforeAll(async () => {
        fx = await deviceWithRoles(tp);
        id = fx.device.deviceid;
      });

      it('round trip: export?format=config, then import, leaves the config unchanged (ADMIN and USER)', async () => {
        for (const role of ['ADMIN', 'USER'] as const) {
          const client = fx.users[role].client;
          const exported = await exportConfig(client, id);
          expect(exported.status, exported.text).toBe(200);
          expect(exported.headers['content-type']).toMatch(/^application\/json/);
          expect(exported.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${id}-config-`));
          const before = await getConfig();
          expect(exported.body).toEqual({ config: before.config });

          const res = await client.post(`/api/device/${id}/import`, exported.body);
          expect(res.status, res.text).toBe(200);
          const result = body<ConfigView & { importedConfig: Doc; ignoredFields: string[] }>(res);
          expect(result.ignoredFields).toEqual(['settings.device.id', 'settings.device.model', 'settings.device.fw']);
          // The imported payload is the exported document without the device's identity.
          const { id: _id, model: _model, fw: _fw, ...deviceRest } = before.config.settings.device!;
          expect(result.importedConfig).toEqual({ settings: { ...before.config.settings, device: deviceRest } });
          // Queued as the pending config, exactly like PUT /config: applying it changes nothing.
          expect(result.config).toEqual(before.config);
          expect(result.pending).not.toBeNull();
          expect(result.pendingSince).not.toBeNull();
          expect(mergeDeviceConfig(result.config, result.pending!)).toEqual(before.config);
          expect(await getConfig()).toMatchObject({ config: before.config, pending: result.pending });
          const log = (await serverLog(fx.users.ADMIN.client, id)).map((e) => e.message);
          const sections = Object.keys(result.importedConfig.settings).join(', ');
          expect(log).toContain(`Config imported by ${fx.users[role].email}: ${sections}`);
        }
      });

      it('a config exported from one device imports into another and is delivered at its next contact', async () => {
        const owner = fx.users.ADMIN;
        const other = await provision(tp, 'QUAD-C2');
        expect((await claim(owner.client, other.deviceid, other.setupPassword)).status).toBe(200);
        const change = await owner.client.put(`/api/device/${other.deviceid}/config`, {
          config: { settings: { gps: { interval: 7 } } },
        });
        expect(change.status, change.text).toBe(200);
        // Export this device's config, change one value, import it into the other device.
        const exported = body<{ config: Doc }>(await exportConfig(owner.client, id));
        exported.config.settings.gps = { ...exported.config.settings.gps, interval: 9 };
        const res = await owner.client.post(`/api/device/${other.deviceid}/import`, exported);
        expect(res.status, res.text).toBe(200);
        const view = body<ConfigView>(res);
        // The target keeps its identity; the imported sections merge into its pending change.
        expect(view.config.settings.device).toMatchObject({ id: other.deviceid, model: 'QUAD-C2' });
        expect(view.pending?.settings.gps).toMatchObject({ interval: 9 });
        expect(view.pending?.settings.device).not.toHaveProperty('id');
        const delivered = await tp.client().request('POST', `/api/ingest/${other.deviceid}`, {
          body: { ts: tp.clock.now().getTime() / 1000, temp: 1 },
          headers: { authorization: `Device ${other.deviceKey}` },
          csrf: false,
        });
        expect(delivered.status, delivered.text).toBe(200);
        expect(body<{ config?: Doc }>(delivered).config?.settings.gps).toMatchObject({ interval: 9 });
      });

      it('needs editDeviceSettings: OPERATOR and VIEW 403, a stranger the same 404 as an unknown id, signed-out 401; nothing changes', async () => {
        const doc = { config: { settings: { gps: { interval: 3 } } } };
        const fresh = await deviceWithRoles(tp);
        const fid = fresh.device.deviceid;
        const before = await getConfig(fresh.users.ADMIN.client, fid);
        for (const role of ['OPERATOR', 'VIEW'] as const)
          expectError(await fresh.users[role].client.post(`/api/device/${fid}/import`, doc), 403, 'FORBIDDEN');
        const stranger = await fresh.users.STRANGER.client.post(`/api/device/${fid}/import`, doc);
        const unknown = await fresh.users.STRANGER.client.post(`/api/device/${randomDeviceId('U')}/import`, doc);
        expectError(stranger, 404, 'NOT_FOUND', DEVICE_MESSAGES.notFound);
        expect(stranger.text).toBe(unknown.text);
        expectError(await tp.client().post(`/api/device/${fid}/import`, doc), 401, 'UNAUTHENTICATED');
        expect(await getConfig(fresh.users.ADMIN.client, fid)).toEqual(before);
        // Any role may export the config (as it may read it); a stranger may not.
        for (const role of ROLES)
          expect((await exportConfig(fresh.users[role].client, fid)).body).toEqual({ config: before.config });
        expectError(await exportConfig(fresh.users.STRANGER.client, fid), 404, 'NOT_FOUND', DEVICE_MESSAGES.notFound);
        // Allowed roles succeed.
        for (const role of ['ADMIN', 'USER'] as const)
          expect((await fresh.users[role].client.post(`/api/device/${fid}/import`, doc)).status).toBe(200);
      });

      it('bad bodies get 400 naming the problem and change nothing', async () => {
        const fresh = await deviceWithRoles(tp);
        const fid = fresh.device.deviceid;
        const admin = fresh.users.ADMIN.client;
        const before = await getConfig(admin, fid);
        const logBefore = await serverLog(admin, fid);
        const defaults = before.config;
        const bad: [unknown, RegExp][] = [
          [{}, /Send either \{config/],
          [{ config: defaults, records: [] }, /Send either \{config/],
          [{ config: defaults, deviceid: fid }, /deviceid|Unrecognized/],
          [{ config: { settings: { warp: { enabled: true } } } }, /warp/],
          [{ config: { settings: {} } }, /at least one section/],
          [{ config: { settings: { gps: { interval: 5 } }, pending: null } }, /pending|Unrecognized/],
          [{ config: { settings: { device: { base_interval: 0 } } } }, /base_interval must be at least 1/],
          [{ config: { settings: { device: { fw: 42 } } } }, /fw must be text/],
          [
            { config: { settings: { device: { id: fid, model: 'ORB-C1' } } } },
            new RegExp(escape(CONFIG_IMPORT_MESSAGES.nothingToImport)),
          ],
          [{ config: { settings: { script: { evil: '<script>' } } } }, /num\* or str\*/],
          [{ config: { settings: { serial1: { capture: { start: 'not base64!' } } } } }, /not valid base64/],
          [{ config: 'everything' }, /config/],
          [[defaults], /JSON object|expected object/i],
        ];
        for (const [payload, message] of bad)
          expectError(await admin.post(`/api/device/${fid}/import`, payload), 400, 'BAD_REQUEST', message);
        for (const rawBody of ['{"config": ', '{"config":{"settings":{"__proto__":{"enabled":true}}}}'])
          expectError(await admin.post(`/api/device/${fid}/import`, undefined, { rawBody }), 400, 'BAD_REQUEST');
        expect(await getConfig(admin, fid)).toEqual(before);
        expect(await serverLog(admin, fid)).toEqual(logBefore);
        expectError(
          await admin.get(`/api/device/${fid}/export?format=yaml`),
          400,
          'BAD_REQUEST',
          /csv, json or config/,
        );
      });

      it('{records: [...]} still imports records', async () => {
        const t = Math.floor(tp.clock.now().getTime() / 1000) - 100;
        const res = await fx.users.ADMIN.client.post(`/api/device/${id}/import`, {
          records: [{ ts: t, level: 4 }, { ts: t + 1, level: 5 }, 'not a record'],
        });
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual({
          deviceid: id,
          imported: 2,
          duplicates: 0,
          thinned: 0,
          refused: [{ index: 2, reason: 'A record must be a JSON object' }],
        });
      });
    });

    // ---- provisioning test run --------------------------------------------------------------------

    describe('POST /prov-portal-run-test/{id}', () => {
      const run = (client: ApiClient, id: string, payload: unknown) =>
        client.post(`/api/prov-portal-run-test/${id}`, payload);
      const test = (fw: string, provLockOverrideCode = '') => ({ method: 'full', fw, provLockOverrideCode });

      it('staff queue Prov.RunTest {method, fw} for a device nobody added; it is written to the provisioning log', async () => {
        const device = await provision(tp);
        const staff = await provisioningStaff(tp);
        const res = await run(staff.client, device.deviceid, {
          method: 'io-check',
          fw: 'SFW004-1.2.3',
          provLockOverrideCode: '',
        });
        expect(res.status, res.text).toBe(200);
        expect(res.body).toMatchObject({
          method: PROV_TEST_COMMAND,
          args: { method: 'io-check', fw: 'SFW004-1.2.3' },
          state: 'queued',
          createdBy: staff.id,
        });
        const commandID = body<{ commandID: number }>(res).commandID;
        const admin = await signedInUser(tp, ['senquip_admin']);
        expect((await run(admin.client, device.deviceid, test(device.fw))).status).toBe(200);
        expect((await provLog(device.deviceid)).slice(-2).map((e) => e.message)).toEqual([
          `Test requested: io-check on SFW004-1.2.3 (command ${commandID})`,
          `Test requested: full on ${device.fw} (command ${commandID + 1})`,
        ]);
        // The device gets both at its next contact.
        const delivered = await tp.client().request('POST', `/api/ingest/${device.deviceid}`, {
          body: { ts: tp.clock.now().getTime() / 1000, temp: 1 },
          headers: { authorization: `Device ${device.deviceKey}` },
          csrf: false,
        });
        expect(body<{ commands: { id: number; method: string }[] }>(delivered).commands).toEqual([
          { id: commandID, method: PROV_TEST_COMMAND, args: { method: 'io-check', fw: 'SFW004-1.2.3' } },
          { id: commandID + 1, method: PROV_TEST_COMMAND, args: { method: 'full', fw: device.fw } },
        ]);
      });

      it('a device a customer added is locked: the setup password as provLockOverrideCode overrides it; the simulated device answers', async () => {
        const fx = await deviceWithRoles(tp);
        const { device } = fx;
        const staff = await provisioningStaff(tp);
        const adminClient = fx.users.ADMIN.client;
        const commands = async () =>
          body<{ commands: { method: string; state: string }[] }>(
            await adminClient.get(`/api/device/${device.deviceid}/rpc`),
          ).commands;
        for (const code of ['', 'WRONGPW2', device.setupPassword.toLowerCase()])
          expectError(
            await run(staff.client, device.deviceid, test(device.fw, code)),
            409,
            'CONFLICT',
            PROV_MESSAGES.locked,
          );
        expect(await commands()).toEqual([]);

        // A simulated device on the portal's own MQTT broker runs the test and reports it.
        let fleet: Fleet | null = null;
        try {
          fleet = startFleet({
            devices: [{ id: device.deviceid, key: device.deviceKey, model: device.model }],
            transport: 'mqtt',
            mqttUrl: `mqtt://127.0.0.1:${tp.portal.mqttPort}`,
            baseInterval: 3600,
            staggerMs: 0,
          });
          const sim = fleet.devices[0]!;
          await until(() => sim.connected && sim.stats.records > 0);
          const res = await run(staff.client, device.deviceid, test(device.fw, device.setupPassword));
          expect(res.status, res.text).toBe(200);
          const { commandID } = body<{ commandID: number }>(res);
          const events = async () =>
            body<{ events: { topic: string | null; msg: string }[] }>(
              await adminClient.get(`/api/device/${device.deviceid}/data?dataPoints=10`),
            ).events;
          const answer = await until(async () => (await events()).find((e) => e.topic === 'prov-test'));
          expect(answer.msg).toBe(`Test full passed on ${device.fw}`);
          await until(async () => (await commands()).some((c) => c.state === 'delivered'));
          expect(await commands()).toMatchObject([{ method: PROV_TEST_COMMAND, state: 'delivered' }]);
          expect((await provLog(device.deviceid)).at(-1)?.message).toBe(
            `Test requested: full on ${device.fw} (command ${commandID}), provisioning lock overridden`,
          );
          expect((await serverLog(adminClient, device.deviceid)).map((e) => e.message)).toContain(
            `Command ${commandID} ${PROV_TEST_COMMAND} queued`,
          );
        } finally {
          await fleet?.stop();
        }
      });

      it('everyone else gets 403, the same as for an unknown id; signed-out 401; nothing is queued', async () => {
        const fx = await deviceWithRoles(tp, { adminGroups: ['distributors'] });
        const ghost = randomDeviceId('G');
        for (const [who, client] of nonStaff(fx)) {
          const known = await run(client, fx.device.deviceid, test(fx.device.fw, fx.device.setupPassword));
          const unknown = await run(client, ghost, test(fx.device.fw, fx.device.setupPassword));
          expectError(known, 403, 'FORBIDDEN');
          expect(known.text, who).toBe(unknown.text);
        }
        expectError(
          await tp.client().post(`/api/prov-portal-run-test/${ghost}`, test('SFW003-1.0.0')),
          401,
          'UNAUTHENTICATED',
        );
        const { client } = await provisioningStaff(tp);
        expectError(await run(client, ghost, test('SFW003-1.0.0')), 404, 'NOT_FOUND', DEVICE_MESSAGES.notFound);
        expect(
          body<{ commands: unknown[] }>(await fx.users.ADMIN.client.get(`/api/device/${fx.device.deviceid}/rpc`))
            .commands,
        ).toEqual([]);
      });

      it('bad bodies get 400 naming the field; nothing is queued or logged', async () => {
        const device = await provision(tp);
        const { client } = await provisioningStaff(tp);
        const logBefore = await provLog(device.deviceid);
        const ok = test(device.fw);
        const bad: [unknown, RegExp][] = [
          [{}, /method is required/],
          [{ fw: ok.fw, provLockOverrideCode: '' }, /method is required/],
          [{ method: 'full', provLockOverrideCode: '' }, /fw/],
          [{ method: 'full', fw: ok.fw }, /provLockOverrideCode is required/],
          [{ ...ok, extra: true }, /extra|Unrecognized/],
          [{ ...ok, method: '' }, /method: a test name/],
          [{ ...ok, method: 'rm -rf /' }, /method: a test name/],
          [{ ...ok, method: 'x'.repeat(41) }, /method: a test name/],
          [{ ...ok, method: 42 }, /method is required/],
          [{ ...ok, fw: '1.2.3' }, /fw must look like SFW003-1.2.3/],
          [{ ...ok, fw: null }, /fw/],
          [{ ...ok, provLockOverrideCode: 1234 }, /provLockOverrideCode is required/],
          [{ ...ok, provLockOverrideCode: 'x'.repeat(65) }, /at most 64/],
          [[ok], /JSON object|expected object/i],
        ];
        for (const [payload, message] of bad)
          expectError(await run(client, device.deviceid, payload), 400, 'BAD_REQUEST', message);
        expectError(await run(client, 'bad-id', ok), 400, 'BAD_REQUEST', /9 uppercase/);
        const hostile = `{"method":"full","fw":"${ok.fw}","provLockOverrideCode":"","__proto__":{"polluted":true}}`;
        expectError(
          await client.post(`/api/prov-portal-run-test/${device.deviceid}`, undefined, { rawBody: hostile }),
          400,
          'BAD_REQUEST',
        );
        expect(await provLog(device.deviceid)).toEqual(logBefore);
        const delivered = await tp.client().request('POST', `/api/ingest/${device.deviceid}`, {
          body: { ts: tp.clock.now().getTime() / 1000, temp: 1 },
          headers: { authorization: `Device ${device.deviceKey}` },
          csrf: false,
        });
        expect(body<{ commands: unknown[] }>(delivered).commands).toEqual([]);
      });
    });

    // ---- setup password and MFA ----------------------------------------------------------------

    describe('POST /device/{id}/passwords', () => {
      const smsTo = async (phone: string) =>
        (await latestOutboxMessages(tp.portal.db, 200)).filter((m) => m.kind === 'sms' && m.recipient === phone);
      const codeOf = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';
      const setMfa = (user: SignedInUser, mfa: 'SMS' | 'TOTP' | 'NONE', extra: { phone?: string; secret?: string }) =>
        tp.portal.db.query('UPDATE users SET mfa_type = $2, phone = $3, totp_secret = $4 WHERE id = $1', [
          user.id,
          mfa,
          extra.phone ?? null,
          extra.secret ?? null,
        ]);
      let phoneCounter = 0;
      const newPhone = () => `+6140${String(Date.now() % 100000).padStart(5, '0')}${(phoneCounter += 1)}`;

      it('no MFA: ADMIN gets it with or without a code; USER, OPERATOR, VIEW 403; a stranger the same 404 as an unknown id', async () => {
        const fx = await deviceWithRoles(tp);
        const p = (id = fx.device.deviceid) => `/api/device/${id}/passwords`;
        const expected = { deviceid: fx.device.deviceid, setupPassword: fx.device.setupPassword };
        expect((await fx.users.ADMIN.client.post(p())).body).toEqual(expected);
        expect((await fx.users.ADMIN.client.post(p(), { code: '123456' })).body).toEqual(expected);
        for (const role of ['USER', 'OPERATOR', 'VIEW'] as const)
          expectError(await fx.users[role].client.post(p(), {}), 403, 'FORBIDDEN');
        const stranger = await fx.users.STRANGER.client.post(p(), {});
        expectError(stranger, 404, 'NOT_FOUND', DEVICE_MESSAGES.notFound);
        expect(stranger.text).toBe((await fx.users.STRANGER.client.post(p(randomDeviceId('U')), {})).text);
        expectError(await tp.client().post(p(), {}), 401, 'UNAUTHENTICATED');
        for (const payload of [{ code: '12ab' }, { code: 123456 }, { code: '123456', extra: 1 }, ['123456']])
          expectError(await fx.users.ADMIN.client.post(p(), payload), 400, 'BAD_REQUEST');
      });

      it('SMS MFA: the first call texts a code (403 MFA_REQUIRED), the call with that code gets the password, once', async () => {
        const fx = await deviceWithRoles(tp);
        const admin = fx.users.ADMIN;
        const phone = newPhone();
        await setMfa(admin, 'SMS', { phone });
        const p = `/api/device/${fx.device.deviceid}/passwords`;

        expectError(await admin.client.post(p, {}), 403, 'MFA_REQUIRED', PASSWORDS_MESSAGES.smsSent);
        const sent = await smsTo(phone);
        expect(sent).toHaveLength(1);
        expect(sent[0]!.body).toMatch(/^\d{6} is your .+ code to confirm this request\./);
        const code = codeOf(sent[0]!.body);
        // Asking again within a minute sends nothing new.
        expectError(await admin.client.post(p), 403, 'MFA_REQUIRED', PASSWORDS_MESSAGES.smsAlreadySent);
        expect(await smsTo(phone)).toHaveLength(1);
        // A wrong code is refused; the right one works once.
        const wrong = code === '000000' ? '000001' : '000000';
        expectError(await admin.client.post(p, { code: wrong }), 403, 'MFA_INVALID', DEVICE_MESSAGES.mfaInvalid);
        const ok = await admin.client.post(p, { code });
        expect(ok.status, ok.text).toBe(200);
        expect(ok.body).toEqual({ deviceid: fx.device.deviceid, setupPassword: fx.device.setupPassword });
        expectError(await admin.client.post(p, { code }), 403, 'MFA_INVALID');

        // With no code outstanding, any code is refused.
        expectError(await admin.client.post(p, { code: '123456' }), 403, 'MFA_INVALID');
        // A minute later (or after use) a new code is sent.
        tp.clock.advance(MINUTE + 1000);
        expectError(await admin.client.post(p, {}), 403, 'MFA_REQUIRED', PASSWORDS_MESSAGES.smsSent);
        expect(await smsTo(phone)).toHaveLength(2);
      });

      it('SMS MFA: five wrong codes burn the code; an expired code is refused; roles without the capability are never texted', async () => {
        const fx = await deviceWithRoles(tp);
        const phone = newPhone();
        const p = `/api/device/${fx.device.deviceid}/passwords`;
        for (const role of ['USER', 'OPERATOR', 'VIEW', 'STRANGER'] as const) {
          await setMfa(fx.users[role], 'SMS', { phone });
          const res = await fx.users[role].client.post(p, {});
          expect(res.status, role).toBe(role === 'STRANGER' ? 404 : 403);
        }
        expect(await smsTo(phone)).toEqual([]);

        const admin = fx.users.ADMIN;
        await setMfa(admin, 'SMS', { phone });
        await admin.client.post(p, {});
        const code = codeOf((await smsTo(phone))[0]!.body);
        const wrong = code === '000000' ? '000001' : '000000';
        for (let i = 0; i < 5; i += 1) expectError(await admin.client.post(p, { code: wrong }), 403, 'MFA_INVALID');
        expectError(await admin.client.post(p, { code }), 403, 'MFA_INVALID');

        tp.clock.advance(MINUTE + 1000);
        await admin.client.post(p, {});
        const second = codeOf((await smsTo(phone))[0]!.body);
        tp.clock.advance(5 * MINUTE + 1000);
        expectError(await admin.client.post(p, { code: second }), 403, 'MFA_INVALID');
      });

      it('SMS MFA: parallel first calls text one code', async () => {
        const fx = await deviceWithRoles(tp);
        const phone = newPhone();
        await setMfa(fx.users.ADMIN, 'SMS', { phone });
        const p = `/api/device/${fx.device.deviceid}/passwords`;
        const answers = await Promise.all(Array.from({ length: 4 }, () => fx.users.ADMIN.client.post(p, {})));
        for (const res of answers) expectError(res, 403, 'MFA_REQUIRED');
        const messages = answers.map((r) => body<{ message: string }>(r).message).sort();
        expect(messages).toEqual(
          [
            PASSWORDS_MESSAGES.smsAlreadySent,
            PASSWORDS_MESSAGES.smsAlreadySent,
            PASSWORDS_MESSAGES.smsAlreadySent,
            PASSWORDS_MESSAGES.smsSent,
          ].sort(),
        );
        const sent = await smsTo(phone);
        expect(sent).toHaveLength(1);
        expect((await fx.users.ADMIN.client.post(p, { code: codeOf(sent[0]!.body) })).status).toBe(200);
      });

      it('a step-up code cannot complete a sign-in', async () => {
        const fx = await deviceWithRoles(tp);
        const admin = fx.users.ADMIN;
        const phone = newPhone();
        await setMfa(admin, 'SMS', { phone });
        await admin.client.post(`/api/device/${fx.device.deviceid}/passwords`, {});
        const code = codeOf((await smsTo(phone))[0]!.body);
        const attacker = tp.client();
        attacker.jar.set('portal_mfa', encodeURIComponent(`step-up:${admin.id}`));
        expectError(await attacker.post('/api/auth/mfa', { code }), 401, 'UNAUTHENTICATED');
        expect(body<{ isAuthenticated: boolean }>(await attacker.get('/api/auth/session')).isAuthenticated).toBe(false);
        // The code still works for what it was sent for.
        expect((await admin.client.post(`/api/device/${fx.device.deviceid}/passwords`, { code })).status).toBe(200);
      });

      it('TOTP MFA: the current code is required and used once; no SMS is sent', async () => {
        const fx = await deviceWithRoles(tp);
        const admin = fx.users.ADMIN;
        const secret = authenticator.generateSecret();
        const phone = newPhone();
        await setMfa(admin, 'TOTP', { secret, phone });
        const p = `/api/device/${fx.device.deviceid}/passwords`;
        expectError(await admin.client.post(p, {}), 403, 'MFA_REQUIRED', DEVICE_MESSAGES.mfaRequired);
        expect(await smsTo(phone)).toEqual([]);
        const code = totpCode(secret, tp.clock);
        expect((await admin.client.post(p, { code })).body).toEqual({
          deviceid: fx.device.deviceid,
          setupPassword: fx.device.setupPassword,
        });
        expectError(await admin.client.post(p, { code }), 403, 'MFA_INVALID');
      });
    });

    it('nothing answered 5xx', () => {
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });
  });
}

/** A string as a literal regular expression. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describeDeviceCalls('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeDeviceCalls('postgres');
