/**
 * Device users contracts (issue 3; spec 2 section 3): adding a device (claim with the setup
 * password) or a user to it, changing and removing users, and the device's permissions list.
 */
import { z } from 'zod';
import { DeviceRoleSchema } from '../domain/roles';
import { EmailSchema } from './auth';
import { safeString } from './fields';

/**
 * POST /device/{id}/user: either {setupPassword, groupid?} (add the device to the caller) or
 * {targetEmail, targetPermission} (an ADMIN adds a user).
 */
export const DeviceUserPostBodySchema = z
  .strictObject({
    setupPassword: safeString().max(64, 'setupPassword: at most 64 characters').optional(),
    groupid: safeString().max(64, 'groupid: at most 64 characters').optional(),
    targetEmail: EmailSchema.optional(),
    targetPermission: DeviceRoleSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const grant = body.targetEmail !== undefined || body.targetPermission !== undefined;
    if (grant && (body.targetEmail === undefined || body.targetPermission === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'targetEmail and targetPermission go together',
        path: [body.targetEmail === undefined ? 'targetEmail' : 'targetPermission'],
      });
    }
    if (grant && body.setupPassword !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'send either setupPassword or targetEmail, not both',
        path: ['setupPassword'],
      });
    }
  });
export type DeviceUserPostBody = z.infer<typeof DeviceUserPostBodySchema>;

export const DeviceUserPutBodySchema = z.strictObject({
  userid: safeString().min(1, 'userid is required').max(64),
  permission: DeviceRoleSchema,
});
export const DeviceUserDeleteBodySchema = z.strictObject({
  userid: safeString().min(1, 'userid is required').max(64),
});

export const PermissionsQuerySchema = z.strictObject({ flattenGroups: z.enum(['true', 'false']).optional() });

/** A group through which a user holds a level on the device: its id, its name and the member's level. */
export const DeviceUserGroupAccessSchema = z.object({
  groupid: z.string(),
  groupName: z.string(),
  permission: DeviceRoleSchema,
});
export type DeviceUserGroupAccess = z.infer<typeof DeviceUserGroupAccessSchema>;

/**
 * A user of the device (spec 2 section 3: userid, permission, targetEmail; SUB-16: the e-mail is
 * `targetEmail`, the name the add, change and remove calls give it). With flattenGroups=true,
 * members of the device's groups are listed too:
 * permission is then the highest of the direct grant and the group levels, `direct` says whether a
 * direct grant exists (`directPermission` is its role), `groups` names the groups (ids) that give
 * a level and `groupAccess` the same groups with their names and the member's level in each.
 */
export const DeviceUserEntrySchema = z.object({
  userid: z.string(),
  targetEmail: z.string(),
  permission: DeviceRoleSchema,
  direct: z.boolean().optional(),
  directPermission: DeviceRoleSchema.optional(),
  groups: z.array(z.string()).optional(),
  groupAccess: z.array(DeviceUserGroupAccessSchema).optional(),
});
export const DeviceInviteEntrySchema = z.object({ email: z.string(), permission: DeviceRoleSchema });
export const PermissionsResponseSchema = z.object({
  deviceid: z.string(),
  users: z.array(DeviceUserEntrySchema),
  invites: z.array(DeviceInviteEntrySchema),
});
export type DeviceUserEntry = z.infer<typeof DeviceUserEntrySchema>;
export type DevicePermissionsResponse = z.infer<typeof PermissionsResponseSchema>;

export const DeviceUserResultSchema = z.object({
  message: z.string(),
  deviceid: z.string(),
  permission: DeviceRoleSchema.optional(),
  userid: z.string().optional(),
  invited: z.boolean().optional(),
  /** The group the claim put the device into (only when the claim made the caller its ADMIN). */
  groupid: z.string().optional(),
});
export type DeviceUserResult = z.infer<typeof DeviceUserResultSchema>;
