/**
 * Customer sub-brand logos (BRD-13; DESIGN.md section 5's file storage): a user's brand image, a
 * png, jpeg or webp of at most 300 kB whose type is read from its bytes. Staff admins set and
 * remove it (the routes check the staff group); the user's brand_image_url then points at it, so
 * the session carries it and the navigation bar shows it on brands that allow a sub-brand. The
 * image is served to the user themself and to staff admins; anyone else gets the same 404 as for
 * a user without one.
 */
import {
  BRAND_IMAGE_MESSAGES,
  isStaffAdmin,
  brandImageTypeOfBase64,
  userBrandImagePath,
  type BrandImageType,
  type UserBrandImagePutBody,
  type UserBrandImageResponse,
} from '@portal/core';
import type { Db } from '../../db/db';
import { AppError } from '../../errors';
import type { User } from '../auth/auth.service';
import type { ImagesService, StoredImage } from '../images/images.service';
import * as repo from './user-brand-image.repository';

/** What the sub-brand logos offer their routes. */
export interface UserBrandImageService {
  /** Stores the user's brand image (the body is checked by UserBrandImagePutBodySchema) and points the session at it. */
  put(userId: string, body: UserBrandImagePutBody): Promise<UserBrandImageResponse>;
  /** Removes the user's brand image (none there is fine); the session carries none. */
  remove(userId: string): Promise<UserBrandImageResponse>;
  /** The image, to the user themself or a staff admin; 404 to anyone else and when there is none. */
  get(viewer: User, userId: string): Promise<StoredImage<'brand'>>;
}

export interface UserBrandImageDeps {
  db: Db;
  /** The image store that keeps the files. */
  images: ImagesService;
}

const userNotFound = () => new AppError(404, 'NOT_FOUND', BRAND_IMAGE_MESSAGES.userNotFound);

export function createUserBrandImageService({ db, images }: UserBrandImageDeps): UserBrandImageService {
  return {
    async put(userId, body) {
      // The schema accepted only a png, jpeg or webp by its bytes.
      const contentType = brandImageTypeOfBase64(body.dataBase64) as BrandImageType;
      const bytes = Buffer.from(body.dataBase64, 'base64');
      return db.transaction(async (tx) => {
        if (!(await repo.lockUser(tx, userId))) throw userNotFound();
        const updatedAt = await images.put(tx, 'brand', [userId], contentType, bytes);
        const brandImageUrl = userBrandImagePath(userId, updatedAt.getTime());
        await repo.setBrandImageUrl(tx, userId, brandImageUrl);
        return { userId, brandImageUrl, message: BRAND_IMAGE_MESSAGES.saved };
      });
    },

    async remove(userId) {
      return db.transaction(async (tx) => {
        if (!(await repo.lockUser(tx, userId))) throw userNotFound();
        await images.remove(tx, 'brand', [userId]);
        await repo.setBrandImageUrl(tx, userId, null);
        return { userId, brandImageUrl: null, message: BRAND_IMAGE_MESSAGES.removed };
      });
    },

    async get(viewer, userId) {
      if (viewer.id !== userId && !isStaffAdmin(viewer.userGroups)) throw images.notFound('brand');
      return images.get('brand', [userId]);
    },
  };
}
