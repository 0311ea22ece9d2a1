/** /api/account/*: profile, password and MFA enrolment of the signed-in user. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ChangePasswordBodySchema,
  MessageResponseSchema,
  MfaDisableBodySchema,
  MfaDisabledResponseSchema,
  MfaEnabledResponseSchema,
  ProfileUpdateBodySchema,
  RecoveryCodesRenewBodySchema,
  RecoveryCodesResponseSchema,
  RecoveryCodesStatusSchema,
  SmsEnableBodySchema,
  SmsSetupBodySchema,
  TotpEnableBodySchema,
  TotpSetupResponseSchema,
  UserInfoSchema,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireUser } from '../access/access.hooks';
import { currentSessionHash, signedInUser } from '../../plugins/auth';
import type { RateLimit } from '../../plugins/rate-limit';
import type { AccountService } from './account.service';

export function registerAccountRoutes(app: FastifyInstance, account: AccountService, rateLimit: RateLimit): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['account'];
  // Calls that check a password or a code are limited like sign-in, against guessing with a stolen session.
  const limited = { config: { rateLimit } };

  r.put(
    '/api/account/profile',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: "Update the user's phone number and marketing e-mail choice",
        body: ProfileUpdateBodySchema,
        response: { 200: UserInfoSchema, ...errorResponses(400, 401, 403, 409, 413) },
      },
    },
    (request) => account.updateProfile(signedInUser(request), request.body),
  );

  r.post(
    '/api/account/password',
    {
      ...limited,
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Change the password; ends the other sessions of the user',
        body: ChangePasswordBodySchema,
        response: { 200: MessageResponseSchema, ...errorResponses(400, 401, 403, 413, 429) },
      },
    },
    (request) => account.changePassword(signedInUser(request), request.body, currentSessionHash(request)),
  );

  r.post(
    '/api/account/mfa/totp/setup',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Start enrolling an authenticator app: a new secret, pending until enabled',
        response: { 200: TotpSetupResponseSchema, ...errorResponses(401, 403) },
      },
    },
    (request) => account.setupTotp(signedInUser(request), request.brand),
  );

  r.post(
    '/api/account/mfa/totp/enable',
    {
      ...limited,
      onRequest: requireUser,
      schema: {
        tags,
        summary:
          'Turn on authenticator-app codes with a code from the pending secret; answers a new set of one-time recovery codes (shown once)',
        body: TotpEnableBodySchema,
        response: { 200: MfaEnabledResponseSchema, ...errorResponses(400, 401, 403, 413, 429) },
      },
    },
    (request) => account.enableTotp(signedInUser(request), request.brand, request.body.code),
  );

  r.post(
    '/api/account/mfa/sms/setup',
    {
      ...limited,
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Start enrolling SMS codes: a code is sent to the number',
        body: SmsSetupBodySchema,
        response: { 200: MessageResponseSchema, ...errorResponses(400, 401, 403, 413, 429) },
      },
    },
    (request) => account.setupSms(signedInUser(request), request.brand, request.body.phone),
  );

  r.post(
    '/api/account/mfa/sms/enable',
    {
      ...limited,
      onRequest: requireUser,
      schema: {
        tags,
        summary:
          'Turn on SMS codes with the code sent by the setup call; answers a new set of one-time recovery codes (shown once)',
        body: SmsEnableBodySchema,
        response: { 200: MfaEnabledResponseSchema, ...errorResponses(400, 401, 403, 413, 429) },
      },
    },
    (request) => account.enableSms(signedInUser(request), request.brand, request.body.code),
  );

  r.post(
    '/api/account/mfa/disable',
    {
      ...limited,
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Turn multi-factor authentication off (password required); deletes the recovery codes',
        body: MfaDisableBodySchema,
        response: { 200: MfaDisabledResponseSchema, ...errorResponses(400, 401, 403, 413, 429) },
      },
    },
    (request) => account.disableMfa(signedInUser(request), request.body.password),
  );

  r.get(
    '/api/account/mfa/recovery-codes',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'How many unused one-time recovery codes the user has (never the codes)',
        response: { 200: RecoveryCodesStatusSchema, ...errorResponses(401) },
      },
    },
    (request) => account.recoveryCodesStatus(signedInUser(request)),
  );

  r.post(
    '/api/account/mfa/recovery-codes',
    {
      ...limited,
      onRequest: requireUser,
      schema: {
        tags,
        summary:
          'Make a new set of one-time recovery codes (password required); the old ones stop working. 409 when MFA is off',
        body: RecoveryCodesRenewBodySchema,
        response: { 200: RecoveryCodesResponseSchema, ...errorResponses(400, 401, 403, 409, 413, 429) },
      },
    },
    (request) => account.renewRecoveryCodes(signedInUser(request), request.body.password),
  );
}
