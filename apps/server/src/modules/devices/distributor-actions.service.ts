/**
 * The distributor tools on a device (POST /api/billing-distributor-action/{id}): reset the trial
 * once, or switch the no-pass mode (the next user added without the setup password). Distributors
 * holding ADMIN on the device; staff admins on any device.
 */
import {
  DEVICE_MESSAGES,
  canRunDistributorAction,
  isStaffAdmin,
  type DistributorActionBody,
  noPassActive,
  noPassModeFor,
} from '@portal/core';
import type { Db } from '../../db/db';
import { conflict, forbidden } from '../../errors';
import type { User } from '../auth/auth.service';
import type { AccessService } from '../access/access.service';
import * as repo from './devices.repository';
import { loadDevice } from './load-device';

/** What the distributor tools offer the routes. */
export interface DistributorActionsService {
  /** Runs {action: 'reset-trial'} or {action: 'no-pass', params: {mode}}; answers the message to show. */
  distributorAction(user: User, deviceId: string, body: DistributorActionBody): Promise<{ message: string }>;
}

export interface DistributorActionsDeps {
  db: Db;
  /** The one access gate. */
  access: AccessService;
}

export function createDistributorActionsService(deps: DistributorActionsDeps): DistributorActionsService {
  const { db, access } = deps;
  return {
    async distributorAction(user: User, deviceId: string, body: DistributorActionBody): Promise<{ message: string }> {
      // A staff admin acts on any device (404 only for no device); anyone else needs a role on it.
      const role = isStaffAdmin(user.userGroups)
        ? await access.roleOf(user.id, deviceId)
        : await access.authorize(user.id, deviceId, null);
      if (role === null) await loadDevice(db, deviceId);
      if (!canRunDistributorAction(user.userGroups, role)) throw forbidden();
      if (body.action === 'reset-trial') {
        if (!(await repo.activateTrialReset(db, deviceId))) throw conflict(DEVICE_MESSAGES.trialResetUnavailable);
        return { message: DEVICE_MESSAGES.trialResetDone };
      }
      const mode = noPassModeFor(body.params.mode);
      await repo.setAddWithoutPass(db, deviceId, mode);
      return { message: noPassActive(mode) ? DEVICE_MESSAGES.noPassOn : DEVICE_MESSAGES.noPassOff };
    },
  };
}
