/**
 * Groups (spec 1 sections 1-4 and 7, DESIGN.md section 5): creating, renaming and deleting
 * groups, sharing them by e-mail at a level, their devices and their server log.
 *
 * The one access gate (modules/access, authorizeGroup) decides every call: a caller who is not a
 * member gets 404 'Group not found' (the answer for an id that does not exist); a member without
 * the level gets 403. Every change writes a line to the group's server log naming who made it. A
 * member's level applies to every device of the group through the same gate.
 */
import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  DEVICE_ID_ALPHABET,
  GROUP_MESSAGES,
  adminCount,
  can,
  newGroupId,
  removesLastAdmin,
  type BrandConfig,
  type DeviceRole,
  type GroupDeviceSummary,
  type GroupDevicesPutBody,
  type GroupDevicesResult,
  type GroupListEntry,
  type GroupPermissionsResponse,
  type GroupResponse,
  type GroupResult,
  type GroupServerLogEntry,
  type GroupSummary,
  type GroupUserDeleteBody,
  type GroupUserDeleteResponse,
  type GroupUserPutBody,
  type GroupUserResult,
  groupCan,
  type GroupCapability,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, conflict, forbidden } from '../../errors';
import type { AccessService, GroupMembership } from '../access/access.service';
import type { User } from '../auth/auth.service';
import type { Mailer } from '../mail/mail.service';
import type { PublicAddresses } from '../../public-addresses';
import { accessGrantedMail, type AccessGranted } from '../mail/access-granted-mail';
import * as repo from './groups.repository';

/** What the groups module offers: the group calls, and the group parts of other modules' calls. */
export interface GroupsService {
  /** The caller's groups by name, each with the caller's level and its device count. */
  listForUser(userId: string): Promise<GroupListEntry[]>;
  /** The caller's groups whose id or name contains `needle` (case-insensitive): prefix matches first, then by name. */
  search(userId: string, needle: string, limit: number): Promise<GroupSummary[]>;
  /** Creates a group with the caller as its ADMIN. */
  create(user: User, groupName: string): Promise<GroupResult>;
  /** The group, its devices' summaries and the caller's level; any member. */
  get(user: User, groupid: string): Promise<GroupResponse>;
  /** ADMIN renames the group. */
  rename(user: User, groupid: string, groupName: string): Promise<GroupResult>;
  /** ADMIN deletes the group: members, invitations, views and log go; the devices stay. */
  remove(user: User, groupid: string): Promise<GroupResult>;
  /** ADMIN reads the group's server log, newest lines first. */
  serverLog(user: User, groupid: string): Promise<{ groupid: string; entries: GroupServerLogEntry[] }>;
  /** ADMIN shares the group with an address at a level; an address without an account is invited. Both get a mail. */
  share(
    user: User,
    groupid: string,
    email: string,
    permission: DeviceRole,
    ctx: GroupRequestContext,
  ): Promise<GroupUserResult>;
  /** ADMIN changes a member's level (by targetUserID) or a pending invitation's (by targetEmail). */
  changeUser(user: User, groupid: string, body: GroupUserPutBody): Promise<GroupUserResult>;
  /**
   * ADMIN removes a member or an invitation; any member removes themselves (REMOVED_SELF). The
   * last ADMIN stays while others remain; the last member leaving deletes the group.
   */
  removeUser(user: User, groupid: string, body: GroupUserDeleteBody): Promise<GroupUserDeleteResponse>;
  /** The members (e-mails to ADMIN and USER, and one's own) and, to ADMIN and USER, the invitations. */
  permissions(user: User, groupid: string): Promise<GroupPermissionsResponse>;
  /**
   * ADMIN moves or copies devices of the group to another group where the caller is ADMIN too;
   * the caller must be ADMIN of each device (DESIGN.md section 5). Nothing changes on refusal.
   */
  moveDevices(user: User, groupid: string, body: GroupDevicesPutBody): Promise<GroupDevicesResult>;
  /** ADMIN takes devices out of the group; the devices themselves stay. */
  removeDevices(user: User, groupid: string, list: readonly string[]): Promise<GroupDevicesResult>;
  /**
   * For the devices service's claim: checks (in its transaction) that the user is ADMIN of the
   * group; 404 for a non-member, 403 below ADMIN.
   */
  checkPlacement(tx: Db, userId: string, groupid: string): Promise<void>;
  /**
   * For another module's group call (views): the caller's membership, in its transaction; 404
   * for a non-member, 403 without the capability (groupCan). `lock` serialises the group's writes.
   */
  requireMember(
    tx: Db,
    userId: string,
    groupid: string,
    needs: GroupCapability | null,
    lock?: boolean,
  ): Promise<GroupMembership>;
  /** Writes a line naming who made a change to the group's server log, in the caller's transaction. */
  logChange(tx: Db, groupid: string, user: User, message: string): Promise<void>;
  /** Puts a claimed device into the group, in the claim's transaction, and logs it. */
  placeClaimed(tx: Db, user: User, groupid: string, deviceId: string, logLine?: string): Promise<void>;
  /** The members of the device's groups (for the device's users list with flattenGroups). */
  membersOfDevice(deviceId: string): Promise<repo.DeviceGroupMember[]>;
  /** Applies the pending group invitations of a new account (called on sign-up); how many. */
  applyInvites(userId: string, email: string): Promise<number>;
}

