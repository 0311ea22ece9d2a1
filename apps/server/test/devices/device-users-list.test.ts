/**
 * The device users list as the Users and Permissions page reads it (issue 14; spec 2 sections 3, 6
 * and 7; ledger SUB-14..SUB-17, API-19..API-23): with flattenGroups=true each user carries the
 * direct grant's role and every group giving a level, by name; the last ADMIN of the direct grants
 * can be neither removed nor demoted; only ADMIN changes the list, ADMIN and USER read it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_MESSAGES, type DevicePermissionsResponse } from '@portal/core';
import { type TestPortal, startTestPortal } from '../helpers';
import { type SignedInUser, del, expectError, provision, signedInUser } from '../device-helpers';

describe('device users list with flattenGroups (pglite)', () => {
  let tp: TestPortal;
  let deviceid: string;
  let groupid: string;
  let admin: SignedInUser;
  let both: SignedInUser;
  let member: SignedInUser;
  let operator: SignedInUser;

  const list = async (user: SignedInUser) => {
    const res = await user.client.get(`/api/device/${deviceid}/permissions?flattenGroups=true`);
    expect(res.status, res.text).toBe(200);
    return res.body as DevicePermissionsResponse;
  };

  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', seed: false });
    admin = await signedInUser(tp);
    groupid = ((await admin.client.post('/api/group', { groupName: 'Yard Pumps' })).body as { groupid: string })
      .groupid;
    const device = await provision(tp);
    deviceid = device.deviceid;
    const claimed = await admin.client.post(`/api/device/${deviceid}/user`, {
      setupPassword: device.setupPassword,
      groupid,
    });
    expect(claimed.body, claimed.text).toMatchObject({ permission: 'ADMIN', groupid });
    both = await signedInUser(tp);
    member = await signedInUser(tp);
    operator = await signedInUser(tp);
    for (const [user, level] of [
      [both, 'VIEW'],
      [operator, 'OPERATOR'],
    ] as const) {
      const granted = await admin.client.post(`/api/device/${deviceid}/user`, {
        targetEmail: user.email,
        targetPermission: level,
      });
      expect(granted.status, granted.text).toBe(200);
    }
    for (const user of [both, member]) {
      const shared = await admin.client.post(`/api/group/${groupid}/user`, {
        targetEmail: user.email,
        targetPermission: 'USER',
      });
      expect(shared.status, shared.text).toBe(200);
    }
  }, 120_000);
  afterAll(async () => {
    await tp?.close();
  });

  it('names the groups and keeps the direct role apart from the effective one', async () => {
    const { users } = await list(admin);
    expect(users.find((u) => u.userid === both.id)).toEqual({
      userid: both.id,
      targetEmail: both.email,
      permission: 'USER',
      direct: true,
      directPermission: 'VIEW',
      groups: [groupid],
      groupAccess: [{ groupid, groupName: 'Yard Pumps', permission: 'USER' }],
    });
    expect(users.find((u) => u.userid === member.id)).toEqual({
      userid: member.id,
      targetEmail: member.email,
      permission: 'USER',
      direct: false,
      groups: [groupid],
      groupAccess: [{ groupid, groupName: 'Yard Pumps', permission: 'USER' }],
    });
    // The group's creator: a direct ADMIN grant (its claim) and the group's ADMIN level.
    expect(users.find((u) => u.userid === admin.id)).toMatchObject({
      permission: 'ADMIN',
      directPermission: 'ADMIN',
      groupAccess: [{ groupid, groupName: 'Yard Pumps', permission: 'ADMIN' }],
    });
    // Without flattenGroups: the direct grants only, as before.
    const plain = (await admin.client.get(`/api/device/${deviceid}/permissions`)).body as DevicePermissionsResponse;
    expect(plain.users.map((u) => u.userid).sort()).toEqual([admin.id, both.id, operator.id].sort());
    expect(plain.users.every((u) => u.groupAccess === undefined && u.directPermission === undefined)).toBe(true);
  });

  it('a group member (USER) reads the list; an OPERATOR is refused; neither changes it', async () => {
    expect((await list(member)).users).toHaveLength(4);
    expectError(await operator.client.get(`/api/device/${deviceid}/permissions?flattenGroups=true`), 403, 'FORBIDDEN');
    expectError(
      await member.client.post(`/api/device/${deviceid}/user`, {
        targetEmail: operator.email,
        targetPermission: 'VIEW',
      }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await member.client.put(`/api/device/${deviceid}/user`, { userid: operator.id, permission: 'VIEW' }),
      403,
      'FORBIDDEN',
    );
    expect((await list(admin)).users.find((u) => u.userid === operator.id)?.permission).toBe('OPERATOR');
  });

  it('the last direct ADMIN can be neither demoted nor removed, though a group also makes them ADMIN', async () => {
    const demote = await admin.client.put(`/api/device/${deviceid}/user`, { userid: admin.id, permission: 'USER' });
    expectError(demote, 409, 'CONFLICT', DEVICE_MESSAGES.lastAdmin);
    expectError(await del(admin.client, `/api/device/${deviceid}/user`, { userid: admin.id }), 409, 'CONFLICT');
    expect((await list(admin)).users.find((u) => u.userid === admin.id)?.directPermission).toBe('ADMIN');
    // A second ADMIN: then the first may step down, and the list says so.
    const promoted = await admin.client.put(`/api/device/${deviceid}/user`, { userid: both.id, permission: 'ADMIN' });
    expect(promoted.status, promoted.text).toBe(200);
    const removed = await del(admin.client, `/api/device/${deviceid}/user`, { userid: both.id });
    expect(removed.status, removed.text).toBe(200);
    // Removed from the device, still in the group: listed through the group only.
    expect((await list(admin)).users.find((u) => u.userid === both.id)).toMatchObject({
      permission: 'USER',
      direct: false,
      groupAccess: [{ groupName: 'Yard Pumps' }],
    });
  });
});
