import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  GroupMetricsQuerySchema,
  GroupMetricsResponseSchema,
  GroupParamsSchema,
  COLUMN_OPERATORS,
  METRICS_MAX_DAYS,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { GroupMetricsService } from './group-metrics.service';

/** GET /group/{groupid}/metrics: a headline's key and operator over the group's devices (members). */
export function registerGroupMetricsRoutes(app: FastifyInstance, groupMetrics: GroupMetricsService): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/group/:groupid/metrics',
    {
      onRequest: requireUser,
      schema: {
        tags: ['groups'],
        summary: "One key under one operator over the group's devices, current and previous period (members)",
        description: `\`key\` (required) and \`operator\` (${COLUMN_OPERATORS.join(', ')}; default avg) over every value the group's devices recorded: avg weighted by sample count, sum, max, min, latest = the newest value of any device (with its deviceid and ts). currentStartTime/currentEndTime (required) and previousStartTime/previousEndTime (both or neither; default the same number of hours just before the current period) are epoch seconds floored to 3600 s; a period is the hours from its start up to its end (at most ${METRICS_MAX_DAYS} days). Read from the hourly and daily rollups.`,
        params: GroupParamsSchema,
        querystring: GroupMetricsQuerySchema,
        response: { 200: GroupMetricsResponseSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => groupMetrics.metrics(signedInUser(request), request.params.groupid, request.query),
  );
}
