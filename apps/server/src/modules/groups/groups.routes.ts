import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { GroupListResponseSchema } from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireUser, signedInUser } from '../../plugins/auth';
import type { GroupsService } from './groups.service';

export function registerGroupsRoutes(app: FastifyInstance, groups: GroupsService): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/groups',
    {
      preHandler: requireUser,
      schema: {
        tags: ['groups'],
        summary: 'The groups the signed-in user belongs to',
        response: { 200: GroupListResponseSchema, ...errorResponses(401) },
      },
    },
    (request) => groups.listForUser(signedInUser(request).id),
  );
}
