/**
 * Accounts and sign-in: sign-up with e-mail verification, password sign-in with an optional
 * second factor (TOTP or SMS), sessions, password reset. Every secret handed out (session id,
 * challenge token, link code) is random and stored only as its sha256.
 */
import { authenticator } from 'otplib';
import {
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
  SESSION_MAX_AGE_S,
  UserGroupSchema,
  formatRecoveryCode,
  type BrandConfig,
  type LoginBody,
  type ResetCompleteBody,
  type SignupBody,
  type UserGroup,
  type UserInfo,
} from '@portal/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import type { BackgroundTasks } from '../../background';
import { AppError, rateLimited, unauthenticated } from '../../errors';
import {
  dummyPasswordHash,
  hashPassword,
  randomChars,
  randomDigits,
  randomId,
  randomToken,
  sameDigest,
  sha256,
  verifyPassword,
  type PasswordHashCost,
} from '../../security';
import type { Mailer, SmsSender } from '../mail/mail.service';
import type { PublicAddresses } from '../../public-addresses';
import { resetMail, signInCodeSms, signupAttemptMail, stepUpCodeSms, verificationMail } from './auth.mail';
import * as repo from './auth.repository';
import type { Challenge, ChallengeKind, User } from './auth.repository';
import { clientKey, retryAfterSeconds, signInWaitMs, type SignInThrottlePolicy } from './sign-in-throttle';

export type { ChallengeKind, User } from './auth.repository';

const MINUTE = 60_000;
/** The session's life: the 7 days of spec 1 section 9, as core's SESSION_MAX_AGE_S. */
export const SESSION_TTL_MS = SESSION_MAX_AGE_S * 1000;
export const CHALLENGE_TTL_MS = 5 * MINUTE;
export const CHALLENGE_MAX_AGE_SECONDS = CHALLENGE_TTL_MS / 1000;
export const RESET_CODE_TTL_MS = 60 * MINUTE;
export const VERIFY_CODE_TTL_MS = 24 * 60 * MINUTE;
export const MAX_MFA_ATTEMPTS = 5;
/** last_seen_at is refreshed at most this often, so reads do not each cost a write. */
const SESSION_TOUCH_MS = 5 * MINUTE;
/** TOTP codes one step either side of now are accepted (clock drift of the phone). */
const TOTP_WINDOW = 1;

export const AUTH_MESSAGES = {
  signedUp: 'Account created. We have sent you an e-mail with a link to verify your address.',
  verified: 'Your e-mail address is verified. You can now sign in.',
  verifyInvalid: 'This verification link is invalid or has expired.',
  badCredentials: 'Incorrect username or password.',
  notVerified: 'Your e-mail address is not verified yet. We have sent you a new verification link.',
  mfaInvalid: 'Invalid code received for user',
  mfaCodeUsed: 'This code has already been used. Wait for the next code from your authenticator app.',
  recoveryCodeInvalid: 'This recovery code is not valid or has already been used.',
  signInExpired: 'Your sign-in has expired. Please sign in again.',
  signedOut: 'Signed out',
  resetRequested: 'If an account exists for that address, we have sent it a link to reset the password.',
  resetDone: 'Your password has been reset. You can now sign in.',
  resetInvalid: 'This reset link is invalid or has expired.',
  wrongPassword: 'Incorrect password.',
  passwordChanged: 'Password changed',
} as const;

/** Failed sign-ins (wrong password or MFA code) are counted per account and client address. */
export interface AuthLimits extends SignInThrottlePolicy {
  /** Reset requests per e-mail address per window. */
  resetRequestsPerAddress: number;
  /** Mails to an account's owner about sign-ups with its address, per window (the answer never changes). */
  signupWarningsPerAddress: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  freeFailuresPerClient: 10,
  firstDelayMs: 1000,
  failuresPerAccount: 100,
  failuresPerClient: 100,
  resetRequestsPerAddress: 5,
  signupWarningsPerAddress: 3,
  windowMs: 15 * MINUTE,
};

export interface AuthDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  sms: SmsSender;
  log: FastifyBaseLogger;
  background: BackgroundTasks;
  limits: AuthLimits;
  /** The configured brand origins: a mail's links use the brand its recipient signed up under. */
  addresses: Pick<PublicAddresses, 'brand' | 'originOf'>;
  /** Called once a new account exists (device invitations are applied here). */
  onSignup?: (user: { id: string; email: string }) => Promise<void>;
  /** PASSWORD_HASH_COST: scrypt's work factors for new hashes ('test' in the test suite only). */
  passwordHashCost?: PasswordHashCost;
}

