/** The api_credentials table: a user's bearer keys, stored as the sha256 of the key. */
import type { ApiAccess } from '@portal/core';
import type { Db } from '../../db/db';

export interface CredentialRow {
  id: string;
  user_id: string;
  name: string;
  access: ApiAccess;
  hint: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
}

const COLUMNS = 'id, user_id, name, access, hint, created_at, expires_at, last_used_at';

export interface NewCredential {
  id: string;
  userId: string;
  name: string;
  access: ApiAccess;
  keyHash: string;
  hint: string;
  createdAt: Date;
  expiresAt: Date | null;
}

/**
 * Inserts the credential when the user holds fewer than `max`: the user's row is locked first, so
 * two requests at once cannot both take the last place. False when the user is at the cap.
 */
export function insertCredential(db: Db, c: NewCredential, max: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [c.userId]);
    const [count] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM api_credentials WHERE user_id = $1', [
      c.userId,
    ]);
    if ((count?.n ?? 0) >= max) return false;
    await tx.query(
      `INSERT INTO api_credentials (id, user_id, name, access, key_hash, hint, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [c.id, c.userId, c.name, c.access, c.keyHash, c.hint, c.createdAt, c.expiresAt],
    );
    return true;
  });
}

export async function findCredential(db: Db, userId: string, id: string): Promise<CredentialRow | null> {
  const rows = await db.query<CredentialRow>(`SELECT ${COLUMNS} FROM api_credentials WHERE id = $1 AND user_id = $2`, [
    id,
    userId,
  ]);
  return rows[0] ?? null;
}

export function listCredentials(db: Db, userId: string): Promise<CredentialRow[]> {
  return db.query<CredentialRow>(
    `SELECT ${COLUMNS} FROM api_credentials WHERE user_id = $1 ORDER BY created_at DESC, id`,
    [userId],
  );
}

export async function deleteCredential(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM api_credentials WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId]);
  return rows.length === 1;
}

/** The live credential of a key hash: not expired at `now`. */
export async function findLiveCredential(db: Db, keyHash: string, now: Date): Promise<CredentialRow | null> {
  const rows = await db.query<CredentialRow>(
    `SELECT ${COLUMNS} FROM api_credentials WHERE key_hash = $1 AND (expires_at IS NULL OR expires_at > $2)`,
    [keyHash, now],
  );
  return rows[0] ?? null;
}

export async function touchCredential(db: Db, id: string, now: Date): Promise<void> {
  await db.query('UPDATE api_credentials SET last_used_at = $2 WHERE id = $1', [id, now]);
}
