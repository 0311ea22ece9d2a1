/** Widget card images: PUT, GET and DELETE /api/device/{id}/widget-image/{widgetid}. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  IMAGE_MAX_BYTES,
  IMAGE_TYPES,
  WidgetImageParamsSchema,
  WidgetImagePutBodySchema,
  WidgetImageResponseSchema,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { IMAGE_BODY_LIMIT, imageFileResponses, sendImage } from '../../plugins/image-files';
import { requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { WidgetImagesService } from './widget-images.service';

export function registerWidgetImagesRoutes(app: FastifyInstance, images: WidgetImagesService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/device/:id/widget-image/:widgetid',
    {
      onRequest: requireUser,
      schema: {
        tags: ['device'],
        summary:
          "A widget card's image (any role on the device): its bytes with their content type, cacheable privately for a day (the address in the card's image.path changes with each upload)",
        params: WidgetImageParamsSchema,
        response: imageFileResponses(IMAGE_TYPES),
      },
    },
    async (request, reply) => {
      const { id, widgetid } = request.params;
      const image = await images.get(signedInUser(request), id, widgetid);
      return sendImage(reply, image);
    },
  );

  r.put(
    '/api/device/:id/widget-image/:widgetid',
    {
      onRequest: requireUser,
      bodyLimit: IMAGE_BODY_LIMIT,
      schema: {
        tags: ['device'],
        summary: `Upload a widget card's image (editDisplaySettings; a plan with data to the portal): ${IMAGE_TYPES.join(' or ')} of at most ${IMAGE_MAX_BYTES / 1024} kB, checked by its first bytes. Answers its address /api/device/{id}/widget-image/{widgetid}?v={upload time, epoch ms}, which a saved card's image.path becomes at once (a new card saves it with PUT settings)`,
        params: WidgetImageParamsSchema,
        body: WidgetImagePutBodySchema,
        response: { 200: WidgetImageResponseSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    (request) => images.put(signedInUser(request), request.params.id, request.params.widgetid, request.body),
  );

  r.delete(
    '/api/device/:id/widget-image/:widgetid',
    {
      onRequest: requireUser,
      schema: {
        tags: ['device'],
        summary:
          "Remove a widget card's image (editDisplaySettings; none there is fine): the card's image.path becomes null",
        params: WidgetImageParamsSchema,
        response: { 200: WidgetImageResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => images.remove(signedInUser(request), request.params.id, request.params.widgetid),
  );
}
