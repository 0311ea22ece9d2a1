import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  isValidEmail,
  isValidMfaCode,
  isValidPhone,
  normaliseEmail,
} from '../domain/validation';
import {
  RECOVERY_CODE_FORMAT_MESSAGE,
  RECOVERY_CODE_INPUT_MAX_LENGTH,
  isValidRecoveryCode,
  normaliseRecoveryCode,
} from '../domain/recovery-codes';
import { safeString } from './fields';

/** An e-mail field: lower-cased, trimmed, standard pattern, no .cm/.om. */
export const EmailSchema = safeString()
  .max(EMAIL_MAX_LENGTH, 'E-mail address is too long')
  .transform(normaliseEmail)
  .refine(isValidEmail, 'Please enter a valid e-mail address');

/** A new password: at least 8 characters. */
export const NewPasswordSchema = safeString()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, 'Password is too long');

export const MfaCodeSchema = safeString().refine(isValidMfaCode, 'The code must be 6 digits');

export const PhoneSchema = safeString().refine(
  isValidPhone,
  'Enter the number in international format, e.g. +61412345678',
);

export const USER_GROUPS = ['senquip_admin', 'distributors', 'provisioning_account'] as const;
export const UserGroupSchema = z.enum(USER_GROUPS);
export type UserGroup = z.infer<typeof UserGroupSchema>;

export const MFA_TYPES = ['NONE', 'TOTP', 'SMS'] as const;
export const MfaTypeSchema = z.enum(MFA_TYPES);
export type MfaType = z.infer<typeof MfaTypeSchema>;

export const SignupBodySchema = z.strictObject({
  email: EmailSchema,
  password: NewPasswordSchema,
  marketingOptIn: z.boolean().optional(),
});
export type SignupBody = z.infer<typeof SignupBodySchema>;

export const LoginBodySchema = z.strictObject({
  email: EmailSchema,
  password: safeString().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH, 'Password is too long'),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const MfaBodySchema = z.strictObject({ code: MfaCodeSchema });
export type MfaBody = z.infer<typeof MfaBodySchema>;

/** A recovery code as typed; parsed to its `xxxx-xxxx` form (normaliseRecoveryCode). */
export const RecoveryCodeSchema = safeString()
  .max(RECOVERY_CODE_INPUT_MAX_LENGTH, RECOVERY_CODE_FORMAT_MESSAGE)
  .refine(isValidRecoveryCode, RECOVERY_CODE_FORMAT_MESSAGE)
  .transform((code) => normaliseRecoveryCode(code) ?? code);

/** POST /api/auth/mfa/recovery: a one-time recovery code in place of the 6-digit code. */
export const MfaRecoveryBodySchema = z.strictObject({ recoveryCode: RecoveryCodeSchema });
export type MfaRecoveryBody = z.input<typeof MfaRecoveryBodySchema>;

export const ResetRequestBodySchema = z.strictObject({ email: EmailSchema });
export type ResetRequestBody = z.infer<typeof ResetRequestBodySchema>;

export const ResetCompleteBodySchema = z.strictObject({ password: NewPasswordSchema });
export type ResetCompleteBody = z.infer<typeof ResetCompleteBodySchema>;

export const ChangePasswordBodySchema = z.strictObject({
  currentPassword: safeString().min(1).max(PASSWORD_MAX_LENGTH),
  newPassword: NewPasswordSchema,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

export const ProfileUpdateBodySchema = z.strictObject({
  phone: z.union([PhoneSchema, z.literal('')]).optional(),
  marketingOptIn: z.boolean().optional(),
});
export type ProfileUpdateBody = z.infer<typeof ProfileUpdateBodySchema>;

/** The signed-in user's info (GET /api/user-login, and the session call). */
export const UserInfoSchema = z.object({
  userId: z.string(),
  email: z.string(),
  phone: z.string(),
  emailVerified: z.boolean(),
  marketingOptIn: z.boolean(),
  mfa: MfaTypeSchema,
  userGroups: z.array(UserGroupSchema),
  brandImageUrl: z.string().nullable(),
});
export type UserInfo = z.infer<typeof UserInfoSchema>;

/** GET /api/auth/session: the current session, if any. */
export const SessionResponseSchema = z.object({
  isAuthenticated: z.boolean(),
  user: UserInfoSchema.nullable(),
});
export type SessionResponse = z.infer<typeof SessionResponseSchema>;

/** POST /api/auth/login: either signed in, or a multi-factor challenge follows. */
export const LoginResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('SIGNED_IN'), user: UserInfoSchema }),
  z.object({ status: z.literal('MFA_REQUIRED'), challenge: z.enum(['SOFTWARE_TOKEN_MFA', 'SMS_MFA']) }),
]);
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

/** A plain acknowledgement with a message meant for the user. */
export const MessageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

/** POST /api/auth/mfa/totp/setup: the secret to enrol an authenticator app. */
export const TotpSetupResponseSchema = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  qrSvg: z.string(),
});
export type TotpSetupResponse = z.infer<typeof TotpSetupResponseSchema>;

export const TotpEnableBodySchema = z.strictObject({ code: MfaCodeSchema });
export const SmsSetupBodySchema = z.strictObject({ phone: PhoneSchema });
export const SmsEnableBodySchema = z.strictObject({ code: MfaCodeSchema });
export const MfaDisableBodySchema = z.strictObject({ password: safeString().min(1).max(PASSWORD_MAX_LENGTH) });
/** POST /api/account/mfa/recovery-codes: a new set replaces the old one; the password confirms it. */
export const RecoveryCodesRenewBodySchema = z.strictObject({
  password: safeString().min(1).max(PASSWORD_MAX_LENGTH),
});

/** MFA turned on: what changed, the user, and the recovery codes, shown this once. */
export const MfaEnabledResponseSchema = z.object({
  message: z.string(),
  user: UserInfoSchema,
  recoveryCodes: z.array(z.string()),
});
export type MfaEnabledResponse = z.infer<typeof MfaEnabledResponseSchema>;

/** MFA turned off: what changed, and the user. */
export const MfaDisabledResponseSchema = z.object({ message: z.string(), user: UserInfoSchema });
export type MfaDisabledResponse = z.infer<typeof MfaDisabledResponseSchema>;

/** A new set of recovery codes, shown this once. */
export const RecoveryCodesResponseSchema = z.object({ message: z.string(), recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof RecoveryCodesResponseSchema>;

/** GET /api/account/mfa/recovery-codes: how many unused recovery codes the user has. */
export const RecoveryCodesStatusSchema = z.object({ remaining: z.number().int().min(0) });
export type RecoveryCodesStatus = z.infer<typeof RecoveryCodesStatusSchema>;
