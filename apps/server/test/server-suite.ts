/**
 * The route suite: real HTTP against the portal started by the same startPortal as main, on a
 * real database. describeServerSuite runs it on PGlite and again on PostgreSQL.
 */
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { UserInfoSchema } from '@portal/core';
import { buildApp } from '../src/app';
import { seedDemo, DEMO_USER, STAFF_USER } from '../src/seed';
import { NOT_BUILT_MESSAGE } from '../src/plugins/static';
import {
  type ApiClient,
  type ApiResponse,
  type DbKind,
  type MailCatcher,
  type TestPortal,
  captureLogs,
  lastSmsCode,
  linkIn,
  makeUser,
  signedIn,
  startMailCatcher,
  startTestPortal,
  totpCode,
  uniqueEmail,
  userRow,
  wrongTotpCode,
} from './helpers';

const MINUTE = 60_000;

const M = {
  signedUp: 'Account created. We have sent you an e-mail with a link to verify your address.',
  verified: 'Your e-mail address is verified. You can now sign in.',
  verifyInvalid: 'This verification link is invalid or has expired.',
  badCredentials: 'Incorrect username or password.',
  notVerified: 'Your e-mail address is not verified yet. We have sent you a new verification link.',
  mfaInvalid: 'Invalid code received for user',
  mfaCodeUsed: 'This code has already been used. Wait for the next code from your authenticator app.',
  signInExpired: 'Your sign-in has expired. Please sign in again.',
  resetRequested: 'If an account exists for that address, we have sent it a link to reset the password.',
  resetDone: 'Your password has been reset. You can now sign in.',
  resetInvalid: 'This reset link is invalid or has expired.',
  rateLimited: 'Too many attempts. Please wait a few minutes and try again.',
  mfaNotAllowed: 'Multi-factor authentication is not available on this site.',
} as const;

function expectError(res: ApiResponse, status: number, code: string, message?: string | RegExp): void {
  expect({ status: res.status, code: (res.body as { code?: string })?.code }).toEqual({ status, code });
  const body = res.body as { message: string; code: string };
  expect(Object.keys(body).sort()).toEqual(['code', 'message']);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
}

const sessionOf = async (client: ApiClient) =>
  (await client.get('/api/auth/session')).body as { isAuthenticated: boolean; user: { email: string } | null };

