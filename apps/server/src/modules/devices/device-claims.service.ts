/**
 * Claiming a device with its setup password (POST /api/device/{id}/user {setupPassword, groupid}):
 * the first user becomes ADMIN and starts the trial; add-without-password lets one user in once
 * without it. Wrong passwords and unknown ids give the same answer and count against the id.
 */
import {
  isDeviceRouteId,
  DEVICE_MESSAGES,
  deviceAddOutcome,
  type DeviceUserPostBody,
  type DeviceUserResult,
  claimPlacesInGroup,
  noPassActive,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, rateLimited } from '../../errors';
import { sameDigest, sha256 } from '../../security';
import type { User } from '../auth/auth.service';
import type { GroupsService } from '../groups/groups.service';
import * as repo from './devices.repository';

const MINUTE = 60_000;

export interface DeviceLimits {
  /** Wrong setup passwords per device id per window. */
  claimAttemptsPerDevice: number;
  windowMs: number;
}

export const DEFAULT_DEVICE_LIMITS: DeviceLimits = { claimAttemptsPerDevice: 5, windowMs: 15 * MINUTE };

/** What claiming offers the routes. */
export interface DeviceClaimsService {
  /**
   * Adds the device to the caller with the setup password (or without it once, when
   * add-without-password is active), and into `groupid` when the caller becomes its ADMIN.
   */
  claim(user: User, deviceId: string, body: DeviceUserPostBody): Promise<DeviceUserResult>;
}

export interface DeviceClaimsDeps {
  db: Db;
  clock: Clock;
  limits?: DeviceLimits;
  /** Puts a device claimed with {setupPassword, groupid} into the group (the groups module). */
  groups: Pick<GroupsService, 'checkPlacement' | 'placeClaimed'>;
}

const badClaim = () => new AppError(403, 'FORBIDDEN', DEVICE_MESSAGES.badClaim);

export function createDeviceClaimsService(deps: DeviceClaimsDeps): DeviceClaimsService {
  const { db, clock } = deps;
  const limits = deps.limits ?? DEFAULT_DEVICE_LIMITS;
  const nowSeconds = () => clock.now().getTime() / 1000;

  return {
    async claim(user, deviceId, body) {
      const windowStart = new Date(clock.now().getTime() - limits.windowMs);
      if ((await repo.countClaimAttempts(db, deviceId, windowStart)) >= limits.claimAttemptsPerDevice)
        throw rateLimited();
      const groupid = body.groupid;
      const outcome = await db.transaction(async (tx) => {
        // The group first: a group where the caller is not ADMIN refuses the call, and nothing changes.
        if (groupid !== undefined) await deps.groups.checkPlacement(tx, user.id, groupid);
        const row = isDeviceRouteId(deviceId) ? await repo.findDevice(tx, deviceId, true) : null;
        if (!row) return null;
        const given = body.setupPassword ?? '';
        const resetActive = row.trial_reset_state === 'active';
        const added = deviceAddOutcome({
          current: await repo.findGrant(tx, deviceId, user.id),
          userCount: (await repo.countGrants(tx, deviceId)).total,
          addWithoutPassword: noPassActive(row.add_without_pass),
          passwordOk: sameDigest(sha256(given), sha256(row.setup_password)),
          addedTs: row.added_ts,
          trialResetActive: resetActive,
        });
        switch (added.kind) {
          case 'refused':
            return null;
          case 'already': {
            // The device's ADMIN adding it again with a group puts it there (ADMIN of the group was checked above).
            const placed = groupid !== undefined && claimPlacesInGroup(added.permission);
            if (placed) await deps.groups.placeClaimed(tx, user, groupid, deviceId);
            return {
              permission: added.permission,
              message: DEVICE_MESSAGES.alreadyUser,
              ...(placed ? { groupid } : {}),
            };
          }
          case 'granted': {
            await repo.upsertGrant(tx, deviceId, user.id, added.permission, clock.now());
            if (added.usesAddWithoutPassword) await repo.setAddWithoutPass(tx, deviceId, 'INACTIVE');
            if (added.startsTrial) await repo.startTrial(tx, deviceId, nowSeconds(), resetActive);
            // Only a claim that makes the caller the device's ADMIN puts it into a group (DESIGN.md section 5).
            const placed = groupid !== undefined && claimPlacesInGroup(added.permission);
            if (placed) await deps.groups.placeClaimed(tx, user, groupid, deviceId);
            return { permission: added.permission, message: DEVICE_MESSAGES.claimed, ...(placed ? { groupid } : {}) };
          }
        }
      });
      if (!outcome) {
        await repo.recordClaimAttempt(db, deviceId, clock.now(), windowStart);
        throw badClaim();
      }
      return { ...outcome, deviceid: deviceId, userid: user.id };
    },
  };
}
