/**
 * Device config over real HTTP: the config document (applied and pending, delivered and applied
 * at the device's next HTTP ingest), custom script settings, the device script and its lock,
 * firmware and file pushes, for each of the four roles and a stranger, with bad input refused
 * and nothing changed. Runs on PGlite, and on PostgreSQL when reachable.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_CONFIG_MESSAGES, type DeviceRole } from '@portal/core';
import { type DbKind, type TestPortal, findPostgres, startTestPortal } from '../helpers';
import { type RoleFixture, deviceWithRoles, expectError } from '../device-helpers';

const NOT_FOUND = 'Device not found';
const ROLES: DeviceRole[] = ['ADMIN', 'USER', 'OPERATOR', 'VIEW'];
const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

type ConfigBody = {
  deviceid: string;
  config: { settings: Record<string, Record<string, unknown>> };
  pending: { settings: Record<string, Record<string, unknown>> } | null;
  pendingSince: string | null;
  pendingVersion: number | null;
  pendingSentAt: string | null;
  serialCaptureText: { applied: Record<string, string | null>; pending: Record<string, string | null> | null };
};
type ScriptBody = {
  deviceid: string;
  data: string;
  pending: boolean;
  lock: { userid: string; email: string; since: string } | null;
};
type CommandBody = { commandID: number; method: string; args: Record<string, unknown>; state: string };

function describeDeviceConfig(kind: DbKind): void {
  describe(`device config (${kind})`, () => {
    let tp: TestPortal;
    let fx: RoleFixture;
    let id: string;
    const as = (role: DeviceRole | 'STRANGER') => fx.users[role].client;
    const getConfig = async () => (await as('ADMIN').get(`/api/device/${id}/config`)).body as ConfigBody;
    const ingest = (body: unknown, deviceId = id, key = fx.device.deviceKey) =>
      tp
        .client()
        .request('POST', `/api/ingest/${deviceId}`, { body, headers: { authorization: `Device ${key}` }, csrf: false });
    const ack = (body: unknown, deviceId = id, key = fx.device.deviceKey) =>
      tp.client().request('POST', `/api/ingest/${deviceId}/ack`, {
        body,
        headers: { authorization: `Device ${key}` },
        csrf: false,
      });
    const serverLog = async () =>
      ((await as('ADMIN').get(`/api/device/${id}/serverlog`)).body as { entries: { message: string }[] }).entries.map(
        (e) => e.message,
      );
    const nowS = () => tp.clock.now().getTime() / 1000;
    /** An ISO time within 5 s of the portal's clock. */
    const near = (iso: string | null) => iso !== null && Math.abs(Date.parse(iso) - tp.clock.now().getTime()) < 5000;

    beforeAll(async () => {
      tp = await startTestPortal({ db: kind, seed: false });
    });
    afterAll(async () => {
      await tp?.close();
    });
    afterEach(() => {
      // No call of this suite may end in a server error.
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });

    describe('config document', () => {
      beforeAll(async () => {
        fx = await deviceWithRoles(tp);
        id = fx.device.deviceid;
      });

      it('GET /config answers every role the applied config, no pending change, and 404 to a stranger', async () => {
        for (const role of ROLES) {
          const res = await as(role).get(`/api/device/${id}/config`);
          expect(res.status, `${role} ${res.text}`).toBe(200);
          const body = res.body as ConfigBody;
          expect(body.deviceid).toBe(id);
          expect(body.config.settings.device).toMatchObject({
            id,
            model: 'ORB-C1',
            base_interval: 60,
            transmit_interval: 1,
            sq_interval: 0,
          });
          expect(Object.keys(body.config.settings)).toEqual(
            expect.arrayContaining([
              'device',
              'gps',
              'accel',
              'ambient',
              'inputs',
              'serial1',
              'can1',
              'can2',
              'ble',
              'script',
              'endpoint',
            ]),
          );
          expect(body.pending).toBeNull();
          expect(body.pendingSince).toBeNull();
          expect(body.pendingVersion).toBeNull();
          expect(body.pendingSentAt).toBeNull();
          expect(body.serialCaptureText).toEqual({ applied: { start: '', end: '', request: '' }, pending: null });
        }
        expectError(await as('STRANGER').get(`/api/device/${id}/config`), 404, 'NOT_FOUND', NOT_FOUND);
        expectError(await as('ADMIN').get('/api/device/ZZZZZZZZZ/config'), 404, 'NOT_FOUND', NOT_FOUND);
        expectError(await tp.client().get(`/api/device/${id}/config`), 401, 'UNAUTHENTICATED');
      });

      it('PUT /config needs editDeviceSettings (ADMIN, USER): 403 for OPERATOR and VIEW, 404 for a stranger, nothing changed', async () => {
        const change = { config: { settings: { gps: { interval: 5 } } } };
        for (const role of ['OPERATOR', 'VIEW'] as const)
          expectError(await as(role).put(`/api/device/${id}/config`, change), 403, 'FORBIDDEN');
        expectError(await as('STRANGER').put(`/api/device/${id}/config`, change), 404, 'NOT_FOUND', NOT_FOUND);
        expect((await getConfig()).pending).toBeNull();
      });

      it('refuses bad config with 400 and changes nothing', async () => {
        const bad: [unknown, RegExp][] = [
          [{ config: { settings: { warp: { enabled: true } } } }, /warp/],
          [{ config: { settings: { gps: { enabled: true } }, extra: {} } }, /extra/],
          [{ config: { settings: {} } }, /at least one section/],
          [{ config: { settings: { device: { base_interval: 0 } } } }, /base_interval must be at least 1/],
          [{ config: { settings: { device: { base_interval: 1.5 } } } }, /base_interval must be a whole number/],
          [{ config: { settings: { device: { base_interval: '60' } } } }, /base_interval must be a number/],
          [{ config: { settings: { device: { transmit_interval: 100000 } } } }, /transmit_interval must be at most/],
          [{ config: { settings: { device: { fw: 'SFW003-9.9.9' } } } }, /fw/],
          [{ config: { settings: { gps: { enabled: 'yes' } } } }, /enabled must be true or false/],
          [{ config: { settings: { serial1: { capture: { start: 'not base64!' } } } } }, /start is not valid base64/],
          [{ config: { settings: { serial1: { capture: { end: 'abc' } } } } }, /end is not valid base64/],
          [
            { config: { settings: { script: { numLimit: 'abc' } } } },
            /The value entered for numLimit is not a number\./,
          ],
          [{ config: { settings: { script: { numLimit: '' } } } }, /The value entered for numLimit is not a number\./],
          [{ config: { settings: { script: { other: 1 } } } }, /num\* or str\*/],
          [{ config: { settings: { script: { triggers: [{ index: 1, name: 'Pump' }] } } } }, /colour/],
          [{ config: { settings: { inputs: { analog: { '9': { enabled: true } } } } } }, /1 to 5/],
          [{ config: 'everything' }, /config/],
          [{}, /config/],
        ];
        for (const [body, message] of bad) {
          const res = await as('ADMIN').put(`/api/device/${id}/config`, body);
          expectError(res, 400, 'BAD_REQUEST', message);
        }
        const after = await getConfig();
        expect(after.pending).toBeNull();
        expect(after.config.settings.device!.base_interval).toBe(60);
      });

      it('a change becomes pending (merged with earlier pending changes) and GET shows pending versus applied', async () => {
        const first = await as('USER').put(`/api/device/${id}/config`, {
          config: {
            settings: {
              device: { base_interval: 120 },
              serial1: { capture: { start: b64('$GPGGA'), request: b64('READ\r\n') } },
            },
          },
        });
        expect(first.status, first.text).toBe(200);
        const body = first.body as ConfigBody;
        expect(body.config.settings.device!.base_interval).toBe(60);
        expect(body.pending).toEqual({
          settings: {
            device: { base_interval: 120 },
            serial1: { capture: { start: b64('$GPGGA'), request: b64('READ\r\n') } },
          },
        });
        expect(near(body.pendingSince)).toBe(true);
        expect(body.pendingVersion).toBe(1);
        expect(body.pendingSentAt).toBeNull();
        expect(body.serialCaptureText.pending).toEqual({ start: '$GPGGA', end: null, request: 'READ\r\n' });
        const since = body.pendingSince;
        tp.clock.advance(60_000);
        const second = await as('ADMIN').put(`/api/device/${id}/config`, {
          config: {
            settings: {
              device: { sq_interval: 30 },
              script: {
                numLimit: '12.5',
                strLabel: 'Pump',
                triggers: [{ index: 0, name: 'Start', colour: '#00ff00' }],
              },
            },
          },
        });
        expect(second.status, second.text).toBe(200);
        const merged = second.body as ConfigBody;
        expect(merged.pending!.settings.device).toEqual({ base_interval: 120, sq_interval: 30 });
        expect(merged.pending!.settings.script).toEqual({
          numLimit: 12.5,
          strLabel: 'Pump',
          triggers: [{ index: 0, name: 'Start', colour: '#00ff00' }],
        });
        expect(merged.pendingSince).toBe(since);
        expect(merged.pendingVersion).toBe(2);
        expect(((await as('VIEW').get(`/api/device/${id}/config`)).body as ConfigBody).pending).toEqual(merged.pending);
      });

      it('the device gets the pending config with its version in its HTTP ingest answer; it is applied when acknowledged', async () => {
        const before = await getConfig();
        const pending = before.pending;
        expect(pending).not.toBeNull();
        const res = await ingest({ ts: nowS(), temp: 20 });
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual({ commands: [], config: pending, configVersion: 2 });
        // Sent, not yet acknowledged: still pending, and not sent again before the resend interval.
        const sent = await getConfig();
        expect(sent.pending).toEqual(pending);
        expect(sent.pendingVersion).toBe(2);
        expect(near(sent.pendingSentAt)).toBe(true);
        expect(sent.config.settings.device!.base_interval).toBe(60);
        expect((await ingest({ ts: nowS() + 1, temp: 21 })).body).toEqual({ commands: [] });
        expect(await serverLog()).toContain('config version 2 sent (http)');
        expect(await serverLog()).not.toContain('config applied (version 2)');

        const acked = await ack({ config: 2 });
        expect(acked.status, acked.text).toBe(200);
        expect(acked.body).toEqual({ commands: [], config: 2, script: null });
        const after = await getConfig();
        expect(after.pending).toBeNull();
        expect(after.pendingSince).toBeNull();
        expect(after.pendingVersion).toBeNull();
        expect(after.config.settings.device).toMatchObject({
          id,
          base_interval: 120,
          sq_interval: 30,
          transmit_interval: 1,
        });
        expect(after.config.settings.serial1).toMatchObject({
          enabled: false,
          baud: 9600,
          capture: { start: b64('$GPGGA'), end: '', request: b64('READ\r\n') },
        });
        expect(after.serialCaptureText.applied).toEqual({ start: '$GPGGA', end: '', request: 'READ\r\n' });
        expect(after.config.settings.script).toMatchObject({ numLimit: 12.5, strLabel: 'Pump' });
        // Acknowledged once only: a repeat changes nothing; the config is not sent again.
        expect((await ack({ config: 2 })).status).toBe(200);
        expect(await getConfig()).toEqual(after);
        expect((await ingest({ ts: nowS() + 2, temp: 21 })).body).toEqual({ commands: [] });
        expect((await serverLog()).filter((m) => m === 'config applied (version 2)')).toHaveLength(1);
        // A new change after that starts a new pending period with the next version.
        tp.clock.advance(60_000);
        const next = (
          await as('ADMIN').put(`/api/device/${id}/config`, { config: { settings: { ble: { enabled: true } } } })
        ).body as ConfigBody;
        expect(next.pending).toEqual({ settings: { ble: { enabled: true } } });
        expect(next.pendingVersion).toBe(3);
        expect(near(next.pendingSince)).toBe(true);
        expect((await ingest({ ts: nowS() + 3, temp: 22 })).body).toMatchObject({ configVersion: 3 });
        expect((await ack({ config: 3 })).status).toBe(200);
      });
    });

    describe('custom settings', () => {
      beforeAll(async () => {
        fx = await deviceWithRoles(tp);
        id = fx.device.deviceid;
        // The settings an OPERATOR may change are marked operatorEditable in their display settings.
        const marked = Object.fromEntries(
          ['numSet2', 'strName', 'numLimit', 'strOk'].map((key) => [key, { operatorEditable: true }]),
        );
        expect((await as('ADMIN').put(`/api/device/${id}/settings`, { PORTAL_displaySettings: marked })).status).toBe(
          200,
        );
      });

      it('an OPERATOR changes only the settings marked operatorEditable; ADMIN and USER change any (CARD-35)', async () => {
        const before = (await getConfig()).pending;
        expectError(
          await as('OPERATOR').put(`/api/device/${id}/custom-settings`, { values: { numSet2: 1, numOther: 2 } }),
          403,
          'FORBIDDEN',
          /not numOther/,
        );
        expect((await getConfig()).pending).toEqual(before);
      });

      it('OPERATOR and above queue num*/str* values; VIEW gets 403 and a stranger 404', async () => {
        for (const [i, role] of (['ADMIN', 'USER', 'OPERATOR'] as const).entries()) {
          const res = await as(role).put(`/api/device/${id}/custom-settings`, {
            values: { [`numSet${i}`]: `${i}.5`, strName: role },
          });
          expect(res.status, res.text).toBe(200);
          expect(res.body).toEqual({ message: DEVICE_CONFIG_MESSAGES.queued });
        }
        expect(DEVICE_CONFIG_MESSAGES.queued).toBe(
          'The change has been queued, and will be pushed next time the device makes contact.',
        );
        expectError(
          await as('VIEW').put(`/api/device/${id}/custom-settings`, { values: { numA: 1 } }),
          403,
          'FORBIDDEN',
        );
        expectError(
          await as('STRANGER').put(`/api/device/${id}/custom-settings`, { values: { numA: 1 } }),
          404,
          'NOT_FOUND',
          NOT_FOUND,
        );
        const pending = (await getConfig()).pending!;
        expect(pending.settings.script).toEqual({ numSet0: 0.5, numSet1: 1.5, numSet2: 2.5, strName: 'OPERATOR' });
      });

      it('refuses a num* value that is not a number, and other bad values, changing nothing', async () => {
        const before = (await getConfig()).pending;
        for (const value of ['abc', '', '   ', '0x10', 'Infinity']) {
          expectError(
            await as('OPERATOR').put(`/api/device/${id}/custom-settings`, { values: { numLimit: value, strOk: 'x' } }),
            400,
            'BAD_REQUEST',
            'The value entered for numLimit is not a number.',
          );
        }
        expectError(
          await as('OPERATOR').put(`/api/device/${id}/custom-settings`, { values: { limit: 5 } }),
          400,
          'BAD_REQUEST',
          /num\* or str\*/,
        );
        expectError(
          await as('OPERATOR').put(`/api/device/${id}/custom-settings`, { values: {} }),
          400,
          'BAD_REQUEST',
          /at least one/,
        );
        expectError(
          await as('OPERATOR').put(`/api/device/${id}/custom-settings`, { values: { strA: { x: 1 } } }),
          400,
          'BAD_REQUEST',
        );
        expectError(await as('OPERATOR').put(`/api/device/${id}/custom-settings`, { numA: 1 }), 400, 'BAD_REQUEST');
        expect((await getConfig()).pending).toEqual(before);
      });
    });

    describe('script and its lock', () => {
      beforeAll(async () => {
        fx = await deviceWithRoles(tp);
        id = fx.device.deviceid;
      });

      it('GET /script needs scripting (ADMIN, USER)', async () => {
        for (const role of ['ADMIN', 'USER'] as const) {
          const res = await as(role).get(`/api/device/${id}/script`);
          expect(res.status, res.text).toBe(200);
          expect(res.body).toEqual({ deviceid: id, data: '', pending: false, lock: null });
        }
        for (const role of ['OPERATOR', 'VIEW'] as const)
          expectError(await as(role).get(`/api/device/${id}/script`), 403, 'FORBIDDEN');
        expectError(await as('STRANGER').get(`/api/device/${id}/script`), 404, 'NOT_FOUND', NOT_FOUND);
      });

      it('PUT /script saves a pending script; bad base64 and scripts over 20000 bytes are refused and change nothing', async () => {
        for (const role of ['OPERATOR', 'VIEW'] as const) {
          expectError(await as(role).put(`/api/device/${id}/script`, { scriptFileBase64: b64('x') }), 403, 'FORBIDDEN');
        }
        expectError(
          await as('STRANGER').put(`/api/device/${id}/script`, { scriptFileBase64: b64('x') }),
          404,
          'NOT_FOUND',
          NOT_FOUND,
        );
        const script = b64('let x = 1;\n');
        const saved = await as('USER').put(`/api/device/${id}/script`, { scriptFileBase64: script });
        expect(saved.status, saved.text).toBe(200);
        expect(saved.body).toEqual({ deviceid: id, data: script, pending: true, lock: null });
        expectError(
          await as('ADMIN').put(`/api/device/${id}/script`, { scriptFileBase64: 'not*base64' }),
          400,
          'BAD_REQUEST',
          /scriptFileBase64/,
        );
        expectError(
          await as('ADMIN').put(`/api/device/${id}/script`, { scriptFileBase64: 'abcde' }),
          400,
          'BAD_REQUEST',
          /scriptFileBase64/,
        );
        expectError(
          await as('ADMIN').put(`/api/device/${id}/script`, { scriptFileBase64: 42 }),
          400,
          'BAD_REQUEST',
          /scriptFileBase64/,
        );
        expectError(await as('ADMIN').put(`/api/device/${id}/script`, {}), 400, 'BAD_REQUEST', /scriptFileBase64/);
        expectError(
          await as('ADMIN').put(`/api/device/${id}/script`, { scriptFileBase64: b64(Buffer.alloc(20_001, 97)) }),
          400,
          'BAD_REQUEST',
          'The script is larger than 20000 bytes.',
        );
        expect((await as('ADMIN').get(`/api/device/${id}/script`)).body).toEqual({
          deviceid: id,
          data: script,
          pending: true,
          lock: null,
        });
        const largest = b64(Buffer.alloc(20_000, 98));
        expect((await as('ADMIN').put(`/api/device/${id}/script`, { scriptFileBase64: largest })).status).toBe(200);
        expect(((await as('USER').get(`/api/device/${id}/script`)).body as ScriptBody).data).toBe(largest);
      });

      it('the saved script reaches the device in its next HTTP ingest answer with its version; applied when acknowledged', async () => {
        const script = ((await as('ADMIN').get(`/api/device/${id}/script`)).body as ScriptBody).data;
        const first = await ingest({ ts: nowS(), temp: 5 });
        expect(first.status, first.text).toBe(200);
        // Saved twice above: version 2.
        expect(first.body).toEqual({ commands: [], script, scriptVersion: 2 });
        expect((await ingest({ ts: nowS() + 1, temp: 6 })).body).toEqual({ commands: [] });
        expect(((await as('USER').get(`/api/device/${id}/script`)).body as ScriptBody).pending).toBe(true);
        expect(await serverLog()).toContain('script version 2 sent (http)');
        const acked = await ack({ script: 2 });
        expect(acked.status, acked.text).toBe(200);
        expect(acked.body).toEqual({ commands: [], config: null, script: 2 });
        expect((await as('USER').get(`/api/device/${id}/script`)).body).toEqual({
          deviceid: id,
          data: script,
          pending: false,
          lock: null,
        });
        expect(await serverLog()).toContain('script applied (version 2)');
        expect((await ingest({ ts: nowS() + 2, temp: 7 })).body).toEqual({ commands: [] });
      });

      it('the lock holder keeps others out (409) until they release it or an ADMIN forces it open', async () => {
        const admin = fx.users.ADMIN;
        const locked = await as('ADMIN').put(`/api/device/${id}/script-lock`, { lock: true });
        expect(locked.status, locked.text).toBe(200);
        const lock = (locked.body as { lock: ScriptBody['lock'] }).lock!;
        expect(lock).toEqual({ userid: admin.id, email: admin.email, since: expect.any(String) });
        expect(near(lock.since)).toBe(true);
        expect(((await as('USER').get(`/api/device/${id}/script`)).body as ScriptBody).lock).toEqual(lock);
        const message = `The script is locked by ${admin.email} since ${lock.since}.`;
        const before = ((await as('USER').get(`/api/device/${id}/script`)).body as ScriptBody).data;
        expectError(
          await as('USER').put(`/api/device/${id}/script`, { scriptFileBase64: b64('stolen') }),
          409,
          'CONFLICT',
          message,
        );
        expectError(await as('USER').put(`/api/device/${id}/script-lock`, { lock: true }), 409, 'CONFLICT', message);
        expectError(await as('USER').put(`/api/device/${id}/script-lock`, { lock: false }), 409, 'CONFLICT', message);
        expect(((await as('USER').get(`/api/device/${id}/script`)).body as ScriptBody).data).toBe(before);
        // The holder still saves; locking again keeps the original time.
        tp.clock.advance(5000);
        expect((await as('ADMIN').put(`/api/device/${id}/script`, { scriptFileBase64: b64('mine') })).status).toBe(200);
        expect(
          (
            (await as('ADMIN').put(`/api/device/${id}/script-lock`, { lock: true })).body as {
              lock: ScriptBody['lock'];
            }
          ).lock,
        ).toEqual(lock);
        for (const role of ['OPERATOR', 'VIEW'] as const)
          expectError(await as(role).put(`/api/device/${id}/script-lock`, { lock: true }), 403, 'FORBIDDEN');
        expectError(
          await as('STRANGER').put(`/api/device/${id}/script-lock`, { lock: true }),
          404,
          'NOT_FOUND',
          NOT_FOUND,
        );
        expectError(
          await as('ADMIN').put(`/api/device/${id}/script-lock`, { lock: 'yes' }),
          400,
          'BAD_REQUEST',
          /lock/,
        );
        // Release by the holder, then the USER locks; only an ADMIN can force it open.
        expect(
          ((await as('ADMIN').put(`/api/device/${id}/script-lock`, { lock: false })).body as { lock: unknown }).lock,
        ).toBeNull();
        expect((await as('USER').put(`/api/device/${id}/script-lock`, { lock: true })).status).toBe(200);
        expectError(
          await as('ADMIN').put(`/api/device/${id}/script`, { scriptFileBase64: b64('x') }),
          409,
          'CONFLICT',
          new RegExp(`locked by ${fx.users.USER.email}`),
        );
        for (const role of ['USER', 'OPERATOR', 'VIEW'] as const)
          expectError(await as(role).put(`/api/device/${id}/force-script-unlock`), 403, 'FORBIDDEN');
        expectError(await as('STRANGER').put(`/api/device/${id}/force-script-unlock`), 404, 'NOT_FOUND', NOT_FOUND);
        const forced = await as('ADMIN').put(`/api/device/${id}/force-script-unlock`);
        expect(forced.status, forced.text).toBe(200);
        expect(forced.body).toEqual({ deviceid: id, lock: null });
        expect((await as('ADMIN').put(`/api/device/${id}/script`, { scriptFileBase64: b64('after') })).status).toBe(
          200,
        );
        expect((await as('USER').get(`/api/device/${id}/script`)).body).toEqual({
          deviceid: id,
          data: b64('after'),
          pending: true,
          lock: null,
        });
      });
    });

    describe('firmware and files', () => {
      beforeAll(async () => {
        fx = await deviceWithRoles(tp);
        id = fx.device.deviceid;
      });
      const commands = async () =>
        ((await as('ADMIN').get(`/api/device/${id}/rpc`)).body as { commands: CommandBody[] }).commands;

      it("POST /firmware (ADMIN) queues 'Admin.Firmware' and the device receives it at its next contact", async () => {
        for (const role of ['USER', 'OPERATOR', 'VIEW'] as const) {
          expectError(
            await as(role).post(`/api/device/${id}/firmware`, { firmwareName: 'SFW003-1.2.3' }),
            403,
            'FORBIDDEN',
          );
        }
        expectError(
          await as('STRANGER').post(`/api/device/${id}/firmware`, { firmwareName: 'SFW003-1.2.3' }),
          404,
          'NOT_FOUND',
          NOT_FOUND,
        );
        for (const firmwareName of ['SFW3-1.2.3', 'latest', '', 42]) {
          expectError(
            await as('ADMIN').post(`/api/device/${id}/firmware`, { firmwareName }),
            400,
            'BAD_REQUEST',
            /firmwareName/,
          );
        }
        expect(await commands()).toEqual([]);
        const res = await as('ADMIN').post(`/api/device/${id}/firmware`, { firmwareName: 'SFW003-1.2.3' });
        expect(res.status, res.text).toBe(200);
        const command = res.body as CommandBody;
        expect(command).toMatchObject({
          method: 'Admin.Firmware',
          args: { firmwareName: 'SFW003-1.2.3' },
          state: 'queued',
        });
        const delivered = await ingest({ ts: nowS(), temp: 1 });
        expect(delivered.body).toEqual({
          commands: [{ id: command.commandID, method: 'Admin.Firmware', args: { firmwareName: 'SFW003-1.2.3' } }],
        });
      });

      it("PUT /file (ADMIN) stores the bytes and queues 'Admin.File' with name, size and sha256", async () => {
        const data = Buffer.from('hello device file\n');
        const body = { fileName: 'config-v2.bin', fileDataBase64: data.toString('base64') };
        for (const role of ['USER', 'OPERATOR', 'VIEW'] as const)
          expectError(await as(role).put(`/api/device/${id}/file`, body), 403, 'FORBIDDEN');
        expectError(await as('STRANGER').put(`/api/device/${id}/file`, body), 404, 'NOT_FOUND', NOT_FOUND);
        for (const role of ['ADMIN'] as const) {
          const res = await as(role).put(`/api/device/${id}/file`, body);
          expect(res.status, res.text).toBe(200);
          const command = res.body as CommandBody;
          expect(command.method).toBe('Admin.File');
          expect(command.args).toMatchObject({
            fileName: 'config-v2.bin',
            size: data.length,
            sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
            fileId: expect.any(Number),
            path: `/api/ingest/${id}/file/${command.args.fileId as number}`,
          });
          expect(JSON.stringify(command.args).length).toBeLessThan(300);
        }
        expect((await commands())[0]!.args.sha256).toBe(createHash('sha256').update(data).digest('hex'));
      });

      it('refuses bad names, bad base64 and files over 8 MB, queuing nothing', async () => {
        const before = (await commands()).length;
        const good = b64('x');
        for (const fileName of ['', 'a/b.bin', '../etc', 'x'.repeat(65), 'name with space', 7]) {
          expectError(
            await as('ADMIN').put(`/api/device/${id}/file`, { fileName, fileDataBase64: good }),
            400,
            'BAD_REQUEST',
            /fileName/,
          );
        }
        for (const fileDataBase64 of ['@@@@', 'abc', 12]) {
          expectError(
            await as('ADMIN').put(`/api/device/${id}/file`, { fileName: 'a.bin', fileDataBase64 }),
            400,
            'BAD_REQUEST',
            /fileDataBase64/,
          );
        }
        expectError(
          await as('ADMIN').put(`/api/device/${id}/file`, { fileName: 'a.bin' }),
          400,
          'BAD_REQUEST',
          /fileDataBase64/,
        );
        const over = Buffer.alloc(8_388_609, 1).toString('base64');
        expectError(
          await as('ADMIN').put(`/api/device/${id}/file`, { fileName: 'big.bin', fileDataBase64: over }),
          400,
          'BAD_REQUEST',
          'The file is larger than 8 MB (8388608 bytes).',
        );
        const huge = 'A'.repeat(13 * 1024 * 1024);
        expectError(
          await as('ADMIN').put(`/api/device/${id}/file`, { fileName: 'big.bin', fileDataBase64: huge }),
          413,
          'PAYLOAD_TOO_LARGE',
        );
        expect((await commands()).length).toBe(before);
      });
    });
  });
}

describeDeviceConfig('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeDeviceConfig('postgres');
