/**
 * Support requests (spec 1 section 2 /support, spec 2 section 7 POST /support-request, DESIGN.md
 * section 5): the form's rules and texts, and what goes with a request about a device. Pure: the
 * server and the web use these. Where upgrade texts point (Plans, or Support): plans.ts upgradeLink.
 */
import { PLANS, type PlanName } from './plans';
import { can } from './roles';

/** The form's limits, and how many requests one user may send in an hour. */
export const SUPPORT_LIMITS = {
  subjectMax: 120,
  messageMax: 5000,
  requestsPerHour: 5,
  /** Newest server-log lines sent with a request about a device. */
  serverLogLines: 50,
} as const;

export const SUPPORT_MESSAGES = {
  subjectRequired: 'Subject is required',
  subjectTooLong: `Subject: at most ${SUPPORT_LIMITS.subjectMax} characters`,
  subjectOneLine: 'Subject must be one line',
  messageRequired: 'Message is required',
  messageTooLong: `Message: at most ${SUPPORT_LIMITS.messageMax} characters`,
  /** Answered (429) to the request after the hour's allowance. */
  tooMany: `You have sent ${SUPPORT_LIMITS.requestsPerHour} support requests in the last hour. Please wait a while before sending another.`,
  /** Answered (502) when the mail server does not take the message. */
  notSent: 'Your support request could not be sent. Please try again later.',
} as const;

/** What goes with a request about a device: its facts, or its facts and its recent server log. */
export const SUPPORT_ATTACHMENTS = ['facts', 'factsAndServerLog'] as const;
export type SupportAttachment = (typeof SUPPORT_ATTACHMENTS)[number];

/**
 * What a request about a device carries: the device's facts always (the sender holds a role on
 * it), and its recent server log only when the sender may read the log: the serverLog
 * capability (ADMIN) on a plan with a server log (spec 1 section 9), the rule of GET /serverlog.
 */
export function supportAttachment(role: unknown, plan: PlanName | null): SupportAttachment {
  return can(role, 'serverLog') && plan !== null && PLANS[plan].serverLog ? 'factsAndServerLog' : 'facts';
}

/** The sentence the form shows under the device (and the confirmation repeats). */
export function supportAttachmentText(attachment: SupportAttachment): string {
  return attachment === 'factsAndServerLog'
    ? `Its id, name, model, firmware, plan and last contact go with your request, and its recent server log (the last ${SUPPORT_LIMITS.serverLogLines} lines) is attached.`
    : "Its id, name, model, firmware, plan and last contact go with your request. Its server log is not attached: only the device's administrators read it, on a plan with a server log.";
}

/** The confirmation after sending: where the answer will go. */
export function supportSentText(email: string): string {
  return `Your support request has been sent. We will reply to ${email}.`;
}

// eslint-disable-next-line no-control-regex -- line breaks and other control characters are what a subject may not hold
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The subject's problem, or null: required (after trimming), one line, at most 120 characters. */
export function supportSubjectError(subject: unknown): string | null {
  if (typeof subject !== 'string' || subject.trim() === '') return SUPPORT_MESSAGES.subjectRequired;
  if (CONTROL.test(subject)) return SUPPORT_MESSAGES.subjectOneLine;
  if (subject.trim().length > SUPPORT_LIMITS.subjectMax) return SUPPORT_MESSAGES.subjectTooLong;
  return null;
}

/** The message's problem, or null: required (after trimming), at most 5000 characters. */
export function supportMessageError(message: unknown): string | null {
  if (typeof message !== 'string' || message.trim() === '') return SUPPORT_MESSAGES.messageRequired;
  if (message.trim().length > SUPPORT_LIMITS.messageMax) return SUPPORT_MESSAGES.messageTooLong;
  return null;
}

/** The form's field messages (the server checks the same rules through SupportRequestBodySchema). */
export function supportRequestErrors(draft: { subject: unknown; message: unknown }): {
  subject: string | null;
  message: string | null;
} {
  return { subject: supportSubjectError(draft.subject), message: supportMessageError(draft.message) };
}
