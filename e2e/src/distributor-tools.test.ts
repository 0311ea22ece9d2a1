/**
 * Distributor Tools on the Data page (spec 2 sections 2, 4 and 8; DLG-24..31, HDR-04, HDR-05):
 * only a distributor holding ADMIN sees them, on the Data page only; Allow Add Without Password
 * and its cancel, Reset Trial and its status, each answered by 'Success' with the server's
 * message and a reload; a refused action by 'Error' with the server's message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEVICE_MESSAGES } from '@portal/core';
import { chromiumAvailable, newPage } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';

const required = process.env.REQUIRE_SERVICES === '1';
const PASSWORD = 'distributor-pass-1';

describe.skipIf(!chromiumAvailable() && !required)('distributor tools', () => {
  let stack: Stack;
  let distributor: string;
  let device: { id: string; setupPassword: string };

  beforeAll(async () => {
    stack = await startStack();
    distributor = uniqueEmail('dist');
    await stack.createStaffUser(distributor, PASSWORD, ['distributors']);
    device = await stack.provisionDevice(freshDeviceId('DST'), 'QUAD-C2', 'Dist Pump');
    const api = stack.apiClient();
    expect((await api('POST', '/api/auth/login', { email: distributor, password: PASSWORD })).status).toBe(200);
    expect((await api('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword })).status).toBe(
      200,
    );
  });

  afterAll(async () => {
    await stack?.close();
  });

  async function openTools(page: Page) {
    await page.goto(stack.url(`/data/${device.id}`));
    await page.getByRole('button', { name: 'Distributor Tools' }).click();
    const dialog = page.getByRole('dialog', { name: 'Distributor Tools' });
    await dialog.waitFor();
    return dialog;
  }

  /** Waits for the 'Success' dialog with the server's message, closes it and waits for the reload. */
  async function expectSuccessAndReload(page: Page, message: string) {
    const success = page.getByRole('dialog').filter({ hasText: 'Success' });
    await success.getByText(message, { exact: true }).waitFor();
    const reloaded = page.waitForEvent('load');
    await success.getByRole('button').last().click();
    await reloaded;
  }

  it('a distributor holding ADMIN sets and cancels Add Without Password, and resets the trial once', async () => {
    const { context, page } = await newPage(stack.browser);
    await stack.signInContext(context, distributor, PASSWORD);
    let dialog = await openTools(page);
    await dialog.getByText('Trial Reset').waitFor();
    await dialog.getByText('Available').waitFor();
    await dialog.getByText('Inactive').waitFor();

    await dialog.getByRole('button', { name: 'Allow Add Without Password' }).click();
    await expectSuccessAndReload(page, DEVICE_MESSAGES.noPassOn);
    dialog = await openTools(page);
    await dialog.getByText(/^Enabled/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel Add Without Password' }).click();
    await expectSuccessAndReload(page, DEVICE_MESSAGES.noPassOff);
    dialog = await openTools(page);
    await dialog.getByText('Inactive').waitFor();

    await dialog.getByRole('button', { name: 'Reset Trial' }).click();
    await expectSuccessAndReload(page, DEVICE_MESSAGES.trialResetDone);
    dialog = await openTools(page);
    await dialog.getByText(/^Active/).waitFor();
    expect(await dialog.getByRole('button', { name: 'Reset Trial' }).isDisabled()).toBe(true);
    await context.close();
  });

  it("a refused action shows 'Error' with the server's message", async () => {
    const { context, page } = await newPage(stack.browser);
    await stack.signInContext(context, distributor, PASSWORD);
    await page.route('**/api/billing-distributor-action/**', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: '{"message":"No","code":"BAD_REQUEST"}' }),
    );
    const dialog = await openTools(page);
    await dialog.getByRole('button', { name: /Add Without Password/ }).click();
    const error = page.getByRole('dialog').filter({ hasText: 'Error' });
    await error.getByText('No', { exact: true }).waitFor();
    await context.close();
  });

  it('is on the Data page only, and only for distributors holding ADMIN', async () => {
    const { context, page } = await newPage(stack.browser);
    await stack.signInContext(context, distributor, PASSWORD);
    await page.goto(stack.url(`/data/${device.id}`));
    await page.getByRole('button', { name: 'Distributor Tools' }).waitFor();
    await page.goto(stack.url(`/raw/${device.id}`));
    expect(await page.getByRole('button', { name: 'Distributor Tools' }).count()).toBe(0);
    await context.close();

    // A plain ADMIN (not a distributor) of another device sees no tools.
    const owner = uniqueEmail('owner');
    await stack.createVerifiedUser(owner, PASSWORD);
    const other = await stack.provisionDevice(freshDeviceId('DSO'), 'ORB-C1');
    const api = stack.apiClient();
    await api('POST', '/api/auth/login', { email: owner, password: PASSWORD });
    expect((await api('POST', `/api/device/${other.id}/user`, { setupPassword: other.setupPassword })).status).toBe(
      200,
    );
    const second = await newPage(stack.browser);
    await stack.signInContext(second.context, owner, PASSWORD);
    await second.page.goto(stack.url(`/data/${other.id}`));
    await second.page.getByRole('button', { name: 'Asset Notes' }).waitFor();
    expect(await second.page.getByRole('button', { name: 'Distributor Tools' }).count()).toBe(0);
    await second.context.close();
  });
});
