// Plans, subscriptions and invoices in Chromium against the real server (issue 16; spec 1 sections
// 2 and 4; ledger PLAN-10, PLAN-13, PLAN-27 to PLAN-29, API-58 to API-60; DESIGN.md section 5): a
// customer subscribes a trial device monthly on /subscriptions after a confirmation showing the
// price, and its badge turns Hosted, and a selection of devices at once; they cancel, and at the period's end (the subscription's end
// moved into the past in the database, as ageDevice moves a trial) the device is on Trial again;
// a Basic device's banner and unavailable widgets, and /plans naming its plan; the Account page's
// Invoices tab lists the invoice and its PDF downloads; 'Manage billing' opens it.
import { readFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { BASIC_BANNER_TEXT, type BillingCustomerResponse } from '@portal/core';
import { chromiumAvailable, PHONE } from './browser';
import { freshDeviceId, startStack, type Stack } from './harness';
import { DEMO, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
const run = promisify(execFile);

describe.skipIf(!chromiumAvailable() && !required)('plans, subscriptions and invoices', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let trialId: string;
  let basicId: string;
  const bulkIds: string[] = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    for (const [tag, name] of [
      ['BIT', 'Billing Trial'],
      ['BIB', 'Billing Basic'],
    ] as const) {
      const device = await stack.provisionDevice(freshDeviceId(tag), 'ORB-C1', name);
      const added = await demo('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword });
      expect(added.status).toBe(200);
      await stack.publish(device, { ts: Math.floor(Date.now() / 1000) - 60, vsys: 12.4 });
      if (tag === 'BIT') trialId = device.id;
      else basicId = device.id;
    }
    await stack.ageDevice(basicId, 91);
    for (const name of ['Bulk One', 'Bulk Two']) {
      const device = await stack.provisionDevice(freshDeviceId('BIS'), 'QUAD-C2', name);
      expect(
        (await demo('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword })).status,
      ).toBe(200);
      bulkIds.push(device.id);
    }
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  /** The plan badge's text as written (CSS shows it in capitals). */
  const badgeText = async (page: Page) => (await page.locator('a.dp-tier').textContent())?.trim();
  const row = (page: Page, deviceid: string) => page.locator('.billing-datatable tbody tr', { hasText: deviceid });

  async function chooseSubscription(page: Page, deviceid: string, option: RegExp): Promise<void> {
    await row(page, deviceid).locator('.billing-kind').click();
    await page.locator('.p-dropdown-panel .p-dropdown-item').filter({ hasText: option }).click();
  }

  it('a customer subscribes a trial device monthly, its badge turns Hosted; cancelled, it returns to Trial at the period end', async () => {
    const page = await signedInPageOf(stack, contexts);
    await page.goto(stack.url(`/data/${trialId}`));
    await expect.poll(() => badgeText(page)).toBe('Trial');

    await page.goto(stack.url('/subscriptions'));
    await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
    await chooseSubscription(page, trialId, /^Monthly/);
    const confirm = page.getByRole('dialog', { name: 'Monthly subscription' });
    await expect.poll(() => confirm.innerText()).toContain('$7.50 / month');
    await confirm.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByRole('dialog', { name: 'Subscriptions updated' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => row(page, trialId).innerText()).toMatch(/Monthly, renews .*\n?.*Awaiting payment by/);

    await page.goto(stack.url(`/data/${trialId}`));
    await expect.poll(() => badgeText(page)).toBe('Hosted');

    await page.goto(stack.url('/subscriptions'));
    await chooseSubscription(page, trialId, /^None$/);
    const cancel = page.getByRole('dialog', { name: 'Cancel subscription' });
    await expect.poll(() => cancel.innerText()).toContain('until the end of the paid period');
    await cancel.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('dialog', { name: 'Subscriptions updated' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => row(page, trialId).innerText()).toMatch(/Monthly, ends /);

    // The period ends: the subscription's end in the past; the next billing call settles it.
    await stack.endSubscriptionPeriod(trialId);
    await page.goto(stack.url('/plans'));
    const planRow = page.locator('.billing-table tbody tr', { hasText: trialId });
    await expect.poll(() => planRow.innerText()).toMatch(/Trial[\s\S]*89[\s\S]*None/i);
    await page.goto(stack.url(`/data/${trialId}`));
    await expect.poll(() => badgeText(page)).toBe('Trial');
  });

  it('a selection of devices changes at once, the confirmation showing the total', async () => {
    const page = await signedInPageOf(stack, contexts);
    await page.goto(stack.url('/subscriptions'));
    await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
    for (const id of bulkIds) await row(page, id).getByRole('checkbox').check();
    await page.getByText('2 devices selected').waitFor();
    await page.locator('.billing-bulk .billing-kind').click();
    await page
      .locator('.p-dropdown-panel .p-dropdown-item')
      .filter({ hasText: /^Yearly/ })
      .click();
    await page.getByRole('button', { name: 'Change selected' }).click();
    const confirm = page.getByRole('dialog', { name: 'Yearly subscription' });
    await expect.poll(() => confirm.innerText()).toMatch(/\$75\.00 \/ year[\s\S]*Total: \$150\.00 a year/);
    await confirm.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByRole('dialog', { name: 'Subscriptions updated' }).waitFor();
    await page.keyboard.press('Escape');
    for (const id of bulkIds) await expect.poll(() => row(page, id).innerText()).toMatch(/Yearly, renews/);
    await page.getByText('Select devices to change several at once.').waitFor();
  });

  it('a Basic device shows its banner and unavailable widgets, and /plans names its plan', async () => {
    const page = await signedInPageOf(stack, contexts, DEMO, { viewport: PHONE });
    await page.goto(stack.url(`/data/${basicId}`));
    await page.getByText(BASIC_BANNER_TEXT).first().waitFor();
    await page.getByText('Widgets are unavailable on the Basic Plan').first().waitFor();
    await page.locator('a.dp-tier').click();
    await page.waitForURL('**/plans');
    await page.getByRole('heading', { level: 2, name: 'Hosted' }).waitFor();
    await expect
      .poll(() => page.locator('.billing-table tbody tr', { hasText: basicId }).innerText())
      .toMatch(/Basic[\s\S]*Hosted brings back/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });

  it('the Invoices tab lists the invoice and its PDF downloads; Manage billing opens it', async () => {
    const customer = await demo<BillingCustomerResponse>('GET', '/api/billing-get-customer');
    const invoice = customer.body.invoices.find((i) => i.deviceid === trialId)!;
    expect(invoice).toMatchObject({ amount: 7.5, currency: 'USD', kind: 'monthly' });

    const page = await signedInPageOf(stack, contexts, DEMO, { context: { acceptDownloads: true } });
    await page.goto(stack.url('/subscriptions'));
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL('**/account/invoices');
    const line = page.locator('.billing-invoices-table tbody tr', { hasText: invoice.number });
    await expect.poll(() => line.innerText()).toMatch(/\$7\.50[\s\S]*Open/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      line.getByRole('button', { name: `Download invoice ${invoice.number} as PDF` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${invoice.number}.pdf`);
    const file = await download.path();
    expect((await readFile(file)).subarray(0, 5).toString()).toBe('%PDF-');
    const { stdout } = await run('pdftotext', ['-layout', file, '-']);
    expect(stdout).toContain(invoice.number);
    expect(stdout).toContain(trialId);
    expect(stdout).toContain('$7.50');
  });
});
