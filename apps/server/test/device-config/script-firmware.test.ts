/**
 * The device script and the device's firmware over real HTTP (issue 15; DESIGN.md section 5:
 * scripting needs SFW003 or later): a device whose firmware is older refuses a saved script with
 * 409 and the firmware named, changing nothing, while its script and lock can still be read; once
 * it runs SFW003 the same save is accepted.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scriptFirmwareMessage } from '@portal/core';
import { type TestPortal, startTestPortal } from '../helpers';
import { type RoleFixture, deviceWithRoles, expectError, provisioningStaff } from '../device-helpers';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('device script and firmware', () => {
  let tp: TestPortal;
  let fx: RoleFixture;
  let id: string;

  const setFirmware = async (fw: string) => {
    const { client } = await provisioningStaff(tp);
    const res = await client.post(`/api/prov-portal-edit-device/${id}`, { model: fx.device.model, fw });
    expect(res.status, res.text).toBeLessThan(300);
  };
  const scriptOf = async () => (await fx.users.USER.client.get(`/api/device/${id}/script`)).body;

  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', seed: false });
    fx = await deviceWithRoles(tp);
    id = fx.device.deviceid;
  });
  afterAll(async () => {
    await tp?.close();
  });
  afterEach(() => {
    expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
  });

  it('refuses a script for firmware older than SFW003 (409, the firmware named) and changes nothing', async () => {
    await setFirmware('SFW002-9.9.9');
    const before = await scriptOf();
    expect(before).toEqual({ deviceid: id, data: '', pending: false, lock: null });
    for (const role of ['ADMIN', 'USER'] as const) {
      expectError(
        await fx.users[role].client.put(`/api/device/${id}/script`, { scriptFileBase64: b64('let x = 1;') }),
        409,
        'CONFLICT',
        scriptFirmwareMessage('SFW002-9.9.9'),
      );
    }
    // Roles are checked first: an OPERATOR is refused for its role, a stranger finds no device.
    expectError(
      await fx.users.OPERATOR.client.put(`/api/device/${id}/script`, { scriptFileBase64: b64('x') }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await fx.users.STRANGER.client.put(`/api/device/${id}/script`, { scriptFileBase64: b64('x') }),
      404,
      'NOT_FOUND',
    );
    expect(await scriptOf()).toEqual(before);
    const log = (await fx.users.ADMIN.client.get(`/api/device/${id}/serverlog`)).body as {
      entries: { message: string }[];
    };
    expect(log.entries.some((e) => e.message.startsWith('Script ('))).toBe(false);
    // Reading and the lock stay open to ADMIN and USER.
    const locked = await fx.users.USER.client.put(`/api/device/${id}/script-lock`, { lock: true });
    expect(locked.status, locked.text).toBe(200);
    expect((await fx.users.USER.client.put(`/api/device/${id}/script-lock`, { lock: false })).status).toBe(200);
  });

  it('accepts the same script once the device runs SFW003', async () => {
    await setFirmware('SFW003-0.0.1');
    const saved = await fx.users.USER.client.put(`/api/device/${id}/script`, { scriptFileBase64: b64('let x = 1;') });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual({ deviceid: id, data: b64('let x = 1;'), pending: true, lock: null });
  });
});
