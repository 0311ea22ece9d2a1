/**
 * Accounts and the password: sign-up with e-mail verification, the password step of a sign-in
 * (mfa.service.ts takes the code step when the user turned a second factor on), sign-out, password
 * reset and change. Every link code handed out is random and stored only as its sha256.
 */
import type { BrandConfig, LoginBody, ResetCompleteBody, SignupBody, UserGroup, UserInfo } from '@portal/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import type { BackgroundTasks } from '../../background';
import { AppError, rateLimited, unauthenticated } from '../../errors';
import {
  dummyPasswordHash,
  hashPassword,
  randomId,
  randomToken,
  sha256,
  verifyPassword,
  type PasswordHashCost,
} from '../../security';
import type { Mailer } from '../mail/mail.service';
import type { PublicAddresses } from '../../public-addresses';
import { resetMail, signupAttemptMail, verificationMail } from './auth.mail';
import * as repo from './auth.repository';
import type { ChallengeKind, User, UserCodeKind } from './auth.repository';
import type { MfaService } from './mfa.service';
import { createSessions, type Authenticated } from './sessions';
import { createSignIn } from './sign-in';
import type { SignInThrottlePolicy } from './sign-in-throttle';
import { toUserInfo } from './user-info';

export type { ChallengeKind, User } from './auth.repository';
export type { Authenticated } from './sessions';
export { CHALLENGE_MAX_AGE_SECONDS } from './mfa.service';
export { toUserInfo } from './user-info';

const MINUTE = 60_000;
export const RESET_CODE_TTL_MS = 60 * MINUTE;
export const VERIFY_CODE_TTL_MS = 24 * 60 * MINUTE;

export const AUTH_MESSAGES = {
  signedUp: 'Account created. We have sent you an e-mail with a link to verify your address.',
  verified: 'Your e-mail address is verified. You can now sign in.',
  verifyInvalid: 'This verification link is invalid or has expired.',
  badCredentials: 'Incorrect username or password.',
  notVerified: 'Your e-mail address is not verified yet. We have sent you a new verification link.',
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

/** What a request contributes to a flow: its brand (a new account's, SMS texts) and the client's address. */
export interface RequestContext {
  brand: BrandConfig;
  clientAddress: string;
}

export type LoginResult =
  | { status: 'SIGNED_IN'; user: UserInfo; sessionId: string }
  | { status: 'MFA_REQUIRED'; challenge: ChallengeKind; challengeToken: string };

export interface SeedUser {
  email: string;
  password: string;
  userGroups: UserGroup[];
}

export interface AuthService {
  /** The public view of a user (no hashes, no secrets). */
  toUserInfo(user: User): UserInfo;
  /**
   * The same answer, after the same password hash, whether or not the address has an account,
   * so sign-up does not tell who has one; an existing account's owner is mailed instead and
   * the account is left as it is.
   */
  signup(body: SignupBody, ctx: RequestContext): Promise<{ message: string }>;
  /** Marks the address of a verification link's code verified (a link opened twice still succeeds). */
  verifyEmail(code: string): Promise<{ message: string }>;
  /** The password step: signed in, or the code step's challenge when the user turned MFA on. */
  login(body: LoginBody, ctx: RequestContext, previousSessionId?: string): Promise<LoginResult>;
  /** Ends the session of the cookie. */
  logout(sessionId: string | undefined): Promise<{ message: string }>;
  /** The user of a session cookie, or null when it is unknown or expired. */
  authenticate(sessionId: string | undefined): Promise<Authenticated | null>;
  /** Mails a reset link when the address has an account; the same answer either way. */
  requestReset(email: string): Promise<{ message: string }>;
  /** Sets the password with a reset link's code; every session and challenge of the user ends. */
  completeReset(code: string, body: ResetCompleteBody): Promise<{ message: string }>;
  /** The account of an address, or null (seeding and tools; never answers a request). */
  findUserByEmail(email: string): Promise<User | null>;
  /** The account of an id; 401 when it is gone. */
  getUser(userId: string): Promise<User>;
  /** True when `password` is the user's password. */
  checkPassword(user: User, password: string): Promise<boolean>;
  /** Sets a new password and ends every other session of the user (keeps `keepSessionHash`). */
  changePassword(
    user: User,
    currentPassword: string,
    newPassword: string,
    keepSessionHash: string,
  ): Promise<{ message: string }>;
  /** Creates a verified account unless the address exists (seeding); true when created. */
  ensureUser(seed: SeedUser): Promise<boolean>;
}

export interface AuthDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  log: FastifyBaseLogger;
  background: BackgroundTasks;
  limits: AuthLimits;
  /** The second factor: the challenge a right password opens for a user who turned MFA on. */
  mfa: Pick<MfaService, 'challengeFor'>;
  /** The configured brand origins: a mail's links use the brand its recipient signed up under. */
  addresses: Pick<PublicAddresses, 'brand' | 'originOf'>;
  /** Called once a new account exists (device invitations are applied here). */
  onSignup?: (user: { id: string; email: string }) => Promise<void>;
  /** PASSWORD_HASH_COST: scrypt's work factors for new hashes ('test' in the test suite only). */
  passwordHashCost?: PasswordHashCost;
}

