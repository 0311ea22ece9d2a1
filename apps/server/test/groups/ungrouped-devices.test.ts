/**
 * GET /api/ungrouped-devices (issue 32, docs/decisions.md 'Devices not in a group'): the devices the
 * caller holds a direct grant on that none of the caller's groups holds, by name then id, a page
 * at a time with the total; anyone else's devices never appear; bad paging is a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNGROUPED_DEVICES_MAX_LIMIT, UNGROUPED_DEVICES_PAGE } from '@portal/core';
import { type TestPortal, startTestPortal } from '../helpers';
import { type SignedInUser, del, provision, provisioningStaff, signedInUser } from '../device-helpers';

interface Page {
  total: number;
  offset: number;
  devices: { deviceid: string; name: string; type: string; ts: number | null }[];
}

describe('GET /api/ungrouped-devices', () => {
  let tp: TestPortal;
  let owner: SignedInUser;
  let groupid: string;
  /** The owner's devices by name: Alpha, Bravo, Charlie (not in a group), Grouped (in the owner's group). */
  const ids: Record<string, string> = {};

  const page = async (user: SignedInUser, query = '') => {
    const res = await user.client.get(`/api/ungrouped-devices${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body as Page;
  };

  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', seed: false });
    owner = await signedInUser(tp);
    groupid = ((await owner.client.post('/api/group', { groupName: 'Yard' })).body as { groupid: string }).groupid;
    // Claimed in an order other than the names' so the answer's order is the server's.
    const staff = await provisioningStaff(tp);
    for (const name of ['Charlie', 'Grouped', 'alpha', 'Bravo']) {
      const device = await provision(tp);
      // The name as provisioning gives it (a user may rename only virtual devices).
      const named = await staff.client.post(`/api/prov-portal-edit-device/${device.deviceid}`, {
        model: device.model,
        name,
      });
      expect(named.status, named.text).toBe(200);
      const claimed = await owner.client.post(`/api/device/${device.deviceid}/user`, {
        setupPassword: device.setupPassword,
        ...(name === 'Grouped' ? { groupid } : {}),
      });
      expect(claimed.status, claimed.text).toBe(200);
      ids[name] = device.deviceid;
    }
    await owner.client.put(`/api/device/${ids.Bravo}/settings`, { PORTAL_deviceNotes: { asset_type: 'Pump' } });
  });

  afterAll(async () => {
    await tp?.close();
  });

  it('answers the devices of a direct grant that none of the caller’s groups holds, by name, with the total', async () => {
    const all = await page(owner);
    expect(all.total).toBe(3);
    expect(all.offset).toBe(0);
    expect(all.devices.map((d) => d.name)).toEqual(['alpha', 'Bravo', 'Charlie']);
    expect(all.devices[0]).toEqual({ deviceid: ids.alpha, name: 'alpha', type: '', ts: null });
    expect(all.devices[1]).toMatchObject({ deviceid: ids.Bravo, type: 'Pump' });
  });

  it('pages with offset and limit; a page past the end is empty and still counts', async () => {
    expect((await page(owner, '?limit=2')).devices.map((d) => d.name)).toEqual(['alpha', 'Bravo']);
    const second = await page(owner, '?offset=2&limit=2');
    expect(second).toMatchObject({ total: 3, offset: 2 });
    expect(second.devices.map((d) => d.name)).toEqual(['Charlie']);
    expect(await page(owner, '?offset=10')).toEqual({ total: 3, offset: 10, devices: [] });
  });

  it('a device shared into another user’s group stays listed for a user outside that group', async () => {
    const friend = await signedInUser(tp);
    const shared = await owner.client.post(`/api/device/${ids.Grouped}/user`, {
      targetEmail: friend.email,
      targetPermission: 'VIEW',
    });
    expect(shared.status, shared.text).toBe(200);
    expect((await page(friend)).devices.map((d) => d.deviceid)).toEqual([ids.Grouped]);
    // Once the friend is in the group too, the device is on the friend's home through the group.
    await owner.client.post(`/api/group/${groupid}/user`, { targetEmail: friend.email, targetPermission: 'VIEW' });
    expect(await page(friend)).toEqual({ total: 0, offset: 0, devices: [] });
  });

  it('a device taken out of the group joins the list and leaves the group’s count; a stranger sees none of it', async () => {
    const groups = async () => (await owner.client.get('/api/groups')).body as { deviceCount: number }[];
    expect((await groups())[0]?.deviceCount).toBe(1);
    const removed = await del(owner.client, `/api/group/${groupid}/devices`, { deviceList: [ids.Grouped] });
    expect(removed.status, removed.text).toBe(200);
    expect((await page(owner)).total).toBe(4);
    // GET /groups counts the group's devices (home sizes the group's table by it).
    expect((await groups())[0]?.deviceCount).toBe(0);
    const stranger = await signedInUser(tp);
    expect(await page(stranger)).toEqual({ total: 0, offset: 0, devices: [] });
  });

  it(`asks for a page of ${UNGROUPED_DEVICES_PAGE} by default and refuses bad paging with a 400`, async () => {
    expect((await page(owner)).devices.length).toBeLessThanOrEqual(UNGROUPED_DEVICES_PAGE);
    for (const query of ['?limit=0', `?limit=${UNGROUPED_DEVICES_MAX_LIMIT + 1}`, '?offset=-1', '?offset=x', '?q=1']) {
      const res = await owner.client.get(`/api/ungrouped-devices${query}`);
      expect(res.status, query).toBe(400);
    }
    const signedOut = await tp.client().get('/api/ungrouped-devices');
    expect(signedOut.status).toBe(401);
  });
});
