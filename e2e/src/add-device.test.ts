import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEVICE_MESSAGES, STORAGE_KEYS, type ProvDevice } from '@portal/core';
import { chromiumAvailable, newPage, PHONE } from './browser';
import { startStack, type Stack } from './harness';
import { DEMO, closeSuccess, expectPath, expectText, signIn } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
const STAFF = { email: 'staff@portal.local', password: 'staff-portal-2026' };
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A fresh device id: 'E2E' and six random letters or digits. */
function freshDeviceId(): string {
  return 'E2E' + Array.from(randomBytes(6), (b) => ALPHABET[b % ALPHABET.length]).join('');
}

describe.skipIf(!chromiumAvailable() && !required)('add device', () => {
  let stack: Stack;
  let staff: ReturnType<Stack['apiClient']>;

  beforeAll(async () => {
    stack = await startStack();
    staff = stack.apiClient();
    const login = await staff('POST', '/api/auth/login', STAFF);
    if (login.status !== 200) throw new Error(`staff sign-in failed: ${JSON.stringify(login)}`);
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** Provisions a device through the real provisioning call; answers its id and setup password. */
  async function provision(): Promise<{ id: string; setupPassword: string }> {
    const id = freshDeviceId();
    const answer = await staff<ProvDevice>('POST', `/api/prov-portal-edit-device/${id}`, { model: 'ORB-C1' });
    expect(answer.status).toBe(201);
    const setupPassword = answer.body.setupPassword;
    if (!setupPassword) throw new Error('the provisioning answer has no setup password');
    return { id, setupPassword };
  }

  async function signedIn(viewport?: typeof PHONE) {
    const { context, page } = await newPage(stack.browser, viewport);
    await page.goto(stack.url('/login'));
    await signIn(page, DEMO.email, DEMO.password);
    await expectPath(page, '/');
    return { context, page };
  }

  const deviceField = (page: Page) => page.getByLabel('Device ID');
  const passwordField = (page: Page) => page.getByLabel('Setup password', { exact: true });

  it('opens /add?device=ID from the label, shows the server error for a wrong password, then adds the device', async () => {
    const device = await provision();
    const { context, page } = await signedIn();
    await page.goto(stack.url(`/add?device=${device.id}`));
    await page.getByRole('heading', { name: 'Add Device' }).waitFor();
    expect(await deviceField(page).inputValue()).toBe(device.id);

    await passwordField(page).fill('WRONGPW1');
    await page.getByRole('button', { name: 'Add Device' }).click();
    await expectText(page, DEVICE_MESSAGES.badClaim);
    expect(new URL(page.url()).pathname).toBe('/add');

    // Enter submits; the error goes once the form changes.
    await passwordField(page).fill(device.setupPassword);
    expect(await page.getByText(DEVICE_MESSAGES.badClaim).count()).toBe(0);
    await passwordField(page).press('Enter');
    await expectPath(page, `/data/${device.id}`);
    // ERR-06: the server's message in the 'Success' dialog.
    await closeSuccess(page, DEVICE_MESSAGES.claimed);

    const recent = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.recent);
    const entries = JSON.parse(recent ?? '[]') as { id: string; name: string; ts: number }[];
    expect(entries[0]?.id).toBe(device.id);
    await context.close();
  });

  it('upper-cases the device id as typed and checks both fields before calling the server (phone width)', async () => {
    const { context, page } = await signedIn(PHONE);
    let calls = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/api\/device\/[^/]+\/user$/.test(request.url())) calls += 1;
    });
    await page.goto(stack.url('/add'));
    await deviceField(page).pressSequentially('abc12');
    expect(await deviceField(page).inputValue()).toBe('ABC12');
    await page.getByRole('button', { name: 'Add Device' }).click();
    await expectText(page, 'The device ID has 9 letters or digits');
    await expectText(page, 'Enter the setup password');
    expect(calls).toBe(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // RTE-10: /{groupid}/add opens Add Device too; a reserved first segment is not a group.
    await page.goto(stack.url('/G1234567890/add'));
    await page.getByRole('heading', { name: 'Add Device' }).waitFor();
    await page.goto(stack.url('/fcc/add'));
    await expectText(page, 'Page not found!');
    await context.close();
  });

  it('adds a device without its password when add-without-password is active', async () => {
    const device = await provision();
    // The staff account (a distributor) adds the device first, then allows the next add without a password.
    const claim = await staff('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword });
    expect(claim.status).toBe(200);
    const noPass = await staff('POST', `/api/billing-distributor-action/${device.id}`, {
      action: 'no-pass',
      params: { mode: 'ADMIN' },
    });
    expect(noPass.status).toBe(200);

    const { context, page } = await signedIn();
    await page.goto(stack.url(`/add?device=${device.id}`));
    await page.getByLabel('This device allows adding without a password').check();
    expect(await passwordField(page).count()).toBe(0);
    await page.getByRole('button', { name: 'Add Device' }).click();
    await expectPath(page, `/data/${device.id}`);
    await context.close();
  });
});
