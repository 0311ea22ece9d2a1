/**
 * The second factor (TOTP or SMS): the challenge a right password opens for a user who turned MFA
 * on, the code step that answers it (the 6-digit code or a one-time recovery code), the recovery
 * codes themselves, and step-up checks of a signed-in user (a TOTP code, or an SMS code texted for
 * the purpose). Challenge tokens and codes are random and stored only as their sha256.
 */
import { authenticator } from 'otplib';
import {
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
  formatRecoveryCode,
  type BrandConfig,
} from '@portal/core';
import type { Clock } from '../../clock';
import type { Db } from '../../db/db';
import { AppError, unauthenticated } from '../../errors';
import { randomChars, randomDigits, randomToken, sameDigest, sha256 } from '../../security';
import type { SmsSender } from '../mail/mail.service';
import { signInCodeSms, stepUpCodeSms } from './auth.mail';
import * as repo from './auth.repository';
import type { Challenge, ChallengeKind, User } from './auth.repository';
import { createSignIn, type SignedIn } from './sign-in';
import type { SignInThrottlePolicy } from './sign-in-throttle';

const MINUTE = 60_000;
export const CHALLENGE_TTL_MS = 5 * MINUTE;
export const CHALLENGE_MAX_AGE_SECONDS = CHALLENGE_TTL_MS / 1000;
/** Wrong codes a challenge (sign-in or step-up) takes before it is gone; also the enrolment and alert-phone codes' limit. */
export const MAX_MFA_ATTEMPTS = 5;
/** A new step-up SMS is sent at most this often. */
export const STEP_UP_RESEND_MS = MINUTE;
/** TOTP codes one step either side of now are accepted (clock drift of the phone). */
const TOTP_WINDOW = 1;
const TOTP_STEP_MS = 30_000;

export const MFA_MESSAGES = {
  mfaInvalid: 'Invalid code received for user',
  mfaCodeUsed: 'This code has already been used. Wait for the next code from your authenticator app.',
  recoveryCodeInvalid: 'This recovery code is not valid or has already been used.',
  signInExpired: 'Your sign-in has expired. Please sign in again.',
} as const;

/** The code step a sign-in waits for: the challenge's kind, and its token for the portal_mfa cookie. */
export interface SignInChallenge {
  challenge: ChallengeKind;
  challengeToken: string;
}

export interface MfaService {
  /**
   * The challenge of a sign-in whose password was right, or null when the user has no second
   * factor on. MFA is enforced on every brand for a user who turned it on, whatever the host; an
   * SMS user is texted the code now, under `brand`'s name.
   */
  challengeFor(user: User, brand: BrandConfig): Promise<SignInChallenge | null>;
  /** The code step answered with the 6-digit code (TOTP, each step once; or the texted code): signed in. */
  completeSignIn(
    challengeToken: string | undefined,
    code: string,
    clientAddress: string,
    previousSessionId?: string,
  ): Promise<SignedIn>;
  /**
   * The code step answered with a recovery code (either kind of challenge). The code and the
   * challenge are used up together, so a code is not lost to a sign-in that another request ended.
   */
  completeSignInWithRecoveryCode(
    challengeToken: string | undefined,
    recoveryCode: string,
    clientAddress: string,
    previousSessionId?: string,
  ): Promise<SignedIn>;
  /**
   * A new set of recovery codes for the user, replacing the old one; returns the codes (shown
   * once). Pass the transaction that turns MFA on, so both happen or neither.
   */
  issueRecoveryCodes(userId: string, tx?: Db): Promise<string[]>;
  /** Deletes the user's recovery codes (in the transaction that turns MFA off). */
  deleteRecoveryCodes(userId: string, tx?: Db): Promise<void>;
  /** How many unused recovery codes the user has. */
  countRecoveryCodes(userId: string): Promise<number>;
  /** True when `code` is the user's current TOTP code, not used before (RFC 6238 5.2). */
  checkTotp(user: User, code: string): Promise<boolean>;
  /**
   * Step-up for a signed-in SMS user (before a sensitive answer such as a setup password):
   * texts a 6-digit code, valid 5 minutes for 5 attempts. While a code sent less than a
   * minute ago is live, nothing new is sent. True when a code was sent now.
   */
  sendStepUpSms(user: User, brand: BrandConfig): Promise<boolean>;
  /** True when `code` is the user's live step-up SMS code; a code is accepted once. */
  checkStepUpSms(user: User, code: string): Promise<boolean>;
}

