/**
 * HTTP ingest, every route with `Authorization: Device <key>` (checked before the body is read):
 * - `POST /api/ingest/{id}` with a record or an array of records (at most 500, 1 MB); the answer
 *   (the commands to run, the pending config and script with their versions: all now 'sent')
 *   comes only after the records are committed;
 * - `POST /api/ingest/{id}/ack` with the acknowledgement an MQTT device publishes on
 *   dev/{id}/ack (`{id?, ids?, config?, script?}`): commands become delivered, the config and
 *   script versions applied;
 * - `GET /api/ingest/{id}/file/{fileId}`: the bytes of a file queued for this device (Admin.File).
 * Devices are not browsers: no CSRF header is needed here.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CommandAckResultSchema, CommandMessageSchema } from '@portal/core';
import { AppError } from '../errors';
import { errorResponses } from '../plugins/errors';
import { guardOf } from '../plugins/route-security';
import { BinaryFileSchema, fileResponse } from '../plugins/swagger';
import type { DeliveryService } from '../modules/delivery/delivery.service';
import type { TelemetryService } from '../modules/telemetry/telemetry.service';

export const INGEST_BODY_LIMIT = 1024 * 1024;
/** An acknowledgement is small: at most MAX_ACK_IDS ids and two versions. */
export const ACK_BODY_LIMIT = 16 * 1024;
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

export async function registerIngestRoutes(
  app: FastifyInstance,
  telemetry: TelemetryService,
  delivery: DeliveryService,
): Promise<void> {
  /** The device named in the path, with its key: 401 otherwise (the same answer for an unknown device). */
  const authenticateDevice = guardOf('deviceKey', async (request: FastifyRequest) => {
    const { id } = request.params as { id?: string };
    const key = deviceKey(request);
    if (!id || !key || !(await telemetry.verifyDevice(id, key))) throw invalidCredentials();
  });

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
        onRequest: [
          authenticateDevice,
          async (request) => {
            const plan = await telemetry.ingestPlan((request.params as { id: string }).id);
            if (!plan) throw invalidCredentials();
            request.ingestPlan = plan;
          },
        ],
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
        return delivery.httpDelivery(deviceId);
      },
    );

    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/ingest/:id/ack',
      {
        bodyLimit: ACK_BODY_LIMIT,
        config: { csrf: false },
        onRequest: authenticateDevice,
        schema: {
          tags: ['ingest'],
          summary:
            'A device acknowledges (Authorization: Device <key>) the commands it received ({id} or {ids: [...]}) and the config and script versions it applied ({config: version}, {script: version})',
          params: z.object({ id: z.string().min(1).max(64) }),
          body: z.string().optional(),
          response: { 200: CommandAckResultSchema, ...errorResponses(400, 401, 404, 409, 413) },
        },
      },
      async (request) => {
        const deviceId = request.params.id;
        let body: unknown;
        try {
          body = JSON.parse(request.body ?? '');
        } catch {
          const error = new AppError(400, 'BAD_REQUEST', 'The body is not valid JSON');
          await telemetry.log(deviceId, 'refused', `http ack refused: ${error.message}`);
          throw error;
        }
        return delivery.acknowledgeHttp(deviceId, body);
      },
    );

    scope.withTypeProvider<ZodTypeProvider>().get(
      '/api/ingest/:id/file/:fileId',
      {
        onRequest: authenticateDevice,
        schema: {
          tags: ['ingest'],
          summary:
            "A device downloads a file queued for it by an 'Admin.File' command (Authorization: Device <key>); its own files only",
          params: z.object({
            id: z.string().min(1).max(64),
            fileId: z.coerce.number().int().min(1).max(2_147_483_647),
          }),
          response: {
            200: fileResponse('The file', ['application/octet-stream'], BinaryFileSchema),
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request, reply) => {
        const file = await delivery.deviceFile(request.params.id, request.params.fileId);
        if (!file) throw new AppError(404, 'NOT_FOUND', 'File not found');
        return reply
          .type('application/octet-stream')
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('x-content-sha256', file.sha256)
          .header('cache-control', 'no-store')
          .send(file.bytes);
      },
    );
  });
}
