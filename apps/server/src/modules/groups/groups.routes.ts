import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  GROUP_DATA_DEFAULT_DAYS,
  GROUP_DATA_MAX_DAYS,
  GROUP_DATA_MAX_KEYS,
  GROUP_DATA_MESSAGES_DEFAULT,
  GROUP_DATA_MESSAGES_MAX,
  GroupDataQuerySchema,
  GroupDataResponseSchema,
  GroupBodySchema,
  GroupDevicesDeleteBodySchema,
  GroupDevicesPutBodySchema,
  GroupDevicesResultSchema,
  GroupListResponseSchema,
  GroupParamsSchema,
  GroupPermissionsResponseSchema,
  GroupResponseSchema,
  GroupResultSchema,
  GroupServerLogResponseSchema,
  GroupUserDeleteBodySchema,
  GroupUserDeleteResponseSchema,
  GroupUserPostBodySchema,
  GroupUserPutBodySchema,
  GroupUserResultSchema,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { LARGE_ANSWER_COMPRESSION } from '../../plugins/compression';
import { requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { GroupsService } from './groups.service';
import type { GroupDataService } from './group-data.service';

/** The group calls of spec 1 section 7. A non-member gets 404 'Group not found'; a member below the level 403. */
export function registerGroupsRoutes(app: FastifyInstance, groups: GroupsService, groupData: GroupDataService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['groups'];

  r.get(
    '/api/groups',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'The groups the signed-in user belongs to, each with its level and device count',
        response: { 200: GroupListResponseSchema, ...errorResponses(401) },
      },
    },
    (request) => groups.listForUser(signedInUser(request).id),
  );

  r.post(
    '/api/group',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Create a group ({groupName}); the caller is its ADMIN',
        body: GroupBodySchema,
        response: { 200: GroupResultSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => groups.create(signedInUser(request), request.body.groupName),
  );

  r.get(
    '/api/group/:groupid',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'The group: name, device summaries and the caller level (members)',
        params: GroupParamsSchema,
        response: { 200: GroupResponseSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => groups.get(signedInUser(request), request.params.groupid),
  );

  r.get(
    '/api/group/:groupid/data',
    {
      onRequest: requireUser,
      compress: LARGE_ANSWER_COMPRESSION,
      schema: {
        tags,
        summary:
          "The group's data for its table, map and headlines: per device summary, values, counts, messages (members)",
        description: `Per device: the summary fields, last contact (ts), the latest value of each of \`keys\` (a comma list, at most ${GROUP_DATA_MAX_KEYS}), with \`stats\` (a comma list of keys, as many) the count, sum, min and max of each of those keys' numeric values in the range (from the hourly and daily rollups), event counts by level and the newest \`messages\` event messages (default ${GROUP_DATA_MESSAGES_DEFAULT}, at most ${GROUP_DATA_MESSAGES_MAX}) within the range, position (gps_lat, gps_lon, gps_hdop) and marker severity. \`from\`/\`to\` are epoch seconds (default: the last ${GROUP_DATA_DEFAULT_DAYS} days to now; at most ${GROUP_DATA_MAX_DAYS} days), floored to whole hours, the end's hour counted whole. Read from what ingest keeps ready.`,
        params: GroupParamsSchema,
        querystring: GroupDataQuerySchema,
        response: { 200: GroupDataResponseSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const json = await groupData.data(signedInUser(request), request.params.groupid, request.query);
      // The service writes the answer's JSON itself (10,000 devices): its bytes are sent as
      // they are, not encoded again through the schema.
      return reply
        .type('application/json; charset=utf-8')
        .send(json as unknown as z.input<typeof GroupDataResponseSchema>);
    },
  );

  r.put(
    '/api/group/:groupid',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Rename the group (ADMIN)',
        params: GroupParamsSchema,
        body: GroupBodySchema,
        response: { 200: GroupResultSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => groups.rename(signedInUser(request), request.params.groupid, request.body.groupName),
  );

  r.delete(
    '/api/group/:groupid',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Delete the group (ADMIN); its devices stay',
        params: GroupParamsSchema,
        response: { 200: GroupResultSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => groups.remove(signedInUser(request), request.params.groupid),
  );

  r.get(
    '/api/group/:groupid/serverlog',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'The group server log: every change and who made it, newest first (ADMIN)',
        params: GroupParamsSchema,
        response: { 200: GroupServerLogResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => groups.serverLog(signedInUser(request), request.params.groupid),
  );

  r.post(
    '/api/group/:groupid/user',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Share the group with an address at a level (ADMIN); an address without an account is invited',
        params: GroupParamsSchema,
        body: GroupUserPostBodySchema,
        response: { 200: GroupUserResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) =>
      groups.share(
        signedInUser(request),
        request.params.groupid,
        request.body.targetEmail,
        request.body.targetPermission,
        {
          brand: request.brand,
          linkOrigin: request.linkOrigin,
        },
      ),
  );

  r.put(
    '/api/group/:groupid/user',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: "Change a member's level (targetUserID) or an invitation's (targetEmail) (ADMIN)",
        params: GroupParamsSchema,
        body: GroupUserPutBodySchema,
        response: { 200: GroupUserResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => groups.changeUser(signedInUser(request), request.params.groupid, request.body),
  );

  r.delete(
    '/api/group/:groupid/user',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Remove a member or an invitation (ADMIN), or yourself (resultCode REMOVED_SELF)',
        params: GroupParamsSchema,
        body: GroupUserDeleteBodySchema,
        response: { 200: GroupUserDeleteResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => groups.removeUser(signedInUser(request), request.params.groupid, request.body),
  );

  r.get(
    '/api/group/:groupid/permissions',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'The members and pending invitations; e-mails to ADMIN and USER (members)',
        params: GroupParamsSchema,
        response: { 200: GroupPermissionsResponseSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => groups.permissions(signedInUser(request), request.params.groupid),
  );

  r.put(
    '/api/group/:groupid/devices',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Move or copy devices to targetGroupid (ADMIN of both groups and of each device)',
        params: GroupParamsSchema,
        body: GroupDevicesPutBodySchema,
        response: { 200: GroupDevicesResultSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => groups.moveDevices(signedInUser(request), request.params.groupid, request.body),
  );

  r.delete(
    '/api/group/:groupid/devices',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Take devices out of the group; the devices stay (ADMIN)',
        params: GroupParamsSchema,
        body: GroupDevicesDeleteBodySchema,
        response: { 200: GroupDevicesResultSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => groups.removeDevices(signedInUser(request), request.params.groupid, request.body.deviceList),
  );
}
