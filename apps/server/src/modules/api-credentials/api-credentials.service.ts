/**
 * API credentials (DESIGN.md section 5, ledger API-46 to API-48): a user's bearer keys. A key is
 * `ppk_` + 32 random bytes (base64url), answered once by the call that creates it; only its sha256
 * is stored (a random 256-bit key needs no slow hash: see docs/decisions.md). Every bearer request
 * looks its key up afresh, so a deleted or expired key is refused at once; the last-used time is
 * written at most once a minute per key.
 */
import { randomBytes } from 'node:crypto';
import {
  API_CREDENTIALS_MAX,
  API_CREDENTIAL_MESSAGES,
  API_KEY_BYTES,
  API_KEY_MAX_LIFETIME_S,
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  API_KEY_TOUCH_MS,
  type ApiAccess,
  type ApiCredential,
  type ApiCredentialCreated,
} from '@portal/core';
import type { Clock } from '../../clock';
import type { Db } from '../../db/db';
import { AppError, conflict } from '../../errors';
import { randomId, sha256 } from '../../security';
import type { AuthService, User } from '../auth/auth.service';
import * as repo from './api-credentials.repository';

export interface ApiCredentialsService {
  /** The user's keys (never their secrets). */
  list(userId: string): Promise<{ credentials: ApiCredential[] }>;
  /** A new key for the user (at most API_CREDENTIALS_MAX); its secret is in this answer only. */
  create(
    userId: string,
    body: { name: string; access: ApiAccess; expiresAt?: number | undefined },
  ): Promise<ApiCredentialCreated>;
  /** Deletes one of the user's keys (404 for any other id); it is refused from the next request on. */
  remove(userId: string, id: string): Promise<{ message: string }>;
  /** The user and credential of a key, or null when it is malformed, unknown, deleted or expired. */
  authenticate(key: string): Promise<{ user: User; credential: BearerCredential } | null>;
}

/** The credential a bearer request was made with. */
export interface BearerCredential {
  id: string;
  userId: string;
  access: ApiAccess;
}

/** Characters of a key kept as its hint: the prefix and 4 more. */
const HINT_LENGTH = API_KEY_PREFIX.length + 4;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

function toCredential(row: repo.CredentialRow): ApiCredential {
  return {
    id: row.id,
    name: row.name,
    access: row.access,
    hint: row.hint,
    created: seconds(row.created_at),
    expires: row.expires_at ? seconds(row.expires_at) : null,
    lastUsed: row.last_used_at ? seconds(row.last_used_at) : null,
  };
}

export function createApiCredentialsService(deps: {
  db: Db;
  clock: Clock;
  auth: Pick<AuthService, 'getUser'>;
}): ApiCredentialsService {
  const { db, clock, auth } = deps;

  return {
    async list(userId: string): Promise<{ credentials: ApiCredential[] }> {
      return { credentials: (await repo.listCredentials(db, userId)).map(toCredential) };
    },

    async create(
      userId: string,
      body: { name: string; access: ApiAccess; expiresAt?: number | undefined },
    ): Promise<ApiCredentialCreated> {
      const now = clock.now();
      let expiresAt: Date | null = null;
      if (body.expiresAt !== undefined) {
        const nowS = seconds(now);
        if (body.expiresAt <= nowS) throw new AppError(400, 'BAD_REQUEST', API_CREDENTIAL_MESSAGES.expiryPast);
        if (body.expiresAt > nowS + API_KEY_MAX_LIFETIME_S) {
          throw new AppError(400, 'BAD_REQUEST', API_CREDENTIAL_MESSAGES.expiryTooFar);
        }
        expiresAt = new Date(body.expiresAt * 1000);
      }
      const key = `${API_KEY_PREFIX}${randomBytes(API_KEY_BYTES).toString('base64url')}`;
      const row = {
        id: randomId(),
        userId,
        name: body.name,
        access: body.access,
        keyHash: sha256(key),
        hint: key.slice(0, HINT_LENGTH),
        createdAt: now,
        expiresAt,
      };
      if (!(await repo.insertCredential(db, row, API_CREDENTIALS_MAX))) throw conflict(API_CREDENTIAL_MESSAGES.tooMany);
      const stored = await repo.findCredential(db, userId, row.id);
      if (!stored) throw notFound();
      return { ...toCredential(stored), key };
    },

    async remove(userId: string, id: string): Promise<{ message: string }> {
      if (!(await repo.deleteCredential(db, userId, id))) throw notFound();
      return { message: API_CREDENTIAL_MESSAGES.deleted };
    },

    async authenticate(key: string): Promise<{ user: User; credential: BearerCredential } | null> {
      if (!API_KEY_PATTERN.test(key)) return null;
      const now = clock.now();
      const row = await repo.findLiveCredential(db, sha256(key), now);
      if (!row) return null;
      // A user's keys go with the account (ON DELETE CASCADE): the user is there.
      const user = await auth.getUser(row.user_id);
      if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= API_KEY_TOUCH_MS) {
        await repo.touchCredential(db, row.id, now);
      }
      return { user, credential: { id: row.id, userId: row.user_id, access: row.access } };
    },
  };
}

const notFound = () => new AppError(404, 'NOT_FOUND', API_CREDENTIAL_MESSAGES.notFound);
