/**
 * Devices over real HTTP: provisioning (staff and CLI), claiming with the setup password,
 * device users and invitations, the settings record, setup passwords and distributor actions,
 * for each of the four roles and a stranger. Runs on PGlite, and on PostgreSQL when reachable.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authenticator } from 'otplib';
import { DEVICE_MESSAGES, DeviceSettingsResponseSchema, type DeviceRole } from '@portal/core';
import { openDatabase } from '../../src/db/db';
import { migrate } from '../../src/db/migrate';
import { systemClock } from '../../src/clock';
import { createDeviceRegistry } from '../../src/modules/devices/devices.registry';
import {
  type DbKind,
  type MailCatcher,
  type TestPortal,
  findPostgres,
  linkIn,
  startMailCatcher,
  startTestPortal,
  totpCode,
  uniqueEmail,
  wrongTotpCode,
} from '../helpers';
import {
  type RoleFixture,
  claim,
  del,
  deviceWithRoles,
  expectError,
  provision,
  provisioningStaff,
  randomDeviceId,
  signedInUser,
} from '../device-helpers';

const MINUTE = 60_000;
const DAY = 86_400_000;
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const ROLES: DeviceRole[] = ['ADMIN', 'USER', 'OPERATOR', 'VIEW'];

const body = <T>(res: { body: unknown }) => res.body as T;

function describeDevices(dbKind: DbKind): void {
  describe(`devices (${dbKind})`, () => {
    let tp: TestPortal;
    let mail: MailCatcher;

    beforeAll(async () => {
      mail = await startMailCatcher();
      tp = await startTestPortal({ db: dbKind, smtpUrl: mail.url, seed: false });
    });
    afterAll(async () => {
      await tp?.close();
      await mail?.close();
    });
    afterEach(() => {
      tp.clock.reset();
      // No call of this suite may end in a server error.
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });

    describe('provisioning', () => {
      it('staff create a device: 201 with setup password and device key, once; the default config is stored', async () => {
        const { client } = await provisioningStaff(tp);
        const id = randomDeviceId('P');
        const res = await client.post(`/api/prov-portal-edit-device/${id}`, {
          model: 'QUAD-C2',
          fw: 'SFW004-2.1.0',
          name: 'Pump "1"',
        });
        expect(res.status, res.text).toBe(201);
        const created = body<Record<string, unknown>>(res);
        expect(created).toMatchObject({
          deviceid: id,
          model: 'QUAD-C2',
          family: 'QUAD',
          fw: 'SFW004-2.1.0',
          name: 'Pump 1',
          tier: 'TRIAL',
          added: false,
        });
        expect(created.setupPassword).toMatch(/^[A-Z2-9]{8}$/);
        expect(created.deviceKey).toMatch(/^[A-Za-z0-9_-]{43}$/);

        const devices = tp.portal.app.services.devices;
        expect(await devices.verifyDeviceKey(id, created.deviceKey as string)).toBe(true);
        expect(await devices.verifyDeviceKey(id, 'wrong-key')).toBe(false);
        expect(await devices.verifyDeviceKey('NOSUCHDEV', created.deviceKey as string)).toBe(false);

        const summary = await devices.getDevice(id);
        const settings = (summary?.config as { settings: Record<string, Record<string, unknown>> }).settings;
        expect(settings.device).toMatchObject({
          id,
          model: 'QUAD-C2',
          name: 'Pump 1',
          fw: 'SFW004-2.1.0',
          base_interval: 60,
          transmit_interval: 1,
        });
        expect(settings.device).toHaveProperty('sq_interval');
        expect(settings.device).toHaveProperty('batt');
        expect(settings.vin).toMatchObject({ sleep: { enabled: true } });
        expect(settings.endpoint).toEqual({ data_to_portal: true });
        expect(settings.script).toEqual({});
        for (const block of ['gps', 'accel', 'ambient', 'inputs', 'serial1', 'can1', 'can2', 'ble'])
          expect(settings).toHaveProperty(block);

        // An edit answers the device without secrets and keeps the key.
        const edit = await client.post(`/api/prov-portal-edit-device/${id}`, { model: 'QUAD-X2' });
        expect(edit.status).toBe(200);
        expect(edit.body).toMatchObject({ deviceid: id, model: 'QUAD-X2', fw: 'SFW004-2.1.0' });
        expect(edit.body).not.toHaveProperty('setupPassword');
        expect(edit.body).not.toHaveProperty('deviceKey');
        expect(await devices.verifyDeviceKey(id, created.deviceKey as string)).toBe(true);

        const get = await client.get(`/api/prov-portal-get-device/${id}`);
        expect(get.status).toBe(200);
        expect(get.body).toMatchObject({ deviceid: id, model: 'QUAD-X2', family: 'QUAD' });
        expect(get.body).not.toHaveProperty('deviceKey');
      });

      it('senquip_admin may provision; other users get 403, signed-out 401', async () => {
        const admin = await signedInUser(tp, ['senquip_admin']);
        const res = await admin.client.post(`/api/prov-portal-edit-device/${randomDeviceId()}`, { model: 'ORB-X1' });
        expect(res.status).toBe(201);
        for (const groups of [[], ['distributors']] as const) {
          const user = await signedInUser(tp, [...groups]);
          const id = randomDeviceId();
          expectError(
            await user.client.post(`/api/prov-portal-edit-device/${id}`, { model: 'ORB-C1' }),
            403,
            'FORBIDDEN',
          );
          expectError(await user.client.get(`/api/prov-portal-get-device/${id}`), 403, 'FORBIDDEN');
          expectError(await user.client.get(`/api/prov-portal-device-exists/${id}`), 403, 'FORBIDDEN');
          expectError(await user.client.get(`/api/prov-portal-get-device-log/${id}`), 403, 'FORBIDDEN');
          expectError(
            await user.client.post(`/api/prov-portal-add-device-log/${id}`, { message: 'x' }),
            403,
            'FORBIDDEN',
          );
        }
        const anon = tp.client();
        expectError(
          await anon.post(`/api/prov-portal-edit-device/${randomDeviceId()}`, { model: 'ORB-C1' }),
          401,
          'UNAUTHENTICATED',
        );
        expectError(await anon.get(`/api/prov-portal-get-device/${randomDeviceId()}`), 401, 'UNAUTHENTICATED');
        expectError(await anon.get(`/api/prov-portal-device-exists/${randomDeviceId()}`), 401, 'UNAUTHENTICATED');
      });

      it('the existence check answers 200 with exists false for a free id and true for a device (issue 32)', async () => {
        const { client } = await provisioningStaff(tp);
        const free = randomDeviceId();
        const before = await client.get(`/api/prov-portal-device-exists/${free}`);
        expect(before.status).toBe(200);
        expect(before.body).toEqual({ deviceid: free, exists: false });
        const device = await provision(tp);
        const after = await client.get(`/api/prov-portal-device-exists/${device.deviceid}`);
        expect(after.status).toBe(200);
        expect(after.body).toEqual({ deviceid: device.deviceid, exists: true });
        expectError(await client.get('/api/prov-portal-device-exists/abc'), 400, 'BAD_REQUEST');
      });

      it('bad input is refused with a clear message and creates nothing', async () => {
        const { client } = await provisioningStaff(tp);
        const id = randomDeviceId();
        expectError(
          await client.post('/api/prov-portal-edit-device/abc123xyz', { model: 'ORB-C1' }),
          400,
          'BAD_REQUEST',
          /9 uppercase letters or digits/,
        );
        expectError(
          await client.post(`/api/prov-portal-edit-device/${id}`, { model: 'ORB-Z9' }),
          400,
          'BAD_REQUEST',
          /model must be one of ORB-C1, ORB-X1, QUAD-C2, QUAD-X2/,
        );
        expectError(
          await client.post(`/api/prov-portal-edit-device/${id}`, { model: 'ORB-C1', fw: '1.2.3' }),
          400,
          'BAD_REQUEST',
          /fw must look like SFW003-1.2.3/,
        );
        expectError(await client.post(`/api/prov-portal-edit-device/${id}`, {}), 400, 'BAD_REQUEST', /model/);
        expectError(
          await client.post(`/api/prov-portal-edit-device/${id}`, { model: 'ORB-C1', extra: 1 }),
          400,
          'BAD_REQUEST',
        );
        expectError(await client.get(`/api/prov-portal-get-device/${id}`), 404, 'NOT_FOUND', DEVICE_MESSAGES.notFound);
        expectError(await client.get(`/api/prov-portal-get-device-log/${id}`), 404, 'NOT_FOUND');
        expectError(await client.post(`/api/prov-portal-add-device-log/${id}`, { message: 'hello' }), 404, 'NOT_FOUND');
      });

      it('the provisioning log records creation and added entries', async () => {
        const { client, email } = await provisioningStaff(tp);
        const device = await provision(tp);
        const added = await client.post(`/api/prov-portal-add-device-log/${device.deviceid}`, {
          message: 'Label printed',
        });
        expect(added.status).toBe(200);
        const log = await client.get(`/api/prov-portal-get-device-log/${device.deviceid}`);
        expect(log.status).toBe(200);
        const entries = body<{ entries: { message: string; author: string; ts: string }[] }>(log).entries;
        expect(entries.map((e) => e.message)).toEqual([`Provisioned: ORB-C1 SFW003-1.0.0`, 'Label printed']);
        expect(entries.every((e) => e.author === email && !Number.isNaN(Date.parse(e.ts)))).toBe(true);
        expectError(
          await client.post(`/api/prov-portal-add-device-log/${device.deviceid}`, { message: '   ' }),
          400,
          'BAD_REQUEST',
          /message is required/,
        );
        expectError(
          await client.post(`/api/prov-portal-add-device-log/${device.deviceid}`, { message: 'x'.repeat(2001) }),
          400,
          'BAD_REQUEST',
          /2000/,
        );
        expect(
          body<{ entries: unknown[] }>(await client.get(`/api/prov-portal-get-device-log/${device.deviceid}`)).entries,
        ).toHaveLength(2);
      });
    });

    describe('claiming', () => {
      it('the first user becomes ADMIN and starts the trial; later users get VIEW', async () => {
        const device = await provision(tp);
        const first = await signedInUser(tp);
        const before = tp.clock.now().getTime() / 1000;
        const res = await claim(first.client, device.deviceid, device.setupPassword);
        expect(res.status, res.text).toBe(200);
        expect(res.body).toMatchObject({
          deviceid: device.deviceid,
          permission: 'ADMIN',
          userid: first.id,
          message: DEVICE_MESSAGES.claimed,
        });
        const summary = await tp.portal.app.services.devices.getDevice(device.deviceid);
        expect(summary?.added_ts).toBeGreaterThanOrEqual(before);

        const settings = body<{
          deviceSettings: { tier: { trialDaysRemaining: number; name: string } };
          myPermission: string;
        }>(await first.client.get(`/api/device/${device.deviceid}/settings`));
        expect(settings.myPermission).toBe('ADMIN');
        expect(settings.deviceSettings.tier).toMatchObject({ name: 'TRIAL', trialDaysRemaining: 89 });

        const second = await signedInUser(tp);
        tp.clock.advance(DAY);
        const res2 = await claim(second.client, device.deviceid, device.setupPassword);
        expect(res2.body).toMatchObject({ permission: 'VIEW' });
        // The trial start does not move.
        expect((await tp.portal.app.services.devices.getDevice(device.deviceid))?.added_ts).toBe(summary?.added_ts);
        // Claiming again changes nothing.
        const again = await claim(first.client, device.deviceid, device.setupPassword);
        expect(again.body).toMatchObject({ permission: 'ADMIN', message: DEVICE_MESSAGES.alreadyUser });
      });

      it('a wrong password and an unknown device give the same answer; 5 wrong tries per 15 min, then 429', async () => {
        const device = await provision(tp);
        const user = await signedInUser(tp);
        const unknown = await claim(user.client, randomDeviceId('Z'), 'ABCDEFGH');
        const wrong = await claim(user.client, device.deviceid, 'ABCDEFGH');
        const missing = await claim(user.client, device.deviceid, undefined);
        for (const res of [unknown, wrong, missing]) expectError(res, 403, 'FORBIDDEN', DEVICE_MESSAGES.badClaim);
        expect(unknown.text).toBe(wrong.text);
        expectError(await claim(user.client, 'bad-id', 'ABCDEFGH'), 403, 'FORBIDDEN', DEVICE_MESSAGES.badClaim);

        // Two wrong so far on this device: three more, then even the right password is refused.
        const other = await signedInUser(tp);
        for (let i = 0; i < 3; i += 1)
          expectError(await claim(other.client, device.deviceid, 'WRONG234'), 403, 'FORBIDDEN');
        const attempts = await tp.portal.db.query<{ n: number }>(
          'SELECT count(*)::integer AS n FROM device_claim_attempts WHERE device_id = $1',
          [device.deviceid],
        );
        expect(attempts[0]?.n).toBe(5);
        expectError(await claim(other.client, device.deviceid, device.setupPassword), 429, 'RATE_LIMITED');
        // Unknown device ids are limited alike.
        const ghost = randomDeviceId('Q');
        for (let i = 0; i < 5; i += 1) expectError(await claim(user.client, ghost, 'ABCDEFGH'), 403, 'FORBIDDEN');
        expectError(await claim(user.client, ghost, 'ABCDEFGH'), 429, 'RATE_LIMITED');
        // Nobody was added, and the window passes.
        expect(await tp.portal.app.services.access.roleOf(other.id, device.deviceid)).toBeNull();
        tp.clock.advance(15 * MINUTE + 1000);
        const ok = await claim(other.client, device.deviceid, device.setupPassword);
        expect(ok.body).toMatchObject({ permission: 'ADMIN' });
      });

      it('signed-out callers get 401 and the body is validated', async () => {
        const device = await provision(tp);
        expectError(await claim(tp.client(), device.deviceid, device.setupPassword), 401, 'UNAUTHENTICATED');
        const user = await signedInUser(tp);
        expectError(
          await user.client.post(`/api/device/${device.deviceid}/user`, { setupPassword: 42 }),
          400,
          'BAD_REQUEST',
          /setupPassword/,
        );
        expectError(
          await user.client.post(`/api/device/${device.deviceid}/user`, {
            setupPassword: device.setupPassword,
            targetEmail: 'a@example.com',
            targetPermission: 'VIEW',
          }),
          400,
          'BAD_REQUEST',
          /either setupPassword or targetEmail/,
        );
        expect(await tp.portal.app.services.access.roleOf(user.id, device.deviceid)).toBeNull();
      });
    });

    describe('roles', () => {
      let fx: RoleFixture;
      const ghost = randomDeviceId('G');
      beforeAll(async () => {
        fx = await deviceWithRoles(tp);
      });
      const path = (suffix: string, id = fx.device.deviceid) => `/api/device/${id}/${suffix}`;

      /** The stranger's answer equals the answer for a device that does not exist. */
      async function expectStrangerNotFound(
        call: (id: string) => Promise<{ status: number; text: string; body: unknown }>,
      ) {
        const stranger = await call(fx.device.deviceid);
        const none = await call(ghost);
        expectError(stranger as never, 404, 'NOT_FOUND', DEVICE_MESSAGES.notFound);
        expect(stranger.text).toBe(none.text);
      }

      it('GET settings: every role reads it with its own permission; a stranger gets 404', async () => {
        for (const role of ROLES) {
          const res = await fx.users[role].client.get(path('settings'));
          expect(res.status).toBe(200);
          const parsed = DeviceSettingsResponseSchema.parse(res.body);
          expect(parsed).toMatchObject({
            deviceid: fx.device.deviceid,
            myPermission: role,
            requesterUserId: fx.users[role].id,
          });
          expect(parsed.deviceSettings).toMatchObject({
            PORTAL_deviceName: fx.device.deviceid,
            PORTAL_add_next_user_without_pass: { active: false },
            tier: { name: 'TRIAL', dataToPortal: true, trialDaysRemaining: 89 },
            trialResetActive: false,
            trialResetAvailable: true,
            dataStorageDays: 730,
          });
        }
        await expectStrangerNotFound((id) => fx.users.STRANGER.client.get(path('settings', id)));
        expectError(await tp.client().get(path('settings')), 401, 'UNAUTHENTICATED');
      });

      it('GET permissions: ADMIN and USER list the users; OPERATOR and VIEW 403; stranger 404', async () => {
        for (const role of ['ADMIN', 'USER'] as const) {
          const res = await fx.users[role].client.get(`${path('permissions')}?flattenGroups=true`);
          expect(res.status).toBe(200);
          const users = body<{ users: { userid: string; targetEmail: string; permission: string }[] }>(res).users;
          expect(users.map((u) => u.permission).sort()).toEqual(['ADMIN', 'OPERATOR', 'USER', 'VIEW']);
          // SUB-16: the e-mail is targetEmail, as spec 2 section 3 names a device user's field.
          expect(users.find((u) => u.permission === 'USER')).toEqual({
            userid: fx.users.USER.id,
            targetEmail: fx.users.USER.email,
            permission: 'USER',
            direct: true,
            directPermission: 'USER',
            groups: [],
            groupAccess: [],
          });
        }
        for (const role of ['OPERATOR', 'VIEW'] as const)
          expectError(await fx.users[role].client.get(path('permissions')), 403, 'FORBIDDEN');
        await expectStrangerNotFound((id) => fx.users.STRANGER.client.get(path('permissions', id)));
        expectError(
          await fx.users.ADMIN.client.get(`${path('permissions')}?flattenGroups=maybe`),
          400,
          'BAD_REQUEST',
          /flattenGroups/,
        );
      });

      it('POST/PUT/DELETE user: only ADMIN (editUsers); a stranger gets 404', async () => {
        const target = await signedInUser(tp);
        for (const role of ['USER', 'OPERATOR', 'VIEW'] as const) {
          const c = fx.users[role].client;
          expectError(
            await c.post(path('user'), { targetEmail: target.email, targetPermission: 'VIEW' }),
            403,
            'FORBIDDEN',
          );
          expectError(await c.put(path('user'), { userid: fx.users.VIEW.id, permission: 'USER' }), 403, 'FORBIDDEN');
          expectError(
            await del(c, path('user'), {
              userid: fx.users.OPERATOR.id === fx.users[role].id ? fx.users.VIEW.id : fx.users.OPERATOR.id,
            }),
            403,
            'FORBIDDEN',
          );
        }
        await expectStrangerNotFound((id) =>
          fx.users.STRANGER.client.post(path('user', id), { targetEmail: target.email, targetPermission: 'VIEW' }),
        );
        await expectStrangerNotFound((id) =>
          fx.users.STRANGER.client.put(path('user', id), { userid: fx.users.VIEW.id, permission: 'USER' }),
        );
        await expectStrangerNotFound((id) =>
          del(fx.users.STRANGER.client, path('user', id), { userid: fx.users.VIEW.id }),
        );
        expect(await tp.portal.app.services.access.roleOf(target.id, fx.device.deviceid)).toBeNull();

        const admin = fx.users.ADMIN.client;
        const added = await admin.post(path('user'), {
          targetEmail: target.email.toUpperCase(),
          targetPermission: 'OPERATOR',
        });
        expect(added.body).toMatchObject({ userid: target.id, permission: 'OPERATOR', invited: false });
        const changed = await admin.put(path('user'), { userid: target.id, permission: 'USER' });
        expect(changed.body).toMatchObject({ userid: target.id, permission: 'USER' });
        expect(await tp.portal.app.services.access.roleOf(target.id, fx.device.deviceid)).toBe('USER');
        expect((await del(admin, path('user'), { userid: target.id })).status).toBe(200);
        expect(await tp.portal.app.services.access.roleOf(target.id, fx.device.deviceid)).toBeNull();
        expectError(
          await admin.put(path('user'), { userid: target.id, permission: 'USER' }),
          404,
          'NOT_FOUND',
          DEVICE_MESSAGES.userNotFound,
        );

        // Bad input: unknown role, bad address, missing fields.
        expectError(
          await admin.post(path('user'), { targetEmail: target.email, targetPermission: 'OWNER' }),
          400,
          'BAD_REQUEST',
          /targetPermission/,
        );
        expectError(
          await admin.post(path('user'), { targetEmail: 'not-an-address', targetPermission: 'VIEW' }),
          400,
          'BAD_REQUEST',
          /valid e-mail/,
        );
        expectError(
          await admin.post(path('user'), { targetEmail: target.email }),
          400,
          'BAD_REQUEST',
          /targetPermission/,
        );
        expectError(await admin.put(path('user'), { userid: target.id }), 400, 'BAD_REQUEST', /permission/);
        expectError(await del(admin, path('user'), {}), 400, 'BAD_REQUEST', /userid/);
        expect(await tp.portal.app.services.access.roleOf(target.id, fx.device.deviceid)).toBeNull();
      });

      it('any user may remove themselves', async () => {
        const own = await deviceWithRoles(tp);
        const res = await del(own.users.VIEW.client, `/api/device/${own.device.deviceid}/user`, {
          userid: own.users.VIEW.id,
        });
        expect(res.status).toBe(200);
        expectError(await own.users.VIEW.client.get(`/api/device/${own.device.deviceid}/settings`), 404, 'NOT_FOUND');
      });

      it('the last ADMIN can be neither demoted nor removed (409)', async () => {
        const own = await deviceWithRoles(tp);
        const admin = own.users.ADMIN;
        const p = `/api/device/${own.device.deviceid}/user`;
        expectError(
          await admin.client.put(p, { userid: admin.id, permission: 'USER' }),
          409,
          'CONFLICT',
          DEVICE_MESSAGES.lastAdmin,
        );
        expectError(await del(admin.client, p, { userid: admin.id }), 409, 'CONFLICT', DEVICE_MESSAGES.lastAdmin);
        expectError(
          await admin.client.post(p, { targetEmail: admin.email, targetPermission: 'VIEW' }),
          409,
          'CONFLICT',
          DEVICE_MESSAGES.lastAdmin,
        );
        expect(await tp.portal.app.services.access.roleOf(admin.id, own.device.deviceid)).toBe('ADMIN');
        // With a second ADMIN the first may step down.
        expect((await admin.client.put(p, { userid: own.users.USER.id, permission: 'ADMIN' })).status).toBe(200);
        expect((await admin.client.put(p, { userid: admin.id, permission: 'VIEW' })).status).toBe(200);
        expectError(await admin.client.get(`/api/device/${own.device.deviceid}/permissions`), 403, 'FORBIDDEN');
      });

      it('PUT settings: display settings for ADMIN and USER, notes for ADMIN; others 403; stranger 404', async () => {
        const display = {
          PORTAL_displaySettings: {
            supply: {
              displayType: 'gauge',
              sort: 3,
              name: 'Supply "V"',
              units: 'V',
              dp: 2,
              gaugeSettings: { min: 0, max: 30, warnLow: 10, warnHigh: 15, alarmLow: 9, alarmHigh: 16 },
            },
          },
        };
        for (const role of ['ADMIN', 'USER'] as const) {
          const res = await fx.users[role].client.put(path('settings'), display);
          expect(res.status, res.text).toBe(200);
          expect(
            body<{ deviceSettings: { PORTAL_displaySettings: Record<string, unknown> } }>(res).deviceSettings
              .PORTAL_displaySettings.supply,
          ).toMatchObject({
            displayType: 'gauge',
            name: 'Supply V',
            dp: 2,
          });
        }
        for (const role of ['OPERATOR', 'VIEW'] as const)
          expectError(await fx.users[role].client.put(path('settings'), display), 403, 'FORBIDDEN');
        const notes = {
          PORTAL_deviceNotes: {
            make: 'Acme <b>',
            model: 'X-1',
            description: 'Pump at "north" gate',
            home_page: 'my page!',
          },
        };
        const ok = await fx.users.ADMIN.client.put(path('settings'), notes);
        expect(ok.status).toBe(200);
        expect(body<{ deviceSettings: { PORTAL_deviceNotes: unknown } }>(ok).deviceSettings.PORTAL_deviceNotes).toEqual(
          {
            make: 'Acme b',
            model: 'X-1',
            description: 'Pump at north gate',
            home_page: 'mypage',
          },
        );
        for (const role of ['USER', 'OPERATOR', 'VIEW'] as const)
          expectError(await fx.users[role].client.put(path('settings'), notes), 403, 'FORBIDDEN');
        await expectStrangerNotFound((id) => fx.users.STRANGER.client.put(path('settings', id), display));

        // A second key merges; null removes a key.
        await fx.users.USER.client.put(path('settings'), { PORTAL_displaySettings: { temp: { displayType: 'hide' } } });
        const merged = await fx.users.USER.client.put(path('settings'), { PORTAL_displaySettings: { supply: null } });
        expect(
          Object.keys(
            body<{ deviceSettings: { PORTAL_displaySettings: object } }>(merged).deviceSettings.PORTAL_displaySettings,
          ),
        ).toEqual(['temp']);

        // The name of a real device (id not starting '0-') is its config name: refused.
        expectError(
          await fx.users.ADMIN.client.put(path('settings'), { PORTAL_deviceName: 'Pump' }),
          400,
          'BAD_REQUEST',
          DEVICE_MESSAGES.nameNotEditable,
        );
      });

      it('PUT settings: widget cards and custom charts by their own schemas, at most 5 charts, none on Basic', async () => {
        const own = await deviceWithRoles(tp);
        const c = own.users.USER.client;
        const p = `/api/device/${own.device.deviceid}/settings`;
        const display = async () =>
          body<{ deviceSettings: { PORTAL_displaySettings: Record<string, Record<string, unknown>> } }>(await c.get(p))
            .deviceSettings.PORTAL_displaySettings;
        const widget = {
          name: 'Tank',
          elements: [{ id: 'e1', x: 15, y: 20, active: 'levelIndicator', settings: { dataElement: 'supply' } }],
          components: [{ id: 't1', x: 5, y: 5, template: 'Level {data.supply}', settings: {} }],
        };
        const saved = await c.put(p, { PORTAL_displaySettings: { widget1: widget } });
        expect(saved.status, saved.text).toBe(200);
        // The defaults of spec 2 sections 3 and 9 are stored with it (WGT-03, WGT-08, WGT-11).
        expect((await display()).widget1).toMatchObject({
          type: 'widget',
          showLastReading: true,
          showUnits: true,
          staleColor: 'grey',
          snapToGrid: true,
          elements: [{ settings: { highWarning: 35, lowWarning: 25, highAlarm: 45, lowAlarm: 20, rotation: 0 } }],
          components: [{ settings: { fontSize: 16 } }],
        });
        // A widget key is checked as a widget: rotation 45 and an unknown kind are refused (WGT-04, WGT-07).
        for (const element of [
          { ...widget.elements[0], settings: { rotation: 45 } },
          { ...widget.elements[0], active: 'gauge' },
        ]) {
          const before = await display();
          expectError(
            await c.put(p, { PORTAL_displaySettings: { widget2: { ...widget, elements: [element] } } }),
            400,
            'BAD_REQUEST',
          );
          expect(await display()).toEqual(before);
        }
        // A data key's display settings may not pose as a widget, nor a widget as display settings.
        expectError(
          await c.put(p, { PORTAL_displaySettings: { widget3: { displayType: 'gauge' } } }),
          400,
          'BAD_REQUEST',
        );
        const chart = (key: string) => ({ name: key, series: [{ source: own.device.deviceid, key: 'supply' }] });
        for (const n of [1, 2, 3, 4, 5]) {
          const res = await c.put(p, { PORTAL_displaySettings: { [`chart${n}`]: chart(`c${n}`) } });
          expect(res.status, res.text).toBe(200);
        }
        expect((await display()).chart1).toMatchObject({ series: [{ axisBind: 'ax1', lineWidth: 2 }] });
        expectError(
          await c.put(p, { PORTAL_displaySettings: { chart6: chart('c6') } }),
          400,
          'BAD_REQUEST',
          'Maximum number of charts reached [5]',
        );
        // Editing one of the five still works; so does replacing one in a single change.
        expect((await c.put(p, { PORTAL_displaySettings: { chart5: chart('renamed') } })).status).toBe(200);
        expect((await c.put(p, { PORTAL_displaySettings: { chart5: null, chart7: chart('c7') } })).status).toBe(200);
        expect(Object.keys(await display()).filter((k) => k.startsWith('chart'))).toHaveLength(5);

        // On Basic (trial over) neither is written; removing one still is.
        await tp.portal.db.query('UPDATE devices SET added_ts = added_ts - $2 WHERE id = $1', [
          own.device.deviceid,
          100 * 86_400,
        ]);
        expectError(
          await c.put(p, { PORTAL_displaySettings: { widget1: { ...widget, name: 'Again' } } }),
          400,
          'BAD_REQUEST',
          'Widgets are unavailable on the Basic Plan',
        );
        expectError(
          await c.put(p, { PORTAL_displaySettings: { chart1: chart('again') } }),
          400,
          'BAD_REQUEST',
          'Custom charts are unavailable on the Basic Plan',
        );
        expect((await c.put(p, { PORTAL_displaySettings: { chart1: null, widget1: null } })).status).toBe(200);
        expect(Object.keys(await display())).not.toContain('widget1');
      });

      it('PUT settings: bad input gets 400 naming the field and changes nothing', async () => {
        const admin = fx.users.ADMIN.client;
        const before = (await admin.get(path('settings'))).text;
        const bad: [unknown, RegExp][] = [
          [{ PORTAL_displaySettings: { supply: { dp: 9 } } }, /dp must be 0-8/],
          [{ PORTAL_displaySettings: { supply: { sort: 0 } } }, /sort must be 1-100/],
          [{ PORTAL_displaySettings: { supply: { sort: 101 } } }, /sort must be 1-100/],
          [{ PORTAL_displaySettings: { supply: { name: 'x'.repeat(16) } } }, /name: at most 15 characters/],
          [{ PORTAL_displaySettings: { supply: { units: 'x'.repeat(16) } } }, /units: at most 15 characters/],
          [{ PORTAL_displaySettings: { supply: { displayType: 'pie' } } }, /displayType/],
          [{ PORTAL_displaySettings: { supply: { gaugeSettings: { min: 0 } } } }, /gaugeSettings/],
          [{ PORTAL_displaySettings: { supply: { colour: 'red', evil: true } } }, /evil|Unrecognized/i],
          [
            { PORTAL_displaySettings: { '1bad key': {} } },
            /PORTAL_displaySettings.1bad key: display setting keys are data key names/,
          ],
          [{ PORTAL_deviceNotes: { make: 'x'.repeat(41) } }, /make: at most 40 characters/],
          [{ PORTAL_deviceNotes: { owner: 'me' } }, /owner|Unrecognized/i],
          [{}, /Send PORTAL_deviceName, PORTAL_deviceNotes or PORTAL_displaySettings/],
          [{ PORTAL_secret: 1 }, /PORTAL_secret|Unrecognized/i],
        ];
        for (const [payload, message] of bad)
          expectError(await admin.put(path('settings'), payload), 400, 'BAD_REQUEST', message);
        expect((await admin.get(path('settings'))).text).toBe(before);
      });

      it('POST passwords: ADMIN gets the setup password; others 403; stranger 404', async () => {
        const res = await fx.users.ADMIN.client.post(path('passwords'));
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual({ deviceid: fx.device.deviceid, setupPassword: fx.device.setupPassword });
        for (const role of ['USER', 'OPERATOR', 'VIEW'] as const)
          expectError(await fx.users[role].client.post(path('passwords'), {}), 403, 'FORBIDDEN');
        await expectStrangerNotFound((id) => fx.users.STRANGER.client.post(path('passwords', id), {}));
        expectError(
          await fx.users.ADMIN.client.post(path('passwords'), { code: '12ab' }),
          400,
          'BAD_REQUEST',
          /6 digits/,
        );
      });

      it('POST passwords: with TOTP on, a current code is required and used once', async () => {
        const own = await deviceWithRoles(tp);
        const admin = own.users.ADMIN;
        const secret = authenticator.generateSecret();
        await tp.portal.db.query(`UPDATE users SET mfa_type = 'TOTP', totp_secret = $2 WHERE id = $1`, [
          admin.id,
          secret,
        ]);
        const p = `/api/device/${own.device.deviceid}/passwords`;
        expectError(await admin.client.post(p, {}), 403, 'MFA_REQUIRED', DEVICE_MESSAGES.mfaRequired);
        expectError(await admin.client.post(p, { code: wrongTotpCode(secret, tp.clock) }), 403, 'MFA_INVALID');
        const code = totpCode(secret, tp.clock);
        const ok = await admin.client.post(p, { code });
        expect(ok.body).toEqual({ deviceid: own.device.deviceid, setupPassword: own.device.setupPassword });
        expectError(await admin.client.post(p, { code }), 403, 'MFA_INVALID');
      });

      it('distributor actions: a distributor holding ADMIN; others 403; a distributor stranger 404', async () => {
        const own = await deviceWithRoles(tp, { adminGroups: ['distributors'] });
        const p = (id = own.device.deviceid) => `/api/billing-distributor-action/${id}`;
        // Not a distributor (even the ADMIN of another device), and distributors without ADMIN.
        expectError(
          await fx.users.ADMIN.client.post(p(fx.device.deviceid), { action: 'reset-trial' }),
          403,
          'FORBIDDEN',
        );
        const distributor = await signedInUser(tp, ['distributors']);
        expectError(await distributor.client.post(p(ghost), { action: 'reset-trial' }), 404, 'NOT_FOUND');
        const strangerRes = await distributor.client.post(p(), { action: 'reset-trial' });
        expectError(strangerRes, 404, 'NOT_FOUND', DEVICE_MESSAGES.notFound);
        await own.users.ADMIN.client.post(`/api/device/${own.device.deviceid}/user`, {
          targetEmail: distributor.email,
          targetPermission: 'USER',
        });
        expectError(await distributor.client.post(p(), { action: 'reset-trial' }), 403, 'FORBIDDEN');
        expectError(await tp.client().post(p(), { action: 'reset-trial' }), 401, 'UNAUTHENTICATED');
        // Bad input.
        const c = own.users.ADMIN.client;
        expectError(await c.post(p(), { action: 'explode' }), 400, 'BAD_REQUEST', /reset-trial/);
        expectError(
          await c.post(p(), { action: 'no-pass', params: { mode: 'SOMETIMES' } }),
          400,
          'BAD_REQUEST',
          /ADMIN or DISABLE/,
        );
        expectError(await c.post(p(), { action: 'no-pass' }), 400, 'BAD_REQUEST', /params/);
        const settings = async () =>
          body<{ deviceSettings: Record<string, unknown> }>(await c.get(`/api/device/${own.device.deviceid}/settings`))
            .deviceSettings;
        expect(await settings()).toMatchObject({
          trialResetAvailable: true,
          trialResetActive: false,
          PORTAL_add_next_user_without_pass: { active: false },
        });

        // no-pass ADMIN, then DISABLE.
        expect(await c.post(p(), { action: 'no-pass', params: { mode: 'ADMIN' } })).toMatchObject({
          status: 200,
          body: { message: DEVICE_MESSAGES.noPassOn },
        });
        expect(await settings()).toMatchObject({ PORTAL_add_next_user_without_pass: { active: true } });
        expect(await c.post(p(), { action: 'no-pass', params: { mode: 'DISABLE' } })).toMatchObject({
          status: 200,
          body: { message: DEVICE_MESSAGES.noPassOff },
        });
        expect(await settings()).toMatchObject({ PORTAL_add_next_user_without_pass: { active: false } });
      });
    });

    describe('add-without-password and trial reset', () => {
      it('with no-pass ADMIN the next user becomes ADMIN without the password, once', async () => {
        const fx = await deviceWithRoles(tp, { adminGroups: ['distributors'] });
        const id = fx.device.deviceid;
        await fx.users.ADMIN.client.post(`/api/billing-distributor-action/${id}`, {
          action: 'no-pass',
          params: { mode: 'ADMIN' },
        });
        const next = await signedInUser(tp);
        const res = await claim(next.client, id, undefined);
        expect(res.body).toMatchObject({ permission: 'ADMIN' });
        const after = body<{ deviceSettings: { PORTAL_add_next_user_without_pass: { active: boolean } } }>(
          await next.client.get(`/api/device/${id}/settings`),
        );
        expect(after.deviceSettings.PORTAL_add_next_user_without_pass.active).toBe(false);
        const third = await signedInUser(tp);
        expectError(await claim(third.client, id, undefined), 403, 'FORBIDDEN', DEVICE_MESSAGES.badClaim);
        // An existing VIEW user is raised to ADMIN by no-pass too.
        await fx.users.ADMIN.client.post(`/api/billing-distributor-action/${id}`, {
          action: 'no-pass',
          params: { mode: 'ADMIN' },
        });
        expect((await claim(fx.users.VIEW.client, id, undefined)).body).toMatchObject({ permission: 'ADMIN' });
      });

      it('reset-trial: available -> active -> used when the next user is added (trial restarts); once only', async () => {
        const fx = await deviceWithRoles(tp, { adminGroups: ['distributors'] });
        const id = fx.device.deviceid;
        const c = fx.users.ADMIN.client;
        const p = `/api/billing-distributor-action/${id}`;
        const settings = async () =>
          body<{
            deviceSettings: {
              trialResetActive: boolean;
              trialResetAvailable: boolean;
              tier: { trialDaysRemaining: number };
            };
          }>(await c.get(`/api/device/${id}/settings`)).deviceSettings;
        // Sixty days into the trial (moved in the database: a clock jump would end the sessions).
        await tp.portal.db.query('UPDATE devices SET added_ts = added_ts - $2 WHERE id = $1', [id, 60 * 86_400]);
        expect((await settings()).tier.trialDaysRemaining).toBe(29);
        expect(await c.post(p, { action: 'reset-trial' })).toMatchObject({
          status: 200,
          body: { message: DEVICE_MESSAGES.trialResetDone },
        });
        expect(await settings()).toMatchObject({
          trialResetActive: true,
          trialResetAvailable: false,
          tier: { trialDaysRemaining: 29 },
        });
        expectError(await c.post(p, { action: 'reset-trial' }), 409, 'CONFLICT', DEVICE_MESSAGES.trialResetUnavailable);
        // Granting a user is not "adding the device"; claiming is.
        const next = await signedInUser(tp);
        expect((await claim(next.client, id, fx.device.setupPassword)).body).toMatchObject({ permission: 'VIEW' });
        expect(await settings()).toMatchObject({
          trialResetActive: false,
          trialResetAvailable: false,
          tier: { trialDaysRemaining: 89 },
        });
        expectError(await c.post(p, { action: 'reset-trial' }), 409, 'CONFLICT');
      });
    });

    describe('invitations', () => {
      it('an address without an account is invited by mail and gets the role when it signs up', async () => {
        const fx = await deviceWithRoles(tp);
        const id = fx.device.deviceid;
        const email = uniqueEmail('invitee');
        const res = await fx.users.ADMIN.client.post(`/api/device/${id}/user`, {
          targetEmail: email,
          targetPermission: 'USER',
        });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ invited: true, permission: 'USER', message: DEVICE_MESSAGES.invited });
        const invite = await mail.waitFor((m) => m.to.includes(email));
        expect(invite.subject).toMatch(/access to a device/);
        expect(invite.text).toContain(fx.users.ADMIN.email);
        expect(invite.text).toContain(`USER access to the device ${id}`);
        expect(invite.text).toMatch(/https?:\/\/\S+\/signup/);
        const perms = body<{ invites: unknown[] }>(await fx.users.ADMIN.client.get(`/api/device/${id}/permissions`));
        expect(perms.invites).toEqual([{ email, permission: 'USER' }]);

        // Sign up, verify, sign in: the device is there with the granted role.
        const client = tp.client();
        expect((await client.post('/api/auth/signup', { email, password: 'password-123' })).status).toBe(201);
        const verify = linkIn(await mail.waitFor((m) => m.to.includes(email) && /verify/i.test(m.subject)), 'verify');
        expect((await client.post(`/api/auth/verify/${verify.code}`)).status).toBe(200);
        expect((await client.post('/api/auth/login', { email, password: 'password-123' })).status).toBe(200);
        const settings = await client.get(`/api/device/${id}/settings`);
        expect(settings.status).toBe(200);
        expect(settings.body).toMatchObject({ myPermission: 'USER' });
        const after = body<{ invites: unknown[]; users: { targetEmail: string; permission: string }[] }>(
          await fx.users.ADMIN.client.get(`/api/device/${id}/permissions`),
        );
        expect(after.invites).toEqual([]);
        expect(after.users).toContainEqual(expect.objectContaining({ targetEmail: email, permission: 'USER' }));
      });
    });

    describe.skipIf(dbKind !== 'pglite')('CLI', () => {
      it('npm run provision makes devices in DATA_DIR and prints their credentials', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'provision-'));
        try {
          const run = (args: string[]) =>
            new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
              const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/provision.ts', ...args], {
                cwd: ROOT,
                env: { ...process.env, DATABASE_URL: '', DATA_DIR: dir },
              });
              let stdout = '';
              let stderr = '';
              child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
              child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
              child.on('error', reject);
              child.on('close', (code) => resolve({ code, stdout, stderr }));
            });
          const bad = await run(['--model', 'ORB-Z9']);
          expect(bad.code).toBe(2);
          expect(bad.stderr).toMatch(/--model must be one of/);

          const res = await run(['--model', 'QUAD-C2', '--count', '3', '--prefix', 'cli']);
          expect(res.code, res.stderr).toBe(0);
          const lines = res.stdout.trim().split('\n');
          expect(lines[0]).toMatch(/^deviceid\s+model\s+setup password\s+device key$/);
          const rows = lines.slice(2, 5).map((l) => l.trim().split(/\s+/));
          expect(rows).toHaveLength(3);
          for (const [deviceid, model, setupPassword, deviceKey] of rows) {
            expect(deviceid).toMatch(/^CLI[A-Z0-9]{6}$/);
            expect(model).toBe('QUAD-C2');
            expect(setupPassword).toMatch(/^[A-Z2-9]{8}$/);
            expect(deviceKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
          }
          expect(res.stdout).toMatch(/3 devices provisioned/);

          const db = await openDatabase({ dataDir: dir });
          try {
            await migrate(db);
            const devices = createDeviceRegistry({ db, clock: systemClock });
            for (const [deviceid, , , deviceKey] of rows) {
              expect(await devices.verifyDeviceKey(deviceid!, deviceKey!)).toBe(true);
              expect(await devices.getDevice(deviceid!)).toMatchObject({
                model: 'QUAD-C2',
                family: 'QUAD',
                fw: 'SFW003-1.0.0',
              });
            }
          } finally {
            await db.close();
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }, 60_000);
    });
  });
}

describeDevices('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeDevices('postgres');
