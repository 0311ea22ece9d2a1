/**
 * HDR-21: staff admins (senquip_admin) see the device-versus-server time difference in the
 * settings record when it is at least 5 s; below that, and for everyone else, it is absent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceSettingsResponseSchema } from '@portal/core';
import { startTestPortal, type TestPortal } from '../helpers';
import { deviceWithRoles, signedInUser, type SignedInUser } from '../device-helpers';
import { postRecords } from '../ingest-helpers';

describe('device-versus-server time difference', () => {
  let tp: TestPortal;
  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', seed: false });
  });
  afterAll(async () => {
    await tp?.close();
  });

  async function setup(lagS: number) {
    const fx = await deviceWithRoles(tp);
    const staff: SignedInUser = await signedInUser(tp, ['senquip_admin']);
    const grant = await fx.users.ADMIN.client.post(`/api/device/${fx.device.deviceid}/user`, {
      targetEmail: staff.email,
      targetPermission: 'VIEW',
    });
    expect(grant.status, grant.text).toBe(200);
    const key = { id: fx.device.deviceid, key: fx.device.deviceKey };
    // The device's clock runs lagS behind the server's.
    const ts = tp.clock.now().getTime() / 1000 - lagS;
    expect(await postRecords(tp, key, { ts, vsys: 12 })).toBe(200);
    const settingsOf = async (user: SignedInUser) =>
      DeviceSettingsResponseSchema.parse((await user.client.get(`/api/device/${fx.device.deviceid}/settings`)).body)
        .deviceSettings.timeDifferenceS;
    return { fx, staff, settingsOf };
  }

  it('shows a difference of 5 s or more to staff admins only', async () => {
    const { fx, staff, settingsOf } = await setup(30);
    const difference = await settingsOf(staff);
    expect(difference).toBeGreaterThanOrEqual(29);
    expect(difference).toBeLessThanOrEqual(32);
    expect(await settingsOf(fx.users.ADMIN)).toBeUndefined();
  });

  it('hides a difference under 5 s', async () => {
    const { staff, settingsOf } = await setup(2);
    expect(await settingsOf(staff)).toBeUndefined();
  });
});
