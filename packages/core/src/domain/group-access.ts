/** What each group level may do in a group (DESIGN.md section 5, "Group permission levels"). */

import { parseRole, type Role } from './roles';

export const GROUP_CAPABILITIES = [
  /** Rename the group. */
  'rename',
  /** Share the group, change members' levels, remove members and invitations. */
  'manageMembers',
  /** See the members' e-mails and the pending invitations. */
  'seeMemberEmails',
  /** Move, copy or remove the group's devices. */
  'manageDevices',
  /** Edit the group's views and widgets. */
  'editViews',
  /** Read the group's server log. */
  'serverLog',
  /** Delete the group (its devices stay). */
  'deleteGroup',
  /** Remove oneself from the group (resultCode REMOVED_SELF). */
  'leave',
] as const;
export type GroupCapability = (typeof GROUP_CAPABILITIES)[number];

const NONE = Object.fromEntries(GROUP_CAPABILITIES.map((c) => [c, false])) as Record<GroupCapability, false>;

/** The group levels' rights, one row per level. */
export const GROUP_LEVEL_CAPABILITIES = {
  ADMIN: {
    rename: true,
    manageMembers: true,
    seeMemberEmails: true,
    manageDevices: true,
    editViews: true,
    serverLog: true,
    deleteGroup: true,
    leave: true,
  },
  USER: { ...NONE, seeMemberEmails: true, editViews: true, leave: true },
  OPERATOR: { ...NONE, leave: true },
  VIEW: { ...NONE, leave: true },
} as const satisfies Record<Role, Record<GroupCapability, boolean>>;

/** True when the group level (read with `parseRole`: anything unknown is VIEW) has the capability. */
export function groupCan(level: unknown, capability: GroupCapability): boolean {
  const row: Record<GroupCapability, boolean> = GROUP_LEVEL_CAPABILITIES[parseRole(level)];
  return Object.hasOwn(row, capability) && row[capability] === true;
}
