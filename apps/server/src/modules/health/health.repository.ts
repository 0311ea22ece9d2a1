import type { Db } from '../../db/db';

export async function pingDatabase(db: Db): Promise<void> {
  await db.query('SELECT 1');
}
