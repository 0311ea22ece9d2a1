import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import type { UserGroup } from '@portal/core';
import { startPortal } from '../../apps/server/src/portal';
import { loadConfig } from '../../apps/server/src/config';
import { launchBrowser } from './browser';
import { linkIn, startMailbox } from './mailbox';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '../..');

export type Stack = Awaited<ReturnType<typeof startStack>>;

/** The real portal (PGlite in memory, built web app), a real SMTP server and Chromium. */
export async function startStack() {
  const mailbox = await startMailbox();
  const portal = await startPortal({
    ...loadConfig({}),
    port: 0,
    mqttPort: 0,
    host: '127.0.0.1',
    dataDir: 'memory://',
    smtpUrl: mailbox.url,
    webDist: join(root, 'apps/web/dist'),
    seedDemo: true,
    rateLimitPerMinute: 1000,
    logLevel: 'warn',
  });
  const browser: Browser = await launchBrowser();
  const port = portal.port;

  /** The portal's address under a brand host prefix ('' = default brand on localhost). */
  const url = (path = '/', hostPrefix = '') => `http://${hostPrefix}localhost:${port}${path}`;

  /** Calls the API like the web app does (JSON, CSRF header), keeping a cookie jar per caller. */
  function apiClient() {
    let cookies = new Map<string, string>();
    return async function call<T = unknown>(
      method: string,
      path: string,
      body?: unknown,
    ): Promise<{ status: number; body: T }> {
      const res = await fetch(url(path), {
        method,
        headers: {
          'content-type': 'application/json',
          'x-requested-with': 'portal',
          cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const [name, value] = (pair ?? '').split('=');
        if (name) cookies = new Map(cookies).set(name.trim(), value ?? '');
      }
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
    };
  }

  /** Signs up and verifies a fresh account through the API and the real mail. */
  async function createVerifiedUser(email: string, password: string): Promise<void> {
    const api = apiClient();
    const signup = await api('POST', '/api/auth/signup', { email, password });
    if (signup.status !== 201) throw new Error(`signup failed: ${JSON.stringify(signup)}`);
    const mail = await mailbox.waitFor(email);
    const code = new URL(linkIn(mail, '/verify/')).pathname.split('/').pop() ?? '';
    const verify = await api('POST', `/api/auth/verify/${code}`);
    if (verify.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verify)}`);
  }

  /** A verified account in the given staff groups, made the way the seed makes its accounts. */
  async function createStaffUser(email: string, password: string, userGroups: UserGroup[]): Promise<void> {
    await portal.app.services.auth.ensureUser({ email, password, userGroups });
  }

  async function close() {
    await browser.close();
    await portal.close();
    await mailbox.close();
  }

  return { port, url, mailbox, browser, apiClient, createVerifiedUser, createStaffUser, close };
}

let counter = 0;
/** A unique address for one test. */
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `${tag}-${process.pid}-${counter}@example.com`;
}
