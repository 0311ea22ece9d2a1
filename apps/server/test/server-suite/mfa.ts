/** The route suite's multi-factor authentication: TOTP and SMS enrolment, sign-in challenges, replay, turning it off. */
import { beforeAll, describe, expect, it } from 'vitest';
import { STAFF_USER } from '../../src/seed';
import {
  type ApiClient,
  type TestPortal,
  lastSmsCode,
  makeUser,
  signedIn,
  totpCode,
  userRow,
  wrongTotpCode,
} from '../helpers';
import { type SuitePortal, M, MINUTE, expectError, sessionOf } from './fixtures';

export function describeMfa(suite: SuitePortal): void {
  describe('multi-factor authentication', () => {
    let tp: TestPortal;
    beforeAll(() => {
      ({ tp } = suite);
    });

    /** The TOTP time step at the portal's clock. */
    const currentStep = () => Math.floor(tp.clock.now().getTime() / 30_000);

    async function enrolTotp(client: ApiClient): Promise<string> {
      const setup = await client.post('/api/account/mfa/totp/setup');
      expect(setup.status).toBe(200);
      const { secret, otpauthUrl, qrSvg } = setup.body as { secret: string; otpauthUrl: string; qrSvg: string };
      expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Portal:.*secret=/);
      expect(qrSvg).toMatch(/^<svg/);
      const enabled = await client.post('/api/account/mfa/totp/enable', { code: totpCode(secret, tp.clock) });
      expect(enabled.status).toBe(200);
      expect((enabled.body as { user: { mfa: string } }).user.mfa).toBe('TOTP');
      return secret;
    }

    it('TOTP: enrol, then sign-in asks for a code; a wrong code is 401, the right one signs in', async () => {
      const user = await makeUser(tp);
      const client = await signedIn(tp, user);
      const setup = await client.post('/api/account/mfa/totp/setup');
      const { secret } = setup.body as { secret: string };
      expectError(
        await client.post('/api/account/mfa/totp/enable', { code: wrongTotpCode(secret, tp.clock) }),
        400,
        'MFA_INVALID',
        M.mfaInvalid,
      );
      expect((await userRow(tp, user.email)).mfaType).toBe('NONE');
      const enabled = await client.post('/api/account/mfa/totp/enable', { code: totpCode(secret, tp.clock) });
      expect(enabled.body).toMatchObject({
        message:
          'Multi-factor authentication is on. From your next sign-in you will be asked for a code from your authenticator app.',
        user: { mfa: 'TOTP' },
      });
      // The next time step: the enabling code is used up (replay protection).
      tp.clock.advance(30_000);

      const fresh = tp.client();
      const login = await fresh.post('/api/auth/login', { email: user.email, password: user.password });
      expect(login.status).toBe(200);
      expect(login.body).toEqual({ status: 'MFA_REQUIRED', challenge: 'SOFTWARE_TOKEN_MFA' });
      expect(login.setCookies.map((c) => c.name)).toEqual(['portal_mfa']);
      expect(login.setCookies[0]!.attributes).toEqual({
        'max-age': '300',
        path: '/',
        httponly: true,
        samesite: 'Lax',
      });
      expect(await sessionOf(fresh)).toEqual({ isAuthenticated: false, user: null });

      expectError(
        await fresh.post('/api/auth/mfa', { code: wrongTotpCode(secret, tp.clock) }),
        401,
        'MFA_INVALID',
        M.mfaInvalid,
      );
      const ok = await fresh.post('/api/auth/mfa', { code: totpCode(secret, tp.clock) });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ status: 'SIGNED_IN', user: { email: user.email, mfa: 'TOTP' } });
      expect(fresh.jar.has('portal_session')).toBe(true);
      expect(fresh.jar.has('portal_mfa')).toBe(false);
      expect((await sessionOf(fresh)).isAuthenticated).toBe(true);
      // The challenge is used up.
      expectError(
        await fresh.post('/api/auth/mfa', { code: totpCode(secret, tp.clock) }),
        401,
        'UNAUTHENTICATED',
        M.signInExpired,
      );
    });

    it('5 wrong codes end the challenge; a missing or expired challenge is 401 UNAUTHENTICATED', async () => {
      const user = await makeUser(tp);
      const secret = await enrolTotp(await signedIn(tp, user));
      tp.clock.advance(30_000);
      const client = tp.client();
      expectError(await client.post('/api/auth/mfa', { code: '123456' }), 401, 'UNAUTHENTICATED', M.signInExpired);

      await client.post('/api/auth/login', { email: user.email, password: user.password });
      for (let i = 0; i < 5; i += 1) {
        expectError(await client.post('/api/auth/mfa', { code: wrongTotpCode(secret, tp.clock) }), 401, 'MFA_INVALID');
      }
      expectError(
        await client.post('/api/auth/mfa', { code: totpCode(secret, tp.clock) }),
        401,
        'UNAUTHENTICATED',
        M.signInExpired,
      );

      await client.post('/api/auth/login', { email: user.email, password: user.password });
      tp.clock.advance(5 * MINUTE + 1000);
      expectError(
        await client.post('/api/auth/mfa', { code: totpCode(secret, tp.clock) }),
        401,
        'UNAUTHENTICATED',
        M.signInExpired,
      );
      tp.clock.reset();
      tp.clock.advance(30_000);

      const again = tp.client();
      await again.post('/api/auth/login', { email: user.email, password: user.password });
      expect((await again.post('/api/auth/mfa', { code: totpCode(secret, tp.clock) })).status).toBe(200);
    });

    it('MFA is enforced on every brand; enrolment is refused (403) where the brand does not allow it', async () => {
      const user = await makeUser(tp);
      const secret = await enrolTotp(await signedIn(tp, user));
      tp.clock.advance(30_000);
      const tank = `tank.localhost:${tp.port}`;
      const client = tp.client();
      const login = await client.post(
        '/api/auth/login',
        { email: user.email, password: user.password },
        { host: tank },
      );
      expect(login.body).toEqual({ status: 'MFA_REQUIRED', challenge: 'SOFTWARE_TOKEN_MFA' });
      const ok = await client.post('/api/auth/mfa', { code: totpCode(secret, tp.clock) }, { host: tank });
      expect(ok.status).toBe(200);

      const plain = await makeUser(tp);
      const onTank = await signedIn(tp, plain);
      expectError(
        await onTank.post('/api/account/mfa/totp/setup', undefined, { host: tank }),
        403,
        'MFA_NOT_ALLOWED',
        M.mfaNotAllowed,
      );
      expectError(
        await onTank.post('/api/account/mfa/totp/enable', { code: '123456' }, { host: tank }),
        403,
        'MFA_NOT_ALLOWED',
      );
      expectError(
        await onTank.post('/api/account/mfa/sms/setup', { phone: '+61412345678' }, { host: tank }),
        403,
        'MFA_NOT_ALLOWED',
      );
      expectError(
        await onTank.post('/api/account/mfa/sms/enable', { code: '123456' }, { host: tank }),
        403,
        'MFA_NOT_ALLOWED',
      );
      expect((await userRow(tp, plain.email)).totpPendingSecret).toBeNull();
      // The remote-monitoring brand allows it.
      expect(
        (await onTank.post('/api/account/mfa/totp/setup', undefined, { host: `remote.localhost:${tp.port}` })).status,
      ).toBe(200);
    });

    it('turning MFA off needs the password', async () => {
      const user = await makeUser(tp);
      const client = await signedIn(tp, user);
      await enrolTotp(client);
      expectError(
        await client.post('/api/account/mfa/disable', { password: 'not-my-password' }),
        401,
        'INVALID_CREDENTIALS',
        'Incorrect password.',
      );
      expect((await userRow(tp, user.email)).mfaType).toBe('TOTP');
      const off = await client.post('/api/account/mfa/disable', { password: user.password });
      expect(off.status).toBe(200);
      expect(off.body).toMatchObject({
        message: 'Multi-factor authentication is off. From your next sign-in you will need only your password.',
        user: { mfa: 'NONE' },
      });
      expect((await userRow(tp, user.email)).totpSecret).toBeNull();
      expect((await userRow(tp, user.email)).totpLastStep).toBe(0);
      await signedIn(tp, user);
    });

    it("TOTP replay: the enabling code cannot sign in, nor can a code already used; the next step's code can", async () => {
      const user = await makeUser(tp);
      const client = await signedIn(tp, user);
      const { secret } = (await client.post('/api/account/mfa/totp/setup')).body as { secret: string };
      // The steps below are counted from here: start 1 s into a step, so that no step boundary of the
      // real clock falls between enabling and the first checks.
      tp.clock.advance(31_000 - (tp.clock.now().getTime() % 30_000));
      const stepBefore = currentStep();
      const enablingCode = totpCode(secret, tp.clock);
      expect((await client.post('/api/account/mfa/totp/enable', { code: enablingCode })).status).toBe(200);
      const enabledStep = (await userRow(tp, user.email)).totpLastStep;
      expect(enabledStep).toBeGreaterThanOrEqual(stepBefore);
      expect(enabledStep).toBeLessThanOrEqual(currentStep());
      const failedSignIns = async () =>
        (
          await tp.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sign_in_failures WHERE email = $1', [
            user.email,
          ])
        )[0]!.n;

      // The enabling code, at once and one step later (still inside the drift window): refused,
      // saying to wait for the next code, and counted as a failed sign-in all the same.
      const first = tp.client();
      await first.post('/api/auth/login', { email: user.email, password: user.password });
      expectError(await first.post('/api/auth/mfa', { code: enablingCode }), 401, 'MFA_CODE_USED', M.mfaCodeUsed);
      tp.clock.advance(30_000);
      expectError(await first.post('/api/auth/mfa', { code: enablingCode }), 401, 'MFA_CODE_USED', M.mfaCodeUsed);
      expect(await failedSignIns()).toBe(2);
      // Two steps on, the enabling code is outside the window: a wrong code, in the spec's words.
      tp.clock.advance(30_000);
      expectError(await first.post('/api/auth/mfa', { code: enablingCode }), 401, 'MFA_INVALID', M.mfaInvalid);
      expect(await failedSignIns()).toBe(3);
      expect((await userRow(tp, user.email)).totpLastStep).toBe(enabledStep);

      // A fresh code signs in (same challenge, attempts left) and is then used up.
      const used = totpCode(secret, tp.clock);
      const ok = await first.post('/api/auth/mfa', { code: used });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ status: 'SIGNED_IN', user: { email: user.email, mfa: 'TOTP' } });
      expect((await userRow(tp, user.email)).totpLastStep).toBeGreaterThan(enabledStep);

      const second = tp.client();
      const login = await second.post('/api/auth/login', { email: user.email, password: user.password });
      expect(login.body).toEqual({ status: 'MFA_REQUIRED', challenge: 'SOFTWARE_TOKEN_MFA' });
      expectError(await second.post('/api/auth/mfa', { code: used }), 401, 'MFA_CODE_USED', M.mfaCodeUsed);
      expect(await failedSignIns()).toBe(1);
      expect((await sessionOf(second)).isAuthenticated).toBe(false);

      // The next step's code works on the same challenge.
      tp.clock.advance(30_000);
      const next = await second.post('/api/auth/mfa', { code: totpCode(secret, tp.clock) });
      expect(next.status).toBe(200);
      expect((await sessionOf(second)).isAuthenticated).toBe(true);
    });

    it('TOTP replay: turning MFA off and enrolling a new secret starts the record afresh', async () => {
      const user = await makeUser(tp);
      const client = await signedIn(tp, user);
      await enrolTotp(client);
      expect((await userRow(tp, user.email)).totpLastStep).toBeGreaterThan(0);
      expect((await client.post('/api/account/mfa/disable', { password: user.password })).status).toBe(200);
      expect((await userRow(tp, user.email)).totpLastStep).toBe(0);

      // Re-enrolment records the new enabling code's step, even at an earlier clock.
      tp.clock.advance(-5 * MINUTE);
      const stepBefore = currentStep();
      const secret = await enrolTotp(client);
      const enabledStep = (await userRow(tp, user.email)).totpLastStep;
      expect(enabledStep).toBeGreaterThanOrEqual(stepBefore);
      expect(enabledStep).toBeLessThanOrEqual(currentStep());
      tp.clock.advance(30_000);
      const fresh = tp.client();
      await fresh.post('/api/auth/login', { email: user.email, password: user.password });
      expect((await fresh.post('/api/auth/mfa', { code: totpCode(secret, tp.clock) })).status).toBe(200);
    });

    it('SMS: enrol with the code sent to the phone, then sign in with a code read from the outbox', async () => {
      const user = await makeUser(tp);
      const phone = '+61412000111';
      const client = await signedIn(tp, user);
      const setup = await client.post('/api/account/mfa/sms/setup', { phone });
      expect(setup.status).toBe(200);
      expect(setup.body).toEqual({ message: `We have sent a code to ${phone}.` });
      const enrolCode = await lastSmsCode(tp, phone);
      expectError(
        await client.post('/api/account/mfa/sms/enable', { code: enrolCode === '000000' ? '000001' : '000000' }),
        400,
        'MFA_INVALID',
        M.mfaInvalid,
      );
      const enabled = await client.post('/api/account/mfa/sms/enable', { code: enrolCode });
      expect(enabled.status).toBe(200);
      expect(enabled.body).toMatchObject({
        message: `Multi-factor authentication is on. From your next sign-in you will be asked for a code we text to ${phone}.`,
        user: { mfa: 'SMS', phone },
      });

      // The phone is locked while SMS codes are on.
      expectError(
        await client.put('/api/account/profile', { phone: '+61412000222' }),
        409,
        'CONFLICT',
        'Turn off SMS multi-factor authentication before changing the phone number.',
      );
      expect((await client.put('/api/account/profile', { phone, marketingOptIn: true })).status).toBe(200);

      const fresh = tp.client();
      const login = await fresh.post('/api/auth/login', { email: user.email, password: user.password });
      expect(login.body).toEqual({ status: 'MFA_REQUIRED', challenge: 'SMS_MFA' });
      const staff = await signedIn(tp, STAFF_USER);
      const outbox = (await staff.get('/api/outbox')).body as { kind: string; to: string; body: string }[];
      const sms = outbox.find((m) => m.kind === 'sms' && m.to === phone)!;
      const code = /\d{6}/.exec(sms.body)![0];
      expect(code).toBe(await lastSmsCode(tp, phone));
      expectError(
        await fresh.post('/api/auth/mfa', { code: code === '999999' ? '999998' : '999999' }),
        401,
        'MFA_INVALID',
      );
      const ok = await fresh.post('/api/auth/mfa', { code });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ status: 'SIGNED_IN', user: { mfa: 'SMS', phone } });
    });
  });
}
