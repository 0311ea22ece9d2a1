import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { OutboxResponseSchema } from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireGroup } from '../access/access.hooks';
import type { OutboxService } from './mail.service';

export function registerMailRoutes(app: FastifyInstance, outbox: OutboxService): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/outbox',
    {
      onRequest: requireGroup('senquip_admin'),
      schema: {
        tags: ['staff'],
        summary: 'The last 50 messages kept by the built-in mail and SMS senders (staff only)',
        response: { 200: OutboxResponseSchema, ...errorResponses(401, 403) },
      },
    },
    () => outbox.latest(),
  );
}
