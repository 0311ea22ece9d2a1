/**
 * Sessions: a random id in the browser's cookie, only its sha256 in the database; started when a
 * sign-in finishes, read on every request (last_seen_at refreshed at most every 5 minutes), ended
 * at sign-out.
 */
import { SESSION_MAX_AGE_S } from '@portal/core';
import type { Clock } from '../../clock';
import type { Db } from '../../db/db';
import { randomToken, sha256 } from '../../security';
import * as repo from './auth.repository';
import type { User } from './auth.repository';

const MINUTE = 60_000;
/** The session's life: the 7 days of spec 1 section 9, as core's SESSION_MAX_AGE_S. */
export const SESSION_TTL_MS = SESSION_MAX_AGE_S * 1000;
/** last_seen_at is refreshed at most this often, so reads do not each cost a write. */
const SESSION_TOUCH_MS = 5 * MINUTE;

export interface Authenticated {
  user: User;
  sessionHash: string;
}

export interface Sessions {
  /** A new session for `user`; the one the browser held before (if any) ends, so ids never carry over. */
  start(user: User, previousSessionId: string | undefined): Promise<string>;
  /** The user of a session cookie, or null when it is unknown or expired. */
  authenticate(sessionId: string | undefined): Promise<Authenticated | null>;
  /** Ends the session of a cookie (none: nothing to do). */
  end(sessionId: string | undefined): Promise<void>;
}

export function createSessions(deps: { db: Db; clock: Clock }): Sessions {
  const { db, clock } = deps;
  return {
    async start(user, previousSessionId) {
      const sessionId = randomToken();
      const now = clock.now();
      if (previousSessionId) await repo.deleteSession(db, sha256(previousSessionId));
      await repo.deleteExpiredSessions(db, user.id, now);
      await repo.insertSession(db, {
        idHash: sha256(sessionId),
        userId: user.id,
        createdAt: now,
        expiresAt: new Date(clock.now().getTime() + SESSION_TTL_MS),
      });
      return sessionId;
    },

    async authenticate(sessionId) {
      if (!sessionId) return null;
      const sessionHash = sha256(sessionId);
      const now = clock.now();
      const found = await repo.findSessionUser(db, sessionHash, now);
      if (!found) return null;
      if (now.getTime() - found.lastSeenAt.getTime() > SESSION_TOUCH_MS) await repo.touchSession(db, sessionHash, now);
      return { user: found.user, sessionHash };
    },

    async end(sessionId) {
      if (sessionId) await repo.deleteSession(db, sha256(sessionId));
    },
  };
}
