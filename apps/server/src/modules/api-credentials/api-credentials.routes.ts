/**
 * GET/POST /api/api-credentials and DELETE /api/api-credentials/{id} (spec 2 section 7, ledger
 * API-46 to API-48): the signed-in user's API keys, on the default brand only (BRD-11). A session
 * only: an API key never reaches these calls (bearer.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  API_CREDENTIALS_MAX,
  API_CREDENTIAL_MESSAGES,
  ApiCredentialCreateBodySchema,
  ApiCredentialCreatedSchema,
  ApiCredentialParamsSchema,
  ApiCredentialsResponseSchema,
  MessageResponseSchema,
} from '@portal/core';
import { forbidden } from '../../errors';
import { errorResponses } from '../../plugins/errors';
import { requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { ApiCredentialsService } from './api-credentials.service';

/** After requireUser, before the body is read: 403 on a brand without API access. */
async function requireApiBrand(request: FastifyRequest): Promise<void> {
  if (!request.brand.allowAPI) throw forbidden(API_CREDENTIAL_MESSAGES.brandUnavailable);
}

export function registerApiCredentialsRoutes(app: FastifyInstance, credentials: ApiCredentialsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const onRequest = [requireUser, requireApiBrand];

  r.get(
    '/api/api-credentials',
    {
      onRequest,
      schema: {
        tags: ['account'],
        summary: "The signed-in user's API keys (never their secrets), newest first",
        description:
          'Each key: its name, access (read-only or read-write), its first characters (hint), when it was created, when it expires (null: never) and when it was last used (to the minute; null: never). Default brand only (403 elsewhere).',
        response: { 200: ApiCredentialsResponseSchema, ...errorResponses(401, 403) },
      },
    },
    (request) => credentials.list(signedInUser(request).id),
  );

  r.post(
    '/api/api-credentials',
    {
      onRequest,
      schema: {
        tags: ['account'],
        summary: 'Create an API key; the answer carries its secret, once',
        description: `name (1-40 characters), access ('read-only' or 'read-write'), expiresAt (epoch seconds, in the future and at most 5 years away; none: never expires). The key (\`ppk_\` + 43 characters) is in this answer only: the portal keeps its hash. At most ${API_CREDENTIALS_MAX} keys per user (409). Default brand only (403 elsewhere).`,
        body: ApiCredentialCreateBodySchema,
        response: { 201: ApiCredentialCreatedSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await credentials.create(signedInUser(request).id, request.body)),
  );

  r.delete(
    '/api/api-credentials/:id',
    {
      onRequest,
      schema: {
        tags: ['account'],
        summary: 'Delete an API key: it stops working at once',
        params: ApiCredentialParamsSchema,
        response: { 200: MessageResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => credentials.remove(signedInUser(request).id, request.params.id),
  );
}
