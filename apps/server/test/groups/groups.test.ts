/**
 * Groups over real HTTP (spec 1 section 7, DESIGN.md section 5): creating, renaming and deleting
 * groups, sharing by e-mail (invitations too), levels and the last ADMIN, REMOVED_SELF, moving,
 * copying and removing devices, the group server log, group levels feeding device roles through
 * the access gate, and the escalation path of a setup password. Runs on PGlite, and on PostgreSQL
 * when reachable.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_MESSAGES, GROUP_NAME_REQUIRED, type DeviceRole } from '@portal/core';
import {
  type DbKind,
  type MailCatcher,
  type TestPortal,
  findPostgres,
  linkIn,
  startMailCatcher,
  startTestPortal,
  uniqueEmail,
} from '../helpers';
import { type GroupMembers, del, expectError, provision, shareWithEachLevel, signedInUser } from '../device-helpers';
import type { ApiClient } from '../helpers';

const LEVELS: DeviceRole[] = ['ADMIN', 'USER', 'OPERATOR', 'VIEW'];

interface GroupFixture {
  groupid: string;
  deviceid: string;
  members: GroupMembers;
}

function describeGroups(dbKind: DbKind): void {
  describe(`groups (${dbKind})`, () => {
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
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });

    async function createGroup(client: ApiClient, groupName = 'Site A'): Promise<string> {
      const res = await client.post('/api/group', { groupName });
      expect(res.status, res.text).toBe(200);
      return (res.body as { groupid: string }).groupid;
    }

    /** A group with a claimed device and one member per level (ADMIN created it), and a stranger. */
    async function groupWithMembers(): Promise<GroupFixture> {
      const admin = await signedInUser(tp);
      const groupid = await createGroup(admin.client);
      const device = await provision(tp);
      const added = await admin.client.post(`/api/device/${device.deviceid}/user`, {
        setupPassword: device.setupPassword,
        groupid,
      });
      expect(added.status, added.text).toBe(200);
      expect(added.body).toMatchObject({ permission: 'ADMIN', groupid });
      return { groupid, deviceid: device.deviceid, members: await shareWithEachLevel(tp, admin, groupid) };
    }

    const groupOf = async (client: ApiClient, groupid: string) => (await client.get(`/api/group/${groupid}`)).body;
    const myRole = async (client: ApiClient, deviceid: string) => {
      const res = await client.get(`/api/device/${deviceid}/settings`);
      return res.status === 200 ? (res.body as { myPermission: DeviceRole }).myPermission : res.status;
    };

    describe('create, read, rename, delete', () => {
      it('creates a group with an 11-character id, the creator ADMIN; lists it; GET answers its devices', async () => {
        const fx = await groupWithMembers();
        expect(fx.groupid).toMatch(/^[A-Z0-9]{11}$/);
        expect(fx.groupid.toLowerCase().startsWith('sq')).toBe(false);
        const list = await fx.members.ADMIN.client.get('/api/groups');
        expect(list.body).toEqual([{ groupid: fx.groupid, groupName: 'Site A', permission: 'ADMIN', deviceCount: 1 }]);
        // Each member's list carries their own level (what the web offers by).
        for (const level of ['USER', 'VIEW'] as const) {
          expect((await fx.members[level].client.get('/api/groups')).body).toEqual([
            { groupid: fx.groupid, groupName: 'Site A', permission: level, deviceCount: 1 },
          ]);
        }
        const group = await fx.members.VIEW.client.get(`/api/group/${fx.groupid}`);
        expect(group.status).toBe(200);
        expect(group.body).toEqual({
          groupid: fx.groupid,
          groupName: 'Site A',
          myPermission: 'VIEW',
          deviceSummaries: {
            [fx.deviceid]: expect.objectContaining({ name: expect.any(String), fw: expect.any(String) }) as unknown,
          },
        });
      });

      it('sanitises the name; an empty name is 400 "Group name is required" and nothing is made', async () => {
        const user = await signedInUser(tp);
        const res = await user.client.post('/api/group', { groupName: '<b>"Yard"</b> number one two three' });
        expect(res.status, res.text).toBe(200);
        expect((res.body as { groupName: string }).groupName).toBe('bYard/b number one t');
        for (const groupName of ['', '   ', '"?<>']) {
          expectError(
            await user.client.post('/api/group', { groupName }),
            400,
            'BAD_REQUEST',
            new RegExp(GROUP_NAME_REQUIRED),
          );
        }
        expect((await user.client.get('/api/groups')).body).toHaveLength(1);
      });

      it('ADMIN renames; USER gets 403, a stranger and an unknown id 404; bad names 400 and nothing changes', async () => {
        const fx = await groupWithMembers();
        const path = `/api/group/${fx.groupid}`;
        expect((await fx.members.ADMIN.client.put(path, { groupName: 'North yard' })).status).toBe(200);
        expect(await groupOf(fx.members.USER.client, fx.groupid)).toMatchObject({ groupName: 'North yard' });
        expectError(await fx.members.USER.client.put(path, { groupName: 'Mine' }), 403, 'FORBIDDEN');
        expectError(
          await fx.members.STRANGER.client.put(path, { groupName: 'Mine' }),
          404,
          'NOT_FOUND',
          GROUP_MESSAGES.notFound,
        );
        expectError(await fx.members.ADMIN.client.put('/api/group/AAAAAAAAAAA', { groupName: 'x' }), 404, 'NOT_FOUND');
        for (const bad of [{ groupName: '' }, {}, { groupName: 5 }, { groupName: 'ok', extra: 1 }]) {
          expectError(await fx.members.ADMIN.client.put(path, bad), 400, 'BAD_REQUEST');
        }
        expect(await groupOf(fx.members.ADMIN.client, fx.groupid)).toMatchObject({ groupName: 'North yard' });
      });

      it('ADMIN deletes the group: members lose it and the device roles it gave; the devices stay', async () => {
        const fx = await groupWithMembers();
        expect(await myRole(fx.members.USER.client, fx.deviceid)).toBe('USER');
        expectError(await del(fx.members.USER.client, `/api/group/${fx.groupid}`), 403, 'FORBIDDEN');
        expectError(await del(fx.members.STRANGER.client, `/api/group/${fx.groupid}`), 404, 'NOT_FOUND');
        expect((await del(fx.members.ADMIN.client, `/api/group/${fx.groupid}`)).status).toBe(200);
        expect((await fx.members.USER.client.get('/api/groups')).body).toEqual([]);
        expect(await myRole(fx.members.USER.client, fx.deviceid)).toBe(404);
        // The device stays, with its direct ADMIN.
        expect(await myRole(fx.members.ADMIN.client, fx.deviceid)).toBe('ADMIN');
        expectError(await fx.members.ADMIN.client.get(`/api/group/${fx.groupid}`), 404, 'NOT_FOUND');
      });
    });

    it('every group call refuses a malformed group id: too long 400, another form 404; nothing changes', async () => {
      const fx = await groupWithMembers();
      const calls: [string, string, unknown][] = [
        ['GET', '', undefined],
        ['PUT', '', { groupName: 'x' }],
        ['DELETE', '', undefined],
        ['GET', '/serverlog', undefined],
        ['POST', '/user', { targetEmail: 'x@example.com', targetPermission: 'VIEW' }],
        ['PUT', '/user', { targetUserID: fx.members.VIEW.id, targetPermission: 'USER' }],
        ['DELETE', '/user', { targetUserID: fx.members.VIEW.id }],
        ['GET', '/permissions', undefined],
        ['PUT', '/devices', { deviceList: [fx.deviceid], targetGroupid: fx.groupid, action: 'copy' }],
        ['DELETE', '/devices', { deviceList: [fx.deviceid] }],
      ];
      const before = [
        await groupOf(fx.members.ADMIN.client, fx.groupid),
        (await fx.members.ADMIN.client.get(`/api/group/${fx.groupid}/permissions`)).body,
      ];
      for (const [method, suffix, body] of calls) {
        const send = (id: string) =>
          fx.members.ADMIN.client.request(method, `/api/group/${id}${suffix}`, body === undefined ? {} : { body });
        expectError(await send('G'.repeat(65)), 400, 'BAD_REQUEST');
        expectError(await send(fx.groupid.toLowerCase()), 404, 'NOT_FOUND', GROUP_MESSAGES.notFound);
      }
      expect([
        await groupOf(fx.members.ADMIN.client, fx.groupid),
        (await fx.members.ADMIN.client.get(`/api/group/${fx.groupid}/permissions`)).body,
      ]).toEqual(before);
    });

    describe('members', () => {
      it('levels feed device roles; the permissions list shows e-mails to ADMIN and USER only', async () => {
        const fx = await groupWithMembers();
        for (const level of LEVELS) expect(await myRole(fx.members[level].client, fx.deviceid)).toBe(level);
        expect(await myRole(fx.members.STRANGER.client, fx.deviceid)).toBe(404);
        const forUser = (await fx.members.USER.client.get(`/api/group/${fx.groupid}/permissions`)).body as {
          users: { email?: string; userID: string; permission: string }[];
        };
        expect(forUser.users).toHaveLength(4);
        for (const level of LEVELS)
          expect(forUser.users).toContainEqual({
            email: fx.members[level].email,
            userID: fx.members[level].id,
            permission: level,
          });
        const forView = (await fx.members.VIEW.client.get(`/api/group/${fx.groupid}/permissions`)).body as {
          users: { email?: string; userID: string }[];
        };
        expect(forView.users.filter((u) => u.email !== undefined)).toEqual([
          { email: fx.members.VIEW.email, userID: fx.members.VIEW.id, permission: 'VIEW' },
        ]);
        expectError(await fx.members.STRANGER.client.get(`/api/group/${fx.groupid}/permissions`), 404, 'NOT_FOUND');
      });

      it('every share sends a mail; only ADMIN shares or changes levels; a change takes effect at once', async () => {
        const fx = await groupWithMembers();
        const shared = await mail.waitFor((m) => m.to.includes(fx.members.OPERATOR.email));
        expect(shared.subject).toMatch(/access to a group/);
        expect(shared.text).toContain(`OPERATOR access to the group Site A`);
        expect(shared.text).toContain(`/group/${fx.groupid}`);
        const other = await signedInUser(tp);
        for (const level of ['USER', 'OPERATOR', 'VIEW'] as const) {
          expectError(
            await fx.members[level].client.post(`/api/group/${fx.groupid}/user`, {
              targetEmail: other.email,
              targetPermission: 'ADMIN',
            }),
            403,
            'FORBIDDEN',
          );
          expectError(
            await fx.members[level].client.put(`/api/group/${fx.groupid}/user`, {
              targetUserID: fx.members[level].id,
              targetPermission: 'ADMIN',
            }),
            403,
            'FORBIDDEN',
          );
        }
        expect(await myRole(fx.members.VIEW.client, fx.deviceid)).toBe('VIEW');
        const changed = await fx.members.ADMIN.client.put(`/api/group/${fx.groupid}/user`, {
          targetEmail: fx.members.VIEW.email,
          targetUserID: fx.members.VIEW.id,
          targetPermission: 'OPERATOR',
        });
        expect(changed.status, changed.text).toBe(200);
        expect(await myRole(fx.members.VIEW.client, fx.deviceid)).toBe('OPERATOR');
      });

      it('the last ADMIN cannot be demoted, removed or leave while others remain; with a second ADMIN it can', async () => {
        const fx = await groupWithMembers();
        const admin = fx.members.ADMIN;
        const path = `/api/group/${fx.groupid}/user`;
        expectError(
          await admin.client.put(path, { targetUserID: admin.id, targetPermission: 'USER' }),
          409,
          'CONFLICT',
          GROUP_MESSAGES.lastAdmin,
        );
        expectError(await del(admin.client, path, { targetUserID: admin.id }), 409, 'CONFLICT');
        expect(
          (await admin.client.put(path, { targetUserID: fx.members.USER.id, targetPermission: 'ADMIN' })).status,
        ).toBe(200);
        const left = await del(admin.client, path, { targetUserID: admin.id, targetEmail: admin.email });
        expect(left.status, left.text).toBe(200);
        expect(left.body).toEqual({
          message: GROUP_MESSAGES.removedSelf,
          groupid: fx.groupid,
          resultCode: 'REMOVED_SELF',
        });
        expect((await admin.client.get('/api/groups')).body).toEqual([]);
        // Still the device's ADMIN by its own claim.
        expect(await myRole(admin.client, fx.deviceid)).toBe('ADMIN');
      });

      it('the only member may leave (the group goes), but not demote themselves', async () => {
        const user = await signedInUser(tp);
        const groupid = await createGroup(user.client, 'Alone');
        expectError(
          await user.client.put(`/api/group/${groupid}/user`, { targetUserID: user.id, targetPermission: 'VIEW' }),
          409,
          'CONFLICT',
          GROUP_MESSAGES.lastAdmin,
        );
        const left = await del(user.client, `/api/group/${groupid}/user`, { targetUserID: user.id });
        expect(left.body).toMatchObject({ resultCode: 'REMOVED_SELF' });
        expect((await user.client.get('/api/groups')).body).toEqual([]);
        expectError(await user.client.get(`/api/group/${groupid}`), 404, 'NOT_FOUND');
      });

      it('a member removes themselves (REMOVED_SELF) and loses the device at once; ADMIN removes others (REMOVED)', async () => {
        const fx = await groupWithMembers();
        const path = `/api/group/${fx.groupid}/user`;
        expectError(
          await del(fx.members.VIEW.client, path, { targetUserID: fx.members.OPERATOR.id }),
          403,
          'FORBIDDEN',
        );
        const self = await del(fx.members.VIEW.client, path, { targetUserID: fx.members.VIEW.id });
        expect(self.body).toMatchObject({ resultCode: 'REMOVED_SELF' });
        expect(await myRole(fx.members.VIEW.client, fx.deviceid)).toBe(404);
        expectError(await fx.members.VIEW.client.get(`/api/group/${fx.groupid}`), 404, 'NOT_FOUND');
        const removed = await del(fx.members.ADMIN.client, path, { targetUserID: fx.members.OPERATOR.id });
        expect(removed.body).toMatchObject({ resultCode: 'REMOVED' });
        expect(await myRole(fx.members.OPERATOR.client, fx.deviceid)).toBe(404);
        expectError(
          await del(fx.members.ADMIN.client, path, { targetUserID: fx.members.STRANGER.id }),
          404,
          'NOT_FOUND',
        );
      });

      it('an address without an account is invited by mail and joins at sign-up', async () => {
        const fx = await groupWithMembers();
        const email = uniqueEmail('group-invitee');
        const res = await fx.members.ADMIN.client.post(`/api/group/${fx.groupid}/user`, {
          targetEmail: email,
          targetPermission: 'USER',
        });
        expect(res.status, res.text).toBe(200);
        expect(res.body).toMatchObject({ invited: true, permission: 'USER' });
        const invite = await mail.waitFor((m) => m.to.includes(email));
        expect(invite.text).toContain('USER access to the group Site A');
        expect(invite.text).toMatch(/https?:\/\/\S+\/signup/);
        const perms = (await fx.members.ADMIN.client.get(`/api/group/${fx.groupid}/permissions`)).body as {
          invites: unknown[];
        };
        expect(perms.invites).toEqual([{ email, permission: 'USER' }]);

        const client = tp.client();
        expect((await client.post('/api/auth/signup', { email, password: 'password-123' })).status).toBe(201);
        const verify = linkIn(await mail.waitFor((m) => m.to.includes(email) && /verify/i.test(m.subject)), 'verify');
        expect((await client.post(`/api/auth/verify/${verify.code}`)).status).toBe(200);
        expect((await client.post('/api/auth/login', { email, password: 'password-123' })).status).toBe(200);
        expect((await client.get('/api/groups')).body).toEqual([
          { groupid: fx.groupid, groupName: 'Site A', permission: 'USER', deviceCount: 1 },
        ]);
        expect(await myRole(client, fx.deviceid)).toBe('USER');
      }, 60_000);

      it('bad bodies to the user calls are 400 and change nothing', async () => {
        const fx = await groupWithMembers();
        const path = `/api/group/${fx.groupid}/user`;
        const before = (await fx.members.ADMIN.client.get(`/api/group/${fx.groupid}/permissions`)).body;
        const bad: [string, unknown][] = [
          ['POST', {}],
          ['POST', { targetEmail: 'a@b.cm', targetPermission: 'USER' }],
          ['POST', { targetEmail: 'x@example.com', targetPermission: 'OWNER' }],
          ['POST', { targetEmail: 'x@example.com', targetPermission: 'USER', extra: true }],
          ['PUT', { targetPermission: 'USER' }],
          ['PUT', { targetUserID: fx.members.VIEW.id, targetPermission: 'GOD' }],
          ['PUT', { targetUserID: '', targetPermission: 'USER' }],
          ['DELETE', {}],
          ['DELETE', { targetUserID: 7 }],
        ];
        for (const [method, body] of bad) {
          expectError(await fx.members.ADMIN.client.request(method, path, { body }), 400, 'BAD_REQUEST');
        }
        expect((await fx.members.ADMIN.client.get(`/api/group/${fx.groupid}/permissions`)).body).toEqual(before);
      });
    });

    describe('devices', () => {
      it('move and copy to another group of the caller; remove takes them out; the devices stay', async () => {
        const fx = await groupWithMembers();
        const admin = fx.members.ADMIN;
        const target = await createGroup(admin.client, 'Vehicles');
        const copy = await admin.client.put(`/api/group/${fx.groupid}/devices`, {
          deviceList: [fx.deviceid],
          targetGroupid: target,
          action: 'copy',
        });
        expect(copy.status, copy.text).toBe(200);
        expect(
          Object.keys(((await groupOf(admin.client, fx.groupid)) as { deviceSummaries: object }).deviceSummaries),
        ).toEqual([fx.deviceid]);
        expect(
          Object.keys(((await groupOf(admin.client, target)) as { deviceSummaries: object }).deviceSummaries),
        ).toEqual([fx.deviceid]);
        expect((await del(admin.client, `/api/group/${target}/devices`, { deviceList: [fx.deviceid] })).status).toBe(
          200,
        );
        const move = await admin.client.put(`/api/group/${fx.groupid}/devices`, {
          deviceList: [fx.deviceid],
          targetGroupid: target,
          action: 'move',
        });
        expect(move.status, move.text).toBe(200);
        expect(((await groupOf(admin.client, fx.groupid)) as { deviceSummaries: object }).deviceSummaries).toEqual({});
        expect(
          Object.keys(((await groupOf(admin.client, target)) as { deviceSummaries: object }).deviceSummaries),
        ).toEqual([fx.deviceid]);
        // Members of the source group lost the device with the move.
        expect(await myRole(fx.members.USER.client, fx.deviceid)).toBe(404);
        expect(await myRole(admin.client, fx.deviceid)).toBe('ADMIN');
      });

      it('refusals: below ADMIN 403, a stranger 404, a target group not ADMIN, a device not in the group, bad bodies 400', async () => {
        const fx = await groupWithMembers();
        const admin = fx.members.ADMIN;
        const path = `/api/group/${fx.groupid}/devices`;
        const mine = await createGroup(admin.client, 'Mine');
        const theirs = await createGroup(fx.members.USER.client, 'Theirs');
        const move = (targetGroupid: string) => ({ deviceList: [fx.deviceid], targetGroupid, action: 'move' });
        expectError(await fx.members.USER.client.put(path, move(theirs)), 403, 'FORBIDDEN');
        expectError(await del(fx.members.USER.client, path, { deviceList: [fx.deviceid] }), 403, 'FORBIDDEN');
        expectError(await fx.members.STRANGER.client.put(path, move(mine)), 404, 'NOT_FOUND');
        expectError(await admin.client.put(path, move(theirs)), 404, 'NOT_FOUND', GROUP_MESSAGES.notFound);
        expectError(await admin.client.put(path, move(fx.groupid)), 400, 'BAD_REQUEST', GROUP_MESSAGES.sameGroup);
        expectError(
          await admin.client.put(path, { deviceList: ['ZZZZZZZZZ'], targetGroupid: mine, action: 'copy' }),
          400,
          'BAD_REQUEST',
        );
        for (const bad of [
          {},
          { deviceList: [], targetGroupid: mine, action: 'move' },
          { deviceList: [fx.deviceid], targetGroupid: mine, action: 'swap' },
          { deviceList: ['lower'], targetGroupid: mine, action: 'move' },
          { deviceList: [fx.deviceid], targetGroupid: 'short', action: 'move' },
        ]) {
          expectError(await admin.client.put(path, bad), 400, 'BAD_REQUEST');
        }
        expectError(await del(admin.client, path, { deviceList: [] }), 400, 'BAD_REQUEST');
        expectError(await del(admin.client, path, { deviceList: ['ZZZZZZZZZ'] }), 400, 'BAD_REQUEST');
        expect(
          Object.keys(((await groupOf(admin.client, fx.groupid)) as { deviceSummaries: object }).deviceSummaries),
        ).toEqual([fx.deviceid]);
        expect(((await groupOf(admin.client, mine)) as { deviceSummaries: object }).deviceSummaries).toEqual({});
      });
    });

    describe('escalation: a setup password grants VIEW only, and no group makes it more', () => {
      it('a VIEW holder cannot place the device in a group of their own by add, copy or move', async () => {
        const device = await provision(tp);
        const owner = await signedInUser(tp);
        const ownerGroup = await createGroup(owner.client, 'Owner');
        const first = await owner.client.post(`/api/device/${device.deviceid}/user`, {
          setupPassword: device.setupPassword,
          groupid: ownerGroup,
        });
        expect(first.body).toMatchObject({ permission: 'ADMIN', groupid: ownerGroup });

        // The thief holds the label: the setup password gives VIEW, and a group of their own does not place it.
        const thief = await signedInUser(tp);
        const own = await createGroup(thief.client, 'Stolen');
        const added = await thief.client.post(`/api/device/${device.deviceid}/user`, {
          setupPassword: device.setupPassword,
          groupid: own,
        });
        expect(added.status, added.text).toBe(200);
        expect(added.body).toMatchObject({ permission: 'VIEW' });
        expect(added.body).not.toHaveProperty('groupid');
        expect(((await groupOf(thief.client, own)) as { deviceSummaries: object }).deviceSummaries).toEqual({});
        expect(await myRole(thief.client, device.deviceid)).toBe('VIEW');
        // Adding it again, already a user: still VIEW, still not placed.
        const again = await thief.client.post(`/api/device/${device.deviceid}/user`, {
          setupPassword: device.setupPassword,
          groupid: own,
        });
        expect(again.body).toMatchObject({ permission: 'VIEW' });
        expect(again.body).not.toHaveProperty('groupid');
        expect(((await groupOf(thief.client, own)) as { deviceSummaries: object }).deviceSummaries).toEqual({});
        // The device's ADMIN adding it again with another group of theirs puts it there.
        const second = await createGroup(owner.client, 'Second');
        const placed = await owner.client.post(`/api/device/${device.deviceid}/user`, {
          setupPassword: device.setupPassword,
          groupid: second,
        });
        expect(placed.body).toMatchObject({ permission: 'ADMIN', groupid: second });
        expect(
          Object.keys(((await groupOf(owner.client, second)) as { deviceSummaries: object }).deviceSummaries),
        ).toEqual([device.deviceid]);

        // Copy or move from the thief's own group to another of theirs: the device is not in it.
        const other = await createGroup(thief.client, 'Other');
        for (const action of ['copy', 'move'] as const) {
          const body = { deviceList: [device.deviceid], targetGroupid: other, action };
          expectError(
            await thief.client.put(`/api/group/${own}/devices`, body),
            400,
            'BAD_REQUEST',
            GROUP_MESSAGES.notInGroup,
          );
        }
        // Copy or move from the owner's group, shared with the thief as VIEW: 403, only ADMIN moves devices.
        expect(
          (
            await owner.client.post(`/api/group/${ownerGroup}/user`, {
              targetEmail: thief.email,
              targetPermission: 'VIEW',
            })
          ).status,
        ).toBe(200);
        for (const action of ['copy', 'move'] as const) {
          const body = { deviceList: [device.deviceid], targetGroupid: own, action };
          expectError(await thief.client.put(`/api/group/${ownerGroup}/devices`, body), 403, 'FORBIDDEN');
        }
        expect(((await groupOf(thief.client, own)) as { deviceSummaries: object }).deviceSummaries).toEqual({});
        expect(
          Object.keys(((await groupOf(owner.client, ownerGroup)) as { deviceSummaries: object }).deviceSummaries),
        ).toEqual([device.deviceid]);
        // A claim naming a group where the caller is below ADMIN is refused whole: no grant, no placement.
        const stranger = await signedInUser(tp);
        await owner.client.post(`/api/group/${ownerGroup}/user`, {
          targetEmail: stranger.email,
          targetPermission: 'USER',
        });
        const refused = await stranger.client.post(`/api/device/${device.deviceid}/user`, {
          setupPassword: device.setupPassword,
          groupid: ownerGroup,
        });
        expectError(refused, 403, 'FORBIDDEN');
        const users = (await owner.client.get(`/api/device/${device.deviceid}/permissions`)).body as {
          users: { userid: string }[];
        };
        expect(users.users.map((u) => u.userid)).not.toContain(stranger.id);
        expect(await myRole(stranger.client, device.deviceid)).toBe('USER');
        expect(await myRole(thief.client, device.deviceid)).toBe('VIEW');
      });
    });

    describe('server log', () => {
      it('every change is logged with who made it; only ADMIN reads it', async () => {
        const fx = await groupWithMembers();
        await fx.members.ADMIN.client.put(`/api/group/${fx.groupid}`, { groupName: 'Renamed' });
        const res = await fx.members.ADMIN.client.get(`/api/group/${fx.groupid}/serverlog`);
        expect(res.status).toBe(200);
        const entries = (res.body as { entries: { user: string; message: string }[] }).entries;
        expect(entries.map((e) => e.message)).toEqual([
          'Renamed from Site A to Renamed',
          `Shared with ${fx.members.VIEW.email} as VIEW`,
          `Shared with ${fx.members.OPERATOR.email} as OPERATOR`,
          `Shared with ${fx.members.USER.email} as USER`,
          `Added ${fx.deviceid} with its setup password`,
          'Group created: Site A',
        ]);
        expect(new Set(entries.map((e) => e.user))).toEqual(new Set([fx.members.ADMIN.email]));
        for (const level of ['USER', 'OPERATOR', 'VIEW'] as const)
          expectError(await fx.members[level].client.get(`/api/group/${fx.groupid}/serverlog`), 403, 'FORBIDDEN');
        expectError(await fx.members.STRANGER.client.get(`/api/group/${fx.groupid}/serverlog`), 404, 'NOT_FOUND');
      });
    });
  });
}

describeGroups('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeGroups('postgres');
