import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CUSTOM_WIDGET_LIMIT,
  GroupParamsSchema,
  ViewDeleteBodySchema,
  ViewDeleteResponseSchema,
  ViewListResponseSchema,
  ViewPutBodySchema,
  ViewSaveResponseSchema,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { ViewsService } from './views.service';

/** A save carries the whole view: up to 99 widgets with their settings and three layouts each. */
const VIEW_BODY_LIMIT = 1024 * 1024;

/** The view calls of spec 1 section 7. A non-member gets 404 'Group not found'; VIEW and OPERATOR members 403 on writes. */
export function registerViewsRoutes(app: FastifyInstance, views: ViewsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['groups'];

  r.get(
    '/api/group/:groupid/views',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: "The group's views by sortOrder, or the default view when it has none (members)",
        params: GroupParamsSchema,
        response: { 200: ViewListResponseSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => views.list(signedInUser(request), request.params.groupid),
  );

  r.put(
    '/api/group/:groupid/view',
    {
      onRequest: requireUser,
      bodyLimit: VIEW_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Create a view (no viewid) or save one over the version it was made on (ADMIN, USER)',
        description: `The body is {view}. Without viewid the view is created with the id 'v-' + 8 characters; with viewid, \`version\` (the one loaded) is required and a save on an older version answers 409 with nothing changed. A blank name becomes 'View {n+1}'; names are sanitised. At most ${CUSTOM_WIDGET_LIMIT} widgets and one map per view, table widgets neither removed nor resized. Answers the view as saved with its new version.`,
        params: GroupParamsSchema,
        body: ViewPutBodySchema,
        response: { 200: ViewSaveResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 413) },
      },
    },
    (request) => views.save(signedInUser(request), request.params.groupid, request.body.view),
  );

  r.delete(
    '/api/group/:groupid/view',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Delete a view ({viewid}); with none left the group shows the default view (ADMIN, USER)',
        params: GroupParamsSchema,
        body: ViewDeleteBodySchema,
        response: { 200: ViewDeleteResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => views.remove(signedInUser(request), request.params.groupid, request.body.viewid),
  );
}
