/** SQL of widget card images: the stored files (widget_images) and the card's image.path in the device's display settings. */
import type { ImageType } from '@portal/core';
import type { Db } from '../../db/db';
import { byteaBuffer } from '../../db/bytea';

/** The device row as an upload needs it, locked for the rest of the transaction. */
export interface WidgetDeviceRow {
  tier: string;
  added_ts: number | null;
  display_settings: Record<string, unknown>;
}

export async function lockDevice(db: Db, deviceId: string): Promise<WidgetDeviceRow | null> {
  const rows = await db.query<WidgetDeviceRow>(
    'SELECT tier, added_ts, display_settings FROM devices WHERE id = $1 FOR UPDATE',
    [deviceId],
  );
  return rows[0] ?? null;
}

/**
 * Stores a widget's image (replacing the one there); answers its time, which is `now` or, when that
 * is not later than the replaced image's, 1 ms after it (each upload gets a new address).
 */
export async function upsertWidgetImage(
  db: Db,
  deviceId: string,
  widgetId: string,
  contentType: ImageType,
  bytes: Buffer,
  now: Date,
): Promise<Date> {
  const rows = await db.query<{ updated_at: Date }>(
    `INSERT INTO widget_images (device_id, widget_id, content_type, bytes, updated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (device_id, widget_id) DO UPDATE SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes,
       updated_at = GREATEST(EXCLUDED.updated_at, widget_images.updated_at + interval '1 millisecond')
     RETURNING updated_at`,
    [deviceId, widgetId, contentType, bytes, now],
  );
  return rows[0]!.updated_at;
}

/** Removes the images of the device's widgets other than `keep` (widget ids). */
export async function deleteWidgetImagesExcept(db: Db, deviceId: string, keep: readonly string[]): Promise<void> {
  await db.query('DELETE FROM widget_images WHERE device_id = $1 AND NOT (widget_id = ANY($2::text[]))', [
    deviceId,
    keep,
  ]);
}

export interface WidgetImageRow {
  content_type: ImageType;
  bytes: Buffer;
}

export async function findWidgetImage(db: Db, deviceId: string, widgetId: string): Promise<WidgetImageRow | null> {
  const rows = await db.query<{ content_type: ImageType; bytes: Uint8Array }>(
    'SELECT content_type, bytes FROM widget_images WHERE device_id = $1 AND widget_id = $2',
    [deviceId, widgetId],
  );
  const row = rows[0];
  if (!row) return null;
  return { content_type: row.content_type, bytes: byteaBuffer(row.bytes) };
}

export async function deleteWidgetImage(db: Db, deviceId: string, widgetId: string): Promise<void> {
  await db.query('DELETE FROM widget_images WHERE device_id = $1 AND widget_id = $2', [deviceId, widgetId]);
}

/**
 * Sets image.path of the device's widget card `widgetId` (its other image fields kept); a device
 * without that card is left as it is.
 */
export async function setWidgetImagePath(
  db: Db,
  deviceId: string,
  widgetId: string,
  path: string | null,
): Promise<void> {
  await db.query(
    `UPDATE devices
        SET display_settings = jsonb_set(
              display_settings,
              ARRAY[$2::text, 'image'],
              CASE WHEN jsonb_typeof(display_settings -> $2 -> 'image') = 'object'
                   THEN display_settings -> $2 -> 'image' ELSE '{}'::jsonb END
                || jsonb_build_object('path', $3::text))
      WHERE id = $1 AND jsonb_typeof(display_settings -> $2) = 'object'`,
    [deviceId, widgetId, path],
  );
}
