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
import type { ImagesService, StoredImage } from '../images/images.service';
import * as repo from './widget-images.repository';

/** What the widget card images offer their routes. */
export interface WidgetImagesService {
  /**
   * Stores the image of widget card `widgetId` (the body is checked by WidgetImagePutBodySchema)
   * and answers its address. Refused on a plan without data to the portal, and for a new card
   * on a device that holds 99 already.
   */
  put(user: User, deviceId: string, widgetId: string, body: WidgetImagePutBody): Promise<WidgetImageResponse>;
  /** Removes the image (none there is fine); the card's image.path becomes null. */
  remove(user: User, deviceId: string, widgetId: string): Promise<WidgetImageResponse>;
  /** The stored image, to any role on the device; 404 when there is none. */
  get(user: User, deviceId: string, widgetId: string): Promise<StoredImage<'widget'>>;
}

export interface WidgetImagesDeps {
  db: Db;
  clock: Clock;
  access: AccessService;
  /** The image store that keeps the files. */
  images: ImagesService;
}

const badRequest = (message: string) => new AppError(400, 'BAD_REQUEST', message);

export function createWidgetImagesService({ db, clock, access, images }: WidgetImagesDeps): WidgetImagesService {
  return {
    async put(user, deviceId, widgetId, body) {
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
        await images.removeWidgetImagesExcept(tx, deviceId, [...cards, widgetId]);
        // The schema accepted only png or jpeg whose bytes match.
        const contentType = body.contentType as ImageType;
        const updatedAt = await images.put(tx, 'widget', [deviceId, widgetId], contentType, bytes);
        const path = widgetImagePath(deviceId, widgetId, updatedAt.getTime());
        if (!isNew) await repo.setWidgetImagePath(tx, deviceId, widgetId, path);
        return { widgetid: widgetId, path };
      });
    },

    async remove(user, deviceId, widgetId) {
      await access.authorize(user.id, deviceId, 'editDisplaySettings');
      await db.transaction(async (tx) => {
        if (!(await repo.lockDevice(tx, deviceId))) throw deviceNotFound();
        await images.remove(tx, 'widget', [deviceId, widgetId]);
        await repo.setWidgetImagePath(tx, deviceId, widgetId, null);
      });
      return { widgetid: widgetId, path: null };
    },

    async get(user, deviceId, widgetId) {
      await access.authorize(user.id, deviceId, null);
      return images.get('widget', [deviceId, widgetId]);
    },
  };
}
