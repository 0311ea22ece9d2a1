/** SQL of the account page: profile fields and MFA enrolment columns of users. */
import type { Db } from '../../db/db';

export async function updateProfile(
  db: Db,
  userId: string,
  changes: { phone?: string | null; marketingOptIn?: boolean },
): Promise<void> {
  await db.query(
    `UPDATE users SET
       phone = CASE WHEN $2 THEN $3 ELSE phone END,
       marketing_opt_in = COALESCE($4, marketing_opt_in)
     WHERE id = $1`,
    [userId, changes.phone !== undefined, changes.phone ?? null, changes.marketingOptIn ?? null],
  );
}

export async function setTotpPendingSecret(db: Db, userId: string, secret: string): Promise<void> {
  await db.query('UPDATE users SET totp_pending_secret = $2 WHERE id = $1', [userId, secret]);
}

/**
 * Turns on TOTP with the pending secret and records `step`, the time step of the confirming code,
 * as the last one used (so that code cannot sign in); false when the pending secret changed meanwhile.
 */
export async function enableTotp(db: Db, userId: string, secret: string, step: number): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE users SET mfa_type = 'TOTP', totp_secret = $2, totp_pending_secret = NULL, totp_last_step = $3,
       sms_pending_phone = NULL, sms_pending_code_hash = NULL, sms_pending_expires_at = NULL, sms_pending_attempts = 0
     WHERE id = $1 AND totp_pending_secret = $2 RETURNING id`,
    [userId, secret, step],
  );
  return rows.length === 1;
}

export async function setSmsPending(
  db: Db,
  userId: string,
  pending: { phone: string; codeHash: string; expiresAt: Date },
): Promise<void> {
  await db.query(
    `UPDATE users SET sms_pending_phone = $2, sms_pending_code_hash = $3, sms_pending_expires_at = $4, sms_pending_attempts = 0
     WHERE id = $1`,
    [userId, pending.phone, pending.codeHash, pending.expiresAt],
  );
}

/** Counts one try at the pending SMS code; returns the tries so far, or null when none is pending. */
export async function spendSmsPendingAttempt(
  db: Db,
  userId: string,
  now: Date,
  maxAttempts: number,
): Promise<number | null> {
  const rows = await db.query<{ sms_pending_attempts: number }>(
    `UPDATE users SET sms_pending_attempts = sms_pending_attempts + 1
     WHERE id = $1 AND sms_pending_code_hash IS NOT NULL AND sms_pending_expires_at > $2 AND sms_pending_attempts < $3
     RETURNING sms_pending_attempts`,
    [userId, now, maxAttempts],
  );
  return rows[0]?.sms_pending_attempts ?? null;
}

export async function clearSmsPending(db: Db, userId: string): Promise<void> {
  await db.query(
    'UPDATE users SET sms_pending_phone = NULL, sms_pending_code_hash = NULL, sms_pending_expires_at = NULL, sms_pending_attempts = 0 WHERE id = $1',
    [userId],
  );
}

export async function enableSms(db: Db, userId: string, phone: string): Promise<void> {
  await db.query(
    `UPDATE users SET mfa_type = 'SMS', phone = $2, totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = 0,
       sms_pending_phone = NULL, sms_pending_code_hash = NULL, sms_pending_expires_at = NULL, sms_pending_attempts = 0
     WHERE id = $1`,
    [userId, phone],
  );
}

export async function disableMfa(db: Db, userId: string): Promise<void> {
  await db.query(
    `UPDATE users SET mfa_type = 'NONE', totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = 0,
       sms_pending_phone = NULL, sms_pending_code_hash = NULL, sms_pending_expires_at = NULL, sms_pending_attempts = 0
     WHERE id = $1`,
    [userId],
  );
}
