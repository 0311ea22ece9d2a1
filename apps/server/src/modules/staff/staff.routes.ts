/**
 * Staff administration calls (senquip_admin only: 401 signed out, 403 for anyone else):
 * distributors (GET/POST/PUT /distributors, spec 2 section 7), assigning devices to one, finding
 * any device or user, the device and user dossiers, and GET /billing-admin-stats.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  STAFF_ADMIN_GROUP,
  STAFF_LIMITS,
  BillingAdminStatsResponseSchema,
  DistributorBodySchema,
  DistributorDevicesBodySchema,
  DistributorDevicesResponseSchema,
  DistributorSchema,
  DistributorsResponseSchema,
  StaffDeviceParamsSchema,
  StaffDeviceResponseSchema,
  StaffSearchQuerySchema,
  StaffSearchResponseSchema,
  StaffUserParamsSchema,
  StaffUserResponseSchema,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireGroup } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { StaffService } from './staff.service';

export function registerStaffRoutes(app: FastifyInstance, staff: StaffService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const staffOnly = requireGroup(STAFF_ADMIN_GROUP);

  r.get(
    '/api/distributors',
    {
      onRequest: staffOnly,
      schema: {
        tags: ['staff'],
        summary: 'Every distributor, by name, with the number of devices assigned to it (staff admins)',
        response: { 200: DistributorsResponseSchema, ...errorResponses(401, 403) },
      },
    },
    () => staff.listDistributors(),
  );

  r.post(
    '/api/distributors',
    {
      onRequest: staffOnly,
      schema: {
        tags: ['staff'],
        summary: 'Create a distributor: id 0 (any other id is 400; PUT edits) (staff admins)',
        description:
          'name (1-80 characters, unique whatever the case: 409 when taken), contactEmail, country (ISO 3166 two-letter code) and notes (at most 1000 characters) are trimmed. Answers 201 with the distributor.',
        body: DistributorBodySchema,
        response: { 201: DistributorSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await staff.createDistributor(signedInUser(request), request.body)),
  );

  r.put(
    '/api/distributors',
    {
      onRequest: staffOnly,
      schema: {
        tags: ['staff'],
        summary: 'Edit an existing distributor: every field, by its id (0 is 400; an unknown id 404) (staff admins)',
        body: DistributorBodySchema,
        response: { 200: DistributorSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => staff.editDistributor(signedInUser(request), request.body),
  );

  r.put(
    '/api/distributor-devices',
    {
      onRequest: staffOnly,
      schema: {
        tags: ['staff'],
        summary:
          'Assign devices to a distributor (distributorId null: to none), recorded with who and when (staff admins)',
        description: `deviceList: 1 to ${STAFF_LIMITS.assignMax} device ids (trimmed, upper-cased, each counted once). All or nothing: unknown devices are named in a 404 and nothing changes. A device has one distributor; assigning it again moves it. Each device's server log records the change and who made it.`,
        body: DistributorDevicesBodySchema,
        response: { 200: DistributorDevicesResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => staff.assignDevices(signedInUser(request), request.body),
  );

  r.get(
    '/api/staff/search',
    {
      onRequest: staffOnly,
      schema: {
        tags: ['staff'],
        summary:
          'Any device whose id starts with q or whose name contains it, and any user whose address contains it (staff admins)',
        description: `q: ${STAFF_LIMITS.searchMin} to ${STAFF_LIMITS.searchMax} characters, case-insensitive; at most ${STAFF_LIMITS.searchResults} devices (id matches first) and ${STAFF_LIMITS.searchResults} users (addresses starting with q first).`,
        querystring: StaffSearchQuerySchema,
        response: { 200: StaffSearchResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => staff.search(request.query.q),
  );

  r.get(
    '/api/staff/device/:id',
    {
      onRequest: staffOnly,
      schema: {
        tags: ['staff'],
        summary:
          "A device's dossier: every user with their role and where it comes from, groups, plan, distributor, last contact and newest server-log lines (staff admins)",
        params: StaffDeviceParamsSchema,
        response: { 200: StaffDeviceResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => staff.device(request.params.id),
  );

  r.get(
    '/api/staff/user/:userid',
    {
      onRequest: staffOnly,
      schema: {
        tags: ['staff'],
        summary: "A user's dossier: their devices (highest role of each), groups and staff groups (staff admins)",
        params: StaffUserParamsSchema,
        response: { 200: StaffUserResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => staff.user(request.params.userid),
  );

  r.get(
    '/api/billing-admin-stats',
    {
      onRequest: staffOnly,
      schema: {
        tags: ['billing'],
        summary: 'Statistics of /sqstats (staff admins)',
        description:
          "Devices by plan (core devicePlan at the server's now), by model and by distributor; devices with a contact in the last 24 hours; for each of the last 12 months (UTC): subscriptions created and revenue (invoices paid in the configured currency, by the month paid); and the ingest rate: records stamped in the last hour, per minute.",
        response: { 200: BillingAdminStatsResponseSchema, ...errorResponses(401, 403) },
      },
    },
    () => staff.stats(),
  );
}
