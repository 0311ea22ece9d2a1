/** Wire shapes of the group calls of spec 1 section 7 (GET/POST/PUT/DELETE /api/group...). */
import { z } from 'zod';
import { validateGroupName } from '../domain/validation';
import { GROUP_ID_PATTERN } from '../domain/ids';
import { EmailSchema } from './auth';
import { DeviceRoleSchema } from '../domain/roles';
import { DeviceRouteIdSchema } from './devices';
import { safeString } from './fields';

/** Texts of the group calls. */
export const GROUP_MESSAGES = {
  notFound: 'Group not found',
  created: 'Group created',
  renamed: 'Group renamed',
  deleted: 'Group deleted',
  userAdded: 'User added to the group',
  invited: 'Invitation sent; the access is granted when the address signs up',
  userUpdated: 'Permission updated',
  userRemoved: 'User removed from the group',
  removedSelf: 'You have left the group',
  inviteRemoved: 'Invitation removed',
  userNotFound: 'User not found in this group',
  lastAdmin: 'A group keeps an ADMIN: make another member ADMIN first',
  devicesMoved: 'Devices moved',
  devicesCopied: 'Devices copied',
  devicesRemoved: 'Devices removed from the group',
  notInGroup: 'A device is not in this group',
  sameGroup: 'The target group is this group',
  notDeviceAdmin: 'Only a device ADMIN may put a device into a group',
} as const;

/** Longest group id accepted in a path or body before it is looked up (longer: 400). */
export const GROUP_PARAM_MAX_LENGTH = 64;
/** Most devices in one move, copy or remove. */
export const GROUP_DEVICE_LIST_MAX = 1000;

/** A group id in a path: any short text; a malformed or unknown id answers 404 like a stranger's. */
export const GroupParamsSchema = z.strictObject({
  groupid: safeString().min(1).max(GROUP_PARAM_MAX_LENGTH),
});

export const GroupIdSchema = safeString().regex(GROUP_ID_PATTERN, 'groupid: 11 uppercase letters or digits');

/** A group name as stored: sanitised (DESIGN.md section 5) and required ('Group name is required'). */
export const GroupNameSchema = safeString({ message: 'groupName must be text' })
  .max(200, 'groupName: at most 200 characters')
  .transform((name, ctx) => {
    const result = validateGroupName(name);
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: result.error });
      return z.NEVER;
    }
    return result.value;
  });

/** POST /group and PUT /group/{groupid}: the group fields. */
export const GroupBodySchema = z.strictObject({ groupName: GroupNameSchema });
export type GroupBody = z.infer<typeof GroupBodySchema>;

export const GroupDeviceSummarySchema = z.object({
  name: z.string(),
  status: z.string(),
  type: z.string(),
  fw: z.string(),
  machineMake: z.string(),
  machineModel: z.string(),
});
export type GroupDeviceSummary = z.infer<typeof GroupDeviceSummarySchema>;

/** GET /group/{groupid}: the group, its devices and the caller's level. */
export const GroupResponseSchema = z.object({
  groupid: z.string(),
  groupName: z.string(),
  deviceSummaries: z.record(z.string(), GroupDeviceSummarySchema),
  myPermission: DeviceRoleSchema,
});
export type GroupResponse = z.infer<typeof GroupResponseSchema>;

/** POST, PUT and DELETE /group...: what was done. */
export const GroupResultSchema = z.object({
  message: z.string(),
  groupid: z.string(),
  groupName: z.string().optional(),
});
export type GroupResult = z.infer<typeof GroupResultSchema>;

/** POST /group/{groupid}/user: share the group with an address at a level. */
export const GroupUserPostBodySchema = z.strictObject({
  targetEmail: EmailSchema,
  targetPermission: DeviceRoleSchema,
});
export type GroupUserPostBody = z.infer<typeof GroupUserPostBodySchema>;

const TargetUserIdSchema = safeString()
  .min(1, 'targetUserID is required')
  .max(64, 'targetUserID: at most 64 characters');

