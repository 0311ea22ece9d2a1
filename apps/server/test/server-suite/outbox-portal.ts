/**
 * The route suite's second portal: no SMTP (mail kept in the outbox), a low rate limit and a
 * web build; and buildApp on its database for the 503 page and a 500 without details.
 */
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { UserInfoSchema } from '@portal/core';
import { buildApp } from '../../src/app';
import { NOT_BUILT_MESSAGE } from '../../src/plugins/static';
import { type DbKind, type TestPortal, captureLogs, linkIn, startTestPortal, uniqueEmail } from '../helpers';
import { M, expectError } from './fixtures';

export function describeOutboxPortal(dbKind: DbKind): void {
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
