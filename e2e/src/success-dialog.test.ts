// The one 'Success' dialog of a save (spec 1 section 8; ledger ERR-06), in Chromium against the real
// server: a 200 without a message (the Account profile's answer is the user, no message) shows
// 'Success' under the title 'Success'; a device name saved in the header and an alert subscription
// saved in its dialog show the server's own message. Focus is on OK while it is open (also when the
// Alerts dialog closing under it hands focus back to its opener), Escape or OK closes it, and focus
// then returns to where the save began. The other saves of ERR-06 (device users, group settings,
// command cancel, add device, asset notes, display settings, config) are checked the same way in
// their own files through helpers' closeSuccess.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ALERT_MESSAGES, type VirtualDeviceCreated } from '@portal/core';
import { chromiumAvailable } from './browser';
import { startStack, uniqueEmail, type Stack } from './harness';
import { closeSuccess, seriousAxeViolations, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

describe.skipIf(!chromiumAvailable() && !required)("the 'Success' dialog (ERR-06)", () => {
  let stack: Stack;
  let deviceid: string;
  const contexts: BrowserContext[] = [];
  const user = { email: uniqueEmail('success-user'), password: 'success-user-password-1' };

  beforeAll(async () => {
    stack = await startStack();
    await stack.createVerifiedUser(user.email, user.password);
    const api = stack.apiClient();
    expect((await api('POST', '/api/auth/login', user)).status).toBe(200);
    // A virtual device: its ADMIN may rename it in the header.
    const made = await api<VirtualDeviceCreated>('POST', '/api/virtual-devices', { name: 'Success Tank' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    deviceid = made.body.deviceid;
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  /** The name of the element that has focus (its text, or its label). */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim();
    });

  it("a 200 without a message shows 'Success'; OK has focus, Escape closes, focus returns to Save", async () => {
    const page = await signedInPageOf(stack, contexts, user);
    await page.goto(stack.url('/account'));
    await page.getByLabel('Phone').fill('+61400000000');
    const answered = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && r.url().endsWith('/api/account/profile'),
    );
    await page.getByRole('button', { name: 'Save' }).click();
    const answer = await answered;
    expect(answer.status()).toBe(200);
    expect(await answer.json()).not.toHaveProperty('message');

    const dialog = page.getByRole('dialog', { name: 'Success' });
    await dialog.waitFor();
    expect((await dialog.locator('.message-dialog__body').innerText()).trim()).toBe('Success');
    await expect.poll(() => focused(page)).toBe('OK');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => focused(page)).toBe('Save');
  });

  it("the device name and an alert subscription show the server's message; focus comes back to Alerts", async () => {
    const page = await signedInPageOf(stack, contexts, user);
    await page.goto(stack.url(`/data/${deviceid}`));
    await page.getByRole('button', { name: 'Edit device name' }).click();
    await page.getByLabel('Device name').fill('Renamed Tank');
    await page.getByLabel('Device name').press('Enter');
    await closeSuccess(page, 'Device name saved.');
    await page.getByRole('heading', { level: 1, name: /Renamed Tank/ }).waitFor();

    // Saved from a dialog that closes as the 'Success' dialog opens: focus is on OK, and OK
    // (pressed with the keyboard) gives it back to the Alerts button that opened the first.
    const alerts = page.getByRole('button', { name: 'Alerts' });
    await alerts.click();
    const form = page.getByRole('dialog').filter({ hasText: 'Send alerts by' });
    await form.getByRole('checkbox', { name: 'E-mail' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    const success = page.getByRole('dialog', { name: 'Success' });
    await success.getByText(ALERT_MESSAGES.saved, { exact: true }).waitFor();
    await form.waitFor({ state: 'hidden' });
    await expect.poll(() => focused(page)).toBe('OK');
    await page.keyboard.press('Enter');
    await success.waitFor({ state: 'hidden' });
    await expect.poll(() => focused(page)).toBe('Alerts');
  });
});
