/**
 * What every step of a sign-in shares (the password in auth.service.ts, the code in
 * mfa.service.ts): each attempt is recorded as a failed sign-in until it is known to be none,
 * under the waits sign-in-throttle.ts sets, and a finished sign-in clears the client's failures
 * and starts a session.
 */
import type { UserInfo } from '@portal/core';
import type { Clock } from '../../clock';
import type { Db } from '../../db/db';
import { rateLimited } from '../../errors';
import * as repo from './auth.repository';
import type { User } from './auth.repository';
import { createSessions } from './sessions';
import { clientKey, retryAfterSeconds, signInWaitMs, type SignInThrottlePolicy } from './sign-in-throttle';
import { toUserInfo } from './user-info';

/** A sign-in attempt, recorded as a failure until it is known to be none. */
export interface SignInAttempt {
  id: string;
  email: string;
  client: string;
}

/** A finished sign-in: the user's public view and the new session's id (for the cookie). */
export interface SignedIn {
  user: UserInfo;
  sessionId: string;
}

export interface SignIn {
  /**
   * Starts a sign-in attempt of `email` from a client: throws a 429 with Retry-After while the
   * failures so far make it wait, else records it as a failure before the password or code is
   * checked. One attempt per e-mail address, and one per client, at a time is judged and
   * recorded, so parallel guesses count too.
   */
  begin(email: string, clientAddress: string): Promise<SignInAttempt>;
  /** The attempt failed: it stays recorded; failures that left the window are forgotten. */
  failed(): Promise<void>;
  /** The attempt was no failure (right password, a second step follows). */
  notAFailure(attempt: SignInAttempt): Promise<void>;
  /** Signed in: the earlier failures from this client were the owner's own; a new session starts. */
  finish(attempt: SignInAttempt, user: User, previousSessionId: string | undefined): Promise<SignedIn>;
}

export function createSignIn(deps: { db: Db; clock: Clock; limits: SignInThrottlePolicy }): SignIn {
  const { db, clock, limits } = deps;
  const sessions = createSessions({ db, clock });
  const windowStart = () => new Date(clock.now().getTime() - limits.windowMs);

  return {
    async begin(email, clientAddress) {
      const client = clientKey(clientAddress);
      const now = clock.now();
      const judged = await db.transaction(async (tx): Promise<{ waitMs: number } | { id: string }> => {
        await repo.lockSignInFailures(tx, email, client);
        const waitMs = signInWaitMs(await repo.findSignInFailures(tx, email, client, windowStart()), limits, now);
        if (waitMs > 0) return { waitMs };
        return { id: await repo.insertSignInFailure(tx, { email, client, createdAt: now }) };
      });
      if ('waitMs' in judged) throw rateLimited(retryAfterSeconds(judged.waitMs));
      return { id: judged.id, email, client };
    },

    async failed() {
      await repo.forgetSignInFailures(db, windowStart());
    },

    async notAFailure(attempt) {
      await repo.deleteSignInFailure(db, attempt.id);
    },

    async finish(attempt, user, previousSessionId) {
      await repo.clearSignInFailures(db, attempt.email, attempt.client);
      return { user: toUserInfo(user), sessionId: await sessions.start(user, previousSessionId) };
    },
  };
}