/** Newest lines of the group server log answered. */
const SERVER_LOG_LIMIT = 500;

const badRequest = (message: string) => new AppError(400, 'BAD_REQUEST', message);

/** The request's brand and the configured origin of its links: an invitation to an address without an account uses them. */
export interface GroupRequestContext {
  brand: BrandConfig;
  linkOrigin: string;
}

export interface GroupsDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  /** The configured brand origins: a share mail to a user uses the brand that user signed up under. */
  addresses: Pick<PublicAddresses, 'brand' | 'originOf'>;
  log: FastifyBaseLogger;
  access: AccessService;
}

const randomChars = (n: number) =>
  Array.from({ length: n }, () => DEVICE_ID_ALPHABET[randomInt(DEVICE_ID_ALPHABET.length)]).join('');

/** A device's summary fields as the group calls answer them (spec 2 section 3 'group summary'). */
export function deviceSummary(row: repo.GroupDeviceRow): GroupDeviceSummary {
  return {
    name: row.name,
    status: row.status ?? '',
    type: row.asset_type ?? '',
    fw: row.fw,
    machineMake: row.make ?? '',
    machineModel: row.model ?? '',
  };
}

export function createGroupsService(deps: GroupsDeps): GroupsService {
  const { db, clock, access } = deps;

  const log = (tx: Db, groupid: string, user: User, message: string) =>
    repo.insertLog(tx, groupid, user.email, message, clock.now());

  /** Changes a member's level (null: removes them), keeping an ADMIN while others remain; true when the group is left empty. */
  async function changeMember(
    tx: Db,
    groupid: string,
    targetId: string,
    permission: DeviceRole | null,
  ): Promise<boolean> {
    const members = await repo.listMembers(tx, groupid);
    const target = members.find((m) => m.user_id === targetId);
    if (!target) throw new AppError(404, 'NOT_FOUND', GROUP_MESSAGES.userNotFound);
    const admins = adminCount(members.map((m) => m.permission));
    const alone = members.length === 1;
    if (!(permission === null && alone) && removesLastAdmin(target.permission, permission, admins))
      throw conflict(GROUP_MESSAGES.lastAdmin);
    if (permission === null) await repo.deleteMember(tx, groupid, targetId);
    else await repo.upsertMember(tx, groupid, targetId, permission);
    return permission === null && alone;
  }

  async function sendShareMail(grant: AccessGranted): Promise<void> {
    try {
      await deps.mailer.send(accessGrantedMail(grant));
    } catch (error) {
      deps.log.error({ err: error }, 'Sending the group share mail failed');
    }
  }

  return {
    async listForUser(userId: string): Promise<GroupListEntry[]> {
      const rows = await repo.groupsOfUser(db, userId);
      return rows.map((row) => ({
        groupid: row.groupid,
        groupName: row.group_name,
        permission: row.permission,
        deviceCount: Number(row.device_count),
      }));
    },

    async search(userId: string, needle: string, limit: number): Promise<GroupSummary[]> {
      const rows = await repo.searchGroupsOfUser(db, userId, needle.toLowerCase(), limit);
      return rows.map((row) => ({ groupid: row.groupid, groupName: row.group_name, permission: row.permission }));
    },

    async create(user: User, groupName: string): Promise<GroupResult> {
      return db.transaction(async (tx) => {
        let groupid = newGroupId(randomChars);
        while (!(await repo.insertGroup(tx, groupid, groupName, clock.now()))) groupid = newGroupId(randomChars);
        await repo.upsertMember(tx, groupid, user.id, 'ADMIN');
        await log(tx, groupid, user, `Group created: ${groupName}`);
        return { message: GROUP_MESSAGES.created, groupid, groupName };
      });
    },

    async get(user: User, groupid: string): Promise<GroupResponse> {
      const { groupName, permission } = await access.authorizeGroup(user.id, groupid, null);
      const devices = await repo.listGroupDevices(db, groupid);
      return {
        groupid,
        groupName,
        deviceSummaries: Object.fromEntries(devices.map((d) => [d.device_id, deviceSummary(d)])),
        myPermission: permission,
      };
    },

    async rename(user: User, groupid: string, groupName: string): Promise<GroupResult> {
      return db.transaction(async (tx) => {
        const before = await access.authorizeGroup(user.id, groupid, 'rename', tx, true);
        await repo.renameGroup(tx, groupid, groupName);
        await log(tx, groupid, user, `Renamed from ${before.groupName} to ${groupName}`);
        return { message: GROUP_MESSAGES.renamed, groupid, groupName };
      });
    },

    async remove(user: User, groupid: string): Promise<GroupResult> {
      return db.transaction(async (tx) => {
        await access.authorizeGroup(user.id, groupid, 'deleteGroup', tx, true);
        await repo.deleteGroup(tx, groupid);
        deps.log.info({ groupid, by: user.email }, 'Group deleted');
        return { message: GROUP_MESSAGES.deleted, groupid };
      });
    },

    async serverLog(user: User, groupid: string): Promise<{ groupid: string; entries: GroupServerLogEntry[] }> {
      await access.authorizeGroup(user.id, groupid, 'serverLog');
      const rows = await repo.selectLog(db, groupid, SERVER_LOG_LIMIT);
      return {
        groupid,
        entries: rows.map((r) => ({
          id: r.id,
          ts: new Date(r.ts).getTime() / 1000,
          user: r.actor,
          message: r.message,
        })),
      };
    },

    async share(
      user: User,
      groupid: string,
      email: string,
      permission: DeviceRole,
      ctx: GroupRequestContext,
    ): Promise<GroupUserResult> {
      const result = await db.transaction(async (tx) => {
        const { groupName } = await access.authorizeGroup(user.id, groupid, 'manageMembers', tx, true);
        const target = await repo.findAccountByEmail(tx, email);
        if (target === null) {
          await repo.upsertInvite(tx, groupid, email, permission, user.id, clock.now());
          await log(tx, groupid, user, `Invited ${email} as ${permission}`);
          return {
            groupName,
            target,
            out: { message: GROUP_MESSAGES.invited, groupid, permission, invited: true },
          };
        }
        const targetId = target.id;
        const members = await repo.listMembers(tx, groupid);
        if (members.some((m) => m.user_id === targetId)) await changeMember(tx, groupid, targetId, permission);
        else await repo.upsertMember(tx, groupid, targetId, permission);
        await log(tx, groupid, user, `Shared with ${email} as ${permission}`);
        return {
          groupName,
          target,
          out: { message: GROUP_MESSAGES.userAdded, groupid, permission, userID: targetId, invited: false },
        };
      });
      // A member is mailed under their own brand; an address without an account under the inviter's request's.
      const { target } = result;
      await sendShareMail({
        brand: target ? deps.addresses.brand(target.brand) : ctx.brand,
        to: email,
        by: user.email,
        what: 'group',
        name: result.groupName,
        permission,
        link: target ? `${deps.addresses.originOf(target.brand)}/group/${groupid}` : `${ctx.linkOrigin}/signup`,
        invited: target === null,
      });
      return result.out;
    },

    async changeUser(user: User, groupid: string, body: GroupUserPutBody): Promise<GroupUserResult> {
      return db.transaction(async (tx) => {
        await access.authorizeGroup(user.id, groupid, 'manageMembers', tx, true);
        const permission = body.targetPermission;
        if (body.targetUserID === undefined) {
          const email = body.targetEmail!;
          if ((await repo.findInvite(tx, groupid, email)) === null)
            throw new AppError(404, 'NOT_FOUND', GROUP_MESSAGES.userNotFound);
          await repo.upsertInvite(tx, groupid, email, permission, user.id, clock.now());
          await log(tx, groupid, user, `Invitation of ${email} changed to ${permission}`);
          return { message: GROUP_MESSAGES.userUpdated, groupid, permission, invited: true };
        }
        const targetId = body.targetUserID;
        const target = (await repo.listMembers(tx, groupid)).find((m) => m.user_id === targetId);
        await changeMember(tx, groupid, targetId, permission);
        await log(tx, groupid, user, `Changed ${target?.email ?? targetId} to ${permission}`);
        return { message: GROUP_MESSAGES.userUpdated, groupid, permission, userID: targetId };
      });
    },

    async removeUser(user: User, groupid: string, body: GroupUserDeleteBody): Promise<GroupUserDeleteResponse> {
      return db.transaction(async (tx) => {
        const self = body.targetUserID === user.id;
        await access.authorizeGroup(user.id, groupid, self ? 'leave' : 'manageMembers', tx, true);
        if (body.targetUserID === undefined) {
          const email = body.targetEmail!;
          if ((await repo.findInvite(tx, groupid, email)) === null)
            throw new AppError(404, 'NOT_FOUND', GROUP_MESSAGES.userNotFound);
          await repo.deleteInvite(tx, groupid, email);
          await log(tx, groupid, user, `Invitation of ${email} removed`);
          return { message: GROUP_MESSAGES.inviteRemoved, groupid, resultCode: 'INVITE_REMOVED' as const };
        }
        const targetId = body.targetUserID;
        const target = (await repo.listMembers(tx, groupid)).find((m) => m.user_id === targetId);
        const emptied = await changeMember(tx, groupid, targetId, null);
        if (emptied) await repo.deleteGroup(tx, groupid);
        else
          await log(tx, groupid, user, self ? `${user.email} left the group` : `Removed ${target?.email ?? targetId}`);
        return self
          ? { message: GROUP_MESSAGES.removedSelf, groupid, resultCode: 'REMOVED_SELF' as const }
          : { message: GROUP_MESSAGES.userRemoved, groupid, resultCode: 'REMOVED' as const };
      });
    },

    async permissions(user: User, groupid: string): Promise<GroupPermissionsResponse> {
      const { permission } = await access.authorizeGroup(user.id, groupid, null);
      const seesEmails = groupCan(permission, 'seeMemberEmails');
      const members = await repo.listMembers(db, groupid);
      return {
        groupid,
        myPermission: permission,
        users: members.map((m) => ({
          ...(seesEmails || m.user_id === user.id ? { email: m.email } : {}),
          userID: m.user_id,
          permission: m.permission,
        })),
        invites: seesEmails ? await repo.listInvites(db, groupid) : [],
      };
    },

    async moveDevices(user: User, groupid: string, body: GroupDevicesPutBody): Promise<GroupDevicesResult> {
      const deviceList = [...new Set(body.deviceList)];
      return db.transaction(async (tx) => {
        await access.authorizeGroup(user.id, groupid, 'manageDevices', tx, true);
        if (body.targetGroupid === groupid) throw badRequest(GROUP_MESSAGES.sameGroup);
        const target = await access.authorizeGroup(user.id, body.targetGroupid, 'manageDevices', tx, true);
        const present = await repo.devicesInGroup(tx, groupid, deviceList);
        if (present.length !== deviceList.length) throw badRequest(GROUP_MESSAGES.notInGroup);
        for (const deviceId of deviceList) {
          // Moving a device changes who holds a role on it: the device's ADMIN's right (editUsers).
          if (!can(await access.roleOf(user.id, deviceId, tx), 'editUsers'))
            throw forbidden(GROUP_MESSAGES.notDeviceAdmin);
        }
        await repo.addDevices(tx, body.targetGroupid, deviceList, clock.now());
        if (body.action === 'move') await repo.removeDevices(tx, groupid, deviceList);
        const verb = body.action === 'move' ? 'Moved' : 'Copied';
        await log(tx, groupid, user, `${verb} ${deviceList.join(', ')} to ${target.groupName} (${body.targetGroupid})`);
        await log(tx, body.targetGroupid, user, `${verb} ${deviceList.join(', ')} in from ${groupid}`);
        return {
          message: body.action === 'move' ? GROUP_MESSAGES.devicesMoved : GROUP_MESSAGES.devicesCopied,
          groupid,
          deviceList,
        };
      });
    },

    async removeDevices(user: User, groupid: string, list: readonly string[]): Promise<GroupDevicesResult> {
      const deviceList = [...new Set(list)];
      return db.transaction(async (tx) => {
        await access.authorizeGroup(user.id, groupid, 'manageDevices', tx, true);
        const present = await repo.devicesInGroup(tx, groupid, deviceList);
        if (present.length !== deviceList.length) throw badRequest(GROUP_MESSAGES.notInGroup);
        await repo.removeDevices(tx, groupid, deviceList);
        await log(tx, groupid, user, `Removed ${deviceList.join(', ')} from the group`);
        return { message: GROUP_MESSAGES.devicesRemoved, groupid, deviceList };
      });
    },

    async checkPlacement(tx: Db, userId: string, groupid: string): Promise<void> {
      await access.authorizeGroup(userId, groupid, 'manageDevices', tx);
    },

    requireMember(tx: Db, userId: string, groupid: string, needs: GroupCapability | null, lock = false) {
      return access.authorizeGroup(userId, groupid, needs, tx, lock);
    },

    logChange(tx: Db, groupid: string, user: User, message: string): Promise<void> {
      return log(tx, groupid, user, message);
    },

    async placeClaimed(
      tx: Db,
      user: User,
      groupid: string,
      deviceId: string,
      logLine = `Added ${deviceId} with its setup password`,
    ): Promise<void> {
      await repo.addDevices(tx, groupid, [deviceId], clock.now());
      await log(tx, groupid, user, logLine);
    },

    membersOfDevice(deviceId: string) {
      return repo.deviceGroupMembers(db, deviceId);
    },

    async applyInvites(userId: string, email: string): Promise<number> {
      return db.transaction(async (tx) => {
        const invites = await repo.takeInvites(tx, email);
        for (const invite of invites) {
          await repo.upsertMember(tx, invite.groupid, userId, invite.permission);
          await repo.insertLog(
            tx,
            invite.groupid,
            email,
            `${email} signed up and joined as ${invite.permission}`,
            clock.now(),
          );
        }
        return invites.length;
      });
    },
  };
}
