/** SQL of customer sub-brand logos: the user row an upload locks and the users' brand_image_url (the files are in the image store). */
import type { Db } from '../../db/db';

/** Locks the user's row for the rest of the transaction; false when there is no such user. */
export async function lockUser(db: Db, userId: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
  return rows.length > 0;
}

/** Points the session's sub-brand logo at `url` (null: none). */
export async function setBrandImageUrl(db: Db, userId: string, url: string | null): Promise<void> {
  await db.query('UPDATE users SET brand_image_url = $2 WHERE id = $1', [userId, url]);
}
