/** SQL of accounts and sign-in: users, sessions, MFA challenges, e-mailed codes, attempt counters. */
import type { MfaType } from '@portal/core';
import type { Db } from '../../db/db';
import type { SignInFailures } from './sign-in-throttle';

export interface User {
  id: string;
  email: string;
  passwordHash: string;
  emailVerified: boolean;
  marketingOptIn: boolean;
  phone: string | null;
  mfaType: MfaType;
  totpSecret: string | null;
  totpPendingSecret: string | null;
  /** The last TOTP time step accepted (enrolment or sign-in); 0 when none. */
  totpLastStep: number;
  smsPending: { phone: string; codeHash: string; expiresAt: Date; attempts: number } | null;
  userGroups: string[];
  brandImageUrl: string | null;
  /** The brand the user signed up under (a brand id): the links of mails to the user use its host. */
  brand: string;
  createdAt: Date;
}

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  email_verified: boolean;
  marketing_opt_in: boolean;
  phone: string | null;
  mfa_type: MfaType;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_last_step: number;
  sms_pending_phone: string | null;
  sms_pending_code_hash: string | null;
  sms_pending_expires_at: Date | null;
  sms_pending_attempts: number;
  user_groups: string[];
  brand_image_url: string | null;
  brand: string;
  created_at: Date;
}

const USER_COLUMNS = `u.id, u.email, u.password_hash, u.email_verified, u.marketing_opt_in, u.phone, u.mfa_type,
  u.totp_secret, u.totp_pending_secret, u.totp_last_step, u.sms_pending_phone, u.sms_pending_code_hash, u.sms_pending_expires_at,
  u.sms_pending_attempts, u.user_groups, u.brand_image_url, u.brand, u.created_at`;

function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    emailVerified: row.email_verified,
    marketingOptIn: row.marketing_opt_in,
    phone: row.phone,
    mfaType: row.mfa_type,
    totpSecret: row.totp_secret,
    totpPendingSecret: row.totp_pending_secret,
    totpLastStep: row.totp_last_step,
    smsPending:
      row.sms_pending_phone && row.sms_pending_code_hash && row.sms_pending_expires_at
        ? {
            phone: row.sms_pending_phone,
            codeHash: row.sms_pending_code_hash,
            expiresAt: row.sms_pending_expires_at,
            attempts: row.sms_pending_attempts,
          }
        : null,
    userGroups: row.user_groups,
    brandImageUrl: row.brand_image_url,
    brand: row.brand,
    createdAt: row.created_at,
  };
}

// ---- users

export interface NewUser {
  id: string;
  email: string;
  passwordHash: string;
  emailVerified: boolean;
  marketingOptIn: boolean;
  userGroups: string[];
  /** The brand of the host the user signs up on (a brand id). */
  brand: string;
  createdAt: Date;
}

/** The INSERT of a user ($1-$8 from newUserParams); `conflict` is what follows VALUES. */
const insertUserSql = (conflict: string) =>
  `INSERT INTO users AS u (id, email, password_hash, email_verified, marketing_opt_in, user_groups, brand, created_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ${conflict} RETURNING ${USER_COLUMNS}`;

const newUserParams = (user: NewUser) => [
  user.id,
  user.email,
  user.passwordHash,
  user.emailVerified,
  user.marketingOptIn,
  user.userGroups,
  user.brand,
  user.createdAt,
];

/** Inserts a user; throws a unique violation when the e-mail is taken. */
export async function insertUser(db: Db, user: NewUser): Promise<User> {
  const rows = await db.query<UserRow>(insertUserSql(''), newUserParams(user));
  return toUser(rows[0]!);
}

/** Inserts a user unless the e-mail exists; the new user, or null when the e-mail is taken. */
export async function insertUserIfAbsent(db: Db, user: NewUser): Promise<User | null> {
  const rows = await db.query<UserRow>(insertUserSql('ON CONFLICT (email) DO NOTHING'), newUserParams(user));
  return rows[0] ? toUser(rows[0]) : null;
}

export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  const rows = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.email = $1`, [email]);
  return rows[0] ? toUser(rows[0]) : null;
}

export async function findUserById(db: Db, id: string): Promise<User | null> {
  const rows = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = $1`, [id]);
  return rows[0] ? toUser(rows[0]) : null;
}

export async function updatePasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
}

export async function markEmailVerified(db: Db, userId: string): Promise<void> {
  await db.query('UPDATE users SET email_verified = true WHERE id = $1', [userId]);
}