export interface MfaDeps {
  db: Db;
  clock: Clock;
  sms: SmsSender;
  /** The failed sign-ins' policy: a wrong code counts as a wrong password does. */
  limits: SignInThrottlePolicy;
}

/**
 * The time step (unix ms / 30 s) a TOTP code matches at the server's time, within TOTP_WINDOW
 * steps either side; null when it matches none. The step is what replay protection records.
 */
export function matchTotpStep(code: string, secret: string, now: Date): number | null {
  const epoch = now.getTime();
  try {
    const delta = authenticator.clone({ epoch, window: TOTP_WINDOW }).checkDelta(code, secret);
    return delta === null ? null : Math.floor(epoch / TOTP_STEP_MS) + delta;
  } catch {
    return null;
  }
}

/**
 * The challenge key of a user's step-up code. Sign-in challenges are keyed by the sha256 (hex) of
 * a cookie token, which can never equal this, so a step-up code cannot complete a sign-in.
 */
const stepUpKey = (userId: string) => `step-up:${userId}`;
/** How a recovery code is stored: the sha256 of the user id and the code (`xxxx-xxxx`). */
export const recoveryCodeHash = (userId: string, code: string) => sha256(`${userId}:${code}`);

/** A new set of recovery codes, distinct, from the CSPRNG. */
function newRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT)
    codes.add(formatRecoveryCode(randomChars(RECOVERY_CODE_ALPHABET, RECOVERY_CODE_LENGTH)));
  return [...codes];
}

/**
 * What the code step made of an answer: 'valid' (the challenge is used up), 'expired' (another
 * request used it up first), or why the code was refused.
 */
type ChallengeAnswer = 'valid' | 'expired' | 'invalid' | 'used' | 'recovery-invalid';

const REFUSALS: Record<Exclude<ChallengeAnswer, 'valid' | 'expired'>, () => AppError> = {
  invalid: () => new AppError(401, 'MFA_INVALID', MFA_MESSAGES.mfaInvalid),
  // The code matches the current window but its time step was used (RFC 6238 5.2): the next one will do.
  used: () => new AppError(401, 'MFA_CODE_USED', MFA_MESSAGES.mfaCodeUsed),
  'recovery-invalid': () => new AppError(401, 'MFA_INVALID', MFA_MESSAGES.recoveryCodeInvalid),
};

/** Thrown inside a transaction to roll it back when the challenge was used up meanwhile. */
class ChallengeGone extends Error {}

