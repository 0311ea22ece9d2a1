/**
 * The setup password of a device (POST /api/device/{id}/passwords), shown to an ADMIN; a caller
 * with MFA on confirms with a second factor first.
 */
import { DEVICE_MESSAGES, PASSWORDS_MESSAGES, type BrandConfig } from '@portal/core';
import type { Db } from '../../db/db';
import { AppError } from '../../errors';
import type { User } from '../auth/auth.service';
import type { MfaService } from '../auth/mfa.service';
import type { AccessService } from '../access/access.service';
import { loadDevice } from './load-device';

/** Checks of the caller's second factor, from the auth service. */
/** The second factor's step-up checks a setup password's caller confirms with. */
export type MfaStepUp = Pick<MfaService, 'checkTotp' | 'sendStepUpSms' | 'checkStepUpSms'>;

/** What the setup passwords offer the routes. */
export interface SetupPasswordsService {
  /** The setup password, to an ADMIN; a caller with MFA must give a current code (an SMS user's first call texts one). */
  setupPassword(
    user: User,
    deviceId: string,
    code: string | undefined,
    brand: BrandConfig,
  ): Promise<{ deviceid: string; setupPassword: string }>;
}

export interface SetupPasswordsDeps {
  db: Db;
  /** The one access gate. */
  access: AccessService;
  /** The caller's second factor (auth service), asked before a setup password is shown; absent: refused for MFA users. */
  mfa?: MfaStepUp;
}

export function createSetupPasswordsService(deps: SetupPasswordsDeps): SetupPasswordsService {
  const { db, access } = deps;

  /**
   * A caller with MFA confirms with a code: TOTP users give their current code; an SMS user's
   * first call (no code) texts one and answers 403 MFA_REQUIRED, the next call gives it.
   */
  async function confirmSecondFactor(user: User, code: string | undefined, brand: BrandConfig): Promise<void> {
    const mfaType = user.mfaType;
    if (mfaType === 'NONE') return;
    const mfa = deps.mfa;
    const invalid = () => new AppError(403, 'MFA_INVALID', DEVICE_MESSAGES.mfaInvalid);
    if (!mfa) throw new AppError(403, 'MFA_INVALID', PASSWORDS_MESSAGES.mfaUnavailable);
    switch (mfaType) {
      case 'TOTP':
        if (code === undefined) throw new AppError(403, 'MFA_REQUIRED', DEVICE_MESSAGES.mfaRequired);
        if (!(await mfa.checkTotp(user, code))) throw invalid();
        return;
      case 'SMS':
        if (code === undefined) {
          const sent = await mfa.sendStepUpSms(user, brand);
          throw new AppError(
            403,
            'MFA_REQUIRED',
            sent ? PASSWORDS_MESSAGES.smsSent : PASSWORDS_MESSAGES.smsAlreadySent,
          );
        }
        if (!(await mfa.checkStepUpSms(user, code))) throw invalid();
        return;
      default: {
        const unhandled: never = mfaType;
        throw new Error(`Unhandled MFA type ${String(unhandled)}`);
      }
    }
  }

  return {
    async setupPassword(
      user: User,
      deviceId: string,
      code: string | undefined,
      brand: BrandConfig,
    ): Promise<{ deviceid: string; setupPassword: string }> {
      await access.authorize(user.id, deviceId, 'adminSettings');
      await confirmSecondFactor(user, code, brand);
      const row = await loadDevice(db, deviceId);
      return { deviceid: deviceId, setupPassword: row.setup_password };
    },
  };
}