/** What a request contributes to a flow: its brand (a new account's, SMS texts) and the client's address. */
export interface RequestContext {
  brand: BrandConfig;
  clientAddress: string;
}

/** A sign-in attempt, recorded as a failure until it is known to be none. */
interface SignInAttempt {
  id: string;
  email: string;
  client: string;
}

export type LoginResult =
  | { status: 'SIGNED_IN'; user: UserInfo; sessionId: string }
  | { status: 'MFA_REQUIRED'; challenge: ChallengeKind; challengeToken: string };

export interface Authenticated {
  user: User;
  sessionHash: string;
}

export interface SeedUser {
  email: string;
  password: string;
  userGroups: UserGroup[];
}

const isUserGroup = (group: string): group is UserGroup => UserGroupSchema.safeParse(group).success;

/** The public view of a user (no hashes, no secrets). */
export function toUserInfo(user: User): UserInfo {
  return {
    userId: user.id,
    email: user.email,
    phone: user.phone ?? '',
    emailVerified: user.emailVerified,
    marketingOptIn: user.marketingOptIn,
    mfa: user.mfaType,
    userGroups: user.userGroups.filter(isUserGroup),
    brandImageUrl: user.brandImageUrl,
  };
}

const TOTP_STEP_MS = 30_000;

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
/** A new step-up SMS is sent at most this often. */
export const STEP_UP_RESEND_MS = MINUTE;
const resetKey = (email: string) => `reset:${email}`;
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
  invalid: () => new AppError(401, 'MFA_INVALID', AUTH_MESSAGES.mfaInvalid),
  // The code matches the current window but its time step was used (RFC 6238 5.2): the next one will do.
  used: () => new AppError(401, 'MFA_CODE_USED', AUTH_MESSAGES.mfaCodeUsed),
  'recovery-invalid': () => new AppError(401, 'MFA_INVALID', AUTH_MESSAGES.recoveryCodeInvalid),
};

/** Thrown inside a transaction to roll it back when the challenge was used up meanwhile. */
class ChallengeGone extends Error {}
const signupWarningKey = (email: string) => `signup-warning:${email}`;