export function createMfaService(deps: MfaDeps): MfaService {
  const { db, clock } = deps;
  const signIn = createSignIn({ db, clock, limits: deps.limits });
  const after = (ms: number) => new Date(clock.now().getTime() + ms);

  /**
   * The code step of a sign-in: spends one of the challenge's attempts, counts the attempt for the
   * address as a password attempt is counted, and lets `check` judge the answer (and use up the
   * challenge when it is right). A refused answer stays a failed sign-in.
   */
  async function answerChallenge(
    challengeToken: string | undefined,
    clientAddress: string,
    previousSessionId: string | undefined,
    check: (challenge: Challenge, user: User, tokenHash: string) => Promise<ChallengeAnswer>,
  ): Promise<SignedIn> {
    if (!challengeToken) throw unauthenticated(MFA_MESSAGES.signInExpired);
    const tokenHash = sha256(challengeToken);
    const challenge = await repo.spendChallengeAttempt(db, tokenHash, clock.now(), MAX_MFA_ATTEMPTS);
    if (!challenge) throw unauthenticated(MFA_MESSAGES.signInExpired);
    const user = await repo.findUserById(db, challenge.userId);
    if (!user) throw unauthenticated(MFA_MESSAGES.signInExpired);
    const attempt = await signIn.begin(user.email, clientAddress);
    const answer = await check(challenge, user, tokenHash);
    if (answer === 'expired') {
      await signIn.notAFailure(attempt);
      throw unauthenticated(MFA_MESSAGES.signInExpired);
    }
    if (answer !== 'valid') {
      if (challenge.attempts >= MAX_MFA_ATTEMPTS) await repo.deleteChallenge(db, tokenHash);
      await signIn.failed();
      throw REFUSALS[answer]();
    }
    return signIn.finish(attempt, user, previousSessionId);
  }

  const useUpChallenge = async (tokenHash: string): Promise<ChallengeAnswer> =>
    (await repo.deleteChallenge(db, tokenHash)) ? 'valid' : 'expired';

  return {
    async challengeFor(user, brand) {
      if (user.mfaType !== 'TOTP' && user.mfaType !== 'SMS') return null;
      const challengeToken = randomToken();
      const kind: ChallengeKind = user.mfaType === 'TOTP' ? 'SOFTWARE_TOKEN_MFA' : 'SMS_MFA';
      const code = kind === 'SMS_MFA' ? randomDigits(6) : null;
      await repo.insertChallenge(db, {
        tokenHash: sha256(challengeToken),
        userId: user.id,
        kind,
        codeHash: code ? sha256(code) : null,
        createdAt: clock.now(),
        expiresAt: after(CHALLENGE_TTL_MS),
      });
      if (code) await deps.sms.send({ to: user.phone ?? '', text: signInCodeSms(brand, code) });
      return { challenge: kind, challengeToken };
    },

    async completeSignIn(challengeToken, code, clientAddress, previousSessionId) {
      return answerChallenge(challengeToken, clientAddress, previousSessionId, async (challenge, user, tokenHash) => {
        if (challenge.kind === 'SOFTWARE_TOKEN_MFA') {
          const step =
            user.mfaType === 'TOTP' && user.totpSecret !== null
              ? matchTotpStep(code, user.totpSecret, clock.now())
              : null;
          if (step === null) return 'invalid';
          // A code is accepted once: its step must be later than the last one used (RFC 6238 5.2).
          if (!(await repo.claimTotpStep(db, user.id, step))) return 'used';
        } else if (challenge.codeHash === null || !sameDigest(sha256(code), challenge.codeHash)) {
          return 'invalid';
        }
        return useUpChallenge(tokenHash);
      });
    },

    async completeSignInWithRecoveryCode(challengeToken, recoveryCode, clientAddress, previousSessionId) {
      return answerChallenge(challengeToken, clientAddress, previousSessionId, async (_challenge, user, tokenHash) => {
        const codeHash = recoveryCodeHash(user.id, recoveryCode);
        try {
          return await db.transaction(async (tx): Promise<ChallengeAnswer> => {
            if (!(await repo.useRecoveryCode(tx, user.id, codeHash))) return 'recovery-invalid';
            if (!(await repo.deleteChallenge(tx, tokenHash))) throw new ChallengeGone();
            return 'valid';
          });
        } catch (error) {
          if (error instanceof ChallengeGone) return 'expired';
          throw error;
        }
      });
    },

    async issueRecoveryCodes(userId, tx = db) {
      const codes = newRecoveryCodes();
      const hashes = codes.map((code) => recoveryCodeHash(userId, code));
      await repo.replaceRecoveryCodes(tx, userId, hashes, clock.now());
      return codes;
    },

    async deleteRecoveryCodes(userId, tx = db) {
      await repo.deleteRecoveryCodes(tx, userId);
    },

    countRecoveryCodes(userId) {
      return repo.countRecoveryCodes(db, userId);
    },

    async checkTotp(user, code) {
      if (user.mfaType !== 'TOTP' || user.totpSecret === null) return false;
      const step = matchTotpStep(code, user.totpSecret, clock.now());
      return step !== null && (await repo.claimTotpStep(db, user.id, step));
    },

    async sendStepUpSms(user, brand) {
      const now = clock.now();
      const code = randomDigits(6);
      const stored = await repo.storeStepUpChallenge(
        db,
        {
          tokenHash: stepUpKey(user.id),
          userId: user.id,
          kind: 'SMS_MFA',
          codeHash: sha256(code),
          createdAt: now,
          expiresAt: after(CHALLENGE_TTL_MS),
        },
        new Date(now.getTime() - STEP_UP_RESEND_MS),
        MAX_MFA_ATTEMPTS,
      );
      if (stored) await deps.sms.send({ to: user.phone ?? '', text: stepUpCodeSms(brand, code) });
      return stored;
    },

    async checkStepUpSms(user, code) {
      const tokenHash = stepUpKey(user.id);
      const challenge = await repo.spendChallengeAttempt(db, tokenHash, clock.now(), MAX_MFA_ATTEMPTS);
      if (!challenge || challenge.userId !== user.id || challenge.codeHash === null) return false;
      if (!sameDigest(sha256(code), challenge.codeHash)) {
        if (challenge.attempts >= MAX_MFA_ATTEMPTS) await repo.deleteChallenge(db, tokenHash);
        return false;
      }
      return repo.deleteChallenge(db, tokenHash);
    },
  };
}
