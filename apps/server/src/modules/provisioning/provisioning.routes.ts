/**
 * Provisioning calls: creating, editing and reading a device, its provisioning log and test run
 * (the /api/prov-portal-* calls on a device), device labels (GET /prov-portal-get-device-label/{id},
 * POST /prov-portal-labels), all for provisioning staff, and packing slips (POST
 * /billing-packing-slip: staff admins). Labels and slips answer a file as an attachment; a label
 * answer made without PUBLIC_URL carries the X-Portal-Warning header.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  LABEL_CONTENT_TYPES,
  PORTAL_WARNING_HEADER,
  PROV_LIMITS,
  STAFF_ADMIN_GROUP,
  DeviceIdParamsSchema,
  PackingSlipBodySchema,
  ProvDeviceExistsSchema,
  ProvDeviceSchema,
  ProvEditDeviceBodySchema,
  ProvLogBodySchema,
  ProvLogResponseSchema,
  ProvRunTestBodySchema,
  CommandViewSchema,
  PROV_TEST_COMMAND,
  ProvLabelQuerySchema,
  ProvLabelsBodySchema,
  isProvisioning,
  isStaffAdmin,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireGroup } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import { guardOf } from '../../plugins/route-security';
import { BinaryFileSchema, fileResponse } from '../../plugins/swagger';
import { forbidden, unauthenticated } from '../../errors';
import type { FileAnswer, ProvisioningService } from './provisioning.service';
import type { ProvDevicesService } from './prov-devices.service';

function sendFile(reply: FastifyReply, file: FileAnswer) {
  if (file.warning) reply.header(PORTAL_WARNING_HEADER, file.warning);
  return reply
    .type(file.contentType)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'no-store')
    .send(file.body);
}

export function registerProvisioningRoutes(
  app: FastifyInstance,
  provisioning: ProvisioningService,
  devices: ProvDevicesService,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** provisioning_account or senquip_admin: every call here but the packing slip. */
  const requireProvisioning = guardOf('session', async (request: FastifyRequest): Promise<void> => {
    if (!request.user) throw unauthenticated();
    const groups = request.user.userGroups;
    if (!isProvisioning(groups) && !isStaffAdmin(groups)) throw forbidden();
  });
  const author = (request: FastifyRequest) => request.user?.email ?? null;

  // ---- devices (staff) ------------------------------------------------------------------

  r.post(
    '/api/prov-portal-edit-device/:id',
    {
      onRequest: requireProvisioning,
      schema: {
        tags: ['provisioning'],
        summary: 'Create a device (answers its setup password and device key, once) or edit it',
        params: DeviceIdParamsSchema,
        body: ProvEditDeviceBodySchema,
        response: { 200: ProvDeviceSchema, 201: ProvDeviceSchema, ...errorResponses(400, 401, 403, 409, 503) },
      },
    },
    async (request, reply) => {
      const { created, device } = await devices.provision(request.params.id, request.body, author(request));
      return reply.code(created ? 201 : 200).send(device);
    },
  );

  r.get(
    '/api/prov-portal-get-device/:id',
    {
      onRequest: requireProvisioning,
      schema: {
        tags: ['provisioning'],
        summary: 'The provisioning record of a device',
        params: DeviceIdParamsSchema,
        response: { 200: ProvDeviceSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => devices.provDevice(request.params.id),
  );

  r.get(
    '/api/prov-portal-device-exists/:id',
    {
      onRequest: requireProvisioning,
      schema: {
        tags: ['provisioning'],
        summary: 'Whether a device with the id exists (200 either way)',
        description:
          'Provisioning asks this before it creates a device: a free id answers exists false, not a 404, so the browser logs no error.',
        params: DeviceIdParamsSchema,
        response: { 200: ProvDeviceExistsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => devices.provDeviceExists(request.params.id),
  );

  r.get(
    '/api/prov-portal-get-device-log/:id',
    {
      onRequest: requireProvisioning,
      schema: {
        tags: ['provisioning'],
        summary: 'The provisioning log of a device',
        params: DeviceIdParamsSchema,
        response: { 200: ProvLogResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => devices.provLog(request.params.id),
  );

  r.post(
    '/api/prov-portal-add-device-log/:id',
    {
      onRequest: requireProvisioning,
      schema: {
        tags: ['provisioning'],
        summary: 'Add an entry to the provisioning log of a device',
        params: DeviceIdParamsSchema,
        body: ProvLogBodySchema,
        response: { 200: ProvLogResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => devices.addProvLog(request.params.id, request.body.message, author(request)),
  );

  r.post(
    '/api/prov-portal-run-test/:id',
    {
      onRequest: requireProvisioning,
      schema: {
        tags: ['provisioning'],
        summary: `Queue a provisioning test: command '${PROV_TEST_COMMAND}' {method, fw}, written to the provisioning log; a device a customer has added needs its setup password as provLockOverrideCode`,
        params: DeviceIdParamsSchema,
        body: ProvRunTestBodySchema,
        response: { 200: CommandViewSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => devices.runProvTest(request.params.id, request.body, signedInUser(request)),
  );

  // ---- labels and packing slips ---------------------------------------------------------

  r.get(
    '/api/prov-portal-get-device-label/:id',
    {
      onRequest: requireProvisioning,
      schema: {
        tags: ['provisioning'],
        summary:
          "The printable label of a device as a blob: a PDF page (format=pdf, the default) or a PNG of the same drawing (format=png, 300 dpi): id, model, firmware, setup password and a QR code of {origin}/add?device={id}, {origin} being the configured host of the device's brand (PUBLIC_URL, BRAND_HOSTS). Without PUBLIC_URL the answer carries the header X-Portal-Warning (the QR code opens localhost). Written to the provisioning log.",
        params: DeviceIdParamsSchema,
        querystring: ProvLabelQuerySchema,
        response: {
          200: fileResponse(
            'The label, sent as an attachment {id}.pdf or {id}.png',
            Object.values(LABEL_CONTENT_TYPES),
            BinaryFileSchema,
          ),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) =>
      sendFile(reply, await provisioning.label(request.params.id, request.query.format, author(request))),
  );

  r.post(
    '/api/prov-portal-labels',
    {
      onRequest: requireProvisioning,
      schema: {
        tags: ['provisioning'],
        summary: `The labels of 1 to ${PROV_LIMITS.batchMax} devices as one PDF, one page per device in the order given, each QR code on the host of its device's brand; each written to the provisioning log. Unknown ids: 404 naming them, nothing made. Without PUBLIC_URL the answer carries the header X-Portal-Warning.`,
        body: ProvLabelsBodySchema,
        response: {
          200: fileResponse(
            'PDF, sent as an attachment labels-{count}-{first id}.pdf',
            [LABEL_CONTENT_TYPES.pdf],
            BinaryFileSchema,
          ),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => sendFile(reply, await provisioning.labels(request.body.deviceList, author(request))),
  );

  r.post(
    '/api/billing-packing-slip',
    {
      onRequest: requireGroup(STAFF_ADMIN_GROUP),
      schema: {
        tags: ['billing'],
        summary: `A packing slip (PDF) for 1 to ${PROV_LIMITS.batchMax} devices: date, reference, address, a table of the devices (id, model, firmware) and their count (staff admins). Unknown ids: 404 naming them, nothing made.`,
        body: PackingSlipBodySchema,
        response: {
          200: fileResponse(
            'PDF, sent as an attachment packing-slip-{date}.pdf',
            [LABEL_CONTENT_TYPES.pdf],
            BinaryFileSchema,
          ),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => sendFile(reply, await provisioning.packingSlip(request.body, request.brand.name)),
  );
}
