import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClientErrorBodySchema } from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import type { RateLimit } from '../../plugins/rate-limit';
import type { ClientErrorsService } from './client-errors.service';

export function registerClientErrorsRoutes(
  app: FastifyInstance,
  clientErrors: ClientErrorsService,
  rateLimit: RateLimit,
): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/client-errors',
    {
      config: { rateLimit },
      schema: {
        tags: ['system'],
        summary: 'Report a rendering crash of the web app (logged at error level)',
        body: ClientErrorBodySchema,
        response: { 204: z.null().describe('Logged'), ...errorResponses(400, 403, 413, 429) },
      },
    },
    async (request, reply) => {
      clientErrors.report(request.log, request.body, request.user?.id ?? null);
      return reply.code(204).send(null);
    },
  );
}
