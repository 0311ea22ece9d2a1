/**
 * Device notes images (DLG-21): the asset and brand image of PORTAL_deviceNotes, kept in the image
 * store. Writing needs editDeviceNotes and sets notes.images[slot] to the image's address (null
 * when removed) in the same transaction; any role on the device reads.
 */
import {
  notesImagePath,
  type DeviceSettingsResponse,
  type ImageType,
  type NotesImagePutBody,
  type NotesImageSlot,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { User } from '../auth/auth.service';
import { deviceNotFound, type AccessService } from '../access/access.service';
import type { ImagesService, StoredImage } from '../images/images.service';
import type { DeviceSettingsService } from './device-settings.service';
import * as repo from './devices.repository';
import { asRecord } from './devices.summary';

/** What the notes images offer their routes. */
export interface DeviceNotesImagesService {
  /** Stores an asset or brand image (editDeviceNotes) and points notes.images[slot] at it; answers the settings record. */
  putNotesImage(
    user: User,
    deviceId: string,
    slot: NotesImageSlot,
    body: NotesImagePutBody,
  ): Promise<DeviceSettingsResponse>;
  /** Removes an asset or brand image (editDeviceNotes; none there is fine), notes.images[slot] null; answers the settings record. */
  deleteNotesImage(user: User, deviceId: string, slot: NotesImageSlot): Promise<DeviceSettingsResponse>;
  /** The stored image of a slot, to any role on the device; 404 when there is none. */
  getNotesImage(user: User, deviceId: string, slot: NotesImageSlot): Promise<StoredImage<'notes'>>;
}

export interface DeviceNotesImagesDeps {
  db: Db;
  /** The one access gate. */
  access: AccessService;
  /** The image store that keeps the files. */
  images: ImagesService;
  /** The settings record, which the calls answer. */
  settings: Pick<DeviceSettingsService, 'record'>;
}

/** The notes with images[slot] set to the address of the stored image, or null for none. */
function withNotesImage(
  notes: Record<string, unknown>,
  slot: NotesImageSlot,
  path: string | null,
): Record<string, unknown> {
  return { ...notes, images: { ...asRecord(notes.images), [slot]: path } };
}

export function createDeviceNotesImagesService(deps: DeviceNotesImagesDeps): DeviceNotesImagesService {
  const { db, access, images, settings } = deps;
  return {
    async putNotesImage(user, deviceId, slot, body) {
      const role = await access.authorize(user.id, deviceId, 'editDeviceNotes');
      const bytes = Buffer.from(body.dataBase64, 'base64');
      await db.transaction(async (tx) => {
        const row = await repo.findDevice(tx, deviceId, true);
        if (!row) throw deviceNotFound();
        // The schema accepted only png or jpeg whose bytes match.
        const contentType = body.contentType as ImageType;
        const updatedAt = await images.put(tx, 'notes', [deviceId, slot], contentType, bytes);
        const path = notesImagePath(deviceId, slot, updatedAt.getTime());
        await repo.updateSettings(tx, deviceId, { notes: withNotesImage(row.notes, slot, path) });
      });
      return settings.record(user, deviceId, role);
    },

    async deleteNotesImage(user, deviceId, slot) {
      const role = await access.authorize(user.id, deviceId, 'editDeviceNotes');
      await db.transaction(async (tx) => {
        const row = await repo.findDevice(tx, deviceId, true);
        if (!row) throw deviceNotFound();
        await images.remove(tx, 'notes', [deviceId, slot]);
        await repo.updateSettings(tx, deviceId, { notes: withNotesImage(row.notes, slot, null) });
      });
      return settings.record(user, deviceId, role);
    },

    async getNotesImage(user, deviceId, slot) {
      await access.authorize(user.id, deviceId, null);
      return images.get('notes', [deviceId, slot]);
    },
  };
}
