/** SQL of customer sub-brand logos: the stored files (user_brand_images) and the users' brand_image_url. */
import type { BrandImageType } from '@portal/core';
import type { Db } from '../../db/db';
import { byteaBuffer } from '../../db/bytea';

/** Locks the user's row for the rest of the transaction; false when there is no such user. */
export async function lockUser(db: Db, userId: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
  return rows.length > 0;
}

/**
 * Stores the user's brand image (replacing the one there); answers its time, which is `now` or,
 * when that is not later than the replaced image's, 1 ms after it (each upload gets a new address).
 */
export async function upsertBrandImage(
  db: Db,
  userId: string,
  contentType: BrandImageType,
  bytes: Buffer,
  now: Date,
): Promise<Date> {
  const rows = await db.query<{ updated_at: Date }>(
    `INSERT INTO user_brand_images (user_id, content_type, bytes, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO UPDATE SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes,
       updated_at = GREATEST(EXCLUDED.updated_at, user_brand_images.updated_at + interval '1 millisecond')
     RETURNING updated_at`,
    [userId, contentType, bytes, now],
  );
  return rows[0]!.updated_at;
}

export async function deleteBrandImage(db: Db, userId: string): Promise<void> {
  await db.query('DELETE FROM user_brand_images WHERE user_id = $1', [userId]);
}

/** Points the session's sub-brand logo at `url` (null: none). */
export async function setBrandImageUrl(db: Db, userId: string, url: string | null): Promise<void> {
  await db.query('UPDATE users SET brand_image_url = $2 WHERE id = $1', [userId, url]);
}

export interface BrandImageRow {
  content_type: BrandImageType;
  bytes: Buffer;
}

export async function findBrandImage(db: Db, userId: string): Promise<BrandImageRow | null> {
  const rows = await db.query<{ content_type: BrandImageType; bytes: Uint8Array }>(
    'SELECT content_type, bytes FROM user_brand_images WHERE user_id = $1',
    [userId],
  );
  const row = rows[0];
  return row ? { content_type: row.content_type, bytes: byteaBuffer(row.bytes) } : null;
}
