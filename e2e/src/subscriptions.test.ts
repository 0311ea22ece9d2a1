// The Subscriptions page scoped to a group, in Chromium against the real server (spec 1 section 2,
// spec 2 section 7; ledger PLAN-28): /subscriptions/{groupid} lists that group's devices only (not
// the user's device outside it), and a change made there is sent as POST
// /api/billing-update-subscription naming the device and the kind; the server's answer shows in the
// row and in the account's subscription.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import type { BillingCustomerResponse, UpdateSubscriptionBody } from '@portal/core';
import { chromiumAvailable } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { deviceInGroup, makeGroup, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

describe.skipIf(!chromiumAvailable() && !required)('subscriptions of a group (PLAN-28)', () => {
  let stack: Stack;
  let api: ReturnType<Stack['apiClient']>;
  let groupid: string;
  let inGroup: string;
  let outside: string;
  const contexts: BrowserContext[] = [];
  const user = { email: uniqueEmail('subscriptions'), password: 'subscriptions-password-1' };

  beforeAll(async () => {
    stack = await startStack();
    await stack.createVerifiedUser(user.email, user.password);
    api = stack.apiClient();
    expect((await api('POST', '/api/auth/login', user)).status).toBe(200);
    groupid = await makeGroup(api, 'Billing Yard');
    inGroup = (await deviceInGroup(stack, api, groupid, 'SUB', 'Yard Pump')).id;
    const device = await stack.provisionDevice(freshDeviceId('SUO'), 'ORB-C1', 'Home Pump');
    expect((await api('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword })).status).toBe(
      200,
    );
    outside = device.id;
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('lists the group’s devices only, and a change sends POST /billing-update-subscription', async () => {
    const page = await signedInPageOf(stack, contexts, user);
    await page.goto(stack.url(`/subscriptions/${groupid}`));
    await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
    const row = page.locator('.billing-datatable tbody tr', { hasText: inGroup });
    await row.waitFor();
    expect(await page.locator('.billing-datatable tbody tr', { hasText: outside }).count()).toBe(0);

    const posted = page.waitForRequest(
      (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/billing-update-subscription',
    );
    await row.locator('.billing-kind').click();
    await page
      .locator('.p-dropdown-panel .p-dropdown-item')
      .filter({ hasText: /^Yearly/ })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Yearly subscription' });
    await confirm.getByRole('button', { name: 'Subscribe' }).click();
    const request = await posted;
    expect(request.postDataJSON() as UpdateSubscriptionBody).toEqual({ deviceList: [inGroup], subscription: 'yearly' });
    expect((await request.response())?.status()).toBe(200);
    await page.getByRole('dialog', { name: 'Subscriptions updated' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => row.innerText()).toMatch(/Yearly, renews/);

    const customer = await api<BillingCustomerResponse>('GET', '/api/billing-get-customer');
    const devices = customer.body.devices;
    expect(devices.find((d) => d.deviceid === inGroup)?.subscription).toMatchObject({ kind: 'yearly' });
    expect(devices.find((d) => d.deviceid === outside)?.subscription).toMatchObject({ kind: 'none' });
  });
});
