import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HealthResponseSchema } from '@portal/core';
import type { HealthService } from './health.service';

export function registerHealthRoutes(app: FastifyInstance, health: HealthService): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness: the server and its database answer',
        response: { 200: HealthResponseSchema },
      },
    },
    () => health.check(),
  );
}
