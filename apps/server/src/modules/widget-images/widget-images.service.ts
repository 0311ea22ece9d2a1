/**
 * Widget card images (spec 2 sections 2 and 3; WGT-13): the background image of a device's widget
 * card, a png or jpeg of at most 300 kB in the portal's file storage. Writing needs
 * editDisplaySettings (the card's own capability) and a plan with data to the portal, like the
 * card; any device role reads. An upload points the card's image.path at the new address when
 * the card is saved already (a card being made gets it with its first save), and takes the
 * images of cards that no longer exist with it, so a device keeps at most one image per card.
 */
import {
  CUSTOM_WIDGET_LIMIT,
  PLANS,
  WIDGET_IMAGE_MESSAGES,
  authoredCount,
  devicePlan,
  unavailableFeatureMessage,
  widgetImagePath,
  widgetKeys,
  widgetLimitMessage,
  type ImageType,
  type WidgetImagePutBody,
  type WidgetImageResponse,
} from '@portal/core';
import type { Clock } from '../../clock';
import type { Db } from '../../db/db';
import { AppError } from '../../errors';
import type { User } from '../auth/auth.service';
import { deviceNotFound, type AccessService } from '../access/access.service';
import * as repo from './widget-images.repository';

export interface WidgetImagesDeps {
  db: Db;
  clock: Clock;
  access: AccessService;
}

const badRequest = (message: string) => new AppError(400, 'BAD_REQUEST', message);

export function createWidgetImagesService({ db, clock, access }: WidgetImagesDeps) {
  return {
    /**
     * Stores the image of widget card `widgetId` (the body is checked by WidgetImagePutBodySchema)
     * and answers its address. Refused on a plan without data to the portal, and for a new card
     * on a device that holds 99 already.
     */
    async put(user: User, deviceId: string, widgetId: string, body: WidgetImagePutBody): Promise<WidgetImageResponse> {
      await access.authorize(user.id, deviceId, 'editDisplaySettings');
      const bytes = Buffer.from(body.dataBase64, 'base64');
      return db.transaction(async (tx) => {
        const row = await repo.lockDevice(tx, deviceId);
        if (!row) throw deviceNotFound();
        const plan = devicePlan(row, clock.now().getTime());
        if (!PLANS[plan].dataToPortal) throw badRequest(unavailableFeatureMessage('Widgets', plan));
        const cards = widgetKeys(row.display_settings ?? {});
        const isNew = !cards.includes(widgetId);
        if (isNew && authoredCount(row.display_settings ?? {}, 'widget') >= CUSTOM_WIDGET_LIMIT) {
          throw badRequest(widgetLimitMessage('widget', CUSTOM_WIDGET_LIMIT));
        }
        await repo.deleteWidgetImagesExcept(tx, deviceId, [...cards, widgetId]);
        // The schema accepted only png or jpeg whose bytes match.
        const contentType = body.contentType as ImageType;
        const updatedAt = await repo.upsertWidgetImage(tx, deviceId, widgetId, contentType, bytes, clock.now());
        const path = widgetImagePath(deviceId, widgetId, updatedAt.getTime());
        if (!isNew) await repo.setWidgetImagePath(tx, deviceId, widgetId, path);
        return { widgetid: widgetId, path };
      });
    },

    /** Removes the image (none there is fine); the card's image.path becomes null. */
    async remove(user: User, deviceId: string, widgetId: string): Promise<WidgetImageResponse> {
      await access.authorize(user.id, deviceId, 'editDisplaySettings');
      await db.transaction(async (tx) => {
        if (!(await repo.lockDevice(tx, deviceId))) throw deviceNotFound();
        await repo.deleteWidgetImage(tx, deviceId, widgetId);
        await repo.setWidgetImagePath(tx, deviceId, widgetId, null);
      });
      return { widgetid: widgetId, path: null };
    },

    /** The stored image, to any role on the device; 404 when there is none. */
    async get(user: User, deviceId: string, widgetId: string): Promise<{ contentType: ImageType; bytes: Buffer }> {
      await access.authorize(user.id, deviceId, null);
      const image = await repo.findWidgetImage(db, deviceId, widgetId);
      if (!image) throw new AppError(404, 'NOT_FOUND', WIDGET_IMAGE_MESSAGES.notFound);
      return { contentType: image.content_type, bytes: image.bytes };
    },
  };
}

export type WidgetImagesService = ReturnType<typeof createWidgetImagesService>;
