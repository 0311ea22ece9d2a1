/**
 * What a user may see and do on one device page (spec 2 sections 4 and 6): the role and flags
 * from the settings call's myPermission, the data restriction, and what a failed settings call
 * means (VIEW, data restricted, error flag).
 */
import { DEFAULT_DATA_POINTS } from './constants';
import { effectiveDataStorageDays } from './plans';
import {
  can,
  canUseDistributorTools,
  isStaffAdmin,
  parseRole,
  permissionFlags,
  type DeviceRole,
  type PermissionFlags,
} from './roles';

export interface DeviceAccessInput {
  /** The settings call's answer, or null when it failed. */
  settings: {
    myPermission?: unknown;
    deviceSettings?: { tier?: { dataToPortal?: unknown } | null; dataStorageDays?: unknown } | null;
  } | null;
  userGroups: readonly string[] | null | undefined;
}

export interface DeviceAccess extends PermissionFlags {
  role: DeviceRole;
  viewUsers: boolean;
  /** Data limited to one point (no history stepping): a plan without data to the portal, or a failed settings call. */
  dataRestricted: boolean;
  /** The settings call failed. */
  error: boolean;
  distributorTools: boolean;
  /** Staff admins see the device-versus-server time difference. */
  staffAdmin: boolean;
  dataStorageDays: number;
}

/** The role, flags and restrictions of the signed-in user on a device. */
export function deviceAccess({ settings, userGroups }: DeviceAccessInput): DeviceAccess {
  const error = settings === null;
  const role = error ? 'VIEW' : parseRole(settings.myPermission);
  const staffAdmin = isStaffAdmin(userGroups);
  const dataToPortal = settings?.deviceSettings?.tier?.dataToPortal !== false;
  const planDays = settings?.deviceSettings?.dataStorageDays;
  return {
    role,
    ...permissionFlags(role),
    viewUsers: can(role, 'viewUsers'),
    dataRestricted: !staffAdmin && (error || !dataToPortal),
    error,
    distributorTools: !error && canUseDistributorTools(userGroups, role),
    staffAdmin,
    dataStorageDays: effectiveDataStorageDays(typeof planDays === 'number' ? planDays : 0, userGroups),
  };
}

/** Points a device data request asks for: one when data is restricted. */
export function dataPointsFor(access: Pick<DeviceAccess, 'dataRestricted'>): number {
  return access.dataRestricted ? 1 : DEFAULT_DATA_POINTS;
}
