/** Device config calls: config document, custom settings, script and its lock, firmware and files. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AnyDeviceParamsSchema,
  CustomSettingsBodySchema,
  DEVICE_FILE_MAX_BYTES,
  DeviceConfigPutBodySchema,
  DeviceConfigResponseSchema,
  DeviceConfigSavedSchema,
  DEVICE_CONFIG_MESSAGES,
  DeviceFilePutBodySchema,
  FirmwareListResponseSchema,
  FirmwarePostBodySchema,
  MessageResponseSchema,
  ScriptLockBodySchema,
  ScriptLockResponseSchema,
  ScriptPutBodySchema,
  ScriptResponseSchema,
  CommandViewSchema,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { DeviceConfigService } from './device-config.service';

/** Room for a script a little over its limit, so the size message answers it rather than a 413. */
const SCRIPT_BODY_LIMIT = 128 * 1024;
/** An 8 MB file as base64 plus the JSON around it. */
export const FILE_BODY_LIMIT = Math.ceil(DEVICE_FILE_MAX_BYTES / 3) * 4 + 64 * 1024;

export function registerDeviceConfigRoutes(app: FastifyInstance, service: DeviceConfigService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['device config'];
  const errors = errorResponses(400, 401, 403, 404);

  r.get(
    '/api/device/:id/config',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary:
          'The config the device runs, the changes waiting for the device to acknowledge them (or null) with their version and when they were sent, and serial capture text decoded for display',
        params: AnyDeviceParamsSchema,
        response: { 200: DeviceConfigResponseSchema, ...errors },
      },
    },
    (request) => service.getConfig(signedInUser(request), request.params.id),
  );

  r.put(
    '/api/device/:id/config',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary:
          'Queue a config change (editDeviceSettings): merged into the pending config (a new version), sent at the next contact and applied when the device acknowledges that version',
        params: AnyDeviceParamsSchema,
        body: DeviceConfigPutBodySchema,
        response: { 200: DeviceConfigSavedSchema, ...errors },
      },
    },
    async (request) => ({
      ...(await service.putConfig(signedInUser(request), request.params.id, request.body)),
      message: DEVICE_CONFIG_MESSAGES.queued,
    }),
  );

  r.put(
    '/api/device/:id/custom-settings',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Queue custom script settings (num* numeric, str* text; customSettings: OPERATOR and above)',
        params: AnyDeviceParamsSchema,
        body: CustomSettingsBodySchema,
        response: { 200: MessageResponseSchema, ...errors },
      },
    },
    (request) => service.putCustomSettings(signedInUser(request), request.params.id, request.body),
  );

  r.get(
    '/api/device/:id/script',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'The device script as base64 (the saved one while it waits for delivery) and its lock (scripting)',
        params: AnyDeviceParamsSchema,
        response: { 200: ScriptResponseSchema, ...errors },
      },
    },
    (request) => service.getScript(signedInUser(request), request.params.id),
  );

  r.put(
    '/api/device/:id/script',
    {
      onRequest: requireUser,
      bodyLimit: SCRIPT_BODY_LIMIT,
      schema: {
        tags,
        summary:
          "Save the device script (base64, at most 20000 bytes decoded) for the next contact (scripting); 409 while another user holds the lock, or when the device's firmware is older than SFW003",
        params: AnyDeviceParamsSchema,
        body: ScriptPutBodySchema,
        response: { 200: ScriptResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 413) },
      },
    },
    (request) => service.putScript(signedInUser(request), request.params.id, request.body.scriptFileBase64),
  );

  r.put(
    '/api/device/:id/script-lock',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary:
          'Take (lock: true) or release (lock: false) the script edit lock (scripting); 409 while another user holds it',
        params: AnyDeviceParamsSchema,
        body: ScriptLockBodySchema,
        response: { 200: ScriptLockResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => service.setScriptLock(signedInUser(request), request.params.id, request.body.lock),
  );

  r.put(
    '/api/device/:id/force-script-unlock',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: "Release another user's script lock (ADMIN)",
        params: AnyDeviceParamsSchema,
        response: { 200: ScriptLockResponseSchema, ...errors },
      },
    },
    (request) => service.forceScriptUnlock(signedInUser(request), request.params.id),
  );

  r.get(
    '/api/firmware',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'The known firmware (FIRMWARE_VERSIONS): the firmware strings a firmware update may name',
        response: { 200: FirmwareListResponseSchema, ...errorResponses(401) },
      },
    },
    () => service.firmwareList(),
  );

  r.post(
    '/api/device/:id/firmware',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary:
          "Queue a firmware update (ADMIN): command 'Admin.Firmware' {firmwareName}; firmwareName must be one of GET /api/firmware (else 400)",
        params: AnyDeviceParamsSchema,
        body: FirmwarePostBodySchema,
        response: { 200: CommandViewSchema, ...errors },
      },
    },
    (request) => service.pushFirmware(signedInUser(request), request.params.id, request.body),
  );

  r.put(
    '/api/device/:id/file',
    {
      onRequest: requireUser,
      bodyLimit: FILE_BODY_LIMIT,
      schema: {
        tags,
        summary:
          "Store a file (base64, at most 8 MB decoded) and queue command 'Admin.File' {fileName, size, sha256, fileId, path}: the device downloads it from path, GET /api/ingest/{id}/file/{fileId} (ADMIN: admin settings)",
        params: AnyDeviceParamsSchema,
        body: DeviceFilePutBodySchema,
        response: { 200: CommandViewSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    (request) => service.pushFile(signedInUser(request), request.params.id, request.body),
  );
}
