/**
 * Command calls: a device's command queue (GET, POST and DELETE /api/device/{id}/rpc), answered by
 * the command calls service over the delivery lifecycle.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AnyDeviceParamsSchema,
  DataPointsQuerySchema,
  DEFAULT_RPC_COMMANDS,
  RpcCancelResultSchema,
  commandCancelledMessage,
  RpcCancelSchema,
  RpcListResponseSchema,
  RpcRequestSchema,
  RpcQueuedSchema,
  RPC_EXTRA_FIELDS_MAX,
  rpcExtraFields,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { CommandsService } from './commands.service';

export function registerDeliveryRoutes(app: FastifyInstance, commands: CommandsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The command queue is documented with the device's data, as it always was.
  const tags = ['device data'];
  const errors = errorResponses(400, 401, 403, 404);

  r.get(
    '/api/device/:id/rpc',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: `The command queue of a device with each command state, newest first (dataPoints default ${DEFAULT_RPC_COMMANDS})`,
        params: AnyDeviceParamsSchema,
        querystring: DataPointsQuerySchema,
        response: { 200: RpcListResponseSchema, ...errors },
      },
    },
    (request) => commands.listCommands(signedInUser(request).id, request.params.id, request.query.dataPoints),
  );

  r.post(
    '/api/device/:id/rpc',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary:
          "Queue a command ('Admin.Trigger' with {index} needs triggers; anything else editDeviceSettings); delivered at once to an online device, else at its next contact",
        params: AnyDeviceParamsSchema,
        description: `Fields beside method and args (at most ${RPC_EXTRA_FIELDS_MAX}, each named like a record key and holding any storable JSON value) are accepted and ignored: a device acts on method and args only. The answer lists them in ignoredFields.`,
        body: RpcRequestSchema,
        response: { 200: RpcQueuedSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async (request) => {
      const command = await commands.queueCommand(
        signedInUser(request).id,
        request.params.id,
        request.body.method,
        request.body.args,
      );
      const ignoredFields = rpcExtraFields(request.body);
      return ignoredFields.length > 0 ? { ...command, ignoredFields } : command;
    },
  );

  r.delete(
    '/api/device/:id/rpc',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: "Cancel a queued command; the answer's message ('Command {id} cancelled.') is what the page shows",
        params: AnyDeviceParamsSchema,
        body: RpcCancelSchema,
        response: { 200: RpcCancelResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const cancelled = await commands.cancelCommand(
        signedInUser(request).id,
        request.params.id,
        request.body.commandID,
      );
      return { ...cancelled, message: commandCancelledMessage(cancelled.commandID) };
    },
  );
}