/**
 * Records `step` as the user's last accepted TOTP time step, only when it is later than the one
 * recorded; false when it is not (a replayed code). One statement, so parallel sign-ins with the
 * same code cannot both succeed (RFC 6238 section 5.2).
 */
export async function claimTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    'UPDATE users SET totp_last_step = $2 WHERE id = $1 AND totp_last_step < $2 RETURNING id',
    [userId, step],
  );
  return rows.length === 1;
}

// ---- sessions

export interface SessionUser {
  user: User;
  lastSeenAt: Date;
}

export async function insertSession(
  db: Db,
  session: { idHash: string; userId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO sessions (id_hash, user_id, created_at, expires_at, last_seen_at) VALUES ($1, $2, $3, $4, $3)',
    [session.idHash, session.userId, session.createdAt, session.expiresAt],
  );
}

/** The user of a live (unexpired) session. */
export async function findSessionUser(db: Db, idHash: string, now: Date): Promise<SessionUser | null> {
  const rows = await db.query<UserRow & { last_seen_at: Date }>(
    `SELECT ${USER_COLUMNS}, s.last_seen_at FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id_hash = $1 AND s.expires_at > $2`,
    [idHash, now],
  );
  const row = rows[0];
  return row ? { user: toUser(row), lastSeenAt: row.last_seen_at } : null;
}

export async function touchSession(db: Db, idHash: string, now: Date): Promise<void> {
  await db.query('UPDATE sessions SET last_seen_at = $2 WHERE id_hash = $1', [idHash, now]);
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE id_hash = $1', [idHash]);
}

/** Ends every session of a user except `keepIdHash` (when given). */
export async function deleteUserSessions(db: Db, userId: string, keepIdHash?: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE user_id = $1 AND id_hash <> $2', [userId, keepIdHash ?? '']);
}

export async function deleteExpiredSessions(db: Db, userId: string, now: Date): Promise<void> {
  await db.query('DELETE FROM sessions WHERE user_id = $1 AND expires_at <= $2', [userId, now]);
}

// ---- MFA challenges (between the password step and the code step of a sign-in)

export type ChallengeKind = 'SOFTWARE_TOKEN_MFA' | 'SMS_MFA';

export interface Challenge {
  userId: string;
  kind: ChallengeKind;
  codeHash: string | null;
  attempts: number;
}

export async function insertChallenge(
  db: Db,
  challenge: {
    tokenHash: string;
    userId: string;
    kind: ChallengeKind;
    codeHash: string | null;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.query('DELETE FROM auth_challenges WHERE expires_at <= $1 OR user_id = $2', [
    challenge.createdAt,
    challenge.userId,
  ]);
  await db.query(
    `INSERT INTO auth_challenges (token_hash, user_id, kind, code_hash, attempts, created_at, expires_at)
     VALUES ($1, $2, $3, $4, 0, $5, $6)`,
    [
      challenge.tokenHash,
      challenge.userId,
      challenge.kind,
      challenge.codeHash,
      challenge.createdAt,
      challenge.expiresAt,
    ],
  );
}

/**
 * Spends one attempt of a live challenge that has attempts left and returns it (with the
 * attempt counted); null when it is missing, expired or used up. Counting before checking the
 * code means parallel guesses cannot exceed the limit.
 */
export async function spendChallengeAttempt(
  db: Db,
  tokenHash: string,
  now: Date,
  maxAttempts: number,
): Promise<Challenge | null> {
  const rows = await db.query<{ user_id: string; kind: ChallengeKind; code_hash: string | null; attempts: number }>(
    `UPDATE auth_challenges SET attempts = attempts + 1
     WHERE token_hash = $1 AND expires_at > $2 AND attempts < $3
     RETURNING user_id, kind, code_hash, attempts`,
    [tokenHash, now, maxAttempts],
  );
  const row = rows[0];
  return row ? { userId: row.user_id, kind: row.kind, codeHash: row.code_hash, attempts: row.attempts } : null;
}

/** Deletes a challenge; true when this call deleted it (so it is used once). */
export async function deleteChallenge(db: Db, tokenHash: string): Promise<boolean> {
  const rows = await db.query<{ token_hash: string }>(
    'DELETE FROM auth_challenges WHERE token_hash = $1 RETURNING token_hash',
    [tokenHash],
  );
  return rows.length === 1;
}

export async function deleteUserChallenges(db: Db, userId: string): Promise<void> {
  await db.query('DELETE FROM auth_challenges WHERE user_id = $1', [userId]);
}

// ---- e-mailed codes (verification and reset links)

export type UserCodeKind = 'verify' | 'reset';

export async function insertUserCode(
  db: Db,
  code: { codeHash: string; userId: string; kind: UserCodeKind; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO user_codes (code_hash, user_id, kind, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [code.codeHash, code.userId, code.kind, code.createdAt, code.expiresAt],
  );
}

/** Marks a live, unused code as used and returns its user id; null when none matched. */
export async function useUserCode(db: Db, codeHash: string, kind: UserCodeKind, now: Date): Promise<string | null> {
  const rows = await db.query<{ user_id: string }>(
    `UPDATE user_codes SET used_at = $3
     WHERE code_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3
     RETURNING user_id`,
    [codeHash, kind, now],
  );
  return rows[0]?.user_id ?? null;
}

/** A code already used but not yet expired (a verification link opened twice). */
export async function findUsedUserCode(
  db: Db,
  codeHash: string,
  kind: UserCodeKind,
  now: Date,
): Promise<string | null> {
  const rows = await db.query<{ user_id: string }>(
    'SELECT user_id FROM user_codes WHERE code_hash = $1 AND kind = $2 AND used_at IS NOT NULL AND expires_at > $3',
    [codeHash, kind, now],
  );
  return rows[0]?.user_id ?? null;
}

/** Voids the other unused codes of a kind (a used reset link voids the older ones). */
export async function voidUserCodes(db: Db, userId: string, kind: UserCodeKind, now: Date): Promise<void> {
  await db.query('UPDATE user_codes SET used_at = $3 WHERE user_id = $1 AND kind = $2 AND used_at IS NULL', [
    userId,
    kind,
    now,
  ]);
}

export async function deleteStaleUserCodes(db: Db, userId: string, now: Date): Promise<void> {
  await db.query('DELETE FROM user_codes WHERE user_id = $1 AND expires_at <= $2', [userId, now]);
}

// ---- per-address attempt counters (reset requests, sign-up warnings)

export async function countAttempts(db: Db, key: string, since: Date): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM auth_attempts WHERE key = $1 AND created_at > $2',
    [key, since],
  );
  return rows[0]?.n ?? 0;
}

