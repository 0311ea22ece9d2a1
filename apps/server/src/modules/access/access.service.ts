/**
 * The one access gate: every module asks it a user's role on a device, and nothing else decides
 * one. A user without a role on a device gets 404 'Device not found', byte for byte the answer
 * for an id that does not exist; a role without the capability gets 403.
 */
import {
  DEVICE_MESSAGES,
  PLANS,
  apiUnavailableMessage,
  can,
  devicePlan,
  effectiveRole,
  isDeviceRouteId,
  type Capability,
  type DeviceRole,
} from '@portal/core';
import type { Clock } from '../../clock';
import { systemClock } from '../../clock';
import type { Db } from '../../db/db';
import { AppError, forbidden } from '../../errors';
import { currentApiCredential } from '../api-credentials/bearer';
import * as repo from './access.repository';

export const deviceNotFound = () => new AppError(404, 'NOT_FOUND', DEVICE_MESSAGES.notFound);

export function createAccessService(deps: { db: Db; clock?: Clock }) {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;

  /**
   * The user's role on the device (the highest of all that grant one), or null; in `tx` when given.
   * Asked inside a request made with an API key, a device whose plan has no API (Basic) is refused
   * with 403 'The API is unavailable on the {plan} Plan' (DESIGN.md section 5); a stranger still
   * gets null (404).
   */
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

  /** The caller's role; 404 for a stranger (or no device), 403 without the capability (null: any role). */
  async function authorize(userId: string, deviceId: string, capability: Capability | null): Promise<DeviceRole> {
    const role = await roleOf(userId, deviceId);
    if (role === null) throw deviceNotFound();
    if (capability !== null && !can(role, capability)) throw forbidden();
    return role;
  }

  /** Devices the user holds a role on whose id or name contains `needle` (case-insensitive): prefix matches first, then by name. */
  function searchDevices(userId: string, needle: string, limit: number): Promise<{ deviceid: string; name: string }[]> {
    return repo.searchDevices(db, userId, needle.toLowerCase(), limit);
  }

  /** A page of the devices the user holds a direct grant on that none of the user's groups holds, and their count. */
  function ungroupedDevices(userId: string, limit: number, offset: number) {
    return repo.ungroupedDevices(db, userId, limit, offset);
  }

  return { roleOf, authorize, searchDevices, ungroupedDevices };
}

export type AccessService = ReturnType<typeof createAccessService>;
