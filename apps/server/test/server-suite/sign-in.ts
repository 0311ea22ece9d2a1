/** The route suite's sign-up, e-mail verification and sign-in: links by mail, sessions and their cookie. */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiResponse,
  type MailCatcher,
  type TestPortal,
  linkIn,
  makeUser,
  signedIn,
  uniqueEmail,
  userRow,
} from '../helpers';
import { type SuitePortal, M, MINUTE, expectError, sessionOf } from './fixtures';

export function describeSignIn(suite: SuitePortal): void {
  describe('sign-up, verification and sign-in', () => {
    let tp: TestPortal;
    let mail: MailCatcher;
    beforeAll(() => {
      ({ tp, mail } = suite);
    });

    it('sign-up mails a verification link through SMTP; verify, sign in, session, user, sign out', async () => {
      const email = uniqueEmail('signup');
      const client = tp.client();
      const res = await client.post('/api/auth/signup', {
        email: email.toUpperCase(),
        password: 'password-1',
        marketingOptIn: true,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ message: M.signedUp });
      expect(res.setCookies).toEqual([]);

      const first = await mail.waitFor((m) => m.to.includes(email));
      expect(first.from).toBe('no-reply@portal.local');
      expect(first.subject).toBe('Verify your e-mail address for Portal');
      const link = linkIn(first, 'verify');
      expect(link.url).toBe(`http://localhost:${tp.port}/verify/${link.code}`);

      // Not verified yet: 403 and a new link.
      expectError(
        await client.post('/api/auth/login', { email, password: 'password-1' }),
        403,
        'EMAIL_NOT_VERIFIED',
        M.notVerified,
      );
      const second = await mail.waitFor((m) => m.to.includes(email) && m !== first);
      expect(linkIn(second, 'verify').code).not.toBe(link.code);

      const verified = await client.post(`/api/auth/verify/${link.code}`);
      expect(verified.status).toBe(200);
      expect(verified.body).toEqual({ message: M.verified });
      // Opening the link again (second tab, mail scanner) still answers success.
      expect((await client.post(`/api/auth/verify/${link.code}`)).status).toBe(200);

      const login = await client.post('/api/auth/login', { email, password: 'password-1' });
      expect(login.status).toBe(200);
      const user = (login.body as { status: string; user: Record<string, unknown> }).user;
      expect(login.body).toEqual({ status: 'SIGNED_IN', user });
      expect(user).toEqual({
        userId: expect.any(String),
        email,
        phone: '',
        emailVerified: true,
        marketingOptIn: true,
        mfa: 'NONE',
        userGroups: [],
        brandImageUrl: null,
      });
      const sessionCookie = client.jar.get('portal_session');
      expect(sessionCookie).toMatch(/^[A-Za-z0-9_-]{43}$/);

      expect(await sessionOf(client)).toEqual({ isAuthenticated: true, user });
      const me = await client.get('/api/user-login');
      expect(me.status).toBe(200);
      expect(me.body).toEqual(user);

      const out = await client.post('/api/auth/logout');
      expect(out.status).toBe(200);
      expect(out.body).toEqual({ message: 'Signed out' });
      const cleared = out.setCookies.find((c) => c.name === 'portal_session');
      expect(cleared?.value).toBe('');
      expect(cleared?.attributes['max-age']).toBe('0');
      expect(await sessionOf(client)).toEqual({ isAuthenticated: false, user: null });

      // The old cookie is dead on the server too.
      const replay = tp.client();
      replay.jar.set('portal_session', sessionCookie!);
      expectError(await replay.get('/api/user-login'), 401, 'UNAUTHENTICATED', 'No current user');
      // Signing out without a session still answers 200.
      expect((await tp.client().post('/api/auth/logout')).status).toBe(200);
    });

    it('stores no password or code in clear', async () => {
      const email = uniqueEmail('hash');
      await tp.client().post('/api/auth/signup', { email, password: 'password-1' });
      const mailed = linkIn(await mail.waitFor((m) => m.to.includes(email)), 'verify');
      const row = await userRow(tp, email);
      expect(row.passwordHash).toMatch(/^scrypt\$/);
      expect(row.passwordHash).not.toContain('password-1');
      const codes = await tp.portal.db.query<{ code_hash: string }>(
        'SELECT code_hash FROM user_codes WHERE user_id = $1',
        [row.id],
      );
      expect(codes.length).toBeGreaterThan(0);
      for (const c of codes) expect(c.code_hash).not.toBe(mailed.code);
      const client = await signedIn(tp, await makeUser(tp));
      const sessions = await tp.portal.db.query<{ id_hash: string }>('SELECT id_hash FROM sessions');
      expect(sessions.map((s) => s.id_hash)).not.toContain(client.jar.get('portal_session'));
    });

    it('a sign-up with a taken address answers as for a new one; the owner is mailed, the account unchanged', async () => {
      const user = await makeUser(tp);
      const before = await userRow(tp, user.email);
      const answer = (res: ApiResponse) => ({ status: res.status, body: res.body, cookies: res.setCookies });
      const fresh = await tp.client().post('/api/auth/signup', { email: uniqueEmail('fresh'), password: 'password-1' });
      expect(answer(fresh)).toEqual({ status: 201, body: { message: M.signedUp }, cookies: [] });
      for (const email of [user.email, ` ${user.email.toUpperCase()} `]) {
        const taken = await tp.client().post('/api/auth/signup', { email, password: 'another-pass' });
        expect(answer(taken)).toEqual(answer(fresh));
      }

      const warning = await mail.waitFor((m) => m.to.includes(user.email));
      expect(warning.subject).toBe('Someone tried to create a Portal account with your address');
      expect(warning.text).toContain(`\nhttp://localhost:${tp.port}/login\n`);
      expect(warning.text).toContain(`\nhttp://localhost:${tp.port}/resetpassword\n`);
      expect(warning.text).not.toContain('/verify/');

      // One account, as it was: the password typed at sign-up does not sign in, the owner's does.
      const accounts = await tp.portal.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM users WHERE email = $1',
        [user.email],
      );
      expect(accounts[0]!.n).toBe(1);
      expect(await userRow(tp, user.email)).toEqual(before);
      expectError(
        await tp.client().post('/api/auth/login', { email: user.email, password: 'another-pass' }),
        401,
        'INVALID_CREDENTIALS',
      );
      await signedIn(tp, user);
    });

    it('links use the brand host the request came from, else PUBLIC_URL (no Host-header poisoning)', async () => {
      const brandEmail = uniqueEmail('tank');
      const host = `tank.localhost:${tp.port}`;
      expect(
        (
          await tp
            .client()
            .post('/api/auth/signup', { email: brandEmail, password: 'password-1', marketingOptIn: true }, { host })
        ).status,
      ).toBe(201);
      const brandMail = await mail.waitFor((m) => m.to.includes(brandEmail));
      expect(linkIn(brandMail, 'verify').url).toMatch(new RegExp(`^http://tank\\.localhost:${tp.port}/verify/`));
      expect(brandMail.subject).toBe('Verify your e-mail address for Tank');
      // The tank brand hides the marketing sign-up: the choice is ignored.
      expect((await userRow(tp, brandEmail)).marketingOptIn).toBe(false);

      const evilEmail = uniqueEmail('evil');
      await tp
        .client()
        .post('/api/auth/signup', { email: evilEmail, password: 'password-1' }, { host: 'evil.example.com' });
      const evilMail = await mail.waitFor((m) => m.to.includes(evilEmail));
      expect(linkIn(evilMail, 'verify').url).toMatch(new RegExp(`^http://localhost:${tp.port}/verify/`));

      const user = await makeUser(tp);
      await tp.client().post('/api/auth/reset', { email: user.email }, { host: `tank.localhost.evil.com:${tp.port}` });
      const resetMail = await mail.waitFor((m) => m.to.includes(user.email));
      expect(linkIn(resetMail, 'resetpassword').url).toMatch(new RegExp(`^http://localhost:${tp.port}/resetpassword/`));
    });

    it('verification links are refused when unknown or older than 24 hours', async () => {
      const client = tp.client();
      expectError(await client.post('/api/auth/verify/not-a-real-code'), 400, 'CODE_INVALID', M.verifyInvalid);
      const email = uniqueEmail('late');
      await client.post('/api/auth/signup', { email, password: 'password-1' });
      const { code } = linkIn(await mail.waitFor((m) => m.to.includes(email)), 'verify');
      tp.clock.advance(24 * 60 * MINUTE + MINUTE);
      expectError(await client.post(`/api/auth/verify/${code}`), 400, 'CODE_INVALID', M.verifyInvalid);
      expect((await userRow(tp, email)).emailVerified).toBe(false);
    });

    it('wrong credentials answer 401 with one message and set no cookie', async () => {
      const user = await makeUser(tp);
      const client = tp.client();
      const wrong = await client.post('/api/auth/login', { email: user.email, password: 'wrong-password' });
      expectError(wrong, 401, 'INVALID_CREDENTIALS', M.badCredentials);
      expect(wrong.setCookies).toEqual([]);
      expectError(
        await client.post('/api/auth/login', { email: uniqueEmail('nobody'), password: 'whatever-1' }),
        401,
        'INVALID_CREDENTIALS',
        M.badCredentials,
      );
      expect(await sessionOf(client)).toEqual({ isAuthenticated: false, user: null });
    });

    it('the e-mail is lower-cased and trimmed before sign-in', async () => {
      const user = await makeUser(tp);
      const client = tp.client();
      const res = await client.post('/api/auth/login', {
        email: `  ${user.email.toUpperCase()}`,
        password: user.password,
      });
      expect(res.status).toBe(200);
      expect((res.body as { user: { email: string } }).user.email).toBe(user.email);
    });

    it('the session cookie is HttpOnly, SameSite=Lax, 7 days, host-only, Secure except on localhost', async () => {
      const user = await makeUser(tp);
      const cookieFor = async (host?: string) => {
        const res = await tp
          .client()
          .post('/api/auth/login', { email: user.email, password: user.password }, host ? { host } : {});
        expect(res.status).toBe(200);
        return res.setCookies.find((c) => c.name === 'portal_session')!;
      };
      for (const host of [undefined, `localhost:${tp.port}`, `tank.localhost:${tp.port}`]) {
        const cookie = await cookieFor(host);
        expect(cookie.attributes).toEqual({ 'max-age': '604800', path: '/', httponly: true, samesite: 'Lax' });
      }
      const remote = await cookieFor('portal.example.com');
      expect(remote.attributes).toEqual({
        'max-age': '604800',
        path: '/',
        httponly: true,
        samesite: 'Lax',
        secure: true,
      });
      expect(remote.attributes.domain).toBeUndefined();
    });

    it('signing in again replaces the session the browser held', async () => {
      const user = await makeUser(tp);
      const client = await signedIn(tp, user);
      const before = client.jar.get('portal_session')!;
      expect((await client.post('/api/auth/login', { email: user.email, password: user.password })).status).toBe(200);
      expect(client.jar.get('portal_session')).not.toBe(before);
      expect((await sessionOf(client)).isAuthenticated).toBe(true);
      const replay = tp.client();
      replay.jar.set('portal_session', before);
      expect((await sessionOf(replay)).isAuthenticated).toBe(false);
    });

    it('sessions expire after 7 days', async () => {
      const client = await signedIn(tp, await makeUser(tp));
      tp.clock.advance(7 * 24 * 60 * MINUTE - MINUTE);
      expect((await sessionOf(client)).isAuthenticated).toBe(true);
      tp.clock.advance(2 * MINUTE);
      expect((await sessionOf(client)).isAuthenticated).toBe(false);
      expectError(await client.get('/api/user-login'), 401, 'UNAUTHENTICATED');
    });

    it('an unverified account gets 403 and a new link, then signs in once verified', async () => {
      const user = await makeUser(tp, { verified: false });
      const client = tp.client();
      const res = await client.post('/api/auth/login', { email: user.email, password: user.password });
      expectError(res, 403, 'EMAIL_NOT_VERIFIED', M.notVerified);
      expect(res.setCookies).toEqual([]);
      const { code } = linkIn(await mail.waitFor((m) => m.to.includes(user.email)), 'verify');
      expect((await client.post(`/api/auth/verify/${code}`)).status).toBe(200);
      await signedIn(tp, user);
    });

    // Failed sign-ins, their delays per client address and the account's ceiling: auth/sign-in-lockout.test.ts.
  });
}
