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
  /** The plan sends data to the portal; without it the trigger and custom-settings cards are unavailable. */
  dataToPortal: boolean;
  /** The remote trigger card is shown: triggers allowed on a plan that sends data to the portal. */
  triggerCard: boolean;
  /** The custom-settings card is shown (editable per key: canEditCustomSetting). */
  customSettingsCard: boolean;
}

/** The role, flags and restrictions of the signed-in user on a device. */
export function deviceAccess({ settings, userGroups }: DeviceAccessInput): DeviceAccess {
  const error = settings === null;
  const role = error ? 'VIEW' : parseRole(settings.myPermission);
  const staffAdmin = isStaffAdmin(userGroups);
  const dataToPortal = settings?.deviceSettings?.tier?.dataToPortal !== false;
  const planDays = settings?.deviceSettings?.dataStorageDays;
  const flags = permissionFlags(role);
  return {
    role,
    ...flags,
    viewUsers: can(role, 'viewUsers'),
    dataRestricted: !staffAdmin && (error || !dataToPortal),
    error,
    distributorTools: !error && canUseDistributorTools(userGroups, role),
    staffAdmin,
    dataStorageDays: effectiveDataStorageDays(typeof planDays === 'number' ? planDays : 0, userGroups),
    dataToPortal,
    triggerCard: dataToPortal && flags.accessTriggers,
    customSettingsCard: dataToPortal,
  };
}

/**
 * Whether a role may change one custom setting (CARD-31, CARD-35): ADMIN and USER any, an
 * OPERATOR only those whose display settings say operatorEditable, VIEW none. `setting` is the
 * key's PORTAL_displaySettings entry.
 */
export function canEditCustomSetting(role: unknown, setting: unknown): boolean {
  if (!can(role, 'customSettings')) return false;
  if (parseRole(role) !== 'OPERATOR') return true;
  return (
    typeof setting === 'object' &&
    setting !== null &&
    (setting as { operatorEditable?: unknown }).operatorEditable === true
  );
}

/**
 * The question a trigger asks before it is queued (TRG-06), or null: the display settings of key
 * trigger{index} with confirmEnabled, showing confirmText (else a question naming the trigger).
 */
export function triggerConfirmation(
  trigger: { index: number; name: string },
  displaySettings: Readonly<Record<string, unknown>>,
): string | null {
  const setting = displaySettings[`trigger${trigger.index}`] as
    { confirmEnabled?: unknown; confirmText?: unknown } | undefined;
  if (setting?.confirmEnabled !== true) return null;
  return typeof setting.confirmText === 'string' && setting.confirmText
    ? setting.confirmText
    : `Queue '${trigger.name}'?`;
}

/** HDR-21's difference in words: 'behind by 30 s', 'ahead by 2 min 5 s' (server time minus device time). */
export function clockDifferenceText(differenceS: number): string {
  const abs = Math.abs(Math.round(differenceS));
  const amount = abs >= 60 ? `${Math.floor(abs / 60)} min ${abs % 60} s` : `${abs} s`;
  return `${differenceS > 0 ? 'behind' : 'ahead'} by ${amount}`;
}

/** Points a device data request asks for: one when data is restricted. */
export function dataPointsFor(access: Pick<DeviceAccess, 'dataRestricted'>): number {
  return access.dataRestricted ? 1 : DEFAULT_DATA_POINTS;
}
