// API keys and virtual devices in Chromium against the real server (issue 16; ledger API-46 to
// API-48, BRD-11, I-05; DESIGN.md sections 4 and 5): a user creates a read-write key in the Account
// page's API tab (its secret shown once, with a copy button and a warning); a script (Node's fetch,
// no cookie, no CSRF header) uses it to create a virtual device in the user's group and feeds it by
// HTTP ingest with the device's own key; the device shows on home and on its device page in the
// browser; the script renames it and the page shows the new name; the user deletes the key in the
// tab (after a confirmation) and the script's next call is 401. The tank brand has no API tab.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  API_CREDENTIAL_MESSAGES,
  API_KEY_PATTERN,
  VIRTUAL_DEVICE_ID_PATTERN,
  type VirtualDeviceCreated,
} from '@portal/core';
import { chromiumAvailable, PHONE } from './browser';
import { startStack, uniqueEmail, type Stack } from './harness';
import { makeGroup, seriousAxeViolations, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

describe.skipIf(!chromiumAvailable() && !required)('API keys and virtual devices', () => {
  let stack: Stack;
  let page: Page;
  let groupid: string;
  const contexts: BrowserContext[] = [];
  const user = { email: uniqueEmail('api-user'), password: 'api-user-password-1' };
  const GROUP = 'Script Yard';

  /** What a script does: fetch with the key, JSON, no cookie and no CSRF header. */
  const script = (key: string) => async (method: string, path: string, body?: unknown) => {
    const res = await fetch(stack.url(path), {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.headers.getSetCookie()).toEqual([]);
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as unknown };
  };

  beforeAll(async () => {
    stack = await startStack();
    await stack.createVerifiedUser(user.email, user.password);
    const api = stack.apiClient();
    expect((await api('POST', '/api/auth/login', user)).status).toBe(200);
    groupid = await makeGroup(api, GROUP);
    page = await signedInPageOf(stack, contexts, user);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('creates a key in the API tab, feeds a virtual device with it, shows and renames the device, and a deleted key is refused', async () => {
    await page.goto(stack.url('/account/api'));
    await page.getByRole('tab', { name: 'API', selected: true }).waitFor();
    await page.getByText('You have no API keys yet.').waitFor();
    expect(await page.locator('.api-example').innerText()).toContain('Authorization: Bearer');
    expect(await page.getByRole('link', { name: /API reference/ }).getAttribute('href')).toBe('/api/docs');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // An empty name is refused beside the field, and nothing is made.
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText(API_CREDENTIAL_MESSAGES.nameRequired).waitFor();
    await page.getByLabel('Name').fill('Tank feeder');
    await page.getByLabel(/Read and write/).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('it will not be shown again').waitFor();
    const key = (await page.locator('.api-new-key__secret code').innerText()).trim();
    expect(key).toMatch(API_KEY_PATTERN);
    await page.getByRole('button', { name: 'Copy', exact: true }).waitFor();
    const row = page.locator('.api-keys-table tbody tr', { hasText: 'Tank feeder' });
    expect(await row.innerText()).toMatch(/Read and write[\s\S]*Never[\s\S]*Never/);
    await page.getByRole('button', { name: 'Done' }).click();
    // Shown once: gone from the page, and not in the list after a reload.
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(key);

    const call = script(key);
    const made = await call('POST', '/api/virtual-devices', { name: 'Script Tank', groupid });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const device = made.body as VirtualDeviceCreated;
    expect(device.deviceid).toMatch(VIRTUAL_DEVICE_ID_PATTERN);
    const ts = Math.floor(Date.now() / 1000) - 60;
    const fed = await fetch(stack.url(`/api/ingest/${device.deviceid}`), {
      method: 'POST',
      headers: { authorization: `Device ${device.deviceKey}`, 'content-type': 'application/json' },
      body: JSON.stringify([
        { ts: ts - 60, tank_level: 61.5 },
        { ts, tank_level: 62.5 },
      ]),
    });
    expect(fed.status).toBe(200);

    // Home: the group's default view lists it; its page shows its name, id and reading.
    await page.goto(stack.url('/'));
    await page.getByRole('heading', { level: 1, name: GROUP }).waitFor();
    await page.locator('.widget-card').first().getByText('Script Tank').first().waitFor();
    await page.goto(stack.url(`/data/${device.deviceid}`));
    await page.getByRole('heading', { level: 1, name: /Script Tank/ }).waitFor();
    await page.getByText(device.deviceid).first().waitFor();
    await page.getByText('62.50').first().waitFor();

    const renamed = await call('PUT', `/api/device/${device.deviceid}/settings`, { PORTAL_deviceName: 'Tank Four' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /Tank Four/ }).waitFor();
    // The name is editable here too, for a virtual device's ADMIN.
    await page.getByRole('button', { name: 'Edit device name' }).waitFor();

    // The key's last use shows; deleting it asks first, then the script is refused at once.
    await page.goto(stack.url('/account/api'));
    await row.waitFor();
    expect(await row.locator('td[data-label="Last used"]').innerText()).not.toBe('Never');
    await row.getByRole('button', { name: 'Delete API key Tank feeder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete API key' });
    await dialog.getByText('Scripts using it stop working at once').waitFor();
    await dialog.getByRole('button', { name: 'Delete key' }).click();
    await page.getByText('You have no API keys yet.').waitFor();
    const refused = await call('GET', `/api/device/${device.deviceid}/data`);
    expect(refused).toEqual({
      status: 401,
      body: { message: API_CREDENTIAL_MESSAGES.invalidKey, code: 'UNAUTHENTICATED' },
    });
  });

  it('fits a phone, and the tank brand has no API tab', async () => {
    const phone = await signedInPageOf(stack, contexts, user, { viewport: PHONE });
    await phone.goto(stack.url('/account/api'));
    await phone.getByRole('heading', { name: /Your keys/ }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // Sessions are host-only: sign in on the tank host itself.
    const context = await stack.browser.newContext({ viewport: PHONE });
    contexts.push(context);
    const tank = await context.newPage();
    await tank.goto(stack.url('/login', 'tank.'));
    const status = await tank.evaluate(async (credentials) => {
      const res = await fetch('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-requested-with': 'portal' },
        body: JSON.stringify(credentials),
      });
      return res.status;
    }, user);
    expect(status).toBe(200);
    await tank.goto(stack.url('/account/api', 'tank.'));
    await tank.getByRole('tab', { name: 'Profile', selected: true }).waitFor();
    expect(new URL(tank.url()).pathname).toBe('/account');
    expect(await tank.getByRole('tab', { name: 'API' }).count()).toBe(0);
  });
});
