/** Device users, settings, notes images, the setup password and distributor actions: parse, authorise, call the service of the job. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DISTRIBUTOR_GROUP,
  STAFF_ADMIN_GROUP,
  IMAGE_MAX_BYTES,
  IMAGE_TYPES,
  AnyDeviceParamsSchema,
  DevicePasswordsBodySchema,
  DevicePasswordsResponseSchema,
  DeviceSettingsPutBodySchema,
  DeviceSettingsResponseSchema,
  DeviceSettingsSavedSchema,
  settingsSavedMessage,
  DeviceUserDeleteBodySchema,
  DeviceUserPostBodySchema,
  DeviceUserPutBodySchema,
  DeviceUserResultSchema,
  DistributorActionBodySchema,
  MessageResponseSchema,
  NotesImagePutBodySchema,
  NotesImageSlotSchema,
  PermissionsQuerySchema,
  PermissionsResponseSchema,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { IMAGE_BODY_LIMIT, imageFileResponses, sendImage } from '../../plugins/image-files';
import { requireGroup, requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { DevicesService } from './devices.service';

/** A device notes image: the device and the slot (asset_image or brand_image). */
const NotesImageParamsSchema = AnyDeviceParamsSchema.extend({ slot: NotesImageSlotSchema });

export function registerDevicesRoutes(app: FastifyInstance, devices: DevicesService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // ---- device users ---------------------------------------------------------------------

  r.post(
    '/api/device/:id/user',
    {
      onRequest: requireUser,
      schema: {
        tags: ['device'],
        summary:
          'Add the device with its setup password ({setupPassword, groupid}), or add a user ({targetEmail, targetPermission}, ADMIN)',
        params: AnyDeviceParamsSchema,
        body: DeviceUserPostBodySchema,
        response: { 200: DeviceUserResultSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    (request) => {
      const user = signedInUser(request);
      const { id } = request.params;
      const body = request.body;
      if (body.targetEmail !== undefined && body.targetPermission !== undefined) {
        return devices.users.grant(user, id, body.targetEmail, body.targetPermission, {
          brand: request.brand,
          linkOrigin: request.linkOrigin,
        });
      }
      return devices.claims.claim(user, id, body);
    },
  );

  r.put(
    '/api/device/:id/user',
    {
      onRequest: requireUser,
      schema: {
        tags: ['device'],
        summary: "Change a user's permission on the device (ADMIN)",
        params: AnyDeviceParamsSchema,
        body: DeviceUserPutBodySchema,
        response: { 200: DeviceUserResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) =>
      devices.users.changeUser(signedInUser(request), request.params.id, request.body.userid, request.body.permission),
  );

  r.delete(
    '/api/device/:id/user',
    {
      onRequest: requireUser,
      schema: {
        tags: ['device'],
        summary: 'Remove a user from the device (ADMIN, or the user themselves)',
        params: AnyDeviceParamsSchema,
        body: DeviceUserDeleteBodySchema,
        response: { 200: DeviceUserResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => devices.users.removeUser(signedInUser(request), request.params.id, request.body.userid),
  );

  r.get(
    '/api/device/:id/permissions',
    {
      onRequest: requireUser,
      schema: {
        tags: ['device'],
        summary:
          'The users of the device (flattenGroups=true: the members of its groups too) and pending invitations (ADMIN, USER)',
        params: AnyDeviceParamsSchema,
        querystring: PermissionsQuerySchema,
        response: { 200: PermissionsResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) =>
      devices.users.permissions(signedInUser(request), request.params.id, request.query.flattenGroups === 'true'),
  );

  // ---- settings and passwords ---------------------------------------------------------------

  r.get(
    '/api/device/:id/settings',
    {
      onRequest: requireUser,
      schema: {
        tags: ['device'],
        summary: 'The device settings record, with myPermission and requesterUserId',
        params: AnyDeviceParamsSchema,
        response: { 200: DeviceSettingsResponseSchema, ...errorResponses(401, 404) },
      },
    },
    (request) => devices.settings.getSettings(signedInUser(request), request.params.id),
  );

  r.put(
    '/api/device/:id/settings',
    {
      onRequest: requireUser,
      schema: {
        tags: ['device'],
        summary:
          'Change PORTAL_deviceName, PORTAL_deviceNotes (not its images: see notes-image) or PORTAL_displaySettings (per key; null removes a key)',
        params: AnyDeviceParamsSchema,
        body: DeviceSettingsPutBodySchema,
        response: { 200: DeviceSettingsSavedSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      ...(await devices.settings.putSettings(signedInUser(request), request.params.id, request.body)),
      message: settingsSavedMessage(request.body),
    }),
  );

  // ---- device notes images (the file storage of DLG-21) ------------------------------------------

  r.get(
    '/api/device/:id/notes-image/:slot',
    {
      onRequest: requireUser,
      schema: {
        tags: ['device'],
        summary:
          'A device notes image (any role on the device): its bytes with their content type, cacheable privately for a day (the address in PORTAL_deviceNotes.images changes with each upload)',
        params: NotesImageParamsSchema,
        response: imageFileResponses(IMAGE_TYPES),
      },
    },
    async (request, reply) => {
      const { id, slot } = request.params;
      const image = await devices.notesImages.getNotesImage(signedInUser(request), id, slot);
      return sendImage(reply, image);
    },
  );

  r.put(
    '/api/device/:id/notes-image/:slot',
    {
      onRequest: requireUser,
      bodyLimit: IMAGE_BODY_LIMIT,
      schema: {
        tags: ['device'],
        summary: `Upload a device notes image (editDeviceNotes): ${IMAGE_TYPES.join(' or ')} of at most ${IMAGE_MAX_BYTES / 1024} kB, checked by its first bytes; PORTAL_deviceNotes.images[slot] becomes its address /api/device/{id}/notes-image/{slot}?v={upload time, epoch ms}. Answers the settings record`,
        params: NotesImageParamsSchema,
        body: NotesImagePutBodySchema,
        response: { 200: DeviceSettingsResponseSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    (request) =>
      devices.notesImages.putNotesImage(signedInUser(request), request.params.id, request.params.slot, request.body),
  );

  r.delete(
    '/api/device/:id/notes-image/:slot',
    {
      onRequest: requireUser,
      schema: {
        tags: ['device'],
        summary:
          'Remove a device notes image (editDeviceNotes; none there is fine): PORTAL_deviceNotes.images[slot] becomes null. Answers the settings record',
        params: NotesImageParamsSchema,
        response: { 200: DeviceSettingsResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => devices.notesImages.deleteNotesImage(signedInUser(request), request.params.id, request.params.slot),
  );

  r.post(
    '/api/device/:id/passwords',
    {
      onRequest: requireUser,
      schema: {
        tags: ['device'],
        summary:
          "The setup password of the device (ADMIN). With MFA on, a code is required: TOTP users give the current code; an SMS user's call without a code texts one (403 MFA_REQUIRED)",
        params: AnyDeviceParamsSchema,
        body: DevicePasswordsBodySchema.nullish(),
        response: { 200: DevicePasswordsResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) =>
      devices.passwords.setupPassword(signedInUser(request), request.params.id, request.body?.code, request.brand),
  );

  // ---- distributor tools --------------------------------------------------------------------

  r.post(
    '/api/billing-distributor-action/:id',
    {
      onRequest: requireGroup(DISTRIBUTOR_GROUP, STAFF_ADMIN_GROUP),
      schema: {
        tags: ['billing'],
        summary:
          "Distributor tools: {action: 'reset-trial'} or {action: 'no-pass', params: {mode: 'ADMIN' | 'DISABLE'}} (distributors holding ADMIN; staff admins on any device)",
        params: AnyDeviceParamsSchema,
        body: DistributorActionBodySchema,
        response: { 200: MessageResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => devices.distributor.distributorAction(signedInUser(request), request.params.id, request.body),
  );
}
