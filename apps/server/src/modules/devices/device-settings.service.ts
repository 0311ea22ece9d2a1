/**
 * The device settings record (GET and PUT /api/device/{id}/settings): PORTAL_displaySettings,
 * PORTAL_deviceName, PORTAL_deviceNotes, the no-pass mode, DATA_latest and the plan's facts, with
 * the caller's role. Any role reads it; each field changed needs its capability.
 */
import {
  PLANS,
  DEVICE_MESSAGES,
  authoredChangeError,
  can,
  devicePlan,
  deviceTier,
  effectiveDataStorageDays,
  isDeviceNameEditable,
  isStaffAdmin,
  STAFF_TIME_DIFFERENCE_MIN_S,
  type Capability,
  type DeviceRole,
  type DeviceSettingsPutBody,
  type DeviceSettingsResponse,
  noPassActive,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, forbidden } from '../../errors';
import type { User } from '../auth/auth.service';
import { deviceNotFound, type AccessService } from '../access/access.service';
import type { TelemetryService } from '../telemetry/telemetry.service';
import * as repo from './devices.repository';
import type { DeviceRow } from './devices.repository';
import { deviceName } from './devices.summary';
import { loadDevice } from './load-device';

/** What the settings record offers the routes and the other device calls. */
export interface DeviceSettingsService {
  /** A device's PORTAL_displaySettings (per key). */
  displaySettings(deviceId: string): Promise<Record<string, unknown>>;
  /** The settings record, to any role on the device. */
  getSettings(user: User, deviceId: string): Promise<DeviceSettingsResponse>;
  /** Changes the name, notes or display settings (per key; null removes one), each behind its capability; answers the record. */
  putSettings(user: User, deviceId: string, body: DeviceSettingsPutBody): Promise<DeviceSettingsResponse>;
  /** The record of a device as `user`, who holds `role` on it, sees it now (the answer of the calls that change it). */
  record(user: User, deviceId: string, role: DeviceRole): Promise<DeviceSettingsResponse>;
}

export interface DeviceSettingsDeps {
  db: Db;
  clock: Clock;
  /** The one access gate. */
  access: AccessService;
  /** Readings of the device (telemetry): DATA_latest and the staff clock difference of the settings record. */
  readings: Pick<TelemetryService, 'latest' | 'clockDifference'>;
}

export function createDeviceSettingsService(deps: DeviceSettingsDeps): DeviceSettingsService {
  const { db, clock, access } = deps;

  /** Staff admins see the device-versus-server time difference when it is at least 5 s (spec 2 section 6). */
  async function staffTimeDifference(deviceId: string, user: User): Promise<{ timeDifferenceS?: number }> {
    if (!isStaffAdmin(user.userGroups)) return {};
    const difference = await deps.readings.clockDifference(deviceId);
    return difference !== null && Math.abs(difference) >= STAFF_TIME_DIFFERENCE_MIN_S
      ? { timeDifferenceS: difference }
      : {};
  }

  async function settingsRecord(row: DeviceRow, role: DeviceRole, user: User): Promise<DeviceSettingsResponse> {
    const nowMs = clock.now().getTime();
    const plan = devicePlan(row, nowMs);
    return {
      deviceid: row.id,
      deviceSettings: {
        PORTAL_displaySettings: row.display_settings,
        PORTAL_deviceName: deviceName(row),
        PORTAL_deviceNotes: row.notes,
        PORTAL_add_next_user_without_pass: { active: noPassActive(row.add_without_pass) },
        DATA_latest: await deps.readings.latest(row.id),
        tier: deviceTier(row, nowMs),
        trialResetActive: row.trial_reset_state === 'active',
        trialResetAvailable: row.trial_reset_state === 'available',
        dataStorageDays: effectiveDataStorageDays(PLANS[plan].dataStorageDays, user.userGroups),
        ...(await staffTimeDifference(row.id, user)),
      },
      myPermission: role,
      requesterUserId: user.id,
    };
  }

  return {
    async displaySettings(deviceId) {
      return (await loadDevice(db, deviceId)).display_settings ?? {};
    },

    async getSettings(user, deviceId) {
      const role = await access.authorize(user.id, deviceId, null);
      return settingsRecord(await loadDevice(db, deviceId), role, user);
    },

    async putSettings(user, deviceId, body) {
      const role = await access.authorize(user.id, deviceId, null);
      const required: Capability[] = [];
      if (body.PORTAL_deviceName !== undefined) required.push('editDeviceSettings');
      if (body.PORTAL_deviceNotes !== undefined) required.push('editDeviceNotes');
      if (body.PORTAL_displaySettings !== undefined) required.push('editDisplaySettings');
      if (required.some((c) => !can(role, c))) throw forbidden();
      if (body.PORTAL_deviceName !== undefined && !isDeviceNameEditable(deviceId)) {
        throw new AppError(400, 'BAD_REQUEST', DEVICE_MESSAGES.nameNotEditable);
      }
      await db.transaction(async (tx) => {
        const row = await repo.findDevice(tx, deviceId, true);
        if (!row) throw deviceNotFound();
        let displaySettings: Record<string, unknown> | undefined;
        if (body.PORTAL_displaySettings !== undefined) {
          const plan = devicePlan(row, clock.now().getTime());
          const refused = authoredChangeError(row.display_settings ?? {}, body.PORTAL_displaySettings, {
            name: plan,
            dataToPortal: PLANS[plan].dataToPortal,
          });
          if (refused) throw new AppError(400, 'BAD_REQUEST', refused);
          displaySettings = { ...row.display_settings };
          for (const [key, value] of Object.entries(body.PORTAL_displaySettings)) {
            if (value === null) delete displaySettings[key];
            else displaySettings[key] = value;
          }
        }
        await repo.updateSettings(tx, deviceId, {
          ...(body.PORTAL_deviceName !== undefined ? { portalName: body.PORTAL_deviceName } : {}),
          ...(body.PORTAL_deviceNotes !== undefined ? { notes: { ...row.notes, ...body.PORTAL_deviceNotes } } : {}),
          ...(displaySettings !== undefined ? { displaySettings } : {}),
        });
      });
      return settingsRecord(await loadDevice(db, deviceId), role, user);
    },

    async record(user, deviceId, role) {
      return settingsRecord(await loadDevice(db, deviceId), role, user);
    },
  };
}
