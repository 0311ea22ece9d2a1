/**
 * POST /support-request (spec 2 section 7): a signed-in user's request to the support address,
 * optionally about one of their devices. The rules are core's (domain/support.ts), so the form
 * and the server word every refusal alike.
 */
import { z } from 'zod';
import { SUPPORT_ATTACHMENTS, SUPPORT_MESSAGES, supportMessageError, supportSubjectError } from '../domain/support';
import { DEVICE_PARAM_MAX_LENGTH } from './devices';
import { safeString } from './fields';

/** A field checked by one of core's rules (the message is the rule's), trimmed. */
function ruled(rule: (value: unknown) => string | null, typeMessage: string) {
  return safeString({ message: typeMessage })
    .superRefine((value, ctx) => {
      const problem = rule(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((value) => value.trim());
}

export const SupportRequestBodySchema = z.strictObject({
  /** One line, 1-120 characters after trimming. */
  subject: ruled(supportSubjectError, SUPPORT_MESSAGES.subjectRequired),
  /** 1-5000 characters after trimming. */
  message: ruled(supportMessageError, SUPPORT_MESSAGES.messageRequired),
  /**
   * The device the request is about: one the sender holds a role on (any other id is 404 'Device
   * not found', as for every device call). Its facts, and for a sender who may read its server
   * log the log's newest lines, go with the request.
   */
  deviceid: safeString({ message: 'deviceid must be text' }).min(1).max(DEVICE_PARAM_MAX_LENGTH).optional(),
});
export type SupportRequestBody = z.infer<typeof SupportRequestBodySchema>;

/** What went with a request about its device; 'none' without a device. */
export const SupportAttachedSchema = z.enum(['none', ...SUPPORT_ATTACHMENTS]);

export const SupportRequestResponseSchema = z.object({
  message: z.string(),
  /** The device the request was about, or null. */
  deviceid: z.string().nullable(),
  /** 'facts', 'factsAndServerLog', or 'none' without a device. */
  attached: SupportAttachedSchema,
});
export type SupportRequestResponse = z.infer<typeof SupportRequestResponseSchema>;
