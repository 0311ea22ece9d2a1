import { describe, expect, it } from 'vitest';
import {
  ChangePasswordBodySchema,
  ERROR_CODES,
  ErrorBodySchema,
  LoginBodySchema,
  LoginResponseSchema,
  MfaBodySchema,
  ProfileUpdateBodySchema,
  ResetCompleteBodySchema,
  SessionResponseSchema,
  SignupBodySchema,
  UserInfoSchema,
} from '../src/index';
import { makeUserInfo } from '../src/testing';

describe('auth contracts', () => {
  it('signup lower-cases the e-mail and needs 8 characters of password', () => {
    expect(SignupBodySchema.parse({ email: ' User@Example.com ', password: 'abcdefgh' })).toEqual({
      email: 'user@example.com',
      password: 'abcdefgh',
    });
    expect(SignupBodySchema.safeParse({ email: 'user@example.com', password: 'abcdefg' }).success).toBe(false);
  });

  it.each([
    [{ email: 'a@b.co', password: 'x' }, true],
    [{ email: 'a@b.cm', password: 'x' }, false],
    [{ email: 'a@b.co', password: '' }, false],
    [{ email: 'a@b.co', password: 'x'.repeat(257) }, false],
    [{ email: 'a@b.co', password: 'x', extra: 1 }, false],
    [{ email: 'a@b.co', password: 'x', __proto__: { admin: true } }, false], // inherited keys count as unknown
    [JSON.parse('{"email":"a@b.co","password":"x","__proto__":{"admin":true}}'), false],
    [{ email: null, password: 'x' }, false],
    [null, false],
    ['', false],
  ])('LoginBodySchema %j -> %s', (body, ok) => expect(LoginBodySchema.safeParse(body).success).toBe(ok));

  it.each([
    [{ code: '123456' }, true],
    [{ code: '12345' }, false],
    [{ code: 123456 }, false],
    [{}, false],
  ])('MfaBodySchema %j -> %s', (body, ok) => expect(MfaBodySchema.safeParse(body).success).toBe(ok));

  it('profile: phone must be international or empty', () => {
    expect(ProfileUpdateBodySchema.safeParse({ phone: '+61412345678' }).success).toBe(true);
    expect(ProfileUpdateBodySchema.safeParse({ phone: '' }).success).toBe(true);
    expect(ProfileUpdateBodySchema.safeParse({ phone: '0412345678' }).success).toBe(false);
  });

  it('reset and change password need a new password of 8', () => {
    expect(ResetCompleteBodySchema.safeParse({ password: 'abcdefgh' }).success).toBe(true);
    expect(ChangePasswordBodySchema.safeParse({ currentPassword: 'x', newPassword: 'short' }).success).toBe(false);
  });

  it('the user info factory satisfies the schema and strips unknown fields', () => {
    const parsed = UserInfoSchema.parse({ ...makeUserInfo(), passwordHash: 'secret' });
    expect(parsed).not.toHaveProperty('passwordHash');
    expect(UserInfoSchema.safeParse(makeUserInfo({ userGroups: ['bogus' as never] })).success).toBe(false);
  });

  it('session and login responses', () => {
    expect(SessionResponseSchema.safeParse({ isAuthenticated: false, user: null }).success).toBe(true);
    expect(LoginResponseSchema.safeParse({ status: 'MFA_REQUIRED', challenge: 'SMS_MFA' }).success).toBe(true);
    expect(LoginResponseSchema.safeParse({ status: 'SIGNED_IN', user: makeUserInfo() }).success).toBe(true);
    expect(LoginResponseSchema.safeParse({ status: 'MFA_REQUIRED', challenge: 'EMAIL' }).success).toBe(false);
  });

  it('error bodies carry a known code', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) expect(ErrorBodySchema.safeParse({ message: 'm', code }).success).toBe(true);
  });
});
