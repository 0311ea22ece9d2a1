/**
 * The rows of a device's Users and Permissions page (spec 2 sections 3 and 6; DESIGN.md section
 * 5): each user once, with where the access comes from (a direct grant, groups) and whether the
 * row is the last ADMIN of the direct grants, which can be neither removed nor demoted.
 */
import { adminCount, removesLastAdmin } from './device-access';
import { isDeviceRole, type DeviceRole } from './roles';

/** A user as GET /device/{id}/permissions lists them (with or without flattenGroups). */
export interface DeviceUserListEntry {
  userid: string;
  targetEmail: string;
  permission: DeviceRole;
  direct?: boolean;
  directPermission?: DeviceRole;
  groupAccess?: readonly { groupid: string; groupName: string; permission: DeviceRole }[];
}

export interface DeviceUserRow {
  userid: string;
  email: string;
  /** The level the user has: the highest of the direct grant and the groups. */
  permission: DeviceRole;
  /** The direct grant's role, or null when the access comes through groups only. */
  direct: DeviceRole | null;
  /** The groups giving a level, by name. */
  groups: readonly { groupid: string; groupName: string; permission: DeviceRole }[];
  /** The only ADMIN among the direct grants: removing or demoting them is refused. */
  lastAdmin: boolean;
}

/**
 * The page's rows from the list: the direct role is `directPermission` when given, else (a list
 * without flattenGroups) the permission of a user not marked `direct: false`.
 */
export function deviceUserRows(users: readonly DeviceUserListEntry[]): DeviceUserRow[] {
  const rows = users.map((u) => {
    const direct = u.direct === false ? null : isDeviceRole(u.directPermission) ? u.directPermission : u.permission;
    return { userid: u.userid, email: u.targetEmail, permission: u.permission, direct, groups: u.groupAccess ?? [] };
  });
  const admins = adminCount(rows.map((r) => r.direct));
  return rows.map((r) => ({ ...r, lastAdmin: r.direct !== null && removesLastAdmin(r.direct, null, admins) }));
}
