/**
 * Device users and invitations (POST {targetEmail, targetPermission}, PUT and DELETE
 * /api/device/{id}/user, GET permissions): an ADMIN grants, changes and removes roles, an address
 * without an account is invited by mail and gets its role on sign-up; the last ADMIN stays.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  DEVICE_MESSAGES,
  effectiveRole,
  removesLastAdmin,
  type BrandConfig,
  type DeviceRole,
  type DeviceUserEntry,
  type DeviceUserGroupAccess,
  type DeviceUserResult,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, conflict } from '../../errors';
import type { Mailer } from '../mail/mail.service';
import type { User } from '../auth/auth.service';
import { deviceNotFound, type AccessService } from '../access/access.service';
import type { GroupsService } from '../groups/groups.service';
import { accessGrantedMail } from '../mail/access-granted-mail';
import * as repo from './devices.repository';
import { deviceName } from './devices.summary';
import { loadDevice } from './load-device';

/** Where request-dependent text comes from (brand, link origin). */
export interface DeviceRequestContext {
  brand: BrandConfig;
  linkOrigin: string;
}

/** The users of a device with its pending invitations. */
export interface DevicePermissions {
  deviceid: string;
  users: DeviceUserEntry[];
  invites: { email: string; permission: DeviceRole }[];
}

/** What device users and invitations offer the routes and sign-up. */
export interface DeviceUsersService {
  /** An ADMIN grants a role to an address; an address without an account is invited by mail. */
  grant(
    user: User,
    deviceId: string,
    email: string,
    permission: DeviceRole,
    ctx: DeviceRequestContext,
  ): Promise<DeviceUserResult>;
  /** Applies the pending invitations of a new account (called on sign-up); answers how many. */
  applyInvites(userId: string, email: string): Promise<number>;
  /** An ADMIN changes a user's role; the last ADMIN stays. */
  changeUser(user: User, deviceId: string, targetUserId: string, permission: DeviceRole): Promise<DeviceUserResult>;
  /** An ADMIN removes a user; anyone with a role may remove themselves. The last ADMIN stays. */
  removeUser(user: User, deviceId: string, targetUserId: string): Promise<DeviceUserResult>;
  /** The device's users and invitations; with `flattenGroups`, the members of its groups too (highest level wins). */
  permissions(user: User, deviceId: string, flattenGroups?: boolean): Promise<DevicePermissions>;
}

export interface DeviceUsersDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** The one access gate. */
  access: AccessService;
  /** The members of the device's groups (the groups module), for the flattened list. */
  groups: Pick<GroupsService, 'membersOfDevice'>;
}

