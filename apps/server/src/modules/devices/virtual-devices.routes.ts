/** POST /api/virtual-devices (DESIGN.md section 5): a device with no hardware, made by a call. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { VIRTUAL_DEVICES_MAX, VirtualDeviceCreateBodySchema, VirtualDeviceCreatedSchema } from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { VirtualDevicesService } from './virtual-devices.service';

export function registerVirtualDevicesRoutes(app: FastifyInstance, virtualDevices: VirtualDevicesService): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/virtual-devices',
    {
      onRequest: requireUser,
      schema: {
        tags: ['device'],
        summary: 'Create a virtual device: the caller becomes its ADMIN; answers its device key once',
        description: `A device with no hardware: its id is '0-' and 7 uppercase letters or digits. name (1-20 characters, sanitised), model (optional; ORB-C1 by default), groupid (optional: a group where the caller is ADMIN, so the device shows on its dashboard). The caller becomes its ADMIN and its trial starts. Feed it with \`POST /api/ingest/{deviceid}\` and \`Authorization: Device <deviceKey>\` (the key is in this answer only); rename it with \`PUT /api/device/{deviceid}/settings\` {PORTAL_deviceName}. At most ${VIRTUAL_DEVICES_MAX} virtual devices per user (409).`,
        body: VirtualDeviceCreateBodySchema,
        response: { 201: VirtualDeviceCreatedSchema, ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await virtualDevices.create(signedInUser(request), request.body)),
  );
}
