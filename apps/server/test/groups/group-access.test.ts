/**
 * The authorisation matrix for group members: on every device route listed here, a member of a
 * group holding the device gets, level for level, the answer a direct grant of that level gets;
 * a former member (removed, or left) gets the stranger's 404 at once. Runs on PGlite, and on
 * PostgreSQL when reachable.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_MESSAGES, GROUP_MESSAGES, type DeviceRole } from '@portal/core';
import { type ApiClient, type DbKind, type TestPortal, findPostgres, startTestPortal } from '../helpers';
import { type SignedInUser, del, expectError, provision, signedInUser } from '../device-helpers';

const LEVELS: DeviceRole[] = ['ADMIN', 'USER', 'OPERATOR', 'VIEW'];

/** Device calls that leave the device as it was (or set it to the same state each time), with a valid body. */
const CALLS: { method: string; path: string; body?: unknown }[] = [
  { method: 'GET', path: '/api/device/{id}/settings' },
  { method: 'PUT', path: '/api/device/{id}/settings', body: { PORTAL_deviceNotes: { status: 'ok' } } },
  {
    method: 'PUT',
    path: '/api/device/{id}/settings',
    body: { PORTAL_displaySettings: { temp: { name: 'Temp', units: 'C' } } },
  },
  { method: 'GET', path: '/api/device/{id}/permissions' },
  { method: 'POST', path: '/api/device/{id}/passwords', body: {} },
  { method: 'GET', path: '/api/device/{id}/config' },
  { method: 'GET', path: '/api/device/{id}/script' },
  { method: 'GET', path: '/api/device/{id}/data' },
  { method: 'GET', path: '/api/device/{id}/serverlog' },
  { method: 'GET', path: '/api/device/{id}/diagnostics' },
  { method: 'GET', path: '/api/device/{id}/rpc' },
  { method: 'GET', path: '/api/device/{id}/export?format=config' },
];