/** A member by targetUserID, or a pending invitation by targetEmail (when targetUserID is absent). */
function needsTarget(
  body: { targetUserID?: string | undefined; targetEmail?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (body.targetUserID === undefined && body.targetEmail === undefined) {
    ctx.addIssue({ code: 'custom', message: 'targetUserID or targetEmail is required', path: ['targetUserID'] });
  }
}

/** PUT /group/{groupid}/user: change a member's (or an invitation's) level. */
export const GroupUserPutBodySchema = z
  .strictObject({
    targetEmail: EmailSchema.optional(),
    targetUserID: TargetUserIdSchema.optional(),
    targetPermission: DeviceRoleSchema,
  })
  .superRefine(needsTarget);
export type GroupUserPutBody = z.infer<typeof GroupUserPutBodySchema>;

/** DELETE /group/{groupid}/user: remove a member (or yourself), or a pending invitation. */
export const GroupUserDeleteBodySchema = z
  .strictObject({ targetEmail: EmailSchema.optional(), targetUserID: TargetUserIdSchema.optional() })
  .superRefine(needsTarget);
export type GroupUserDeleteBody = z.infer<typeof GroupUserDeleteBodySchema>;

export const GROUP_USER_RESULT_CODES = ['REMOVED', 'REMOVED_SELF', 'INVITE_REMOVED'] as const;
export const GroupUserDeleteResponseSchema = z.object({
  message: z.string(),
  groupid: z.string(),
  resultCode: z.enum(GROUP_USER_RESULT_CODES),
});
export type GroupUserDeleteResponse = z.infer<typeof GroupUserDeleteResponseSchema>;

export const GroupUserResultSchema = z.object({
  message: z.string(),
  groupid: z.string(),
  permission: DeviceRoleSchema,
  userID: z.string().optional(),
  invited: z.boolean().optional(),
});
export type GroupUserResult = z.infer<typeof GroupUserResultSchema>;

/** A member: e-mail only to ADMIN and USER members (and always one's own). */
export const GroupUserSchema = z.object({
  email: z.string().optional(),
  userID: z.string(),
  permission: DeviceRoleSchema,
});
export type GroupUser = z.infer<typeof GroupUserSchema>;

/** GET /group/{groupid}/permissions: the members, and pending invitations (to ADMIN and USER). */
export const GroupPermissionsResponseSchema = z.object({
  groupid: z.string(),
  myPermission: DeviceRoleSchema,
  users: z.array(GroupUserSchema),
  invites: z.array(z.object({ email: z.string(), permission: DeviceRoleSchema })),
});
export type GroupPermissionsResponse = z.infer<typeof GroupPermissionsResponseSchema>;

/** GET /group/{groupid}/serverlog (ADMIN): newest first; ts in epoch seconds; user is who did it. */
export const GroupServerLogEntrySchema = z.object({
  id: z.number(),
  ts: z.number(),
  user: z.string(),
  message: z.string(),
});
export const GroupServerLogResponseSchema = z.object({
  groupid: z.string(),
  entries: z.array(GroupServerLogEntrySchema),
});
export type GroupServerLogEntry = z.infer<typeof GroupServerLogEntrySchema>;

const DeviceListSchema = z
  .array(DeviceRouteIdSchema)
  .min(1, 'deviceList: at least one device')
  .max(GROUP_DEVICE_LIST_MAX, `deviceList: at most ${GROUP_DEVICE_LIST_MAX} devices`);

/** PUT /group/{groupid}/devices: move or copy devices to another group. */
export const GroupDevicesPutBodySchema = z.strictObject({
  deviceList: DeviceListSchema,
  targetGroupid: GroupIdSchema,
  action: z.enum(['move', 'copy']),
});
export type GroupDevicesPutBody = z.infer<typeof GroupDevicesPutBodySchema>;

/** DELETE /group/{groupid}/devices: take devices out of the group (the devices stay). */
export const GroupDevicesDeleteBodySchema = z.strictObject({ deviceList: DeviceListSchema });
export type GroupDevicesDeleteBody = z.infer<typeof GroupDevicesDeleteBodySchema>;

export const GroupDevicesResultSchema = z.object({
  message: z.string(),
  groupid: z.string(),
  deviceList: z.array(z.string()),
});
export type GroupDevicesResult = z.infer<typeof GroupDevicesResultSchema>;
