/**
 * SQL of the stored image files: device notes images (device_images), widget card images
 * (widget_images) and users' brand images (user_brand_images), one table per owner, each keyed by
 * its owner's columns and holding the same fields (content type, bytes, upload time).
 */
import type { BrandImageType, ImageType, NotesImageSlot } from '@portal/core';
import type { Db } from '../../db/db';
import { byteaBuffer } from '../../db/bytea';

/** Each store: the values of its key (in its columns' order) and the content types it holds. */
export interface ImageStores {
  notes: { key: readonly [deviceId: string, slot: NotesImageSlot]; type: ImageType };
  widget: { key: readonly [deviceId: string, widgetId: string]; type: ImageType };
  brand: { key: readonly [userId: string]; type: BrandImageType };
}
export type ImageStoreName = keyof ImageStores;

/** Each store's table and the columns of its key (fixed names: nothing of a request reaches the SQL text). */
const TABLES: Record<ImageStoreName, { table: string; key: readonly string[] }> = {
  notes: { table: 'device_images', key: ['device_id', 'slot'] },
  widget: { table: 'widget_images', key: ['device_id', 'widget_id'] },
  brand: { table: 'user_brand_images', key: ['user_id'] },
};

/** `a = $1 AND b = $2` over the key's columns. */
const keyMatch = (columns: readonly string[]) => columns.map((column, i) => `${column} = $${i + 1}`).join(' AND ');

export interface ImageRow<S extends ImageStoreName> {
  content_type: ImageStores[S]['type'];
  bytes: Buffer;
}

/**
 * Stores the image of a key (replacing the one there); answers its time, which is `now` or, when
 * that is not later than the replaced image's, 1 ms after it (each upload gets a new address).
 */
export async function upsertImage<S extends ImageStoreName>(
  db: Db,
  store: S,
  key: ImageStores[S]['key'],
  contentType: ImageStores[S]['type'],
  bytes: Buffer,
  now: Date,
): Promise<Date> {
  const { table, key: columns } = TABLES[store];
  const values = [...columns, 'content_type', 'bytes', 'updated_at'].map((_, i) => `$${i + 1}`).join(', ');
  const rows = await db.query<{ updated_at: Date }>(
    `INSERT INTO ${table} (${columns.join(', ')}, content_type, bytes, updated_at) VALUES (${values})
     ON CONFLICT (${columns.join(', ')}) DO UPDATE SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes,
       updated_at = GREATEST(EXCLUDED.updated_at, ${table}.updated_at + interval '1 millisecond')
     RETURNING updated_at`,
    [...key, contentType, bytes, now],
  );
  return rows[0]!.updated_at;
}

export async function findImage<S extends ImageStoreName>(
  db: Db,
  store: S,
  key: ImageStores[S]['key'],
): Promise<ImageRow<S> | null> {
  const { table, key: columns } = TABLES[store];
  const rows = await db.query<{ content_type: ImageStores[S]['type']; bytes: Uint8Array }>(
    `SELECT content_type, bytes FROM ${table} WHERE ${keyMatch(columns)}`,
    [...key],
  );
  const row = rows[0];
  return row ? { content_type: row.content_type, bytes: byteaBuffer(row.bytes) } : null;
}

export async function deleteImage<S extends ImageStoreName>(
  db: Db,
  store: S,
  key: ImageStores[S]['key'],
): Promise<void> {
  const { table, key: columns } = TABLES[store];
  await db.query(`DELETE FROM ${table} WHERE ${keyMatch(columns)}`, [...key]);
}

/** Removes the images of the device's widgets other than `keep` (widget ids). */
export async function deleteWidgetImagesExcept(db: Db, deviceId: string, keep: readonly string[]): Promise<void> {
  await db.query('DELETE FROM widget_images WHERE device_id = $1 AND NOT (widget_id = ANY($2::text[]))', [
    deviceId,
    keep,
  ]);
}
