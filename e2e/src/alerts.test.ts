// Alerts in Chromium against the real server and its SMTP mailbox (issue 14; DESIGN.md section 5
// 'Alerts'): a device user subscribes through the Data page's Alerts dialog, an ALARM event the
// device publishes over MQTT reaches the mailbox, the Account page's Notifications tab lists it,
// and the e-mail's unsubscribe link turns the subscription's e-mail off without signing in;
// axe-clean, and no sideways scroll at 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import type { AlertSubscription } from '@portal/core';
import { chromiumAvailable, PHONE } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { linkIn } from './mailbox';
import { seriousAxeViolations, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

describe.skipIf(!chromiumAvailable() && !required)('alerts', () => {
  let stack: Stack;
  let api: ReturnType<Stack['apiClient']>;
  let device: { id: string; setupPassword: string; deviceKey: string };
  const contexts: BrowserContext[] = [];
  const user = { email: uniqueEmail('alerts-user'), password: 'alerts-user-password-1' };

  beforeAll(async () => {
    stack = await startStack();
    await stack.createVerifiedUser(user.email, user.password);
    api = stack.apiClient();
    expect((await api('POST', '/api/auth/login', user)).status).toBe(200);
    device = await stack.provisionDevice(freshDeviceId('ALR'), 'ORB-C1', 'Alert Pump');
    expect((await api('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword })).status).toBe(
      200,
    );
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('subscribes through the Alerts dialog of the Data page', async () => {
    const page = await signedInPageOf(stack, contexts, user);
    await page.goto(stack.url(`/data/${device.id}`));
    await page.getByRole('button', { name: 'Alerts' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Send alerts by' });
    await dialog.getByRole('checkbox', { name: 'E-mail' }).waitFor();
    // No phone verified: SMS cannot be chosen, and the dialog says where to add one.
    expect(await dialog.getByRole('checkbox', { name: 'SMS' }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('link', { name: 'add one on the Account page' }).getAttribute('href')).toBe(
      '/account/notifications',
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('checkbox', { name: 'E-mail' }).check();
    await dialog.getByRole('checkbox', { name: 'ALERT, WARN and ALARM events' }).check();
    await dialog.locator('.alerts-schedule .p-dropdown').click();
    await page
      .locator('.p-dropdown-panel .p-dropdown-item')
      .filter({ hasText: /^Every 10 Minutes$/ })
      .click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your alert settings for this device are saved.').waitFor();
    const saved = await api<AlertSubscription>('GET', `/api/device/${device.id}/alerts`);
    expect(saved.body).toMatchObject({ email: true, sms: false, events: true, limits: false, schedule: 600 });
  });

  it('an ALARM event the device publishes reaches the mailbox, and the Account page lists it', async () => {
    await stack.publish(device, {
      ts: Math.floor(Date.now() / 1000),
      vsys: 12,
      events: [{ msg: 'Boiler over pressure', severity: 'ALARM' }],
    });
    const mail = await stack.mailbox.waitFor(user.email, (m) => m.raw.includes('ALARM event: Boiler over pressure'));
    expect(mail.raw).toContain(`/data/${device.id}`);

    const page = await signedInPageOf(stack, contexts, user);
    await page.goto(stack.url('/account/notifications'));
    const rows = page.locator('table.notifications-table tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    const cells = await rows.first().locator('td').allInnerTexts();
    expect(cells[1]).toBe('Alert Pump');
    expect(cells[2]).toBe('E-mail');
    expect(cells[3]).toMatch(/ALARM event: Boiler over pressure$/);
    expect(cells[4]).toBe('Sent');
    expect(await rows.first().locator('time').getAttribute('title')).toMatch(/GMT|UTC/);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('the unsubscribe link turns the e-mail off without signing in', async () => {
    const mail = await stack.mailbox.waitFor(user.email, (m) => m.raw.includes('ALARM event: Boiler over pressure'));
    const link = linkIn(mail, '/unsubscribe/');
    const context = await stack.browser.newContext({ bypassCSP: true });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(link);
    await page.getByText(/You will no longer receive alert e-mails for Alert Pump/).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    const after = await api<AlertSubscription>('GET', `/api/device/${device.id}/alerts`);
    expect(after.body).toMatchObject({ email: false, events: true });
  });

  it('fits a phone: the Data page header and the Notifications tab scroll no sideways at 390 px', async () => {
    const page = await signedInPageOf(stack, contexts, user, { viewport: PHONE });
    await page.goto(stack.url(`/data/${device.id}`));
    await page.getByRole('button', { name: 'Alerts' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.goto(stack.url('/account/notifications'));
    await page.locator('table.notifications-table').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
