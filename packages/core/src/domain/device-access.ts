/**
 * What a user may see and do on one device page (spec 2 sections 4 and 6): the role and flags
 * from the settings call's myPermission, the data restriction, and what a failed settings call
 * means (VIEW, data restricted, error flag).
 */
import { DATA_RESTRICTED_POINTS, DEFAULT_DATA_POINTS } from './constants';
import { effectiveDataStorageDays } from './plans';
import {
  can,
  canUseDistributorTools,
  isStaffAdmin,
  isDeviceRole,
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
 * True when the role edits custom settings key by key, only those whose display settings say
 * operatorEditable (OPERATOR); a role with the customSettings capability otherwise edits them all.
 */
export function editsCustomSettingsPerKey(role: unknown): boolean {
  return parseRole(role) === 'OPERATOR';
}

/**
 * Whether a role may change one custom setting (CARD-31, CARD-35): ADMIN and USER any, an
 * OPERATOR only those whose display settings say operatorEditable, VIEW none. `setting` is the
 * key's PORTAL_displaySettings entry.
 */
export function canEditCustomSetting(role: unknown, setting: unknown): boolean {
  if (!can(role, 'customSettings')) return false;
  if (!editsCustomSettingsPerKey(role)) return true;
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

/** Points a device data request asks for: one (DATA_RESTRICTED_POINTS) when data is restricted, else 600. */
export function dataPointsFor(access: Pick<DeviceAccess, 'dataRestricted'>): number {
  return access.dataRestricted ? DATA_RESTRICTED_POINTS : DEFAULT_DATA_POINTS;
}

/**
 * The record times (newest first) a user may step through: with data restricted only the newest
 * DATA_RESTRICTED_POINTS of them, so history stepping is off (spec 2 section 6).
 */
export function steppableTimes(times: readonly number[], access: Pick<DeviceAccess, 'dataRestricted'>): number[] {
  return access.dataRestricted ? times.slice(0, DATA_RESTRICTED_POINTS) : [...times];
}

// ---- Device users: adding a device and the last ADMIN (DESIGN.md section 5) -----------------

/** How many of the roles are ADMIN (the last-ADMIN rule counts them; anything not a role is none). */
export function adminCount(roles: readonly unknown[]): number {
  return roles.filter((role) => role === 'ADMIN').length;
}

/**
 * True when changing a user's role from `current` to `next` (null: removing the user) would leave
 * the device without an ADMIN: the user is an ADMIN, stops being one, and `adminCount` (the
 * device's ADMINs, this user included) is not above 1. Answered with DEVICE_MESSAGES.lastAdmin.
 */
export function removesLastAdmin(current: unknown, next: unknown, adminCount: number): boolean {
  if (current !== 'ADMIN' || next === 'ADMIN') return false;
  return !(typeof adminCount === 'number' && adminCount > 1);
}

export interface DeviceAddInput {
  /** The caller's role on the device before adding it, or null. */
  current: DeviceRole | null;
  /** Users holding a role on the device before this one. */
  userCount: number;
  /** Add-without-password is on (Distributor Tools): the next user becomes ADMIN without the setup password. */
  addWithoutPassword: boolean;
  /** The setup password given is the device's. */
  passwordOk: boolean;
  /** When the device was first added (epoch seconds), or null when nobody has added it yet. */
  addedTs: number | null;
  /** A distributor reset the trial: it restarts when the next user is added (spec 2 section 4). */
  trialResetActive: boolean;
}

export type DeviceAddOutcome =
  /** Wrong setup password without add-without-password: the same answer as an unknown device. */
  | { kind: 'refused' }
  /** The caller keeps the role they hold (DEVICE_MESSAGES.alreadyUser). */
  | { kind: 'already'; permission: DeviceRole }
  | {
      kind: 'granted';
      permission: DeviceRole;
      /** Add-without-password is used up by this grant. */
      usesAddWithoutPassword: boolean;
      /** The trial (re)starts now: the first add, or the first after a trial reset. */
      startsTrial: boolean;
    };

/**
 * Adding a device with its setup password (DESIGN.md section 5): refused without the right setup
 * password unless add-without-password is on. The first user becomes ADMIN and starts the trial;
 * later users get VIEW; with add-without-password the next user becomes ADMIN (also one who
 * already holds a lower role) and the flag is used up. An ADMIN, or anyone already on the device
 * when add-without-password is off, keeps their role.
 */
export function deviceAddOutcome(input: DeviceAddInput): DeviceAddOutcome {
  const noPass = input.addWithoutPassword === true;
  if (!noPass && input.passwordOk !== true) return { kind: 'refused' };
  const current = isDeviceRole(input.current) ? input.current : null;
  if (current !== null && (current === 'ADMIN' || !noPass)) return { kind: 'already', permission: current };
  return {
    kind: 'granted',
    permission: noPass || input.userCount === 0 ? 'ADMIN' : 'VIEW',
    usesAddWithoutPassword: noPass,
    startsTrial:
      typeof input.addedTs !== 'number' || !Number.isFinite(input.addedTs) || input.trialResetActive === true,
  };
}

/**
 * A claim with a group puts the device into that group only when the caller ends up the device's
 * ADMIN (first user, add-without-password, or already its ADMIN; DESIGN.md section 5).
 */
export function claimPlacesInGroup(permission: unknown): boolean {
  return permission === 'ADMIN';
}
