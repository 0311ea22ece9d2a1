/**
 * The one store of image files (DESIGN.md section 5's file storage): device notes images, widget
 * card images and users' brand images, each a png or jpeg (brand images also webp) of at most
 * 300 kB whose type the request's schema has read from its bytes. Each owner decides who may
 * read and write and where the image's address goes (devices, widget-images, user-brand-image);
 * this store keeps the bytes, gives each upload a time later than the one it replaces (the address
 * changes with each upload) and answers 404 with the store's message for an image that is not there.
 */
import { BRAND_IMAGE_MESSAGES, DEVICE_MESSAGES, WIDGET_IMAGE_MESSAGES } from '@portal/core';
import type { Clock } from '../../clock';
import type { Db } from '../../db/db';
import { AppError } from '../../errors';
import * as repo from './images.repository';
import type { ImageStoreName, ImageStores } from './images.repository';

export type { ImageStoreName, ImageStores } from './images.repository';

/** A stored image as served: its content type and bytes. */
export interface StoredImage<S extends ImageStoreName = ImageStoreName> {
  contentType: ImageStores[S]['type'];
  bytes: Buffer;
}

/** What the image store offers its owners. */
export interface ImagesService {
  /** Stores an image under `key` in the owner's transaction `tx` (replacing the one there); answers its upload time, later than the replaced image's. */
  put<S extends ImageStoreName>(
    tx: Db,
    store: S,
    key: ImageStores[S]['key'],
    contentType: ImageStores[S]['type'],
    bytes: Buffer,
  ): Promise<Date>;
  /** The stored image; 404 with the store's message when there is none. */
  get<S extends ImageStoreName>(store: S, key: ImageStores[S]['key']): Promise<StoredImage<S>>;
  /** Removes the image under `key` in the owner's transaction `tx` (none there is fine). */
  remove<S extends ImageStoreName>(tx: Db, store: S, key: ImageStores[S]['key']): Promise<void>;
  /** Removes the widget card images of a device other than those of `keep` (widget ids), in `tx`. */
  removeWidgetImagesExcept(tx: Db, deviceId: string, keep: readonly string[]): Promise<void>;
  /** The 404 of a store's image that is not there (also for a reader who may not see it). */
  notFound(store: ImageStoreName): AppError;
}

export interface ImagesDeps {
  db: Db;
  clock: Clock;
}

const NOT_FOUND_MESSAGES: Record<ImageStoreName, string> = {
  notes: DEVICE_MESSAGES.notesImageNotFound,
  widget: WIDGET_IMAGE_MESSAGES.notFound,
  brand: BRAND_IMAGE_MESSAGES.notFound,
};

export function createImagesService({ db, clock }: ImagesDeps): ImagesService {
  const notFound = (store: ImageStoreName) => new AppError(404, 'NOT_FOUND', NOT_FOUND_MESSAGES[store]);
  return {
    put(tx, store, key, contentType, bytes) {
      return repo.upsertImage(tx, store, key, contentType, bytes, clock.now());
    },

    async get(store, key) {
      const image = await repo.findImage(db, store, key);
      if (!image) throw notFound(store);
      return { contentType: image.content_type, bytes: image.bytes };
    },

    remove(tx, store, key) {
      return repo.deleteImage(tx, store, key);
    },

    removeWidgetImagesExcept(tx, deviceId, keep) {
      return repo.deleteWidgetImagesExcept(tx, deviceId, keep);
    },

    notFound,
  };
}