function describeGroupAccess(dbKind: DbKind): void {
  describe(`group members on device routes (${dbKind})`, () => {
    let tp: TestPortal;
    let deviceid: string;
    let groupid: string;
    let admin: SignedInUser;
    const direct = {} as Record<DeviceRole, SignedInUser>;
    const member = {} as Record<DeviceRole, SignedInUser>;
    let stranger: SignedInUser;

    beforeAll(async () => {
      tp = await startTestPortal({ db: dbKind, seed: false });
      admin = await signedInUser(tp);
      const made = await admin.client.post('/api/group', { groupName: 'Matrix' });
      groupid = (made.body as { groupid: string }).groupid;
      const device = await provision(tp);
      deviceid = device.deviceid;
      const claimed = await admin.client.post(`/api/device/${deviceid}/user`, {
        setupPassword: device.setupPassword,
        groupid,
      });
      expect(claimed.body, claimed.text).toMatchObject({ permission: 'ADMIN', groupid });
      for (const level of LEVELS) {
        direct[level] = await signedInUser(tp);
        const granted = await admin.client.post(`/api/device/${deviceid}/user`, {
          targetEmail: direct[level].email,
          targetPermission: level,
        });
        expect(granted.status, granted.text).toBe(200);
        member[level] = await signedInUser(tp);
        const shared = await admin.client.post(`/api/group/${groupid}/user`, {
          targetEmail: member[level].email,
          targetPermission: level,
        });
        expect(shared.status, shared.text).toBe(200);
      }
      stranger = await signedInUser(tp);
    }, 120_000);
    afterAll(async () => {
      await tp?.close();
    });
    afterEach(() => {
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });

    const call = (client: ApiClient, c: (typeof CALLS)[number]) =>
      client.request(c.method, c.path.replace('{id}', deviceid), c.body === undefined ? {} : { body: c.body });

    it('each level of group member gets what a direct grant of that level gets, on every call', async () => {
      const rows: string[] = [];
      for (const c of CALLS) {
        for (const level of LEVELS) {
          const d = await call(direct[level].client, c);
          const g = await call(member[level].client, c);
          rows.push(`${c.method} ${c.path} ${level}: direct ${d.status}, group ${g.status}`);
          expect(g.status, `${c.method} ${c.path} as group ${level}`).toBe(d.status);
          expect(g.status, `${c.method} ${c.path} as group ${level}`).not.toBe(404);
        }
        expect((await call(stranger.client, c)).status, `${c.method} ${c.path} as a stranger`).toBe(404);
      }
      // Both kinds of answer appear: the matrix is not all one status.
      expect(rows.some((r) => r.includes('group 403'))).toBe(true);
      expect(rows.some((r) => r.includes('group 200'))).toBe(true);
    });

    it('the group data call and search: every member level reads them; a stranger gets 404 and finds nothing', async () => {
      const path = `/api/group/${groupid}/data`;
      for (const level of LEVELS) {
        const res = await member[level].client.get(path);
        expect(res.status, `GET ${path} as group ${level}`).toBe(200);
        expect((res.body as { devices: { deviceid: string }[] }).devices.map((d) => d.deviceid)).toEqual([deviceid]);
        const found = await member[level].client.get(`/api/search?q=${deviceid.slice(1, 6)}`);
        expect(found.body, `search as group ${level}`).toMatchObject({ devices: [{ deviceid }], groups: [] });
        expect((await member[level].client.get('/api/search?q=matrix')).body).toMatchObject({
          groups: [{ groupid, groupName: 'Matrix' }],
        });
      }
      const refused = await stranger.client.get(path);
      expect(refused.status).toBe(404);
      expect((refused.body as { message: string }).message).toBe(GROUP_MESSAGES.notFound);
      expect((await stranger.client.get(`/api/search?q=${deviceid}`)).body).toEqual({ devices: [], groups: [] });
      expect((await stranger.client.get('/api/search?q=matrix')).body).toEqual({ devices: [], groups: [] });
    });

    it('the higher of a direct grant and a group level wins', async () => {
      const both = await signedInUser(tp);
      await admin.client.post(`/api/device/${deviceid}/user`, { targetEmail: both.email, targetPermission: 'VIEW' });
      await admin.client.post(`/api/group/${groupid}/user`, { targetEmail: both.email, targetPermission: 'USER' });
      const role = async () =>
        ((await both.client.get(`/api/device/${deviceid}/settings`)).body as { myPermission: string }).myPermission;
      expect(await role()).toBe('USER');
      await admin.client.put(`/api/group/${groupid}/user`, { targetUserID: both.id, targetPermission: 'VIEW' });
      await admin.client.put(`/api/device/${deviceid}/user`, { userid: both.id, permission: 'OPERATOR' });
      expect(await role()).toBe('OPERATOR');
    });

    it('the device users list with flattenGroups=true names the group members with their level and groups', async () => {
      const path = `/api/device/${deviceid}/permissions`;
      type Users = { users: { userid: string; permission: string; direct?: boolean; groups?: string[] }[] };
      const plain = (await admin.client.get(path)).body as Users;
      expect(plain.users.map((u) => u.userid)).not.toContain(member.VIEW.id);
      const flat = (await member.USER.client.get(`${path}?flattenGroups=true`)).body as Users;
      for (const level of LEVELS) {
        expect(flat.users).toContainEqual(
          expect.objectContaining({ userid: member[level].id, permission: level, direct: false, groups: [groupid] }),
        );
        expect(flat.users).toContainEqual(
          expect.objectContaining({ userid: direct[level].id, permission: level, direct: true, groups: [] }),
        );
      }
      // The group's ADMIN holds a direct ADMIN grant (its claim) and the group's ADMIN level: listed once.
      expect(flat.users.filter((u) => u.userid === admin.id)).toEqual([
        expect.objectContaining({ permission: 'ADMIN', direct: true, groups: [groupid] }),
      ]);
      expectError(await member.OPERATOR.client.get(`${path}?flattenGroups=true`), 403, 'FORBIDDEN');
    });

    it('a former member (removed, or left) gets the stranger answer on every call at once', async () => {
      const removed = member.USER;
      const left = member.OPERATOR;
      expect((await del(admin.client, `/api/group/${groupid}/user`, { targetUserID: removed.id })).status).toBe(200);
      const self = await del(left.client, `/api/group/${groupid}/user`, { targetUserID: left.id });
      expect(self.body).toMatchObject({ resultCode: 'REMOVED_SELF' });
      for (const former of [removed, left]) {
        for (const c of CALLS) {
          const res = await call(former.client, c);
          expect(res.status, `${c.method} ${c.path} as a former member`).toBe(404);
          expect((res.body as { message: string }).message).toBe(DEVICE_MESSAGES.notFound);
        }
        const data = await former.client.get(`/api/group/${groupid}/data`);
        expect(data.status, 'GET /api/group/{groupid}/data as a former member').toBe(404);
        expect((data.body as { message: string }).message).toBe(GROUP_MESSAGES.notFound);
        expect((await former.client.get(`/api/search?q=${deviceid}`)).body).toEqual({ devices: [], groups: [] });
      }
    });
  });
}

describeGroupAccess('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeGroupAccess('postgres');
