/** The account page: profile, password change and enrolment of multi-factor authentication. */
import { authenticator } from 'otplib';
import QRCode from 'qrcode';
import type {
  BrandConfig,
  ChangePasswordBody,
  MfaDisabledResponse,
  MfaEnabledResponse,
  ProfileUpdateBody,
  RecoveryCodesResponse,
  RecoveryCodesStatus,
  TotpSetupResponse,
  UserInfo,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, conflict } from '../../errors';
import { randomDigits, sameDigest, sha256 } from '../../security';
import { AUTH_MESSAGES, toUserInfo, type AuthService, type User } from '../auth/auth.service';
import { MAX_MFA_ATTEMPTS, MFA_MESSAGES, matchTotpStep, type MfaService } from '../auth/mfa.service';
import { enrolmentCodeSms } from '../auth/auth.mail';
import type { SmsSender } from '../mail/mail.service';
import * as repo from './account.repository';

export interface AccountService {
  /** Changes the phone and the marketing choice (a phone that SMS codes go to is locked: 409). */
  updateProfile(user: User, body: ProfileUpdateBody): Promise<UserInfo>;
  /** Sets a new password (the current one confirms it); every other session ends. */
  changePassword(user: User, body: ChangePasswordBody, sessionHash: string): Promise<{ message: string }>;
  /** Starts TOTP enrolment: a new secret, kept pending until a code from it is confirmed. */
  setupTotp(user: User, brand: BrandConfig): Promise<TotpSetupResponse>;
  /** Turns TOTP on with a code of the pending secret; a new set of recovery codes comes with it. */
  enableTotp(user: User, brand: BrandConfig, code: string): Promise<MfaEnabledResponse>;
  /** Starts SMS enrolment: a 6-digit code is texted to `phone` (valid 10 minutes). */
  setupSms(user: User, brand: BrandConfig, phone: string): Promise<{ message: string }>;
  /** Turns SMS codes on with the texted code; a new set of recovery codes comes with it. */
  enableSms(user: User, brand: BrandConfig, code: string): Promise<MfaEnabledResponse>;
  /** Turns MFA off (password required); the recovery codes go with it. */
  disableMfa(user: User, password: string): Promise<MfaDisabledResponse>;
  /** How many unused recovery codes the user has. */
  recoveryCodesStatus(user: User): Promise<RecoveryCodesStatus>;
  /**
   * A new set of recovery codes in place of the old one. The password confirms it, as for turning
   * MFA off: a session left open is not enough to take over the second factor.
   */
  renewRecoveryCodes(user: User, password: string): Promise<RecoveryCodesResponse>;
}

const SMS_ENROLMENT_TTL_MS = 10 * 60_000;

export const ACCOUNT_MESSAGES = {
  phoneLockedBySms: 'Turn off SMS multi-factor authentication before changing the phone number.',
  mfaNotAllowed: 'Multi-factor authentication is not available on this site.',
  smsCodeSent: (phone: string) => `We have sent a code to ${phone}.`,
  totpOn:
    'Multi-factor authentication is on. From your next sign-in you will be asked for a code from your authenticator app.',
  smsOn: (phone: string) =>
    `Multi-factor authentication is on. From your next sign-in you will be asked for a code we text to ${phone}.`,
  mfaOff: 'Multi-factor authentication is off. From your next sign-in you will need only your password.',
  recoveryCodesRenewed: 'You have new recovery codes. The old ones no longer work.',
  mfaNotOn: 'Turn on multi-factor authentication first.',
} as const;

export interface AccountDeps {
  db: Db;
  clock: Clock;
  sms: SmsSender;
  auth: Pick<AuthService, 'getUser' | 'changePassword' | 'checkPassword'>;
  mfa: Pick<MfaService, 'issueRecoveryCodes' | 'deleteRecoveryCodes' | 'countRecoveryCodes'>;
}

const mfaInvalid = () => new AppError(400, 'MFA_INVALID', MFA_MESSAGES.mfaInvalid);
const wrongPassword = () => new AppError(401, 'INVALID_CREDENTIALS', AUTH_MESSAGES.wrongPassword);

function assertMfaAllowed(brand: BrandConfig): void {
  if (!brand.allowMFA) throw new AppError(403, 'MFA_NOT_ALLOWED', ACCOUNT_MESSAGES.mfaNotAllowed);
}

