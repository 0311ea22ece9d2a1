import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_KEYS, GENERIC_ERROR_TEXT } from '@portal/core';
import { chromiumAvailable, newPage } from './browser';
import { startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, expectText, signIn } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
const STAFF = { email: 'staff@portal.local', password: 'staff-portal-2026' };

describe.skipIf(!chromiumAvailable() && !required)('application shell', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('renders nothing while the session is being checked, then the page', async () => {
    const { context, page } = await newPage(stack.browser);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/auth/session', async (route) => {
      await held;
      await route.continue();
    });
    // React reports every commit to the developer-tools hook: keep what #root held after each.
    await page.addInitScript(() => {
      const w = window as unknown as { rootAtCommit: string[]; __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown };
      w.rootAtCommit = [];
      w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true,
        renderers: new Map(),
        inject: () => 1,
        checkDCE: () => undefined,
        onCommitFiberUnmount: () => undefined,
        onPostCommitFiberRoot: () => undefined,
        onCommitFiberRoot: () => w.rootAtCommit.push(document.getElementById('root')?.innerHTML ?? '(no root)'),
      };
    });
    await page.goto(stack.url('/login'));
    // The app has rendered while its session check is held: every render left #root empty.
    await page.waitForFunction(() => (window as unknown as { rootAtCommit: string[] }).rootAtCommit.length > 0);
    const whileChecking = await page.evaluate(() => (window as unknown as { rootAtCommit: string[] }).rootAtCommit);
    expect(new Set(whileChecking)).toEqual(new Set(['']));
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    release();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await context.close();
  });

  it('keeps the session across a reload', async () => {
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login'));
    await signIn(page, DEMO.email, DEMO.password);
    await expectText(page, 'You are not in a group yet');
    await page.goto(stack.url('/account'));
    await page.reload();
    await page.getByRole('tab', { name: /profile/i }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    await context.close();
  });

  it('clears favourites, recent and the script theme when another user signs in', async () => {
    const other = uniqueEmail('other');
    await stack.createVerifiedUser(other, 'other-password-1');
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login'));
    await signIn(page, DEMO.email, DEMO.password);
    await expectText(page, 'You are not in a group yet');
    await page.evaluate(
      (keys) => {
        for (const key of keys) localStorage.setItem(key, '[{"id":"AB12CD34E","name":"x","ts":1}]');
      },
      [STORAGE_KEYS.favourites, STORAGE_KEYS.recent, STORAGE_KEYS.scriptTheme],
    );
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await signIn(page, other, 'other-password-1');
    await expectText(page, 'You are not in a group yet');
    const left = await page.evaluate(
      (keys) => keys.map((key) => localStorage.getItem(key)),
      [STORAGE_KEYS.favourites, STORAGE_KEYS.recent, STORAGE_KEYS.scriptTheme],
    );
    expect(left).toEqual([null, null, null]);
    await context.close();
  });

  it('shows one error toast for identical load failures, with the server message', async () => {
    const { context, page } = await newPage(stack.browser);
    await page.route('**/api/groups', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"message":"Groups are resting","code":"X"}',
      }),
    );
    await page.goto(stack.url('/login'));
    await signIn(page, DEMO.email, DEMO.password);
    const toast = page.locator('.p-toast-message');
    await toast.first().waitFor();
    expect(await toast.first().innerText()).toContain('Groups are resting');
    expect(await toast.first().innerText()).toContain('Error');
    // a reload fails the same call again: still one toast for the same text
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.waitForTimeout(500);
    expect(await page.locator('.p-toast-message', { hasText: 'Groups are resting' }).count()).toBe(1);
    await context.close();
  });

  it('unregisters a stale service worker at start-up', async () => {
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/fcc'));
    await expectText(page, 'ORB-C1');
    // an earlier version of a site could have left a worker behind; the app itself never registers one
    await context.route('**/old-service-worker.js', (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: "self.addEventListener('fetch', () => {});" }),
    );
    const registered = await page.evaluate(async () => {
      await navigator.serviceWorker.register('/old-service-worker.js');
      return (await navigator.serviceWorker.getRegistrations()).length;
    });
    expect(registered).toBe(1);
    await page.reload();
    await expectText(page, 'ORB-C1');
    await page.waitForFunction(async () => (await navigator.serviceWorker.getRegistrations()).length === 0);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
    await context.close();
  });

  it('sends a rendering crash report and shows the generic error screen', async () => {
    const { context, page } = await newPage(stack.browser);
    // user info whose fields have the wrong types makes the account page throw while rendering
    await page.goto(stack.url('/login'));
    await signIn(page, DEMO.email, DEMO.password);
    await expectText(page, 'You are not in a group yet');
    await page.route('**/api/user-login', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: '{"email":{"not":"a string"},"userGroups":7}',
      }),
    );
    const report = page.waitForRequest((req) => req.url().endsWith('/api/client-errors') && req.method() === 'POST');
    await page.goto(stack.url('/account'));
    await expectText(page, GENERIC_ERROR_TEXT);
    expect((await report).postDataJSON()).toHaveProperty('message');
    await context.close();
  });

  it("titles every page 'Portal - {page}' or 'Portal - {subject}: {page}' (HDR-03, HOME-09, issue 32)", async () => {
    const { context, page } = await newPage(stack.browser);
    const expectTitle = async (path: string, title: string | RegExp) => {
      await page.goto(stack.url(path));
      await expect.poll(() => page.title(), { message: path }).toMatch(title);
    };
    await expectTitle('/login', 'Portal - Sign in');
    await expectTitle('/signup', 'Portal - Sign up');
    await expectTitle('/resetpassword', 'Portal - Reset password');
    await page.goto(stack.url('/login'));
    await signIn(page, STAFF.email, STAFF.password);
    await expectText(page, 'You are not in a group yet');
    expect(await page.title()).toBe('Portal - Welcome');
    await expectTitle('/account', 'Portal - Account: Profile');
    await expectTitle('/account/password', 'Portal - Account: Password');
    await expectTitle('/account/notifications', 'Portal - Account: Notifications');
    await expectTitle('/add', 'Portal - Add Device');
    await expectTitle('/plans', 'Portal - Plans');
    await expectTitle('/subscriptions', 'Portal - Subscriptions');
    await expectTitle('/support', 'Portal - Support');
    await expectTitle('/sqadmin', 'Portal - Staff Admin');
    await expectTitle('/sqadmin/DEMO00001', 'Portal - DEMO00001: Staff Admin');
    await expectTitle('/sqtools', 'Portal - Staff Tools');
    await expectTitle('/sqstats', 'Portal - Statistics');
    await expectTitle('/sqprov', 'Portal - Provisioning');
    await expectTitle('/sqprov/DEMO00001', 'Portal - DEMO00001: Provisioning');
    await expectTitle('/sqpacking', 'Portal - Packing');
    await expectTitle('/group/NOSUCHGROUP', 'Portal - Group not found');
    await expectTitle('/no/such/page', 'Portal - Page not found');
    await context.close();
  });
});