/** The two links mailed with a code: how long the code lives, the page it opens, the mail that carries it. */
const LINK_CODES = {
  verify: { ttlMs: VERIFY_CODE_TTL_MS, page: 'verify', mail: verificationMail, task: 'Sending the verification mail' },
  reset: { ttlMs: RESET_CODE_TTL_MS, page: 'resetpassword', mail: resetMail, task: 'Sending the reset mail' },
} as const satisfies Record<UserCodeKind, unknown>;

const resetKey = (email: string) => `reset:${email}`;
const signupWarningKey = (email: string) => `signup-warning:${email}`;

export function createAuthService(deps: AuthDeps): AuthService {
  const { db, clock, limits } = deps;
  const hashCost = deps.passwordHashCost ?? 'standard';
  const sessions = createSessions({ db, clock });
  const signIn = createSignIn({ db, clock, limits });
  const after = (ms: number) => new Date(clock.now().getTime() + ms);
  const windowStart = () => new Date(clock.now().getTime() - limits.windowMs);

  /** The brand of mails to `user` and the origin of their links: the brand the user signed up under. */
  function mailBrandOf(user: Pick<User, 'brand'>): { brand: BrandConfig; origin: string } {
    return { brand: deps.addresses.brand(user.brand), origin: deps.addresses.originOf(user.brand) };
  }

  /**
   * A new link code of `kind` for the user, mailed in its link after the answer (as every such
   * mail is, so the answer's time tells nothing about the address). If the mail fails the code
   * stays; asking again (signing in, requesting a reset) sends a new one.
   */
  async function mailLinkCode(user: User, kind: UserCodeKind): Promise<void> {
    const link = LINK_CODES[kind];
    const code = randomToken();
    const now = clock.now();
    await repo.deleteStaleUserCodes(db, user.id, now);
    await repo.insertUserCode(db, {
      codeHash: sha256(code),
      userId: user.id,
      kind,
      createdAt: now,
      expiresAt: after(link.ttlMs),
    });
    const { brand, origin } = mailBrandOf(user);
    const mail = link.mail(brand, user.email, `${origin}/${link.page}/${code}`);
    deps.background.run(link.task, () => deps.mailer.send(mail));
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

  return {
    toUserInfo,

    async signup(body, ctx) {
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
        await mailLinkCode(user, 'verify');
      } else {
        await warnAccountOwner(body.email);
      }
      return { message: AUTH_MESSAGES.signedUp };
    },

    async verifyEmail(code) {
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

    async login(body, ctx, previousSessionId) {
      // Counted by address whether or not an account has it, so a 429 reveals nothing.
      const attempt = await signIn.begin(body.email, ctx.clientAddress);
      const user = await repo.findUserByEmail(db, body.email);
      const passwordOk = await verifyPassword(body.password, user?.passwordHash ?? (await dummyPasswordHash(hashCost)));
      if (!user || !passwordOk) {
        await signIn.failed();
        throw new AppError(401, 'INVALID_CREDENTIALS', AUTH_MESSAGES.badCredentials);
      }
      await signIn.notAFailure(attempt);
      if (!user.emailVerified) {
        await mailLinkCode(user, 'verify');
        throw new AppError(403, 'EMAIL_NOT_VERIFIED', AUTH_MESSAGES.notVerified);
      }
      const challenge = await deps.mfa.challengeFor(user, ctx.brand);
      if (challenge) return { status: 'MFA_REQUIRED', ...challenge };
      return { status: 'SIGNED_IN', ...(await signIn.finish(attempt, user, previousSessionId)) };
    },

    async logout(sessionId) {
      await sessions.end(sessionId);
      return { message: AUTH_MESSAGES.signedOut };
    },

    authenticate: sessions.authenticate,

    async requestReset(email) {
      // Counted per address whether or not the account exists, so the answer reveals nothing.
      if ((await repo.countAttempts(db, resetKey(email), windowStart())) >= limits.resetRequestsPerAddress)
        throw rateLimited();
      await repo.recordAttempt(db, resetKey(email), clock.now(), windowStart());
      const user = await repo.findUserByEmail(db, email);
      if (user) await mailLinkCode(user, 'reset');
      return { message: AUTH_MESSAGES.resetRequested };
    },

    async completeReset(code, body) {
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

    async findUserByEmail(email) {
      return repo.findUserByEmail(db, email);
    },

    async getUser(userId) {
      const user = await repo.findUserById(db, userId);
      if (!user) throw unauthenticated();
      return user;
    },

    checkPassword(user, password) {
      return verifyPassword(password, user.passwordHash);
    },

    async changePassword(user, currentPassword, newPassword, keepSessionHash) {
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

    async ensureUser(seed) {
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