/** Every route of this issue: the OpenAPI document must list each. */
const ROUTES: [string, string][] = [
  ['post', '/api/auth/signup'],
  ['post', '/api/auth/verify/{code}'],
  ['post', '/api/auth/login'],
  ['post', '/api/auth/mfa'],
  ['post', '/api/auth/mfa/recovery'],
  ['post', '/api/auth/logout'],
  ['get', '/api/auth/session'],
  ['post', '/api/auth/reset'],
  ['post', '/api/auth/reset/{code}'],
  ['get', '/api/user-login'],
  ['put', '/api/account/profile'],
  ['post', '/api/account/password'],
  ['post', '/api/account/mfa/totp/setup'],
  ['post', '/api/account/mfa/totp/enable'],
  ['post', '/api/account/mfa/sms/setup'],
  ['post', '/api/account/mfa/sms/enable'],
  ['post', '/api/account/mfa/disable'],
  ['get', '/api/account/mfa/recovery-codes'],
  ['post', '/api/account/mfa/recovery-codes'],
  ['get', '/api/groups'],
  // issue 12, groups
  ['post', '/api/group'],
  ['get', '/api/group/{groupid}'],
  ['put', '/api/group/{groupid}'],
  ['delete', '/api/group/{groupid}'],
  ['get', '/api/group/{groupid}/serverlog'],
  ['post', '/api/group/{groupid}/user'],
  ['put', '/api/group/{groupid}/user'],
  ['delete', '/api/group/{groupid}/user'],
  ['get', '/api/group/{groupid}/permissions'],
  ['put', '/api/group/{groupid}/devices'],
  ['delete', '/api/group/{groupid}/devices'],
  ['get', '/api/group/{groupid}/data'],
  ['get', '/api/group/{groupid}/metrics'],
  // issue 13, group views
  ['get', '/api/group/{groupid}/views'],
  ['put', '/api/group/{groupid}/view'],
  ['delete', '/api/group/{groupid}/view'],
  ['get', '/api/search'],
  ['get', '/api/ungrouped-devices'],
  ['post', '/api/client-errors'],
  ['get', '/api/outbox'],
  ['get', '/api/health'],
  ['get', '/api/map-tiles'],
  // issue 3, telemetry and ingest
  ['get', '/api/device/{id}/data'],
  ['get', '/api/device/{id}/diagnostics'],
  ['get', '/api/device/{id}/serverlog'],
  ['get', '/api/device/{id}/rpc'],
  ['post', '/api/device/{id}/rpc'],
  ['delete', '/api/device/{id}/rpc'],
  ['get', '/api/device/{id}/metrics'],
  ['post', '/api/device/{id}/delete-data'],
  ['post', '/api/device/{id}/transfer-data'],
  ['get', '/api/device/{id}/export'],
  ['post', '/api/device/{id}/import'],
  ['post', '/api/ingest/{id}'],
  ['post', '/api/ingest/{id}/ack'],
  ['get', '/api/ingest/{id}/file/{fileId}'],
  // issue 3, devices (provisioning, device users, settings, passwords, distributor actions)
  ['post', '/api/prov-portal-edit-device/{id}'],
  ['get', '/api/prov-portal-get-device/{id}'],
  ['get', '/api/prov-portal-device-exists/{id}'],
  ['get', '/api/prov-portal-get-device-log/{id}'],
  ['post', '/api/prov-portal-add-device-log/{id}'],
  ['get', '/api/prov-portal-get-device-label/{id}'],
  ['post', '/api/prov-portal-run-test/{id}'],
  ['post', '/api/prov-portal-labels'],
  ['post', '/api/billing-packing-slip'],
  ['post', '/api/device/{id}/user'],
  ['put', '/api/device/{id}/user'],
  ['delete', '/api/device/{id}/user'],
  ['get', '/api/device/{id}/permissions'],
  ['get', '/api/device/{id}/settings'],
  ['put', '/api/device/{id}/settings'],
  ['post', '/api/device/{id}/passwords'],
  ['get', '/api/device/{id}/notes-image/{slot}'],
  ['put', '/api/device/{id}/notes-image/{slot}'],
  ['delete', '/api/device/{id}/notes-image/{slot}'],
  ['get', '/api/device/{id}/widget-image/{widgetid}'],
  ['put', '/api/device/{id}/widget-image/{widgetid}'],
  ['delete', '/api/device/{id}/widget-image/{widgetid}'],
  ['post', '/api/support-request'],
  ['post', '/api/billing-distributor-action/{id}'],
  // issue 16, staff administration (distributors, search, dossiers, statistics)
  ['get', '/api/distributors'],
  ['post', '/api/distributors'],
  ['put', '/api/distributors'],
  ['put', '/api/distributor-devices'],
  ['get', '/api/staff/search'],
  ['get', '/api/staff/device/{id}'],
  ['get', '/api/staff/user/{userid}'],
  // issue 32, customer sub-brand logos (BRD-13)
  ['get', '/api/user/{userid}/brand-image'],
  ['put', '/api/staff/user/{userid}/brand-image'],
  ['delete', '/api/staff/user/{userid}/brand-image'],
  ['get', '/api/billing-admin-stats'],
  // issue 16, billing (plans, subscriptions, invoices)
  ['get', '/api/billing-get-customer'],
  ['post', '/api/billing-update-subscription'],
  ['post', '/api/billing-create-stripe-portal'],
  ['post', '/api/billing-update-plan'],
  ['post', '/api/billing-invoice-paid/{invoiceid}'],
  ['get', '/api/billing-invoice/{invoiceid}'],
  ['get', '/api/billing-admin-device/{id}'],
  // issue 16, API credentials and virtual devices
  ['get', '/api/api-credentials'],
  ['post', '/api/api-credentials'],
  ['delete', '/api/api-credentials/{id}'],
  ['post', '/api/virtual-devices'],
  // issue 3, device config (config, custom settings, script and its lock, firmware, files)
  ['get', '/api/device/{id}/config'],
  ['put', '/api/device/{id}/config'],
  ['put', '/api/device/{id}/custom-settings'],
  ['get', '/api/device/{id}/script'],
  ['put', '/api/device/{id}/script'],
  ['put', '/api/device/{id}/script-lock'],
  ['put', '/api/device/{id}/force-script-unlock'],
  ['get', '/api/firmware'],
  ['post', '/api/device/{id}/firmware'],
  ['put', '/api/device/{id}/file'],
  // issue 14, alerts
  ['get', '/api/device/{id}/alerts'],
  ['put', '/api/device/{id}/alerts'],
  ['get', '/api/account/notifications'],
  ['get', '/api/account/alert-phone'],
  ['post', '/api/account/alert-phone'],
  ['delete', '/api/account/alert-phone'],
  ['post', '/api/account/alert-phone/confirm'],
  ['post', '/api/alerts/unsubscribe/{token}'],
  // issue 17, the HTTP hooks of an external broker (with MQTT_AUTH_HOOK_SECRET)
  ['post', '/api/mqtt-auth/go-auth/user'],
  ['post', '/api/mqtt-auth/go-auth/superuser'],
  ['post', '/api/mqtt-auth/go-auth/acl'],
  ['post', '/api/mqtt-auth/emqx/authenticate'],
  ['post', '/api/mqtt-auth/emqx/authorize'],
  ['post', '/api/mqtt-auth/vernemq/auth_on_register'],
  ['post', '/api/mqtt-auth/vernemq/auth_on_publish'],
  ['post', '/api/mqtt-auth/vernemq/auth_on_subscribe'],
];

