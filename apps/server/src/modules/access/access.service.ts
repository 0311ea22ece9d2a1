/**
 * The one access gate: every module asks it a user's role on a device or level in a group, and
 * nothing else decides one. A user without a role on a device gets 404 'Device not found', byte
 * for byte the answer for an id that does not exist; a role without the capability gets 403. The
 * same for groups: a non-member gets 404 'Group not found', a level without the group capability
 * 403. The capabilities are core's tables (can, groupCan). The staff and sign-in guards, which run
 * before the body is read, are this module's request hooks (access.hooks.ts).
 */
import {
  DEVICE_MESSAGES,
  GROUP_ID_PATTERN,
  GROUP_MESSAGES,
  PLANS,
  apiUnavailableMessage,
  can,
  devicePlan,
  effectiveRole,
  groupCan,
  isDeviceRouteId,
  type Capability,
  type DeviceRole,
  type GroupCapability,
} from '@portal/core';
import type { Clock } from '../../clock';
import { systemClock } from '../../clock';
import type { Db } from '../../db/db';
import { AppError, forbidden } from '../../errors';
import { currentApiCredential } from './credential-scope';
import * as repo from './access.repository';

export const deviceNotFound = () => new AppError(404, 'NOT_FOUND', DEVICE_MESSAGES.notFound);
export const groupNotFound = () => new AppError(404, 'NOT_FOUND', GROUP_MESSAGES.notFound);

/** A caller's membership of a group: the group's name and the caller's level in it. */
export interface GroupMembership {
  groupName: string;
  permission: DeviceRole;
}

/** What the gate offers: every access decision on a device or a group, and the lists a role opens. */
export interface AccessService {
  /**
   * The user's role on the device (the highest of all that grant one), or null; in `tx` when given.
   * Asked inside a request made with an API key, a device whose plan has no API (Basic) is refused
   * with 403 'The API is unavailable on the {plan} Plan' (DESIGN.md section 5); a stranger still
   * gets null (404).
   */
  roleOf(userId: string, deviceId: string, tx?: Db): Promise<DeviceRole | null>;
  /** The caller's role; 404 for a stranger (or no device), 403 without the capability (null: any role); in `tx` when given. */
  authorize(userId: string, deviceId: string, capability: Capability | null, tx?: Db): Promise<DeviceRole>;
  /**
   * The caller's membership of the group; 404 for a non-member (or no such group), 403 when the
   * call needs a capability the caller's level lacks (core's groupCan, the rule the web offers by).
   * In `tx` when given; `lock` serialises the group's writes.
   */
  authorizeGroup(
    userId: string,
    groupid: string,
    needs: GroupCapability | null,
    tx?: Db,
    lock?: boolean,
  ): Promise<GroupMembership>;
  /** Devices the user holds a role on whose id or name contains `needle` (case-insensitive): prefix matches first, then by name. */
  searchDevices(userId: string, needle: string, limit: number): Promise<{ deviceid: string; name: string }[]>;
  /** A page of the devices the user holds a direct grant on that none of the user's groups holds, and their count. */
  ungroupedDevices(userId: string, limit: number, offset: number): Promise<repo.UngroupedDevicesPage>;
}

export function createAccessService(deps: { db: Db; clock?: Clock }): AccessService {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;

  async function roleOf(userId: string, deviceId: string, tx: Db = db): Promise<DeviceRole | null> {
    if (!isDeviceRouteId(deviceId)) return null;
    const role = effectiveRole(await repo.findRoles(tx, deviceId, userId));
    if (role !== null && currentApiCredential()?.userId === userId) {
      const device = await repo.findDevicePlan(tx, deviceId);
      const plan = device ? devicePlan(device, clock.now().getTime()) : null;
      if (plan !== null && !PLANS[plan].api) throw new AppError(403, 'FORBIDDEN', apiUnavailableMessage(plan));
    }
    return role;
  }

  async function authorize(
    userId: string,
    deviceId: string,
    capability: Capability | null,
    tx: Db = db,
  ): Promise<DeviceRole> {
    const role = await roleOf(userId, deviceId, tx);
    if (role === null) throw deviceNotFound();
    if (capability !== null && !can(role, capability)) throw forbidden();
    return role;
  }

  async function authorizeGroup(
    userId: string,
    groupid: string,
    needs: GroupCapability | null,
    tx: Db = db,
    lock = false,
  ): Promise<GroupMembership> {
    const found = GROUP_ID_PATTERN.test(groupid) ? await repo.findMembership(tx, groupid, userId, lock) : null;
    if (!found) throw groupNotFound();
    if (needs !== null && !groupCan(found.permission, needs)) throw forbidden();
    return { groupName: found.group_name, permission: found.permission };
  }

  return {
    roleOf,
    authorize,
    authorizeGroup,
    searchDevices: (userId, needle, limit) => repo.searchDevices(db, userId, needle.toLowerCase(), limit),
    ungroupedDevices: (userId, limit, offset) => repo.ungroupedDevices(db, userId, limit, offset),
  };
}
