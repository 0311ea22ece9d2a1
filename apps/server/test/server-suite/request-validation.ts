/** The route suite's request validation: malformed bodies, the rule that failed, the CSRF header, and 401 without a session. */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type TestPortal, makeUser, signedIn, userRow } from '../helpers';
import { type SuitePortal, expectError, sessionOf } from './fixtures';
import { BODY_ROUTES, STATE_CHANGING } from './route-tables';

export function describeRequestValidation(suite: SuitePortal): void {
  describe('request validation', () => {
    let tp: TestPortal;
    beforeAll(() => {
      ({ tp } = suite);
    });

    let client: ApiClient;
    let account: { email: string; password: string };
    beforeAll(async () => {
      account = await makeUser(tp);
      client = await signedIn(tp, account);
    });

    for (const route of BODY_ROUTES) {
      it(`${route.method} ${route.path} refuses malformed bodies with 400 naming the field`, async () => {
        const send = (options: Parameters<ApiClient['request']>[2]) =>
          client.request(route.method, route.path, options);
        expectError(await send({ rawBody: '{"email": ' }), 400, 'BAD_REQUEST', 'The request body is not valid JSON.');
        expectError(await send({ body: [route.valid] }), 400, 'BAD_REQUEST', 'The request body must be a JSON object');
        expectError(await send({ body: 'text' }), 400, 'BAD_REQUEST');
        expectError(
          await send({ body: { ...route.valid, isAdmin: true } }),
          400,
          'BAD_REQUEST',
          /Unrecognized key.*isAdmin/,
        );
        if (route.required.length > 0) {
          expectError(await send({}), 400, 'BAD_REQUEST', 'A JSON request body is required');
          expectError(await send({ body: {} }), 400, 'BAD_REQUEST', new RegExp(`^${route.required[0]}: Required$`));
        }
        for (const field of route.required) {
          const { [field]: _omitted, ...rest } = route.valid;
          expectError(await send({ body: rest }), 400, 'BAD_REQUEST', new RegExp(`^${field}: Required$`));
        }
        for (const field of Object.keys(route.valid)) {
          expectError(
            await send({ body: { ...route.valid, [field]: 42 } }),
            400,
            'BAD_REQUEST',
            new RegExp(`^${field}: `),
          );
          expectError(
            await send({ body: { ...route.valid, [field]: null } }),
            400,
            'BAD_REQUEST',
            new RegExp(`^${field}: `),
          );
        }
        for (const field of route.strings) {
          expectError(
            await send({ body: { ...route.valid, [field]: 'x'.repeat(30_000) } }),
            400,
            'BAD_REQUEST',
            new RegExp(`^${field}: `),
          );
        }
        expectError(
          await send({ body: { ...route.valid, padding: 'x'.repeat(70 * 1024) } }),
          413,
          'PAYLOAD_TOO_LARGE',
          'The request body is too large.',
        );
      });
    }

    it('names the rule that failed', async () => {
      const anon = tp.client();
      expectError(
        await anon.post('/api/auth/signup', { email: 'not-an-address', password: 'password-1' }),
        400,
        'BAD_REQUEST',
        'email: Please enter a valid e-mail address',
      );
      expectError(
        await anon.post('/api/auth/signup', { email: 'a@example.cm', password: 'password-1' }),
        400,
        'BAD_REQUEST',
        'email: Please enter a valid e-mail address',
      );
      expectError(
        await anon.post('/api/auth/signup', { email: 'a@example.com', password: 'short' }),
        400,
        'BAD_REQUEST',
        'password: Password must be at least 8 characters',
      );
      expectError(
        await anon.post('/api/auth/mfa', { code: '12345' }),
        400,
        'BAD_REQUEST',
        'code: The code must be 6 digits',
      );
      expectError(
        await client.put('/api/account/profile', { phone: '0412345678' }),
        400,
        'BAD_REQUEST',
        /^phone: Enter the number in international format/,
      );
      expectError(await anon.post(`/api/auth/verify/${'x'.repeat(300)}`), 400, 'BAD_REQUEST', /^code: /);
      expectError(
        await anon.post(`/api/auth/verify/${'x'.repeat(3000)}`),
        414,
        'BAD_REQUEST',
        'The address is too long.',
      );
      expectError(await anon.get('/api/auth/session%'), 400, 'BAD_REQUEST');
    });

    it('state-changing calls without X-Requested-With: portal answer 403 CSRF and change nothing', async () => {
      const before = await userRow(tp, account.email);
      for (const [method, path, body] of STATE_CHANGING) {
        const res = await client.request(method, path, { ...(body !== undefined ? { body } : {}), csrf: false });
        expectError(res, 403, 'CSRF', 'Missing header X-Requested-With: portal');
        const wrong = await client.request(method, path, {
          ...(body !== undefined ? { body } : {}),
          csrf: false,
          headers: { 'x-requested-with': 'XMLHttpRequest' },
        });
        expectError(wrong, 403, 'CSRF');
      }
      expect(await userRow(tp, account.email)).toEqual(before);
      expect((await sessionOf(client)).isAuthenticated).toBe(true);
    });

    it('a rejected request changes no account', async () => {
      const before = await userRow(tp, account.email);
      await client.post('/api/account/password', { currentPassword: account.password, newPassword: 'short' });
      await client.post('/api/account/password', {
        currentPassword: account.password,
        newPassword: 'long-enough-1',
        extra: 1,
      });
      await client.put('/api/account/profile', { phone: '+6141234567890123456' });
      await client.post('/api/account/mfa/disable', { password: 42 });
      expect(await userRow(tp, account.email)).toEqual(before);
      await signedIn(tp, account);
    });

    it('routes needing a session answer 401 UNAUTHENTICATED without one', async () => {
      const anon = tp.client();
      expectError(await anon.get('/api/user-login'), 401, 'UNAUTHENTICATED', 'No current user');
      expectError(await anon.get('/api/groups'), 401, 'UNAUTHENTICATED');
      expectError(await anon.get('/api/outbox'), 401, 'UNAUTHENTICATED');
      expectError(await anon.put('/api/account/profile', { marketingOptIn: true }), 401, 'UNAUTHENTICATED');
      expectError(
        await anon.post('/api/account/password', { currentPassword: 'x', newPassword: 'password-2' }),
        401,
        'UNAUTHENTICATED',
      );
      expectError(await anon.post('/api/account/mfa/totp/setup'), 401, 'UNAUTHENTICATED');
      expectError(await anon.post('/api/account/mfa/totp/enable', { code: '123456' }), 401, 'UNAUTHENTICATED');
      expectError(await anon.post('/api/account/mfa/sms/setup', { phone: '+61412345678' }), 401, 'UNAUTHENTICATED');
      expectError(await anon.post('/api/account/mfa/sms/enable', { code: '123456' }), 401, 'UNAUTHENTICATED');
      expectError(await anon.post('/api/account/mfa/disable', { password: 'x' }), 401, 'UNAUTHENTICATED');
      const forged = tp.client();
      forged.jar.set('portal_session', 'forged-session-id');
      expectError(await forged.get('/api/user-login'), 401, 'UNAUTHENTICATED');
      const stale = await forged.get('/api/auth/session');
      expect(stale.body).toEqual({ isAuthenticated: false, user: null });
      expect(stale.setCookies.find((c) => c.name === 'portal_session')?.attributes['max-age']).toBe('0');
    });
  });
}
