/** The account page: profile, password change and enrolment of multi-factor authentication. */
import { authenticator } from 'otplib';
import QRCode from 'qrcode';
import type { BrandConfig, ChangePasswordBody, ProfileUpdateBody, TotpSetupResponse, UserInfo } from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, conflict } from '../../errors';
import { randomDigits, sameDigest, sha256 } from '../../security';
import {
  AUTH_MESSAGES,
  MAX_MFA_ATTEMPTS,
  matchTotpStep,
  toUserInfo,
  type AuthService,
  type User,
} from '../auth/auth.service';
import { enrolmentCodeSms } from '../auth/auth.mail';
import type { SmsSender } from '../mail/mail.service';
import * as repo from './account.repository';

const SMS_ENROLMENT_TTL_MS = 10 * 60_000;

export const ACCOUNT_MESSAGES = {
  phoneLockedBySms: 'Turn off SMS multi-factor authentication before changing the phone number.',
  mfaNotAllowed: 'Multi-factor authentication is not available on this site.',
  smsCodeSent: (phone: string) => `We have sent a code to ${phone}.`,
} as const;

export interface AccountDeps {
  db: Db;
  clock: Clock;
  sms: SmsSender;
  auth: AuthService;
}

const mfaInvalid = () => new AppError(400, 'MFA_INVALID', AUTH_MESSAGES.mfaInvalid);

function assertMfaAllowed(brand: BrandConfig): void {
  if (!brand.allowMFA) throw new AppError(403, 'MFA_NOT_ALLOWED', ACCOUNT_MESSAGES.mfaNotAllowed);
}

export function createAccountService(deps: AccountDeps) {
  const { db, clock, auth } = deps;
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

    /** Starts TOTP enrolment: a new secret, kept pending until a code from it is confirmed. */
    async setupTotp(user: User, brand: BrandConfig): Promise<TotpSetupResponse> {
      assertMfaAllowed(brand);
      const secret = authenticator.generateSecret();
      await repo.setTotpPendingSecret(db, user.id, secret);
      const otpauthUrl = authenticator.keyuri(user.email, brand.name, secret);
      const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1 });
      return { secret, otpauthUrl, qrSvg };
    },

    async enableTotp(user: User, brand: BrandConfig, code: string): Promise<UserInfo> {
      assertMfaAllowed(brand);
      const secret = user.totpPendingSecret;
      const step = secret ? matchTotpStep(code, secret, clock.now()) : null;
      if (!secret || step === null) throw mfaInvalid();
      // The enabling code's step is recorded, so the same code cannot then sign in.
      if (!(await repo.enableTotp(db, user.id, secret, step))) throw mfaInvalid();
      return reload(user.id);
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

    async enableSms(user: User, brand: BrandConfig, code: string): Promise<UserInfo> {
      assertMfaAllowed(brand);
      const pending = user.smsPending;
      const attempts = pending ? await repo.spendSmsPendingAttempt(db, user.id, clock.now(), MAX_MFA_ATTEMPTS) : null;
      if (!pending || attempts === null) throw mfaInvalid();
      if (!sameDigest(sha256(code), pending.codeHash)) {
        if (attempts >= MAX_MFA_ATTEMPTS) await repo.clearSmsPending(db, user.id);
        throw mfaInvalid();
      }
      await repo.enableSms(db, user.id, pending.phone);
      return reload(user.id);
    },

    async disableMfa(user: User, password: string): Promise<UserInfo> {
      if (!(await auth.checkPassword(user, password)))
        throw new AppError(401, 'INVALID_CREDENTIALS', AUTH_MESSAGES.wrongPassword);
      await repo.disableMfa(db, user.id);
      return reload(user.id);
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