/** Records an attempt and forgets this key's attempts older than `forgetBefore`. */
export async function recordAttempt(db: Db, key: string, now: Date, forgetBefore: Date): Promise<void> {
  await db.query('DELETE FROM auth_attempts WHERE key = $1 AND created_at <= $2', [key, forgetBefore]);
  await db.query('INSERT INTO auth_attempts (key, created_at) VALUES ($1, $2)', [key, now]);
}

// ---- failed sign-ins per account e-mail and client address

/** Key spaces of the per-e-mail and per-client locks (two int4 keys never meet the migrations' bigint key). */
const SIGN_IN_LOCK_SPACE = 727_002;
const SIGN_IN_CLIENT_LOCK_SPACE = 727_003;

/**
 * Inside a transaction: waits for, then holds until the end, the locks of `email`'s failures and
 * of `client`'s, so attempts on one e-mail address, and attempts from one client, are judged one
 * after the other on every server instance. Always the e-mail's lock first, then the client's:
 * two attempts never wait for each other in a cycle.
 */
export async function lockSignInFailures(tx: Db, email: string, client: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SIGN_IN_LOCK_SPACE, email]);
  await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SIGN_IN_CLIENT_LOCK_SPACE, client]);
}

/** Records an attempt as a failure until it is known to be none; returns its id. */
export async function insertSignInFailure(
  db: Db,
  failure: { email: string; client: string; createdAt: Date },
): Promise<string> {
  const rows = await db.query<{ id: string }>(
    'INSERT INTO sign_in_failures (email, client, created_at) VALUES ($1, $2, $3) RETURNING id::text AS id',
    [failure.email, failure.client, failure.createdAt],
  );
  return rows[0]!.id;
}

/** The failures made after `since`: of `email` from `client` and from every client, and of every e-mail from `client`. */
export async function findSignInFailures(db: Db, email: string, client: string, since: Date): Promise<SignInFailures> {
  const rows = await db.query<{
    client: number;
    client_latest: Date | null;
    account: number;
    account_oldest: Date | null;
    client_all_accounts: number;
    client_all_accounts_oldest: Date | null;
  }>(
    `SELECT count(*) FILTER (WHERE email = $1 AND client = $2)::int AS client,
       max(created_at) FILTER (WHERE email = $1 AND client = $2) AS client_latest,
       count(*) FILTER (WHERE email = $1)::int AS account,
       min(created_at) FILTER (WHERE email = $1) AS account_oldest,
       count(*) FILTER (WHERE client = $2)::int AS client_all_accounts,
       min(created_at) FILTER (WHERE client = $2) AS client_all_accounts_oldest
     FROM sign_in_failures WHERE (email = $1 OR client = $2) AND created_at > $3`,
    [email, client, since],
  );
  const row = rows[0];
  return {
    client: row?.client ?? 0,
    clientLatest: row?.client_latest ?? null,
    account: row?.account ?? 0,
    accountOldest: row?.account_oldest ?? null,
    clientAllAccounts: row?.client_all_accounts ?? 0,
    clientAllAccountsOldest: row?.client_all_accounts_oldest ?? null,
  };
}

