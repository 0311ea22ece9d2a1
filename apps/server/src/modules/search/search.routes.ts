import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  SEARCH_MAX_RESULTS,
  SearchQuerySchema,
  SearchResponseSchema,
  UNGROUPED_DEVICES_MAX_LIMIT,
  UNGROUPED_DEVICES_PAGE,
  UngroupedDevicesQuerySchema,
  UngroupedDevicesResponseSchema,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { SearchService } from './search.service';

/** GET /search: home's search box; GET /ungrouped-devices: home's list of devices not in a group. */
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

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/ungrouped-devices',
    {
      onRequest: requireUser,
      schema: {
        tags: ['groups'],
        summary: "A page of the caller's devices that none of the caller's groups holds",
        description: `The devices the caller holds a direct grant on that are in none of the caller's groups (home lists them), by name then id: \`limit\` of them (default ${UNGROUPED_DEVICES_PAGE}, at most ${UNGROUPED_DEVICES_MAX_LIMIT}) from \`offset\` (default 0), with \`total\`, how many there are in all.`,
        querystring: UngroupedDevicesQuerySchema,
        response: { 200: UngroupedDevicesResponseSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => search.ungrouped(signedInUser(request).id, request.query),
  );
}
