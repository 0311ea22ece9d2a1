/** SQL of widget card images: the device row an upload locks and the card's image.path in its display settings (the files are in the image store). */
import type { Db } from '../../db/db';

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
