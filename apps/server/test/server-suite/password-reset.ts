/** The route suite's password reset: the mailed single-use link, its expiry, and the per-address limit. */
import { beforeAll, describe, expect, it } from 'vitest';
import { type MailCatcher, type TestPortal, linkIn, makeUser, signedIn, uniqueEmail } from '../helpers';
import { type SuitePortal, M, MINUTE, expectError, sessionOf } from './fixtures';

export function describePasswordReset(suite: SuitePortal): void {
  describe('password reset', () => {
    let tp: TestPortal;
    let mail: MailCatcher;
    beforeAll(() => {
      ({ tp, mail } = suite);
    });

    it('an unknown address gets the same answer and no mail; a known one gets a single-use link', async () => {
      const client = tp.client();
      const unknown = uniqueEmail('unknown');
      const user = await makeUser(tp);
      const signedInBefore = await signedIn(tp, user);

      const a = await client.post('/api/auth/reset', { email: unknown });
      const b = await client.post('/api/auth/reset', { email: user.email });
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.body).toEqual({ message: M.resetRequested });
      expect(b.body).toEqual(a.body);

      const resetMail = await mail.waitFor((m) => m.to.includes(user.email));
      expect(resetMail.subject).toBe('Reset your Portal password');
      const { url, code } = linkIn(resetMail, 'resetpassword');
      expect(url).toBe(`http://localhost:${tp.port}/resetpassword/${code}`);
      expect(mail.to(unknown)).toEqual([]);

      // A refused new password does not spend the code.
      expectError(
        await client.post(`/api/auth/reset/${code}`, { password: 'short' }),
        400,
        'BAD_REQUEST',
        /^password: /,
      );
      expectError(
        await client.post(`/api/auth/reset/${code}`, { password: 'new-password-1' }, { csrf: false }),
        403,
        'CSRF',
      );
      await signedIn(tp, user);

      const done = await client.post(`/api/auth/reset/${code}`, { password: 'new-password-1' });
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ message: M.resetDone });
      expectError(
        await client.post(`/api/auth/reset/${code}`, { password: 'new-password-2' }),
        400,
        'CODE_INVALID',
        M.resetInvalid,
      );

      // Every session of the user has ended; the old password no longer works.
      expect((await sessionOf(signedInBefore)).isAuthenticated).toBe(false);
      expectError(
        await client.post('/api/auth/login', { email: user.email, password: user.password }),
        401,
        'INVALID_CREDENTIALS',
      );
      await signedIn(tp, { email: user.email, password: 'new-password-1' });
    });

    it('a reset link expires after 1 hour and then changes nothing', async () => {
      const user = await makeUser(tp);
      const client = tp.client();
      await client.post('/api/auth/reset', { email: user.email });
      const { code } = linkIn(await mail.waitFor((m) => m.to.includes(user.email)), 'resetpassword');
      tp.clock.advance(60 * MINUTE + 1000);
      expectError(
        await client.post(`/api/auth/reset/${code}`, { password: 'new-password-1' }),
        400,
        'CODE_INVALID',
        M.resetInvalid,
      );
      await signedIn(tp, user);
      expectError(
        await client.post('/api/auth/reset/unknown-code', { password: 'new-password-1' }),
        400,
        'CODE_INVALID',
        M.resetInvalid,
      );
    });

    it('a reset marks the address verified', async () => {
      const user = await makeUser(tp, { verified: false });
      const client = tp.client();
      await client.post('/api/auth/reset', { email: user.email });
      const { code } = linkIn(
        await mail.waitFor((m) => m.to.includes(user.email) && m.subject.startsWith('Reset')),
        'resetpassword',
      );
      expect((await client.post(`/api/auth/reset/${code}`, { password: 'new-password-1' })).status).toBe(200);
      await signedIn(tp, { email: user.email, password: 'new-password-1' });
    });

    it('5 reset requests per address per 15 minutes, then 429 (known or unknown address alike)', async () => {
      const user = await makeUser(tp);
      const unknown = uniqueEmail('unknown');
      const client = tp.client();
      for (const email of [user.email, unknown]) {
        for (let i = 0; i < 5; i += 1) expect((await client.post('/api/auth/reset', { email })).status).toBe(200);
        expectError(await client.post('/api/auth/reset', { email }), 429, 'RATE_LIMITED', M.rateLimited);
      }
      tp.clock.advance(15 * MINUTE + 1000);
      expect((await client.post('/api/auth/reset', { email: user.email })).status).toBe(200);
    });
  });
}
