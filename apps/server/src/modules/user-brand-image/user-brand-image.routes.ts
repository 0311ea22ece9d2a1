/**
 * Customer sub-brand logos (BRD-13): GET /api/user/{userid}/brand-image (the user themself, or
 * staff), PUT and DELETE /api/staff/user/{userid}/brand-image (staff admins only: 401 signed out,
 * 403 for anyone else, before the body is read).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BRAND_IMAGE_MESSAGES,
  BRAND_IMAGE_TYPES,
  IMAGE_MAX_BYTES,
  STAFF_ADMIN_GROUP,
  UserBrandImageParamsSchema,
  UserBrandImagePutBodySchema,
  UserBrandImageResponseSchema,
} from '@portal/core';
import { AppError } from '../../errors';
import { errorResponses } from '../../plugins/errors';
import { IMAGE_BODY_LIMIT, imageFileResponses, sendImage } from '../../plugins/image-files';
import { requireGroup, requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { UserBrandImageService } from './user-brand-image.service';

export function registerUserBrandImageRoutes(app: FastifyInstance, images: UserBrandImageService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const staffOnly = requireGroup(STAFF_ADMIN_GROUP);

  /** A body past the limit says what the limit is (413), like a file just over it does (400). */
  const tooLargeSaysSo = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    app.errorHandler(
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? new AppError(413, 'PAYLOAD_TOO_LARGE', BRAND_IMAGE_MESSAGES.tooLarge)
        : error,
      request,
      reply,
    );

  r.get(
    '/api/user/:userid/brand-image',
    {
      onRequest: requireUser,
      schema: {
        tags: ['account'],
        summary:
          "A user's brand image, the sub-brand logo their session carries (the user themself, or staff admins; 404 to anyone else): its bytes with their content type, cacheable privately for a day (the address changes with each upload)",
        params: UserBrandImageParamsSchema,
        response: imageFileResponses(BRAND_IMAGE_TYPES),
      },
    },
    async (request, reply) => {
      const image = await images.get(signedInUser(request), request.params.userid);
      return sendImage(reply, image);
    },
  );

  r.put(
    '/api/staff/user/:userid/brand-image',
    {
      onRequest: staffOnly,
      bodyLimit: IMAGE_BODY_LIMIT,
      errorHandler: tooLargeSaysSo,
      schema: {
        tags: ['staff'],
        summary: `Set a user's brand image, the sub-brand logo shown in the navigation bar on brands that allow one (staff admins): ${BRAND_IMAGE_TYPES.join(', ')} of at most ${IMAGE_MAX_BYTES / 1024} kB, its type read from its first bytes (SVG and anything else refused). The user's session then carries its address /api/user/{userid}/brand-image?v={upload time, epoch ms}`,
        params: UserBrandImageParamsSchema,
        body: UserBrandImagePutBodySchema,
        response: { 200: UserBrandImageResponseSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    (request) => images.put(request.params.userid, request.body),
  );

  r.delete(
    '/api/staff/user/:userid/brand-image',
    {
      onRequest: staffOnly,
      schema: {
        tags: ['staff'],
        summary: "Remove a user's brand image (staff admins; none there is fine): their session carries none",
        params: UserBrandImageParamsSchema,
        response: { 200: UserBrandImageResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => images.remove(request.params.userid),
  );
}
