/** Wire shapes of the groups list, health check, client error reports and the staff outbox. */
import { z } from 'zod';
import { safeString } from './fields';
import { DeviceRoleSchema } from '../domain/roles';

export const HealthResponseSchema = z.object({ status: z.literal('ok') });

/**
 * GET /api/groups: the groups the signed-in user belongs to, each with the user's level in it
 * (what the web offers by, core groupCan; the server decides each call again).
 */
export const GroupSummarySchema = z.object({
  groupid: z.string(),
  groupName: z.string(),
  permission: DeviceRoleSchema,
});
export type GroupSummary = z.infer<typeof GroupSummarySchema>;
/** One group of GET /groups: with how many devices it holds (home sizes the group's table before its data answers). */
export const GroupListEntrySchema = GroupSummarySchema.extend({ deviceCount: z.number() });
export type GroupListEntry = z.infer<typeof GroupListEntrySchema>;
export const GroupListResponseSchema = z.array(GroupListEntrySchema);

/** POST /api/client-errors: a rendering crash reported by the web app. */
export const ClientErrorBodySchema = z.strictObject({
  message: safeString().min(1, 'Message is required').max(2000, 'Message is too long'),
  stack: safeString().max(20_000, 'Stack is too long').optional(),
  url: safeString().max(2000, 'URL is too long').optional(),
});
export type ClientErrorBody = z.infer<typeof ClientErrorBodySchema>;

/** GET /api/outbox (staff only): mail and SMS kept by the built-in senders. */
export const OutboxMessageSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['mail', 'sms']),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  createdAt: z.string(),
});
export const OutboxResponseSchema = z.array(OutboxMessageSchema);
export type OutboxMessage = z.infer<typeof OutboxMessageSchema>;
