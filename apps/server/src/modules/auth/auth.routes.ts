/** /api/auth/* and /api/user-login: parse, authorise, call one service function, set cookies. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LoginBodySchema,
  LoginResponseSchema,
  MessageResponseSchema,
  MfaBodySchema,
  MfaRecoveryBodySchema,
  ResetCompleteBodySchema,
  ResetRequestBodySchema,
  SessionResponseSchema,
  SignupBodySchema,
  UserInfoSchema,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireUser } from '../access/access.hooks';
import {
  MFA_COOKIE,
  SESSION_COOKIE,
  clearMfaCookie,
  clearSessionCookie,
  setMfaCookie,
  setSessionCookie,
  signedInUser,
} from '../../plugins/auth';
import type { RateLimit } from '../../plugins/rate-limit';
import type { AuthService, RequestContext } from './auth.service';
import type { MfaService } from './mfa.service';

const CodeParamsSchema = z.strictObject({ code: z.string().min(1).max(200) });

const context = (request: FastifyRequest): RequestContext => ({
  brand: request.brand,
  clientAddress: request.ip,
});

/** The second step passed (a 6-digit code or a recovery code): the challenge cookie goes, the session starts. */
function signedInAfterMfa<U>(
  request: FastifyRequest,
  reply: FastifyReply,
  result: { sessionId: string; user: U },
): { status: 'SIGNED_IN'; user: U } {
  clearMfaCookie(request, reply);
  setSessionCookie(request, reply, result.sessionId);
  return { status: 'SIGNED_IN', user: result.user };
}

/**
 * Requests a minute per client address on each sign-in call (password, code, recovery code), or
 * RATE_LIMIT_PER_MINUTE when that is higher. A flood limit only: guessing is limited by the failed
 * sign-ins (sign-in-throttle.ts), counted per account, so that one person's mistakes never refuse
 * the others behind the same address (an office, a carrier's NAT). At RATE_LIMIT_PER_MINUTE (20)
 * ten wrong passwords and ten retries, each answered 429 by the throttle but counted here, refused
 * every account from that address for the rest of the minute.
 */
export const SIGN_IN_REQUESTS_PER_MINUTE = 120;

export function registerAuthRoutes(
  app: FastifyInstance,
  auth: AuthService,
  mfa: Pick<MfaService, 'completeSignIn' | 'completeSignInWithRecoveryCode'>,
  rateLimit: RateLimit,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limited = { config: { rateLimit } };
  const signInLimited = {
    config: { rateLimit: { ...rateLimit, max: Math.max(rateLimit.max, SIGN_IN_REQUESTS_PER_MINUTE) } },
  };

  r.post(
    '/api/auth/signup',
    {
      ...limited,
      schema: {
        tags: ['auth'],
        summary:
          'Create an account; a verification link is e-mailed (the same answer for an address that has an account, whose owner is mailed instead)',
        body: SignupBodySchema,
        response: { 201: MessageResponseSchema, ...errorResponses(400, 403, 413, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await auth.signup(request.body, context(request))),
  );

  r.post(
    '/api/auth/verify/:code',
    {
      ...limited,
      schema: {
        tags: ['auth'],
        summary: 'Verify the e-mail address with the code of the e-mailed link',
        params: CodeParamsSchema,
        response: { 200: MessageResponseSchema, ...errorResponses(400, 403, 429) },
      },
    },
    (request) => auth.verifyEmail(request.params.code),
  );

  r.post(
    '/api/auth/login',
    {
      ...signInLimited,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password; may answer with a multi-factor challenge',
        body: LoginBodySchema,
        response: { 200: LoginResponseSchema, ...errorResponses(400, 401, 403, 413, 429) },
      },
    },
    async (request, reply) => {
      const result = await auth.login(request.body, context(request), request.cookies[SESSION_COOKIE]);
      if (result.status === 'SIGNED_IN') {
        if (request.cookies[MFA_COOKIE]) clearMfaCookie(request, reply);
        setSessionCookie(request, reply, result.sessionId);
        return { status: result.status, user: result.user };
      }
      setMfaCookie(request, reply, result.challengeToken);
      return { status: result.status, challenge: result.challenge };
    },
  );

  r.post(
    '/api/auth/mfa',
    {
      ...signInLimited,
      schema: {
        tags: ['auth'],
        summary: 'Second sign-in step: the 6-digit code of the challenge (cookie portal_mfa)',
        body: MfaBodySchema,
        response: { 200: LoginResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const result = await mfa.completeSignIn(
        request.cookies[MFA_COOKIE],
        request.body.code,
        request.ip,
        request.cookies[SESSION_COOKIE],
      );
      return signedInAfterMfa(request, reply, result);
    },
  );

  r.post(
    '/api/auth/mfa/recovery',
    {
      ...signInLimited,
      schema: {
        tags: ['auth'],
        summary:
          'Second sign-in step with a one-time recovery code instead of the 6-digit code (cookie portal_mfa); each code signs in once',
        body: MfaRecoveryBodySchema,
        response: { 200: LoginResponseSchema, ...errorResponses(400, 401, 403, 413, 429) },
      },
    },
    async (request, reply) => {
      const result = await mfa.completeSignInWithRecoveryCode(
        request.cookies[MFA_COOKIE],
        request.body.recoveryCode,
        request.ip,
        request.cookies[SESSION_COOKIE],
      );
      return signedInAfterMfa(request, reply, result);
    },
  );

  r.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out: ends the session and clears the cookie',
        response: { 200: MessageResponseSchema, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const result = await auth.logout(request.cookies[SESSION_COOKIE]);
      clearSessionCookie(request, reply);
      return result;
    },
  );

  r.get(
    '/api/auth/session',
    {
      schema: {
        tags: ['auth'],
        summary: 'The current session, if any (never 401)',
        response: { 200: SessionResponseSchema },
      },
    },
    (request, reply) => {
      // A cookie that no longer names a live session is dropped.
      if (!request.user && request.cookies[SESSION_COOKIE]) clearSessionCookie(request, reply);
      const user = request.user ? auth.toUserInfo(request.user) : null;
      return { isAuthenticated: user !== null, user };
    },
  );

  r.post(
    '/api/auth/reset',
    {
      ...limited,
      schema: {
        tags: ['auth'],
        summary: 'Ask for a password-reset link (same answer whether or not the account exists)',
        body: ResetRequestBodySchema,
        response: { 200: MessageResponseSchema, ...errorResponses(400, 403, 413, 429) },
      },
    },
    (request) => auth.requestReset(request.body.email),
  );

  r.post(
    '/api/auth/reset/:code',
    {
      ...limited,
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the code of the e-mailed link (single use, 1 hour)',
        params: CodeParamsSchema,
        body: ResetCompleteBodySchema,
        response: { 200: MessageResponseSchema, ...errorResponses(400, 403, 413, 429) },
      },
    },
    (request) => auth.completeReset(request.params.code, request.body),
  );

  r.get(
    '/api/user-login',
    {
      onRequest: requireUser,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        response: { 200: UserInfoSchema, ...errorResponses(401) },
      },
    },
    (request) => auth.toUserInfo(signedInUser(request)),
  );
}
