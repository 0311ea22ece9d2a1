/**
 * HTTP ingest: `POST /api/ingest/{id}` with `Authorization: Device <key>` and a record or an
 * array of records (at most 500, 1 MB). The key is checked before the body is read; the answer
 * (the queued commands and pending config) comes only after the records are committed.
 * Devices are not browsers: no CSRF header is needed here.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CommandMessageSchema } from '@portal/core';
import { AppError } from '../errors';
import { errorResponses } from '../plugins/errors';
import type { TelemetryService } from '../modules/telemetry/telemetry.service';

export const INGEST_BODY_LIMIT = 1024 * 1024;
export const INVALID_DEVICE_CREDENTIALS = 'Invalid device credentials';

const invalidCredentials = () => new AppError(401, 'INVALID_CREDENTIALS', INVALID_DEVICE_CREDENTIALS);

declare module 'fastify' {
  interface FastifyRequest {
    ingestPlan?: { basic: boolean };
  }
}

function deviceKey(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Device\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

export async function registerIngestRoutes(app: FastifyInstance, telemetry: TelemetryService): Promise<void> {
  await app.register(async (scope) => {
    // The body stays text until the device is known: bad JSON is then logged in its server log.
    scope.removeContentTypeParser(['application/json', 'text/plain']);
    scope.addContentTypeParser(
      ['application/json', 'text/plain'],
      { parseAs: 'string', bodyLimit: INGEST_BODY_LIMIT },
      (_request, body, done) => {
        done(null, typeof body === 'string' ? body : body.toString('utf8'));
      },
    );

    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/ingest/:id',
      {
        bodyLimit: INGEST_BODY_LIMIT,
        config: { csrf: false },
        onRequest: async (request) => {
          const { id } = request.params as { id?: string };
          const key = deviceKey(request);
          if (!id || !key || !(await telemetry.verifyDevice(id, key))) throw invalidCredentials();
          const plan = await telemetry.ingestPlan(id);
          if (!plan) throw invalidCredentials();
          request.ingestPlan = plan;
        },
        schema: {
          tags: ['ingest'],
          summary:
            'A device sends a record or an array of records (Authorization: Device <key>); answers its queued commands and pending config',
          params: z.object({ id: z.string().min(1).max(64) }),
          body: z.string().optional(),
          response: { 200: CommandMessageSchema, ...errorResponses(400, 401, 413) },
        },
      },
      async (request) => {
        const deviceId = request.params.id;
        const text = request.body ?? '';
        let body: unknown;
        let error: string | undefined;
        try {
          body = JSON.parse(text);
        } catch {
          error = 'The body is not valid JSON';
        }
        const outcome = await telemetry.ingest({
          deviceId,
          kind: 'data',
          ...(error === undefined ? { body } : { error }),
          basic: request.ingestPlan?.basic ?? false,
          receivedAt: telemetry.now(),
          source: 'http',
        });
        if (error !== undefined) throw new AppError(400, 'BAD_REQUEST', error);
        if (outcome.stored + outcome.duplicates + outcome.thinned === 0 && outcome.refused.length > 0) {
          throw new AppError(400, 'BAD_REQUEST', `No record accepted: ${outcome.refused[0]}`);
        }
        return telemetry.httpDelivery(deviceId);
      },
    );
  });
}
