import { describe, expect, it } from 'vitest';
import {
  BRANDS,
  SUPPORT_LIMITS,
  SUPPORT_MESSAGES,
  SupportRequestBodySchema,
  SupportRequestResponseSchema,
  UNSTORABLE_TEXT_MESSAGE,
  supportAttachment,
  supportAttachmentText,
  supportRequestErrors,
  supportSentText,
  upgradeLink,
  type PlanName,
} from '../src/index';

const firstMessage = (input: unknown) => {
  const result = SupportRequestBodySchema.safeParse(input);
  return result.success ? null : result.error.issues[0]?.message;
};

describe('support request body (API-51)', () => {
  it('takes a subject and a message, trimmed, and an optional device id', () => {
    expect(SupportRequestBodySchema.parse({ subject: '  Pump offline ', message: '\nIt stopped.\n' })).toEqual({
      subject: 'Pump offline',
      message: 'It stopped.',
    });
    expect(SupportRequestBodySchema.parse({ subject: 'Help', message: 'Please', deviceid: 'AB12CD34E' }).deviceid).toBe(
      'AB12CD34E',
    );
  });

  it.each<[unknown, string]>([
    [{ subject: '', message: 'x' }, SUPPORT_MESSAGES.subjectRequired],
    [{ subject: '   ', message: 'x' }, SUPPORT_MESSAGES.subjectRequired],
    [{ message: 'x' }, SUPPORT_MESSAGES.subjectRequired],
    [{ subject: 42, message: 'x' }, SUPPORT_MESSAGES.subjectRequired],
    [{ subject: 'a\nBcc: x@example.com', message: 'x' }, SUPPORT_MESSAGES.subjectOneLine],
    [{ subject: 'a'.repeat(SUPPORT_LIMITS.subjectMax + 1), message: 'x' }, SUPPORT_MESSAGES.subjectTooLong],
    [{ subject: 'Help', message: ' \n ' }, SUPPORT_MESSAGES.messageRequired],
    [{ subject: 'Help', message: null }, SUPPORT_MESSAGES.messageRequired],
    [{ subject: 'Help', message: 'm'.repeat(SUPPORT_LIMITS.messageMax + 1) }, SUPPORT_MESSAGES.messageTooLong],
    [{ subject: 'Help', message: 'a\u0000b' }, UNSTORABLE_TEXT_MESSAGE],
    [{ subject: 'Help\ud800', message: 'x' }, UNSTORABLE_TEXT_MESSAGE],
  ])('refuses %j: %s', (input, message) => {
    expect(firstMessage(input)).toBe(message);
  });

  it('refuses unknown fields, a blank or over-long device id, and __proto__', () => {
    expect(firstMessage({ subject: 'a', message: 'b', to: 'x@example.com' })).toMatch(/Unrecognized key/);
    expect(firstMessage({ subject: 'a', message: 'b', deviceid: '' })).not.toBeNull();
    expect(firstMessage({ subject: 'a', message: 'b', deviceid: 'A'.repeat(65) })).not.toBeNull();
    expect(firstMessage(JSON.parse('{"subject":"a","message":"b","__proto__":{"x":1}}'))).not.toBeNull();
  });

  it('keeps the limits exactly: 120 and 5000 characters after trimming pass', () => {
    const body = { subject: ` ${'s'.repeat(120)} `, message: ` ${'m'.repeat(5000)} ` };
    expect(SupportRequestBodySchema.safeParse(body).success).toBe(true);
  });

  it('the form words each field as the server does', () => {
    expect(supportRequestErrors({ subject: '', message: '' })).toEqual({
      subject: SUPPORT_MESSAGES.subjectRequired,
      message: SUPPORT_MESSAGES.messageRequired,
    });
    expect(supportRequestErrors({ subject: 'Help', message: 'Please' })).toEqual({ subject: null, message: null });
  });

  it('answers what was attached', () => {
    expect(SupportRequestResponseSchema.parse({ message: 'ok', deviceid: null, attached: 'none' }).attached).toBe(
      'none',
    );
    expect(() => SupportRequestResponseSchema.parse({ message: 'ok', deviceid: null, attached: null })).toThrow();
    expect(() => SupportRequestResponseSchema.parse({ message: 'ok', deviceid: 'X', attached: 'log' })).toThrow();
  });
});

describe('what a request about a device carries', () => {
  const table: [unknown, PlanName | null, 'facts' | 'factsAndServerLog'][] = [
    ['ADMIN', 'Hosted', 'factsAndServerLog'],
    ['ADMIN', 'Trial', 'factsAndServerLog'],
    ['ADMIN', 'Basic', 'facts'], // Basic has no server log (spec 1 section 9)
    ['ADMIN', null, 'facts'],
    ['USER', 'Hosted', 'facts'],
    ['OPERATOR', 'Hosted', 'facts'],
    ['VIEW', 'Hosted', 'facts'],
    ['admin', 'Hosted', 'facts'],
    ['__proto__', 'Hosted', 'facts'],
    [null, 'Hosted', 'facts'],
  ];
  it.each(table)('%j on %j: %s', (role, plan, attachment) => {
    expect(supportAttachment(role, plan)).toBe(attachment);
  });

  it('says so in words', () => {
    expect(supportAttachmentText('factsAndServerLog')).toMatch(/recent server log \(the last 50 lines\) is attached/);
    expect(supportAttachmentText('facts')).toMatch(/server log is not attached/);
    expect(supportSentText('a@example.com')).toBe(
      'Your support request has been sent. We will reply to a@example.com.',
    );
  });
});

describe('upgrade texts (DESIGN.md section 5)', () => {
  it('point to Plans, or to Support on a brand that hides Plans', () => {
    expect(upgradeLink(BRANDS.default, 'AB12CD34E')).toEqual({ to: '/plans', label: 'See plans' });
    expect(upgradeLink(BRANDS.tank)).toEqual({ to: '/plans', label: 'See plans' });
    expect(upgradeLink(BRANDS['air-quality'], 'AB12CD34E')).toEqual({
      to: '/support/AB12CD34E',
      label: 'Contact support',
    });
    expect(upgradeLink(BRANDS.carbon)).toEqual({ to: '/support', label: 'Contact support' });
    expect(upgradeLink({ hidePlans: true }, '0-ABC1234')).toEqual({
      to: '/support/0-ABC1234',
      label: 'Contact support',
    });
  });
});