export function createAuthService(deps: AuthDeps) {
  const { db, clock, limits } = deps;
  const hashCost = deps.passwordHashCost ?? 'standard';
  const after = (ms: number) => new Date(clock.now().getTime() + ms);
  const windowStart = () => new Date(clock.now().getTime() - limits.windowMs);

  /** The brand of mails to `user` and the origin of their links: the brand the user signed up under. */
  function mailBrandOf(user: Pick<User, 'brand'>): { brand: BrandConfig; origin: string } {
    return { brand: deps.addresses.brand(user.brand), origin: deps.addresses.originOf(user.brand) };
  }

  async function sendVerification(user: User): Promise<void> {
    const code = randomToken();
    const now = clock.now();
    await repo.deleteStaleUserCodes(db, user.id, now);
    await repo.insertUserCode(db, {
      codeHash: sha256(code),
      userId: user.id,
      kind: 'verify',
      createdAt: now,
      expiresAt: after(VERIFY_CODE_TTL_MS),
    });
    // Sent after answering, as every sign-up mail is, so the answer's time tells nothing. If it
    // fails the account stands; signing in again re-sends the link.
    const { brand, origin } = mailBrandOf(user);
    const mail = verificationMail(brand, user.email, `${origin}/verify/${code}`);
    deps.background.run('Sending the verification mail', () => deps.mailer.send(mail));
  }

  /** Tells the owner of `email` that someone tried to sign up with it (a few mails a window at most). */
  async function warnAccountOwner(email: string): Promise<void> {
    const key = signupWarningKey(email);
    if ((await repo.countAttempts(db, key, windowStart())) >= limits.signupWarningsPerAddress) return;
    await repo.recordAttempt(db, key, clock.now(), windowStart());
    const owner = await repo.findUserByEmail(db, email);
    if (!owner) return;
    const { brand, origin } = mailBrandOf(owner);
    const mail = signupAttemptMail(brand, email, {
      signIn: `${origin}/login`,
      resetPassword: `${origin}/resetpassword`,
    });
    deps.background.run('Sending the sign-up attempt mail', () => deps.mailer.send(mail));
  }

  /** A new session; the one the browser held before (if any) ends, so ids never carry over. */
  async function startSession(user: User, previousSessionId: string | undefined): Promise<string> {
    const sessionId = randomToken();
    const now = clock.now();
    if (previousSessionId) await repo.deleteSession(db, sha256(previousSessionId));
    await repo.deleteExpiredSessions(db, user.id, now);
    await repo.insertSession(db, {
      idHash: sha256(sessionId),
      userId: user.id,
      createdAt: now,
      expiresAt: after(SESSION_TTL_MS),
    });
    return sessionId;
  }

  /**
   * Starts a sign-in attempt of `email` from a client: throws a 429 with Retry-After while the
   * failures so far make it wait, else records it as a failure before the password or code is checked.
   * One attempt per e-mail address, and one per client, at a time is judged and recorded, so
   * parallel guesses count too.
   */
  async function beginSignInAttempt(email: string, clientAddress: string): Promise<SignInAttempt> {
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
  }

  /** The attempt failed: it stays recorded; failures that left the window are forgotten. */
  async function signInFailed(): Promise<void> {
    await repo.forgetSignInFailures(db, windowStart());
  }

  /** The attempt was no failure (right password, a second step follows). */
  async function notAFailure(attempt: SignInAttempt): Promise<void> {
    await repo.deleteSignInFailure(db, attempt.id);
  }

  /** Signed in: the earlier failures from this client were the owner's own. */
  async function signedInFrom(attempt: SignInAttempt): Promise<void> {
    await repo.clearSignInFailures(db, attempt.email, attempt.client);
  }

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
  ): Promise<{ user: UserInfo; sessionId: string }> {
    if (!challengeToken) throw unauthenticated(AUTH_MESSAGES.signInExpired);
    const tokenHash = sha256(challengeToken);
    const challenge = await repo.spendChallengeAttempt(db, tokenHash, clock.now(), MAX_MFA_ATTEMPTS);
    if (!challenge) throw unauthenticated(AUTH_MESSAGES.signInExpired);
    const user = await repo.findUserById(db, challenge.userId);
    if (!user) throw unauthenticated(AUTH_MESSAGES.signInExpired);
    const attempt = await beginSignInAttempt(user.email, clientAddress);
    const answer = await check(challenge, user, tokenHash);
    if (answer === 'expired') {
      await notAFailure(attempt);
      throw unauthenticated(AUTH_MESSAGES.signInExpired);
    }
    if (answer !== 'valid') {
      if (challenge.attempts >= MAX_MFA_ATTEMPTS) await repo.deleteChallenge(db, tokenHash);
      await signInFailed();
      throw REFUSALS[answer]();
    }
    await signedInFrom(attempt);
    return { user: toUserInfo(user), sessionId: await startSession(user, previousSessionId) };
  }

  const useUpChallenge = async (tokenHash: string): Promise<ChallengeAnswer> =>
    (await repo.deleteChallenge(db, tokenHash)) ? 'valid' : 'expired';

  return {
    toUserInfo,

    /**
     * The same answer, after the same password hash, whether or not the address has an account,
     * so sign-up does not tell who has one; an existing account's owner is mailed instead and
     * the account is left as it is.
     */
    async signup(body: SignupBody, ctx: RequestContext): Promise<{ message: string }> {
      const passwordHash = await hashPassword(body.password, hashCost);
      const user = await repo.insertUserIfAbsent(db, {
        id: randomId(),
        email: body.email,
        passwordHash,
        emailVerified: false,
        marketingOptIn: ctx.brand.hideMarketingEmailSignup ? false : (body.marketingOptIn ?? false),
        userGroups: [],
        // The account keeps the brand of the host it signed up on: its mails' links use that host.
        brand: ctx.brand.id,
        createdAt: clock.now(),
      });
      if (user) {
        // The account cannot sign in before its address is verified, so grants may wait here.
        await deps.onSignup?.(user);
        await sendVerification(user);
      } else {
        await warnAccountOwner(body.email);
      }
      return { message: AUTH_MESSAGES.signedUp };
    },

    async verifyEmail(code: string): Promise<{ message: string }> {
      const codeHash = sha256(code);
      const now = clock.now();
      const verified = await db.transaction(async (tx) => {
        const userId = await repo.useUserCode(tx, codeHash, 'verify', now);
        if (userId) {
          await repo.markEmailVerified(tx, userId);
          return true;
        }
        // A link opened twice (a second tab, a mail scanner) still answers success.
        return (await repo.findUsedUserCode(tx, codeHash, 'verify', now)) !== null;
      });
      if (!verified) throw new AppError(400, 'CODE_INVALID', AUTH_MESSAGES.verifyInvalid);
      return { message: AUTH_MESSAGES.verified };
    },

    async login(body: LoginBody, ctx: RequestContext, previousSessionId?: string): Promise<LoginResult> {
      // Counted by address whether or not an account has it, so a 429 reveals nothing.
      const attempt = await beginSignInAttempt(body.email, ctx.clientAddress);
      const user = await repo.findUserByEmail(db, body.email);
      const passwordOk = await verifyPassword(body.password, user?.passwordHash ?? (await dummyPasswordHash(hashCost)));
      if (!user || !passwordOk) {
        await signInFailed();
        throw new AppError(401, 'INVALID_CREDENTIALS', AUTH_MESSAGES.badCredentials);
      }
      await notAFailure(attempt);
      if (!user.emailVerified) {
        await sendVerification(user);
        throw new AppError(403, 'EMAIL_NOT_VERIFIED', AUTH_MESSAGES.notVerified);
      }
      // MFA is enforced on every brand for a user who turned it on, whatever the host.
      if (user.mfaType === 'TOTP' || user.mfaType === 'SMS') {
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
        if (code) await deps.sms.send({ to: user.phone ?? '', text: signInCodeSms(ctx.brand, code) });
        return { status: 'MFA_REQUIRED', challenge: kind, challengeToken };
      }
      await signedInFrom(attempt);
      return { status: 'SIGNED_IN', user: toUserInfo(user), sessionId: await startSession(user, previousSessionId) };
    },

    async completeMfa(
      challengeToken: string | undefined,
      code: string,
      clientAddress: string,
      previousSessionId?: string,
    ): Promise<{ user: UserInfo; sessionId: string }> {
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

    /**
     * The code step answered with a recovery code (either kind of challenge). The code and the
     * challenge are used up together, so a code is not lost to a sign-in that another request ended.
     */
    async completeMfaWithRecoveryCode(
      challengeToken: string | undefined,
      recoveryCode: string,
      clientAddress: string,
      previousSessionId?: string,
    ): Promise<{ user: UserInfo; sessionId: string }> {
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

    /**
     * A new set of recovery codes for the user, replacing the old one; returns the codes (shown
     * once). Pass the transaction that turns MFA on, so both happen or neither.
     */
    async issueRecoveryCodes(userId: string, tx: Db = db): Promise<string[]> {
      const codes = newRecoveryCodes();
      const hashes = codes.map((code) => recoveryCodeHash(userId, code));
      await repo.replaceRecoveryCodes(tx, userId, hashes, clock.now());
      return codes;
    },

    async deleteRecoveryCodes(userId: string, tx: Db = db): Promise<void> {
      await repo.deleteRecoveryCodes(tx, userId);
    },

    /** How many unused recovery codes the user has. */
    countRecoveryCodes(userId: string): Promise<number> {
      return repo.countRecoveryCodes(db, userId);
    },

    async logout(sessionId: string | undefined): Promise<{ message: string }> {
      if (sessionId) await repo.deleteSession(db, sha256(sessionId));
      return { message: AUTH_MESSAGES.signedOut };
    },

    /** The user of a session cookie, or null when it is unknown or expired. */
    async authenticate(sessionId: string | undefined): Promise<Authenticated | null> {
      if (!sessionId) return null;
      const sessionHash = sha256(sessionId);
      const now = clock.now();
      const found = await repo.findSessionUser(db, sessionHash, now);
      if (!found) return null;
      if (now.getTime() - found.lastSeenAt.getTime() > SESSION_TOUCH_MS) await repo.touchSession(db, sessionHash, now);
      return { user: found.user, sessionHash };
    },

    async requestReset(email: string): Promise<{ message: string }> {
      // Counted per address whether or not the account exists, so the answer reveals nothing.
      if ((await repo.countAttempts(db, resetKey(email), windowStart())) >= limits.resetRequestsPerAddress)
        throw rateLimited();
      await repo.recordAttempt(db, resetKey(email), clock.now(), windowStart());
      const user = await repo.findUserByEmail(db, email);
      if (user) {
        const code = randomToken();
        const now = clock.now();
        await repo.deleteStaleUserCodes(db, user.id, now);
        await repo.insertUserCode(db, {
          codeHash: sha256(code),
          userId: user.id,
          kind: 'reset',
          createdAt: now,
          expiresAt: after(RESET_CODE_TTL_MS),
        });
        // Sent after answering, so an existing address does not take measurably longer.
        const { brand, origin } = mailBrandOf(user);
        const mail = resetMail(brand, user.email, `${origin}/resetpassword/${code}`);
        deps.background.run('Sending the reset mail', () => deps.mailer.send(mail));
      }
      return { message: AUTH_MESSAGES.resetRequested };
    },

    async completeReset(code: string, body: ResetCompleteBody): Promise<{ message: string }> {
      const passwordHash = await hashPassword(body.password, hashCost);
      const now = clock.now();
      const email = await db.transaction(async (tx) => {
        const userId = await repo.useUserCode(tx, sha256(code), 'reset', now);
        if (!userId) return null;
        await repo.updatePasswordHash(tx, userId, passwordHash);
        await repo.markEmailVerified(tx, userId);
        await repo.voidUserCodes(tx, userId, 'reset', now);
        await repo.deleteUserSessions(tx, userId);
        await repo.deleteUserChallenges(tx, userId);
        return (await repo.findUserById(tx, userId))?.email ?? null;
      });
      if (!email) throw new AppError(400, 'CODE_INVALID', AUTH_MESSAGES.resetInvalid);
      // The guesses were at a password that is gone.
      await repo.clearSignInFailures(db, email);
      return { message: AUTH_MESSAGES.resetDone };
    },

    /** The account of an address, or null (seeding and tools; never answers a request). */
    async findUserByEmail(email: string): Promise<User | null> {
      return repo.findUserByEmail(db, email);
    },

    async getUser(userId: string): Promise<User> {
      const user = await repo.findUserById(db, userId);
      if (!user) throw unauthenticated();
      return user;
    },

    /** True when `code` is the user's current TOTP code, not used before (RFC 6238 5.2). */
    async checkTotp(user: User, code: string): Promise<boolean> {
      if (user.mfaType !== 'TOTP' || user.totpSecret === null) return false;
      const step = matchTotpStep(code, user.totpSecret, clock.now());
      return step !== null && (await repo.claimTotpStep(db, user.id, step));
    },

    /**
     * Step-up for a signed-in SMS user (before a sensitive answer such as a setup password):
     * texts a 6-digit code, valid 5 minutes for 5 attempts. While a code sent less than a
     * minute ago is live, nothing new is sent. True when a code was sent now.
     */
    async sendStepUpSms(user: User, brand: BrandConfig): Promise<boolean> {
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

    /** True when `code` is the user's live step-up SMS code; a code is accepted once. */
    async checkStepUpSms(user: User, code: string): Promise<boolean> {
      const tokenHash = stepUpKey(user.id);
      const challenge = await repo.spendChallengeAttempt(db, tokenHash, clock.now(), MAX_MFA_ATTEMPTS);
      if (!challenge || challenge.userId !== user.id || challenge.codeHash === null) return false;
      if (!sameDigest(sha256(code), challenge.codeHash)) {
        if (challenge.attempts >= MAX_MFA_ATTEMPTS) await repo.deleteChallenge(db, tokenHash);
        return false;
      }
      return repo.deleteChallenge(db, tokenHash);
    },

    checkPassword(user: User, password: string): Promise<boolean> {
      return verifyPassword(password, user.passwordHash);
    },

    /** Sets a new password and ends every other session of the user (keeps `keepSessionHash`). */
    async changePassword(
      user: User,
      currentPassword: string,
      newPassword: string,
      keepSessionHash: string,
    ): Promise<{ message: string }> {
      if (!(await verifyPassword(currentPassword, user.passwordHash))) {
        throw new AppError(401, 'INVALID_CREDENTIALS', AUTH_MESSAGES.wrongPassword);
      }
      const passwordHash = await hashPassword(newPassword, hashCost);
      await db.transaction(async (tx) => {
        await repo.updatePasswordHash(tx, user.id, passwordHash);
        await repo.deleteUserSessions(tx, user.id, keepSessionHash);
        await repo.deleteUserChallenges(tx, user.id);
      });
      return { message: AUTH_MESSAGES.passwordChanged };
    },

    /** Creates a verified account unless the address exists (seeding); true when created. */
    async ensureUser(seed: SeedUser): Promise<boolean> {
      if (await repo.findUserByEmail(db, seed.email)) return false;
      const created = await repo.insertUserIfAbsent(db, {
        id: randomId(),
        email: seed.email,
        passwordHash: await hashPassword(seed.password, hashCost),
        emailVerified: true,
        marketingOptIn: false,
        userGroups: seed.userGroups,
        brand: 'default',
        createdAt: clock.now(),
      });
      return created !== null;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
