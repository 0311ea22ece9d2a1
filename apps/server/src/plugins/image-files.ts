/**
 * The stored image files (device notes images, widget card images, users' brand images): one
 * body limit for their uploads and one way to serve them.
 */
import type { FastifyReply } from 'fastify';
import { IMAGE_MAX_BASE64 } from '@portal/core';

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