export function createAccountService(deps: AccountDeps): AccountService {
  const { db, clock, auth, mfa } = deps;
  const reload = async (userId: string): Promise<UserInfo> => toUserInfo(await auth.getUser(userId));

  return {
    async updateProfile(user: User, body: ProfileUpdateBody): Promise<UserInfo> {
      const phone = body.phone === undefined ? undefined : body.phone === '' ? null : body.phone;
      if (phone !== undefined && phone !== user.phone && user.mfaType === 'SMS')
        throw conflict(ACCOUNT_MESSAGES.phoneLockedBySms);
      await repo.updateProfile(db, user.id, {
        ...(phone !== undefined ? { phone } : {}),
        ...(body.marketingOptIn !== undefined ? { marketingOptIn: body.marketingOptIn } : {}),
      });
      return reload(user.id);
    },

    changePassword(user: User, body: ChangePasswordBody, sessionHash: string): Promise<{ message: string }> {
      return auth.changePassword(user, body.currentPassword, body.newPassword, sessionHash);
    },

    async setupTotp(user: User, brand: BrandConfig): Promise<TotpSetupResponse> {
      assertMfaAllowed(brand);
      const secret = authenticator.generateSecret();
      await repo.setTotpPendingSecret(db, user.id, secret);
      const otpauthUrl = authenticator.keyuri(user.email, brand.name, secret);
      const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1 });
      return { secret, otpauthUrl, qrSvg };
    },

    async enableTotp(user: User, brand: BrandConfig, code: string): Promise<MfaEnabledResponse> {
      assertMfaAllowed(brand);
      const secret = user.totpPendingSecret;
      const step = secret ? matchTotpStep(code, secret, clock.now()) : null;
      if (!secret || step === null) throw mfaInvalid();
      const recoveryCodes = await db.transaction(async (tx) =>
        // The enabling code's step is recorded, so the same code cannot then sign in.
        (await repo.enableTotp(tx, user.id, secret, step)) ? mfa.issueRecoveryCodes(user.id, tx) : null,
      );
      if (!recoveryCodes) throw mfaInvalid();
      return { message: ACCOUNT_MESSAGES.totpOn, user: await reload(user.id), recoveryCodes };
    },

    async setupSms(user: User, brand: BrandConfig, phone: string): Promise<{ message: string }> {
      assertMfaAllowed(brand);
      const code = randomDigits(6);
      await repo.setSmsPending(db, user.id, {
        phone,
        codeHash: sha256(code),
        expiresAt: new Date(clock.now().getTime() + SMS_ENROLMENT_TTL_MS),
      });
      await deps.sms.send({ to: phone, text: enrolmentCodeSms(brand, code) });
      return { message: ACCOUNT_MESSAGES.smsCodeSent(phone) };
    },

    async enableSms(user: User, brand: BrandConfig, code: string): Promise<MfaEnabledResponse> {
      assertMfaAllowed(brand);
      const pending = user.smsPending;
      const attempts = pending ? await repo.spendSmsPendingAttempt(db, user.id, clock.now(), MAX_MFA_ATTEMPTS) : null;
      if (!pending || attempts === null) throw mfaInvalid();
      if (!sameDigest(sha256(code), pending.codeHash)) {
        if (attempts >= MAX_MFA_ATTEMPTS) await repo.clearSmsPending(db, user.id);
        throw mfaInvalid();
      }
      const recoveryCodes = await db.transaction(async (tx) => {
        await repo.enableSms(tx, user.id, pending.phone);
        return mfa.issueRecoveryCodes(user.id, tx);
      });
      return { message: ACCOUNT_MESSAGES.smsOn(pending.phone), user: await reload(user.id), recoveryCodes };
    },

    async disableMfa(user: User, password: string): Promise<MfaDisabledResponse> {
      if (!(await auth.checkPassword(user, password))) throw wrongPassword();
      await db.transaction(async (tx) => {
        await repo.disableMfa(tx, user.id);
        await mfa.deleteRecoveryCodes(user.id, tx);
      });
      return { message: ACCOUNT_MESSAGES.mfaOff, user: await reload(user.id) };
    },

    async recoveryCodesStatus(user: User): Promise<RecoveryCodesStatus> {
      return { remaining: await mfa.countRecoveryCodes(user.id) };
    },

    async renewRecoveryCodes(user: User, password: string): Promise<RecoveryCodesResponse> {
      if (!(await auth.checkPassword(user, password))) throw wrongPassword();
      if (user.mfaType === 'NONE') throw conflict(ACCOUNT_MESSAGES.mfaNotOn);
      const recoveryCodes = await mfa.issueRecoveryCodes(user.id);
      return { message: ACCOUNT_MESSAGES.recoveryCodesRenewed, recoveryCodes };
    },
  };
}
