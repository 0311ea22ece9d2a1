/**
 * The messages of the saves the web shows in its 'Success' dialog (ERR-06), over real HTTP: PUT
 * settings says what it saved (the device name, the asset notes, the display settings, or all of
 * them), DELETE rpc names the command it cancelled, PUT config says the change is queued. Runs on
 * PGlite, and on PostgreSQL when reachable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEVICE_CONFIG_MESSAGES,
  commandCancelledMessage,
  settingsSavedMessage,
  type DeviceSettingsSaved,
} from '@portal/core';
import { type DbKind, type TestPortal, findPostgres, startTestPortal } from '../helpers';
import { type RoleFixture, del, deviceWithRoles } from '../device-helpers';

function describeSuccessMessages(dbKind: DbKind): void {
  describe(`success messages (${dbKind})`, () => {
    let tp: TestPortal;
    let fx: RoleFixture;

    beforeAll(async () => {
      tp = await startTestPortal({ db: dbKind, seed: false });
      fx = await deviceWithRoles(tp);
    });
    afterAll(async () => {
      await tp?.close();
    });

    it('PUT settings says what it saved, and still answers the settings record', async () => {
      // A virtual device: only its name may be changed (ids starting 0-).
      const made = await fx.users.ADMIN.client.post('/api/virtual-devices', { name: 'Virtual Pump' });
      expect(made.status, made.text).toBe(201);
      const path = `/api/device/${(made.body as { deviceid: string }).deviceid}/settings`;
      const cases: [Record<string, unknown>, string][] = [
        [{ PORTAL_deviceName: 'Named Pump' }, 'Device name saved.'],
        [{ PORTAL_deviceNotes: { make: 'Acme' } }, 'Asset notes saved.'],
        [{ PORTAL_displaySettings: { batt: { name: 'Battery' } } }, 'Display settings saved.'],
        [{ PORTAL_deviceName: 'Named Pump', PORTAL_deviceNotes: { make: 'Acme' } }, 'Device settings saved.'],
      ];
      for (const [body, message] of cases) {
        const res = await fx.users.ADMIN.client.put(path, body);
        expect(res.status, res.text).toBe(200);
        const saved = res.body as DeviceSettingsSaved;
        expect(saved.message).toBe(message);
        expect(settingsSavedMessage(body)).toBe(message);
        expect(saved.deviceSettings.PORTAL_deviceName).toBe('Named Pump');
      }
      // GET answers the record alone.
      expect((await fx.users.ADMIN.client.get(path)).body).not.toHaveProperty('message');
    });

    it('DELETE rpc names the command; PUT config says it is queued', async () => {
      const rpc = `/api/device/${fx.device.deviceid}/rpc`;
      const queued = await fx.users.ADMIN.client.post(rpc, { method: 'Admin.Reboot' });
      expect(queued.status, queued.text).toBe(200);
      const commandID = (queued.body as { commandID: number }).commandID;
      const cancelled = await del(fx.users.ADMIN.client, rpc, { commandID });
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(cancelled.body).toEqual({ commandID, state: 'cancelled', message: commandCancelledMessage(commandID) });
      expect(commandCancelledMessage(commandID)).toBe(`Command ${commandID} cancelled.`);

      const config = `/api/device/${fx.device.deviceid}/config`;
      const put = await fx.users.ADMIN.client.put(config, { config: { settings: { device: { base_interval: 120 } } } });
      expect(put.status, put.text).toBe(200);
      expect(put.body).toMatchObject({ message: DEVICE_CONFIG_MESSAGES.queued, pending: expect.anything() });
      expect((await fx.users.ADMIN.client.get(config)).body).not.toHaveProperty('message');
    });
  });
}

describeSuccessMessages('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeSuccessMessages('postgres');