interface BodyRoute {
  method: 'POST' | 'PUT';
  path: string;
  valid: Record<string, unknown>;
  required: string[];
  strings: string[];
}

const BODY_ROUTES: BodyRoute[] = [
  {
    method: 'POST',
    path: '/api/auth/signup',
    valid: { email: 'x@example.com', password: 'password-1', marketingOptIn: true },
    required: ['email', 'password'],
    strings: ['email', 'password'],
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    valid: { email: 'x@example.com', password: 'password-1' },
    required: ['email', 'password'],
    strings: ['email', 'password'],
  },
  { method: 'POST', path: '/api/auth/mfa', valid: { code: '123456' }, required: ['code'], strings: ['code'] },
  {
    method: 'POST',
    path: '/api/auth/mfa/recovery',
    valid: { recoveryCode: '7kq2-m9xd' },
    required: ['recoveryCode'],
    strings: ['recoveryCode'],
  },
  {
    method: 'POST',
    path: '/api/auth/reset',
    valid: { email: 'x@example.com' },
    required: ['email'],
    strings: ['email'],
  },
  {
    method: 'POST',
    path: '/api/auth/reset/some-code',
    valid: { password: 'password-1' },
    required: ['password'],
    strings: ['password'],
  },
  {
    method: 'PUT',
    path: '/api/account/profile',
    valid: { phone: '+61412345678', marketingOptIn: true },
    required: [],
    strings: ['phone'],
  },
  {
    method: 'POST',
    path: '/api/account/password',
    valid: { currentPassword: 'password-1', newPassword: 'password-2' },
    required: ['currentPassword', 'newPassword'],
    strings: ['currentPassword', 'newPassword'],
  },
  {
    method: 'POST',
    path: '/api/account/mfa/totp/enable',
    valid: { code: '123456' },
    required: ['code'],
    strings: ['code'],
  },
  {
    method: 'POST',
    path: '/api/account/mfa/sms/setup',
    valid: { phone: '+61412345678' },
    required: ['phone'],
    strings: ['phone'],
  },
  {
    method: 'POST',
    path: '/api/account/mfa/sms/enable',
    valid: { code: '123456' },
    required: ['code'],
    strings: ['code'],
  },
  {
    method: 'POST',
    path: '/api/account/mfa/disable',
    valid: { password: 'password-1' },
    required: ['password'],
    strings: ['password'],
  },
  {
    method: 'POST',
    path: '/api/account/mfa/recovery-codes',
    valid: { password: 'password-1' },
    required: ['password'],
    strings: ['password'],
  },
  {
    method: 'POST',
    path: '/api/client-errors',
    valid: { message: 'boom', stack: 'at x', url: '/x' },
    required: ['message'],
    strings: ['message', 'stack', 'url'],
  },
];