export function createDeviceUsersService(deps: DeviceUsersDeps): DeviceUsersService {
  const { db, clock, access } = deps;

  /** Grant changes that keep at least one ADMIN; run in a transaction with the device row locked. */
  async function changeGrant(deviceId: string, userId: string, permission: DeviceRole | null): Promise<void> {
    await db.transaction(async (tx) => {
      if (!(await repo.findDevice(tx, deviceId, true))) throw deviceNotFound();
      const current = await repo.findGrant(tx, deviceId, userId);
      if (current === null) throw new AppError(404, 'NOT_FOUND', DEVICE_MESSAGES.userNotFound);
      const { admins } = await repo.countGrants(tx, deviceId);
      if (removesLastAdmin(current, permission, admins)) throw conflict(DEVICE_MESSAGES.lastAdmin);
      if (permission === null) await repo.deleteGrant(tx, deviceId, userId);
      else await repo.upsertGrant(tx, deviceId, userId, permission, clock.now());
    });
  }

  return {
    async grant(
      user: User,
      deviceId: string,
      email: string,
      permission: DeviceRole,
      ctx: DeviceRequestContext,
    ): Promise<DeviceUserResult> {
      await access.authorize(user.id, deviceId, 'editUsers');
      const targetId = await repo.findUserIdByEmail(db, email);
      if (targetId !== null) {
        const existing = await repo.findGrant(db, deviceId, targetId);
        if (existing !== null) await changeGrant(deviceId, targetId, permission);
        else await repo.upsertGrant(db, deviceId, targetId, permission, clock.now());
        return { message: DEVICE_MESSAGES.userAdded, deviceid: deviceId, userid: targetId, permission, invited: false };
      }
      const row = await loadDevice(db, deviceId);
      await repo.upsertInvite(db, deviceId, email, permission, user.id, clock.now());
      try {
        await deps.mailer.send(
          accessGrantedMail({
            brand: ctx.brand,
            to: email,
            by: user.email,
            what: 'device',
            name: deviceName(row),
            permission,
            link: `${ctx.linkOrigin}/signup`,
            invited: true,
          }),
        );
      } catch (error) {
        deps.log.error({ err: error }, 'Sending the device invitation failed');
      }
      return { message: DEVICE_MESSAGES.invited, deviceid: deviceId, permission, invited: true };
    },

    async applyInvites(userId: string, email: string): Promise<number> {
      return db.transaction(async (tx) => {
        const invites = await repo.takeInvites(tx, email);
        for (const invite of invites)
          await repo.upsertGrant(tx, invite.device_id, userId, invite.permission, clock.now());
        return invites.length;
      });
    },

    async changeUser(
      user: User,
      deviceId: string,
      targetUserId: string,
      permission: DeviceRole,
    ): Promise<DeviceUserResult> {
      await access.authorize(user.id, deviceId, 'editUsers');
      await changeGrant(deviceId, targetUserId, permission);
      return { message: DEVICE_MESSAGES.userUpdated, deviceid: deviceId, userid: targetUserId, permission };
    },

    async removeUser(user: User, deviceId: string, targetUserId: string): Promise<DeviceUserResult> {
      await access.authorize(user.id, deviceId, targetUserId === user.id ? null : 'editUsers');
      await changeGrant(deviceId, targetUserId, null);
      return { message: DEVICE_MESSAGES.userRemoved, deviceid: deviceId, userid: targetUserId };
    },

    async permissions(
      user: User,
      deviceId: string,
      flattenGroups = false,
    ): Promise<{ deviceid: string; users: DeviceUserEntry[]; invites: { email: string; permission: DeviceRole }[] }> {
      await access.authorize(user.id, deviceId, 'viewUsers');
      const [grants, invites] = [await repo.listGrants(db, deviceId), await repo.listInvites(db, deviceId)];
      const users: DeviceUserEntry[] = grants.map((g) => ({
        userid: g.user_id,
        targetEmail: g.email,
        permission: g.permission,
      }));
      if (flattenGroups) {
        type Flat = DeviceUserEntry & { groups: string[]; groupAccess: DeviceUserGroupAccess[] };
        const byId = new Map<string, Flat>(
          users.map((u) => [
            u.userid,
            { ...u, direct: true, directPermission: u.permission, groups: [], groupAccess: [] },
          ]),
        );
        for (const m of await deps.groups.membersOfDevice(deviceId)) {
          const entry: Flat = byId.get(m.user_id) ?? {
            userid: m.user_id,
            targetEmail: m.email,
            permission: m.permission,
            direct: false,
            groups: [],
            groupAccess: [],
          };
          entry.permission = effectiveRole([entry.permission, m.permission]) ?? m.permission;
          entry.groups.push(m.groupid);
          entry.groupAccess.push({ groupid: m.groupid, groupName: m.group_name, permission: m.permission });
          byId.set(m.user_id, entry);
        }
        users.splice(0, users.length, ...[...byId.values()].sort((a, b) => a.targetEmail.localeCompare(b.targetEmail)));
      }
      return {
        deviceid: deviceId,
        users,
        invites: invites.map((i) => ({ email: i.email, permission: i.permission })),
      };
    },
  };
}
