import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SEARCH_MAX_RESULTS, SearchQuerySchema, SearchResponseSchema } from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireUser, signedInUser } from '../../plugins/auth';
import type { SearchService } from './search.service';

/** GET /search: home's search box. */
export function registerSearchRoutes(app: FastifyInstance, search: SearchService): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/search',
    {
      onRequest: requireUser,
      schema: {
        tags: ['groups'],
        summary: 'Devices and groups of the caller whose id or name contains q',
        description: `Case-insensitive; at most ${SEARCH_MAX_RESULTS} devices (those the caller holds a role on, directly or through a group) and ${SEARCH_MAX_RESULTS} groups (the caller's), those whose id or name starts with q first, then by name.`,
        querystring: SearchQuerySchema,
        response: { 200: SearchResponseSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => search.search(signedInUser(request).id, request.query.q),
  );
}