export async function deleteSignInFailure(db: Db, id: string): Promise<void> {
  await db.query('DELETE FROM sign_in_failures WHERE id = $1::bigint', [id]);
}

/** Forgets the failures of `email` from `client`, or from every client when none is given. */
export async function clearSignInFailures(db: Db, email: string, client?: string): Promise<void> {
  if (client === undefined) await db.query('DELETE FROM sign_in_failures WHERE email = $1', [email]);
  else await db.query('DELETE FROM sign_in_failures WHERE email = $1 AND client = $2', [email, client]);
}

/** Forgets every failure made at or before `before` (any account). */
export async function forgetSignInFailures(db: Db, before: Date): Promise<void> {
  await db.query('DELETE FROM sign_in_failures WHERE created_at <= $1', [before]);
}

// ---- step-up codes (a signed-in user confirms a sensitive call with an SMS code)

/**
 * Stores a step-up challenge under `tokenHash` unless a live one made after `replaceAfter` (with
 * attempts left) is there; true when stored. One statement, so parallel requests store one.
 */
export async function storeStepUpChallenge(
  db: Db,
  challenge: {
    tokenHash: string;
    userId: string;
    kind: ChallengeKind;
    codeHash: string;
    createdAt: Date;
    expiresAt: Date;
  },
  replaceAfter: Date,
  maxAttempts: number,
): Promise<boolean> {
  await db.query('DELETE FROM auth_challenges WHERE expires_at <= $1 AND token_hash <> $2', [
    challenge.createdAt,
    challenge.tokenHash,
  ]);
  const rows = await db.query<{ token_hash: string }>(
    `INSERT INTO auth_challenges AS c (token_hash, user_id, kind, code_hash, attempts, created_at, expires_at)
     VALUES ($1, $2, $3, $4, 0, $5, $6)
     ON CONFLICT (token_hash) DO UPDATE SET user_id = EXCLUDED.user_id, kind = EXCLUDED.kind,
       code_hash = EXCLUDED.code_hash, attempts = 0, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
     WHERE c.created_at <= $7 OR c.expires_at <= $5 OR c.attempts >= $8
     RETURNING token_hash`,
    [
      challenge.tokenHash,
      challenge.userId,
      challenge.kind,
      challenge.codeHash,
      challenge.createdAt,
      challenge.expiresAt,
      replaceAfter,
      maxAttempts,
    ],
  );
  return rows.length === 1;
}

// ---- MFA recovery codes (one-time codes that sign in in place of the 6-digit code)

/** Replaces the user's recovery codes with `codeHashes` (inside a transaction, so never half a set). */
export async function replaceRecoveryCodes(db: Db, userId: string, codeHashes: string[], now: Date): Promise<void> {
  await db.query('DELETE FROM mfa_recovery_codes WHERE user_id = $1', [userId]);
  await db.query('INSERT INTO mfa_recovery_codes (user_id, code_hash, created_at) SELECT $1, unnest($2::text[]), $3', [
    userId,
    codeHashes,
    now,
  ]);
}

export async function deleteRecoveryCodes(db: Db, userId: string): Promise<void> {
  await db.query('DELETE FROM mfa_recovery_codes WHERE user_id = $1', [userId]);
}

/**
 * Uses up a recovery code: true when this call deleted it. One statement, so of two parallel uses
 * of one code only one succeeds.
 */
export async function useRecoveryCode(db: Db, userId: string, codeHash: string): Promise<boolean> {
  const rows = await db.query<{ user_id: string }>(
    'DELETE FROM mfa_recovery_codes WHERE user_id = $1 AND code_hash = $2 RETURNING user_id',
    [userId, codeHash],
  );
  return rows.length === 1;
}

export async function countRecoveryCodes(db: Db, userId: string): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM mfa_recovery_codes WHERE user_id = $1', [
    userId,
  ]);
  return rows[0]?.n ?? 0;
}
