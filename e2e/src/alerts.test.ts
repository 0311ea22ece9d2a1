// Alerts in Chromium against the real server and its SMTP mailbox (issue 14; DESIGN.md section 5
// 'Alerts'): a device user subscribes through the Data page's Alerts dialog; a simulated device on
// the embedded MQTT broker raises an ALARM event, which reaches the mailbox, and its supply voltage
// crosses the alarm limit its display settings give, which reaches another user subscribed to
// limit crossings; the Account page's Notifications tab lists the alert, and the e-mail's
// unsubscribe link turns the subscription's e-mail off without signing in; axe-clean, and no
// sideways scroll at 390 px. (Digests at a period's end, quotas and restarts: the server's tests,
// with its clock moved.) A Basic-plan device's alert is refused by its quota and listed as such.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { ALERT_MESSAGES, type AlertSubscription, type Notification, type NotificationsResponse } from '@portal/core';
import { startFleet, type Fleet } from '../../apps/simulator/src/index';
import { chromiumAvailable, PHONE } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { linkIn } from './mailbox';
import { closeSuccess, seriousAxeViolations, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

describe.skipIf(!chromiumAvailable() && !required)('alerts', () => {
  let stack: Stack;
  let api: ReturnType<Stack['apiClient']>;
  let device: { id: string; setupPassword: string; deviceKey: string };
  let fleet: Fleet | undefined;
  let basicFleet: Fleet | undefined;
  const contexts: BrowserContext[] = [];
  const user = { email: uniqueEmail('alerts-user'), password: 'alerts-user-password-1' };
  /** Subscribed to limit crossings only (through the API). */
  const watcher = { email: uniqueEmail('alerts-watch'), password: 'alerts-watch-password-1' };

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
    await fleet?.stop();
    await basicFleet?.stop();
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
    await closeSuccess(page, ALERT_MESSAGES.saved);
    const saved = await api<AlertSubscription>('GET', `/api/device/${device.id}/alerts`);
    expect(saved.body).toMatchObject({ email: true, sms: false, events: true, limits: false, schedule: 600 });
  });

  it('the simulated device raises an ALARM event and crosses a limit: each reaches its subscriber, listed on the Account page', async () => {
    // The watcher: a USER of the device, alerted by e-mail when a reading crosses its limits; the
    // supply voltage's alarm limit (display settings) is below what the simulated device reports.
    await stack.createVerifiedUser(watcher.email, watcher.password);
    const grant = await api('POST', `/api/device/${device.id}/user`, {
      targetEmail: watcher.email,
      targetPermission: 'USER',
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    const watcherApi = stack.apiClient();
    expect((await watcherApi('POST', '/api/auth/login', watcher)).status).toBe(200);
    const watch = await watcherApi('PUT', `/api/device/${device.id}/alerts`, {
      email: true,
      sms: false,
      events: false,
      limits: true,
      offline: false,
      schedule: 600,
    });
    expect(watch.status, JSON.stringify(watch.body)).toBe(200);
    const limits = { min: 0, max: 10, warnLow: 1, warnHigh: 4, alarmLow: 0.5, alarmHigh: 5 };
    const display = await api('PUT', `/api/device/${device.id}/settings`, {
      PORTAL_displaySettings: { vsys: { displayType: 'gauge', gaugeSettings: limits } },
    });
    expect(display.status, JSON.stringify(display.body)).toBe(200);

    fleet = startFleet({
      devices: [{ id: device.id, key: device.deviceKey, model: 'ORB-C1' }],
      transport: 'mqtt',
      mqttUrl: stack.mqttUrl,
      httpUrl: stack.url(),
      baseInterval: 2,
      staggerMs: 0,
    });
    fleet.devices[0]!.reportEvent({ msg: 'Boiler over pressure', lv: 35 });
    const crossing = await stack.mailbox.waitFor(
      watcher.email,
      (m) => m.raw.includes('(vsys) is ') && m.raw.includes('past its alarm limit'),
    );
    expect(crossing.raw).toContain(`/data/${device.id}`);
    const mail = await stack.mailbox.waitFor(user.email, (m) => m.raw.includes('ALARM event: Boiler over pressure'));
    expect(mail.raw).toContain(`/data/${device.id}`);

    const page = await signedInPageOf(stack, contexts, user);
    await page.goto(stack.url('/account/notifications'));
    const rows = page.locator('table.notifications-table tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    const cells = await rows.first().locator('td').allInnerTexts();
    // The event only: this user is not subscribed to limit crossings.
    expect(cells[1]).toBe('Alert Pump');
    expect(cells[2]).toBe('E-mail');
    expect(cells[3]).toMatch(/ALARM event: Boiler over pressure$/);
    expect(cells[4]).toBe('Sent');
    expect(await rows.first().locator('time').getAttribute('title')).toMatch(/GMT|UTC/);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it("a Basic-plan device's alert is refused by its quota (none): no e-mail, and the history says so", async () => {
    const basic = await stack.provisionDevice(freshDeviceId('ALB'), 'ORB-C1', 'Basic Pump');
    expect((await api('POST', `/api/device/${basic.id}/user`, { setupPassword: basic.setupPassword })).status).toBe(
      200,
    );
    const subscribed = await api('PUT', `/api/device/${basic.id}/alerts`, {
      email: true,
      sms: false,
      events: true,
      limits: false,
      offline: false,
      schedule: 600,
    });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
    // 91 days after it was added, the trial is over: the device is on the Basic plan, with no e-mails.
    await stack.ageDevice(basic.id, 91);
    basicFleet = startFleet({
      devices: [{ id: basic.id, key: basic.deviceKey, model: 'ORB-C1' }],
      transport: 'mqtt',
      mqttUrl: stack.mqttUrl,
      httpUrl: stack.url(),
      baseInterval: 2,
      staggerMs: 0,
    });
    basicFleet.devices[0]!.reportEvent({ msg: 'Basic boiler over pressure', lv: 35 });
    // The simulated device may raise an event of its own (a low supply voltage) before this one, and
    // within the schedule only the first is considered: whichever it is, it is refused, not mailed.
    let history: Notification[] = [];
    await expect
      .poll(
        async () => {
          history = (await api<NotificationsResponse>('GET', '/api/account/notifications')).body.notifications;
          return history.filter((n) => n.deviceid === basic.id).length;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBeGreaterThan(0);
    const own = history.filter((n) => n.deviceid === basic.id);
    expect(new Set(own.map((n) => n.status))).toEqual(new Set(['refused']));
    expect(own[0]!.subject).toMatch(new RegExp(`^Basic Pump \\(${basic.id}\\): `));
    expect(stack.mailbox.mails.some((m) => m.raw.includes(basic.id))).toBe(false);
    expect(stack.mailbox.mails.some((m) => m.raw.includes('Basic boiler over pressure'))).toBe(false);
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
    // On a phone the header's buttons are in the Device menu.
    await page.getByRole('button', { name: 'Device menu' }).click();
    await page.getByRole('button', { name: 'Alerts' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.goto(stack.url('/account/notifications'));
    await page.locator('table.notifications-table').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
