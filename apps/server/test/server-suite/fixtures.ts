/**
 * What the areas of the route suite share: the portal and mail catcher started once per database
 * (by server-suite.ts), the texts the portal answers with, and the assertion of an error answer.
 */
import { expect } from 'vitest';
import type { ApiClient, ApiResponse, MailCatcher, TestPortal } from '../helpers';

/** The portal with SMTP mail the areas run against; set in server-suite.ts's beforeAll. */
export interface SuitePortal {
  tp: TestPortal;
  mail: MailCatcher;
}

/** A minute in milliseconds, for moving the test clock. */
export const MINUTE = 60_000;

/** The portal's answers, word for word. */
export const M = {
  signedUp: 'Account created. We have sent you an e-mail with a link to verify your address.',
  verified: 'Your e-mail address is verified. You can now sign in.',
  verifyInvalid: 'This verification link is invalid or has expired.',
  badCredentials: 'Incorrect username or password.',
  notVerified: 'Your e-mail address is not verified yet. We have sent you a new verification link.',
  mfaInvalid: 'Invalid code received for user',
  mfaCodeUsed: 'This code has already been used. Wait for the next code from your authenticator app.',
  signInExpired: 'Your sign-in has expired. Please sign in again.',
  resetRequested: 'If an account exists for that address, we have sent it a link to reset the password.',
  resetDone: 'Your password has been reset. You can now sign in.',
  resetInvalid: 'This reset link is invalid or has expired.',
  rateLimited: 'Too many attempts. Please wait a few minutes and try again.',
  mfaNotAllowed: 'Multi-factor authentication is not available on this site.',
} as const;

/** An error answer: this status and code, only `message` and `code` in the body, and the message when given. */
export function expectError(res: ApiResponse, status: number, code: string, message?: string | RegExp): void {
  expect({ status: res.status, code: (res.body as { code?: string })?.code }).toEqual({ status, code });
  const body = res.body as { message: string; code: string };
  expect(Object.keys(body).sort()).toEqual(['code', 'message']);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
}

/** What GET /api/auth/session answers for this client. */
export const sessionOf = async (client: ApiClient) =>
  (await client.get('/api/auth/session')).body as { isAuthenticated: boolean; user: { email: string } | null };
