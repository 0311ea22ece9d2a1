/**
 * A customer's sub-brand logo (spec 1 sections 1 and 3; BRD-13): a user's brand image, which the
 * session carries as its address and the navigation bar shows on brands that allow a sub-brand.
 * Staff set and remove it on the staff user page (PUT/DELETE /api/staff/user/{userid}/brand-image);
 * the user themself (and staff) read it at /api/user/{userid}/brand-image. A png, jpeg or webp of
 * at most 300 kB (DESIGN.md section 5's file storage), its type read from its first bytes (never
 * from a file name or a declared type). SVG is refused: it may carry script.
 */
import { z } from 'zod';
import { IMAGE_MAX_BASE64, IMAGE_NOT_BASE64_MESSAGE, IMAGE_TOO_LARGE_MESSAGE, base64Head } from '../domain/validation';
import { safeString } from './fields';

export const BRAND_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type BrandImageType = (typeof BRAND_IMAGE_TYPES)[number];

export const BRAND_IMAGE_MESSAGES = {
  type: 'Only png, jpeg or webp images can be used as a brand image.',
  tooLarge: IMAGE_TOO_LARGE_MESSAGE,
  notBase64: IMAGE_NOT_BASE64_MESSAGE,
  saved: 'Brand image saved.',
  removed: 'Brand image removed.',
  notFound: 'This user has no brand image.',
  userNotFound: 'User not found.',
} as const;

/** Bytes read to tell the type: webp's RIFF....WEBP header is the longest. */
const HEAD_BYTES = 12;
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
/** Each type's bytes at their offsets: PNG's signature, JPEG's SOI and next marker, WebP's RIFF container. */
const MAGIC: Record<BrandImageType, readonly (readonly [number, readonly number[]])[]> = {
  'image/png': [[0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]]],
  'image/jpeg': [[0, [0xff, 0xd8, 0xff]]],
  'image/webp': [
    [0, ascii('RIFF')],
    [8, ascii('WEBP')],
  ],
};

/** The image type its first bytes say, or null (anything else, SVG included). */
export function brandImageTypeOf(head: ArrayLike<number>): BrandImageType | null {
  return (
    BRAND_IMAGE_TYPES.find((type) =>
      MAGIC[type].every(([offset, bytes]) => bytes.every((byte, i) => head[offset + i] === byte)),
    ) ?? null
  );
}

/** The type of an upload's base64 text by its first bytes (null: not one of the three). */
export function brandImageTypeOfBase64(dataBase64: string): BrandImageType | null {
  return brandImageTypeOf(base64Head(dataBase64, HEAD_BYTES));
}

/** Checks an upload: at most 300 kB, valid base64, a png, jpeg or webp by its bytes; the error or null. */
export function brandImageUploadError(dataBase64: string): string | null {
  if (dataBase64.length > IMAGE_MAX_BASE64) return BRAND_IMAGE_MESSAGES.tooLarge;
  if (dataBase64.length === 0 || dataBase64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(dataBase64)) {
    return BRAND_IMAGE_MESSAGES.notBase64;
  }
  return brandImageTypeOfBase64(dataBase64) ? null : BRAND_IMAGE_MESSAGES.type;
}

/** PUT /api/staff/user/{userid}/brand-image: the image file as base64 (its type is read from it). */
export const UserBrandImagePutBodySchema = z
  .strictObject({
    dataBase64: safeString({ message: 'dataBase64 must be text' }).describe(
      'The image file as base64: a png, jpeg or webp (told by its first bytes) of at most 300 kB decoded',
    ),
  })
  .superRefine((body, ctx) => {
    // No path: the message is shown as is ('Image too large. (300 kB limit)').
    const error = brandImageUploadError(body.dataBase64);
    if (error) ctx.addIssue({ code: 'custom', message: error });
  });
export type UserBrandImagePutBody = z.infer<typeof UserBrandImagePutBodySchema>;

export const UserBrandImageParamsSchema = z.strictObject({ userid: safeString().min(1).max(64) });

/** The answer of PUT and DELETE: the user's brand image address now (null: none), and what was done. */
export const UserBrandImageResponseSchema = z.object({
  userId: z.string(),
  brandImageUrl: z.string().nullable(),
  message: z.string(),
});
export type UserBrandImageResponse = z.infer<typeof UserBrandImageResponseSchema>;

/**
 * The address that serves a user's brand image, as the session carries it; `version` (the upload
 * time, epoch ms) changes with each upload, so a cached copy is never shown for a new one.
 */
export function userBrandImagePath(userId: string, version: number): string {
  return `/api/user/${encodeURIComponent(userId)}/brand-image?v=${version}`;
}