const STATE_CHANGING: [string, string, unknown][] = [
  ...BODY_ROUTES.map((r): [string, string, unknown] => [r.method, r.path, r.valid]),
  ['POST', '/api/auth/verify/some-code', undefined],
  ['POST', '/api/auth/logout', undefined],
  ['POST', '/api/account/mfa/totp/setup', undefined],
];

export function describeServerSuite(dbKind: DbKind): void {
  describe(`portal with SMTP mail (${dbKind})`, () => {
    let tp: TestPortal;
    let mail: MailCatcher;

    beforeAll(async () => {
      mail = await startMailCatcher();
      // With the broker hooks, so the document lists every route.
      tp = await startTestPortal({ db: dbKind, smtpUrl: mail.url, mqttAuthHookSecret: 'suite-hook-secret-0123' });
    });
    afterAll(async () => {
      await tp?.close();
      await mail?.close();
    });
    afterEach(() => tp.clock.reset());

    describe('system', () => {
      it('GET /api/health answers ok', async () => {
        const res = await tp.client().get('/api/health');
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ status: 'ok' });
      });

      it('the OpenAPI document lists every route, and /api/docs serves the reference page', async () => {
        const client = tp.client();
        const res = await client.get('/api/openapi.json');
        expect(res.status).toBe(200);
        const doc = res.body as { openapi: string; paths: Record<string, Record<string, { requestBody?: unknown }>> };
        expect(doc.openapi).toMatch(/^3\./);
        for (const [method, path] of ROUTES) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
        const listed = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
        expect(listed.sort()).toEqual(ROUTES.map(([m, p]) => `${m} ${p}`).sort());
        expect(doc.paths['/api/auth/signup']!.post!.requestBody).toBeDefined();
        const docs = await client.get('/api/docs');
        expect(docs.status).toBe(200);
        expect(docs.text).toMatch(/swagger/i);
      });

      it('unknown /api routes answer 404 NOT_FOUND', async () => {
        const client = tp.client();
        expectError(await client.get('/api/nothing-here'), 404, 'NOT_FOUND', 'Not found');
        expectError(await client.post('/api/nothing-here', { a: 1 }), 404, 'NOT_FOUND', 'Not found');
        expectError(await client.get('/api'), 404, 'NOT_FOUND');
      });

      it('without a web build, pages answer 503 with a one-line hint', async () => {
        const res = await tp.client().get('/some/page');
        expect(res.status).toBe(503);
        expect(res.text).toBe(NOT_BUILT_MESSAGE);
      });

      it('seeds the demo and staff accounts once (running the seed again creates nothing)', async () => {
        expect((await userRow(tp, DEMO_USER.email)).userGroups).toEqual([]);
        expect((await userRow(tp, STAFF_USER.email)).userGroups).toEqual(['senquip_admin', 'distributors']);
        expect(await seedDemo(tp.portal.app.services)).toEqual([]);
        await signedIn(tp, DEMO_USER);
        await signedIn(tp, STAFF_USER);
      });
    });

    describe('request validation', () => {
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
          expectError(
            await send({ body: [route.valid] }),
            400,
            'BAD_REQUEST',
            'The request body must be a JSON object',
          );
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

    describe('sign-up, verification and sign-in', () => {
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
        const fresh = await tp
          .client()
          .post('/api/auth/signup', { email: uniqueEmail('fresh'), password: 'password-1' });
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
        await tp
          .client()
          .post('/api/auth/reset', { email: user.email }, { host: `tank.localhost.evil.com:${tp.port}` });
        const resetMail = await mail.waitFor((m) => m.to.includes(user.email));
        expect(linkIn(resetMail, 'resetpassword').url).toMatch(
          new RegExp(`^http://localhost:${tp.port}/resetpassword/`),
        );
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

    describe('password reset', () => {
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

    describe('account', () => {
      it('changing the password ends the other sessions but not the current one', async () => {
        const user = await makeUser(tp);
        const current = await signedIn(tp, user);
        const other = await signedIn(tp, user);

        expectError(
          await current.post('/api/account/password', {
            currentPassword: 'not-my-password',
            newPassword: 'new-password-1',
          }),
          401,
          'INVALID_CREDENTIALS',
          'Incorrect password.',
        );
        expect((await sessionOf(other)).isAuthenticated).toBe(true);
        await signedIn(tp, user);

        const res = await current.post('/api/account/password', {
          currentPassword: user.password,
          newPassword: 'new-password-1',
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ message: 'Password changed' });
        expect((await sessionOf(current)).isAuthenticated).toBe(true);
        expect((await sessionOf(other)).isAuthenticated).toBe(false);
        expectError(
          await tp.client().post('/api/auth/login', { email: user.email, password: user.password }),
          401,
          'INVALID_CREDENTIALS',
        );
        await signedIn(tp, { email: user.email, password: 'new-password-1' });
      });

      it('updates the phone number and the marketing choice', async () => {
        const client = await signedIn(tp, await makeUser(tp));
        const set = await client.put('/api/account/profile', { phone: '+61412345678', marketingOptIn: true });
        expect(set.status).toBe(200);
        expect(set.body).toMatchObject({ phone: '+61412345678', marketingOptIn: true, mfa: 'NONE' });
        const unchanged = await client.put('/api/account/profile', {});
        expect(unchanged.body).toMatchObject({ phone: '+61412345678', marketingOptIn: true });
        const cleared = await client.put('/api/account/profile', { phone: '', marketingOptIn: false });
        expect(cleared.body).toMatchObject({ phone: '', marketingOptIn: false });
        expect((await client.get('/api/user-login')).body).toEqual(cleared.body);
      });

      it('GET /api/groups lists the groups the user belongs to', async () => {
        const user = await makeUser(tp);
        const client = await signedIn(tp, user);
        const none = await client.get('/api/groups');
        expect(none.status).toBe(200);
        expect(none.body).toEqual([]);
        const groupid = `G${Math.random().toString(36).slice(2, 12).toUpperCase().padEnd(10, 'X')}`;
        await tp.portal.db.query('INSERT INTO groups (groupid, group_name) VALUES ($1, $2)', [groupid, 'Fleet North']);
        await tp.portal.db.query("INSERT INTO group_members (groupid, user_id, permission) VALUES ($1, $2, 'ADMIN')", [
          groupid,
          user.id,
        ]);
        expect((await client.get('/api/groups')).body).toEqual([
          { groupid, groupName: 'Fleet North', permission: 'ADMIN', deviceCount: 0 },
        ]);
        expect((await (await signedIn(tp, await makeUser(tp))).get('/api/groups')).body).toEqual([]);
      });
    });

    describe('multi-factor authentication', () => {
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
          expectError(
            await client.post('/api/auth/mfa', { code: wrongTotpCode(secret, tp.clock) }),
            401,
            'MFA_INVALID',
          );
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
            await tp.portal.db.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM sign_in_failures WHERE email = $1',
              [user.email],
            )
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

    describe('staff outbox and client errors', () => {
      it('GET /api/outbox is for staff only', async () => {
        const staff = await signedIn(tp, STAFF_USER);
        const res = await staff.get('/api/outbox');
        expect(res.status).toBe(200);
        const list = res.body as Record<string, unknown>[];
        expect(Array.isArray(list)).toBe(true);
        expect(list.length).toBeLessThanOrEqual(50);
        for (const m of list)
          expect(Object.keys(m).sort()).toEqual(['body', 'createdAt', 'id', 'kind', 'subject', 'to']);
        expectError(await (await signedIn(tp, DEMO_USER)).get('/api/outbox'), 403, 'FORBIDDEN');
      });

      it('POST /api/client-errors logs the crash at error level and answers 204', async () => {
        const res = await tp.client().post('/api/client-errors', {
          message: 'Cannot read properties of undefined',
          stack: 'at Widget',
          url: '/group/x',
        });
        expect(res.status).toBe(204);
        expect(res.text).toBe('');
        const line = tp.logs.lines.find((l) => l.msg === 'Client error: Cannot read properties of undefined');
        expect(line?.level).toBe(50);
        expect(line?.clientError).toMatchObject({ stack: 'at Widget', url: '/group/x' });
      });

      it('logs carry no password, cookie or link code', async () => {
        const user = await makeUser(tp);
        await signedIn(tp, user);
        await tp.client().post('/api/auth/reset', { email: user.email });
        const { code } = linkIn(await mail.waitFor((m) => m.to.includes(user.email)), 'resetpassword');
        await tp.client().post(`/api/auth/reset/${code}`, { password: 'logged-pass-1' });
        const text = tp.logs.lines.map((l) => JSON.stringify(l)).join('\n');
        expect(text).not.toContain(user.password);
        expect(text).not.toContain('logged-pass-1');
        expect(text).not.toContain(code);
        expect(text).not.toContain('portal_session=');
      });
    });

    afterAll(() => {
      // The one deliberate 5xx: the page of a portal without a web build.
      expect(tp.responses.filter((r) => r.status >= 500 && r.path !== '/some/page')).toEqual([]);
      expect(
        tp.logs.lines.filter((l) => (l.level as number) >= 50 && !String(l.msg).startsWith('Client error:')),
      ).toEqual([]);
    });
  });

  describe(`portal with the outbox, a low rate limit and a web build (${dbKind})`, () => {
    let tp: TestPortal;
    let webDist: string;

    beforeAll(async () => {
      webDist = mkdtempSync(join(tmpdir(), 'portal-web-'));
      mkdirSync(join(webDist, 'assets'));
      writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
      writeFileSync(join(webDist, 'assets', 'app-1a2b3c.js'), 'console.log(1)');
      writeFileSync(join(webDist, 'favicon.svg'), '<svg/>');
      tp = await startTestPortal({ db: dbKind, rateLimitPerMinute: 3, webDist, seed: false });
    });
    afterAll(async () => {
      await tp?.close();
      rmSync(webDist, { recursive: true, force: true });
    });

    it('without SMTP_URL, mail is kept in the outbox and logged with its text', async () => {
      const email = uniqueEmail('outbox');
      expect((await tp.client().post('/api/auth/signup', { email, password: 'password-1' })).status).toBe(201);
      const rows = await tp.portal.db.query<{ kind: string; recipient: string; subject: string; body: string }>(
        'SELECT kind, recipient, subject, body FROM outbox WHERE recipient = $1',
        [email],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ kind: 'mail', subject: 'Verify your e-mail address for Portal' });
      const { code } = linkIn({ text: rows[0]!.body }, 'verify');
      const line = tp.logs.lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith(`Mail to ${email}`));
      expect(line?.msg).toContain(`/verify/${code}`);
      expect((await tp.client().post(`/api/auth/verify/${code}`)).status).toBe(200);
    });

    it('limits each sign-in family route per client address per minute (429 RATE_LIMITED)', async () => {
      const client = tp.client();
      for (let i = 0; i < 3; i += 1)
        expect((await client.post('/api/auth/reset', { email: uniqueEmail('rl') })).status).toBe(200);
      const limited = await client.post('/api/auth/reset', { email: uniqueEmail('rl') });
      expectError(limited, 429, 'RATE_LIMITED', M.rateLimited);
      expect(limited.headers['retry-after']).toBeDefined();
      // The sign-in calls take SIGN_IN_REQUESTS_PER_MINUTE, whatever lower RATE_LIMIT_PER_MINUTE says:
      // failed sign-ins are limited per account (sign-in-throttle.ts).
      for (let i = 0; i < 5; i += 1) {
        expectError(
          await client.post('/api/auth/login', { email: uniqueEmail('rl'), password: 'password-1' }),
          401,
          'INVALID_CREDENTIALS',
        );
      }
      // Each route counts on its own.
      for (let i = 0; i < 3; i += 1) await client.post('/api/auth/verify/nope');
      expectError(await client.post('/api/auth/verify/nope'), 429, 'RATE_LIMITED');
      for (let i = 0; i < 3; i += 1) await client.post('/api/client-errors', { message: `crash ${i}` });
      expectError(await client.post('/api/client-errors', { message: 'crash 4' }), 429, 'RATE_LIMITED');
      // Routes outside the sign-in family are not limited.
      for (let i = 0; i < 5; i += 1) expect((await client.get('/api/auth/session')).status).toBe(200);
    });

    it('serves the web app: files, history fallback to index.html, immutable assets', async () => {
      const client = tp.client();
      const root = await client.get('/');
      expect(root.status).toBe(200);
      expect(root.text).toContain('<div id="root">');
      expect(root.headers['cache-control']).toBe('no-cache');
      for (const path of ['/group/G1234567890/view1', '/login?redirect=%2Fplans', '/verify/abc']) {
        const page = await client.get(path);
        expect(page.status, path).toBe(200);
        expect(page.text).toContain('<div id="root">');
        expect(page.headers['cache-control']).toBe('no-cache');
      }
      const asset = await client.get('/assets/app-1a2b3c.js');
      expect(asset.status).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await client.get('/favicon.svg')).headers['cache-control']).toBe('no-cache');
      expect((await client.get('/assets/missing-123.js')).status).toBe(404);
      expectError(await client.get('/api/missing'), 404, 'NOT_FOUND');
    });

    it('buildApp without a web build answers pages with 503', async () => {
      const app = await buildApp({ db: tp.portal.db, logLevel: 'silent' });
      try {
        const res = await app.inject({ method: 'GET', url: '/' });
        expect(res.statusCode).toBe(503);
        expect(res.body).toBe(NOT_BUILT_MESSAGE);
        expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      } finally {
        await app.close();
      }
    });

    it('an unexpected failure is a logged 500 without details; responses carry only listed fields', async () => {
      const logs = captureLogs();
      const app = await buildApp({ db: tp.portal.db, logStream: logs.stream });
      app.get('/api/test/boom', async () => {
        throw new Error('secret internals at db.ts:42');
      });
      app
        .withTypeProvider<ZodTypeProvider>()
        .get('/api/test/leak', { schema: { response: { 200: UserInfoSchema } } }, async () => ({
          userId: 'u1',
          email: 'a@example.com',
          phone: '',
          emailVerified: true,
          marketingOptIn: false,
          mfa: 'NONE' as const,
          userGroups: [],
          brandImageUrl: null,
          passwordHash: 'scrypt$secret',
        }));
      try {
        const boom = await app.inject({ method: 'GET', url: '/api/test/boom' });
        expect(boom.statusCode).toBe(500);
        expect(boom.json()).toEqual({ message: 'An unknown error occurred', code: 'INTERNAL' });
        expect(boom.body).not.toContain('secret');
        const logged = logs.lines.find((l) => l.level === 50 && l.msg === 'Request failed');
        expect((logged?.err as { message?: string })?.message).toBe('secret internals at db.ts:42');
        const leak = await app.inject({ method: 'GET', url: '/api/test/leak' });
        expect(leak.statusCode).toBe(200);
        expect(leak.json()).not.toHaveProperty('passwordHash');
      } finally {
        await app.close();
      }
    });

    afterAll(() => {
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });
  });
}
