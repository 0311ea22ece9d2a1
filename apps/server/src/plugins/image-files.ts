/**
 * The routes of the stored image files (device notes images, widget card images, users' brand
 * images; the files are modules/images'): one body limit for their uploads, one answer document
 * and one way to serve them.
 */
import type { FastifyReply } from 'fastify';
import { IMAGE_MAX_BASE64 } from '@portal/core';
import { errorResponses } from './errors';
import { BinaryFileSchema, fileResponse } from './swagger';

/** An upload's body: the base64 of a 300 kB image and the JSON around it, so 300 kB + 1 gets the size message, not 413. */
export const IMAGE_BODY_LIMIT = IMAGE_MAX_BASE64 + 1024;

/** A stored image's bytes with their content type, cacheable privately for a day (its address changes with each upload). */
export function sendImage(reply: FastifyReply, image: { contentType: string; bytes: Buffer }): FastifyReply {
  return reply
    .type(image.contentType)
    .header('cache-control', 'private, max-age=86400')
    .header('x-content-type-options', 'nosniff')
    .send(image.bytes);
}

/** The answers of a GET that serves a stored image: the file in one of `types`, or 400, 401, 404. */
export function imageFileResponses(types: readonly string[]) {
  return { 200: fileResponse('The image file', types, BinaryFileSchema), ...errorResponses(400, 401, 404) };
}
