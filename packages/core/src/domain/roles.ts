/** Device roles, the capability table of spec 2 section 6, and the staff user groups. */

import { z } from 'zod';
import type { UserGroup } from '../contracts/auth';

/** Device roles, highest first. Group permission levels use the same four (DESIGN.md section 5). */
export const DEVICE_ROLES = ['ADMIN', 'USER', 'OPERATOR', 'VIEW'] as const;
export type DeviceRole = (typeof DEVICE_ROLES)[number];
/** Short alias used by `satisfies Record<Role, ...>` tables. */
export type Role = DeviceRole;

export const DeviceRoleSchema = z.enum(DEVICE_ROLES);

/** The role given to an unknown or missing permission (spec 2 section 5). */
export const FALLBACK_ROLE: DeviceRole = 'VIEW';

/** Rank of each role: a higher number carries more rights. */
export const ROLE_RANK = { ADMIN: 3, USER: 2, OPERATOR: 1, VIEW: 0 } as const satisfies Record<Role, number>;

/** True when the value is exactly one of the four role names (case-sensitive). */
export function isDeviceRole(value: unknown): value is DeviceRole {
  return typeof value === 'string' && (DEVICE_ROLES as readonly string[]).includes(value);
}

/** Reads a permission from the wire: only the exact uppercase role names count, anything else is VIEW. */
export function parseRole(value: unknown): DeviceRole {
  return isDeviceRole(value) ? value : FALLBACK_ROLE;
}

/** The capabilities of the table in spec 2 section 6. */
export const CAPABILITIES = [
  'viewUsers',
  'editUsers',
  'editDisplaySettings',
  'editDeviceSettings',
  'editDeviceNotes',
  'adminSettings',
  'scripting',
  'diagnostics',
  'triggers',
  'customSettings',
  'serverLog',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

const ALL = Object.fromEntries(CAPABILITIES.map((c) => [c, true])) as Record<Capability, true>;
const NONE = Object.fromEntries(CAPABILITIES.map((c) => [c, false])) as Record<Capability, false>;

/** The capability table of spec 2 section 6, one row per role. */
export const ROLE_CAPABILITIES = {
  ADMIN: { ...ALL },
  USER: {
    ...NONE,
    viewUsers: true,
    editDisplaySettings: true,
    editDeviceSettings: true,
    scripting: true,
    diagnostics: true,
    triggers: true,
    customSettings: true,
  },
  OPERATOR: { ...NONE, triggers: true, customSettings: true },
  VIEW: { ...NONE },
} as const satisfies Record<Role, Record<Capability, boolean>>;

/** True when the role (read with `parseRole`) has the capability. */
export function can(role: unknown, capability: Capability): boolean {
  const row: Record<Capability, boolean> = ROLE_CAPABILITIES[parseRole(role)];
  return Object.hasOwn(row, capability) && row[capability] === true;
}

/** The flags derived from myPermission (spec 2 section 6). */
export interface PermissionFlags {
  editDeviceNotes: boolean;
  editDisplaySettings: boolean;
  editDeviceSettings: boolean;
  accessTriggers: boolean;
  accessCustomSettings: boolean;
}

/** The five permission flags of a role; an unknown permission gets VIEW's flags. */
export function permissionFlags(role: unknown): PermissionFlags {
  return {
    editDeviceNotes: can(role, 'editDeviceNotes'),
    editDisplaySettings: can(role, 'editDisplaySettings'),
    editDeviceSettings: can(role, 'editDeviceSettings'),
    accessTriggers: can(role, 'triggers'),
    accessCustomSettings: can(role, 'customSettings'),
  };
}

/** The higher of two roles (ADMIN > USER > OPERATOR > VIEW); a missing role loses to any role. */
export function higherRole(a: DeviceRole, b: DeviceRole): DeviceRole;
export function higherRole(a: DeviceRole | null | undefined, b: DeviceRole | null | undefined): DeviceRole | null;
export function higherRole(a: DeviceRole | null | undefined, b: DeviceRole | null | undefined): DeviceRole | null {
  const left = isDeviceRole(a) ? a : null;
  const right = isDeviceRole(b) ? b : null;
  if (left === null) return right;
  if (right === null) return left;
  return ROLE_RANK[left] >= ROLE_RANK[right] ? left : right;
}

/**
 * A user's role on a device from every role they hold on it (a direct grant, group
 * memberships): the highest wins; null when they hold none.
 */
export function effectiveRole(roles: readonly (DeviceRole | null | undefined)[]): DeviceRole | null {
  let best: DeviceRole | null = null;
  for (const role of roles) best = higherRole(best, role);
  return best;
}

/** True when the role is at least the given one. */
export function roleAtLeast(role: unknown, minimum: DeviceRole): boolean {
  return ROLE_RANK[parseRole(role)] >= ROLE_RANK[minimum];
}

// ---- User groups (staff) ---------------------------------------------------------------

export const STAFF_ADMIN_GROUP = 'senquip_admin' satisfies UserGroup;
export const DISTRIBUTOR_GROUP = 'distributors' satisfies UserGroup;
export const PROVISIONING_GROUP = 'provisioning_account' satisfies UserGroup;

type Groups = readonly string[] | null | undefined;

function inGroup(groups: Groups, group: UserGroup): boolean {
  return Array.isArray(groups) && groups.includes(group);
}

/** Staff admin: member of senquip_admin. */
export function isStaffAdmin(groups: Groups): boolean {
  return inGroup(groups, STAFF_ADMIN_GROUP);
}

/** Distributor: member of distributors. */
export function isDistributor(groups: Groups): boolean {
  return inGroup(groups, DISTRIBUTOR_GROUP);
}

/** Provisioning account: member of provisioning_account. */
export function isProvisioning(groups: Groups): boolean {
  return inGroup(groups, PROVISIONING_GROUP);
}

/** Where home redirects this user: '/sqprov' for provisioning accounts, else null (stay home). */
export function homeRedirectFor(userGroups: Groups): '/sqprov' | null {
  return isProvisioning(userGroups) ? '/sqprov' : null;
}

/** Distributor Tools show for a distributor who holds ADMIN on the device (spec 2 section 6). */
export function canUseDistributorTools(userGroups: Groups, role: unknown): boolean {
  return isDistributor(userGroups) && parseRole(role) === 'ADMIN';
}

/** Staff pages and the group that may open each (DESIGN.md section 5). */
export const STAFF_PAGES = {
  sqadmin: STAFF_ADMIN_GROUP,
  sqtools: STAFF_ADMIN_GROUP,
  sqstats: STAFF_ADMIN_GROUP,
  sqpacking: STAFF_ADMIN_GROUP,
  sqprov: PROVISIONING_GROUP,
} as const satisfies Record<string, UserGroup>;
export type StaffPage = keyof typeof STAFF_PAGES;

/**
 * True when the user's groups open the given staff page; unknown pages are closed. A staff admin
 * opens every staff page (provisioning too, as the server's provisioning calls allow).
 */
export function canOpenStaffPage(userGroups: Groups, page: string): boolean {
  if (!Object.hasOwn(STAFF_PAGES, page)) return false;
  return isStaffAdmin(userGroups) || inGroup(userGroups, STAFF_PAGES[page as StaffPage]);
}
