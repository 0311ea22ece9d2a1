/** POST /api/support-request (spec 2 section 7): the Support page's form, limited per user. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SUPPORT_LIMITS, SUPPORT_MESSAGES, SupportRequestBodySchema, SupportRequestResponseSchema } from '@portal/core';
import { AppError } from '../../errors';
import { errorResponses } from '../../plugins/errors';
import { requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { SupportService } from './support.service';

const HOUR_MS = 3_600_000;

export function registerSupportRoutes(app: FastifyInstance, support: SupportService): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/support-request',
    {
      onRequest: requireUser,
      config: {
        // Per user, counted after the sign-in check (onRequest) and the body's validation (this
        // limiter runs preHandler), so refused bodies cost nothing of the allowance.
        rateLimit: {
          max: SUPPORT_LIMITS.requestsPerHour,
          timeWindow: HOUR_MS,
          hook: 'preHandler',
          keyGenerator: (request: FastifyRequest) => `support:${request.user?.id ?? request.ip}`,
          errorResponseBuilder: (_request, context) =>
            new AppError(429, 'RATE_LIMITED', SUPPORT_MESSAGES.tooMany, Math.max(1, Math.ceil(context.ttl / 1000))),
        },
      },
      schema: {
        tags: ['support'],
        summary: 'Send a support request to the support address (SUPPORT_EMAIL), optionally about a device',
        description:
          "subject (one line, 1-120 characters) and message (1-5000 characters) are trimmed. With deviceid, a device the caller holds a role on (any other id is 404 'Device not found'), the device's id, name, model, firmware, plan and last contact go with the request, and its newest 50 server-log lines when the caller may read that log (ADMIN, on a plan with a server log): `attached` says which. Replies go to the caller's address (Reply-To). At most 5 requests per user an hour (429).",
        body: SupportRequestBodySchema,
        response: { 200: SupportRequestResponseSchema, ...errorResponses(400, 401, 404, 413, 429, 502) },
      },
    },
    (request) => support.send(signedInUser(request), request.brand, request.linkOrigin, request.body),
  );
}
