/**
 * The admin settings' calls over real HTTP (issue 14; spec 2 sections 4, 6, 7; ledger SUB-04,
 * SUB-29, API-34, API-37, API-43): the known firmware (FIRMWARE_VERSIONS, GET /api/firmware) and
 * a firmware update naming one of them; files, firmware and the setup password for ADMIN only;
 * the setup password with and without MFA. Refusals change nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FIRMWARE_VERSIONS, FIRMWARE_MESSAGES } from '@portal/core';
import {
  type ApiClient,
  type TestPortal,
  quietTestConfig,
  startPortalForTest,
  startTestPortal,
  totpCode,
  wrongTotpCode,
} from '../helpers';
import { type RoleFixture, deviceWithRoles, expectError } from '../device-helpers';

type Command = { commandID: number; method: string; args: Record<string, unknown>; state: string };

describe('admin settings calls', () => {
  let tp: TestPortal;
  let fx: RoleFixture;
  let id: string;
  const commands = async () =>
    ((await fx.users.ADMIN.client.get(`/api/device/${id}/rpc`)).body as { commands: Command[] }).commands;

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

  it('GET /api/firmware lists the known firmware to any signed-in user, not to a visitor', async () => {
    for (const role of ['ADMIN', 'VIEW', 'STRANGER'] as const) {
      const res = await fx.users[role].client.get('/api/firmware');
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ firmware: [...DEFAULT_FIRMWARE_VERSIONS] });
    }
    expectError(await tp.client().get('/api/firmware'), 401, 'UNAUTHENTICATED');
  });

  it('POST /firmware takes a firmware of the list (the body key is firmwareName) and refuses any other with 400, queuing nothing', async () => {
    const before = (await commands()).length;
    for (const firmwareName of ['SFW003-9.9.9', 'SFW999-1.0.0']) {
      expectError(
        await fx.users.ADMIN.client.post(`/api/device/${id}/firmware`, { firmwareName }),
        400,
        'BAD_REQUEST',
        FIRMWARE_MESSAGES.unknown(firmwareName),
      );
    }
    expectError(
      await fx.users.ADMIN.client.post(`/api/device/${id}/firmware`, { firmware: 'SFW003-1.2.3' }),
      400,
      'BAD_REQUEST',
    );
    expect((await commands()).length).toBe(before);
    const res = await fx.users.ADMIN.client.post(`/api/device/${id}/firmware`, { firmwareName: 'SFW003-1.3.0' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ method: 'Admin.Firmware', args: { firmwareName: 'SFW003-1.3.0' } });
    expect((await commands()).length).toBe(before + 1);
  });

  it('refuses the admin settings to USER, OPERATOR and VIEW (403) and to a stranger (404), changing nothing', async () => {
    const before = (await commands()).length;
    const file = { fileName: 'a.bin', fileDataBase64: Buffer.from('data').toString('base64') };
    const calls: [string, string, unknown][] = [
      ['POST', 'firmware', { firmwareName: 'SFW003-1.2.3' }],
      ['PUT', 'file', file],
      ['POST', 'passwords', {}],
      ['POST', 'delete-data', { setupPassword: fx.device.setupPassword }],
      ['POST', 'transfer-data', { setupPassword: fx.device.setupPassword, targetDeviceid: id }],
    ];
    for (const [method, call, body] of calls) {
      for (const role of ['USER', 'OPERATOR', 'VIEW'] as const) {
        const res = await fx.users[role].client.request(method, `/api/device/${id}/${call}`, { body });
        expectError(res, 403, 'FORBIDDEN');
        expect(res.text).not.toContain(fx.device.setupPassword);
      }
      expectError(
        await fx.users.STRANGER.client.request(method, `/api/device/${id}/${call}`, { body }),
        404,
        'NOT_FOUND',
      );
    }
    expect((await commands()).length).toBe(before);
  });

  it('POST /passwords answers the setup password to an ADMIN without MFA, with or without a body', async () => {
    for (const body of [undefined, {}]) {
      const res = await fx.users.ADMIN.client.post(`/api/device/${id}/passwords`, body);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ deviceid: id, setupPassword: fx.device.setupPassword });
    }
    for (const code of ['12345', 'abcdef', 123456]) {
      expectError(await fx.users.ADMIN.client.post(`/api/device/${id}/passwords`, { code }), 400, 'BAD_REQUEST');
    }
  });

  it('POST /passwords asks an ADMIN with TOTP for the current code: none 403 MFA_REQUIRED, a wrong one 403 MFA_INVALID, the right one the password', async () => {
    const admin: ApiClient = fx.users.ADMIN.client;
    const { secret } = (await admin.post('/api/account/mfa/totp/setup')).body as { secret: string };
    const enabled = await admin.post('/api/account/mfa/totp/enable', { code: totpCode(secret, tp.clock) });
    expect(enabled.status, enabled.text).toBe(200);
    // The next time step: the code that turned MFA on is spent.
    tp.clock.advance(30_000);
    const none = await admin.post(`/api/device/${id}/passwords`, {});
    expectError(none, 403, 'MFA_REQUIRED');
    expect(none.text).not.toContain(fx.device.setupPassword);
    const wrong = await admin.post(`/api/device/${id}/passwords`, { code: wrongTotpCode(secret, tp.clock) });
    expectError(wrong, 403, 'MFA_INVALID');
    const right = await admin.post(`/api/device/${id}/passwords`, { code: totpCode(secret, tp.clock) });
    expect(right.status, right.text).toBe(200);
    expect(right.body).toEqual({ deviceid: id, setupPassword: fx.device.setupPassword });
  });
});

describe('FIRMWARE_VERSIONS', () => {
  let tp: TestPortal | undefined;
  afterAll(async () => {
    await tp?.close();
  });

  it('sets the known firmware: GET /api/firmware lists it and a firmware update must name one of it', async () => {
    tp = await startPortalForTest(quietTestConfig({ FIRMWARE_VERSIONS: ' SFW004-2.0.0 ,SFW004-2.1.0,SFW004-2.0.0' }));
    const fx = await deviceWithRoles(tp);
    const admin = fx.users.ADMIN.client;
    expect((await admin.get('/api/firmware')).body).toEqual({ firmware: ['SFW004-2.0.0', 'SFW004-2.1.0'] });
    expectError(
      await admin.post(`/api/device/${fx.device.deviceid}/firmware`, { firmwareName: 'SFW003-1.2.3' }),
      400,
      'BAD_REQUEST',
      FIRMWARE_MESSAGES.unknown('SFW003-1.2.3'),
    );
    const res = await admin.post(`/api/device/${fx.device.deviceid}/firmware`, { firmwareName: 'SFW004-2.1.0' });
    expect(res.status, res.text).toBe(200);
  });
});
