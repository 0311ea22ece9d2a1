// The device Settings page in Chromium against the real server (issue 14; spec 2 sections 2, 3, 6,
// 8; ledger RTE-19, HDR-03, HDR-09, SUB-02, SUB-03, SUB-08, SUB-09, SUB-11, SUB-12, API-31): a config
// value changed on the page is pending (with the applied value beside it) until a simulated device,
// connected over the stack's MQTT broker, applies it; a serial capture stored as 'QVQ=' reads 'AT',
// and text typed there is sent base64-encoded; Save sends only what changed and a bad value is
// flagged before anything is sent; OPERATOR and VIEW read without Save and the server refuses their
// PUT; failed config and settings calls show the spec's texts; axe-clean at 1280 and 390 px with no
// sideways scroll.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Request } from 'playwright-core';
import {
  CONFIG_LOAD_ERROR,
  DEVICE_CONFIG_MESSAGES,
  PORTAL_SETTINGS_LOAD_ERROR,
  type DeviceConfigResponse,
} from '@portal/core';
import { startFleet, type Fleet } from '../../apps/simulator/src/index';
import { chromiumAvailable, PHONE } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, closeSuccess, seriousAxeViolations, signedInPageOf, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

describe.skipIf(!chromiumAvailable() && !required)('device Settings page', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let device: Awaited<ReturnType<Stack['provisionDevice']>>;
  let fleet: Fleet | undefined;
  const contexts: BrowserContext[] = [];
  const people = {
    USER: { email: uniqueEmail('cfg-user'), password: 'cfg-user-password-1' },
    OPERATOR: { email: uniqueEmail('cfg-operator'), password: 'cfg-operator-password-1' },
    VIEW: { email: uniqueEmail('cfg-viewer'), password: 'cfg-viewer-password-1' },
  } as const;

  const section = (page: Page, title: string) =>
    page.locator('details.cfg-section').filter({ has: page.locator('summary', { hasText: title }) });
  const field = (page: Page, key: string) => page.locator(`.cfg-field:has(#cfg-${key.replace(/\./g, '-')})`);
  const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });
  const status = (page: Page) => page.locator('.cfg-status__text');
  /** Every PUT of the device's config the page sends. */
  const putsOf = (page: Page) => {
    const seen: Request[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && new URL(r.url()).pathname === `/api/device/${device.id}/config`) seen.push(r);
    });
    return seen;
  };
  const openSettings = async (page: Page) => {
    await page.goto(stack.url(`/config/${device.id}`));
    await page.getByRole('heading', { name: 'Device settings' }).waitFor();
  };
  /**
   * axe on the device header and the settings form: on an ADMIN's page the admin settings below
   * are another feature's, checked by its own test (admin-settings.test.ts).
   */
  const axeOfSettings = async (page: Page) => [
    ...(await seriousAxeViolations(page, 'header.dp-header')),
    ...(await seriousAxeViolations(page, 'form.cfg-panel')),
  ];
  const configNow = async () => (await demo<DeviceConfigResponse>('GET', `/api/device/${device.id}/config`)).body;

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    device = await stack.provisionDevice(freshDeviceId('CFG'), 'ORB-C1', 'Config Pump');
    expect((await demo('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword })).status).toBe(
      200,
    );
    for (const [role, person] of Object.entries(people)) {
      await stack.createVerifiedUser(person.email, person.password);
      const grant = await demo('POST', `/api/device/${device.id}/user`, {
        targetEmail: person.email,
        targetPermission: role,
      });
      expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    }
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await fleet?.stop();
    await stack?.close();
  });

  it('queues a changed value, shows it pending, and applied once the simulated device has taken it', async () => {
    const page = await signedInPageOf(stack, contexts);
    const puts = putsOf(page);
    await page.goto(stack.url(`/data/${device.id}`));
    await page.getByRole('toolbar', { name: 'Device pages' }).getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL(`**/config/${device.id}`);
    await expect
      .poll(() => page.locator('nav[aria-label="Breadcrumb"] li[aria-current="page"]').innerText())
      .toBe('Settings');
    await expect.poll(() => page.title()).toBe('Portal - Config Pump: Settings');
    // The Settings button is hidden on the Settings page (HDR-09).
    expect(
      await page.getByRole('toolbar', { name: 'Device pages' }).getByRole('link', { name: 'Settings' }).count(),
    ).toBe(0);

    // The device section is open, with the device's facts and each value's type, range and unit.
    const deviceSection = section(page, 'Device');
    await deviceSection.getByText(device.id, { exact: true }).waitFor();
    expect(await deviceSection.locator('.cfg-facts').innerText()).toMatch(/ORB-C1/);
    const interval = page.getByLabel('Base interval');
    expect(await interval.inputValue()).toBe('60');
    expect(await field(page, 'device.base_interval').locator('.cfg-hint').innerText()).toBe(
      'Whole number, 1 to 86400 s',
    );
    expect(await save(page).isDisabled()).toBe(true);
    expect(await status(page).innerText()).toBe('No changes.');

    // A value out of range is flagged by its field and nothing is sent.
    await interval.fill('0');
    await field(page, 'device.base_interval').getByText('base_interval must be at least 1').waitFor();
    await save(page).click();
    expect(await status(page).innerText()).toBe('Correct the values marked in red before saving.');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('cfg-device-base_interval');
    expect(puts).toHaveLength(0);

    // Reset discards the edit; then a valid change is the only value sent.
    await page.getByRole('button', { name: 'Reset' }).click();
    expect(await interval.inputValue()).toBe('60');
    await interval.fill('120');
    expect(await status(page).innerText()).toBe('1 change not saved yet.');
    const answered = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && r.url().endsWith(`/api/device/${device.id}/config`),
    );
    await save(page).click();
    expect((await answered).status()).toBe(200);
    expect(puts.map((r) => r.postDataJSON())).toEqual([{ config: { settings: { device: { base_interval: 120 } } } }]);
    await status(page).getByText(DEVICE_CONFIG_MESSAGES.queued).waitFor();
    await closeSuccess(page, DEVICE_CONFIG_MESSAGES.queued);

    // Pending, with the applied value beside it, queued and not yet sent (the device is not connected).
    const pendingField = field(page, 'device.base_interval');
    await pendingField.locator('.cfg-tag--pending').waitFor();
    expect(await interval.inputValue()).toBe('120');
    expect(await pendingField.locator('.cfg-applied').innerText()).toBe('Applied on the device: 60 s');
    const note = page.locator('.cfg-pending-note');
    expect(await note.innerText()).toMatch(/not yet sent to the device/);
    expect(await note.innerText()).toMatch(/pushed next time the device makes contact/);
    expect(await note.locator('time').first().getAttribute('title')).toMatch(/GMT|UTC/);
    expect(await axeOfSettings(page)).toEqual([]);

    // The simulated device connects over MQTT, gets the config, applies it and acknowledges it.
    fleet = startFleet({
      devices: [{ id: device.id, key: device.deviceKey, model: 'ORB-C1' }],
      transport: 'mqtt',
      mqttUrl: stack.mqttUrl,
      httpUrl: stack.url(),
      staggerMs: 0,
    });
    const sim = fleet.devices[0]!;
    await until('the simulated device to apply base_interval 120', async () => sim.baseIntervalS === 120, 30_000);
    // The page, watching after its save, sees the device's acknowledgement.
    await status(page).getByText('The device has applied the change.').waitFor({ timeout: 30_000 });
    expect(await pendingField.locator('.cfg-tag--pending').count()).toBe(0);
    expect(await note.count()).toBe(0);
    expect(await interval.inputValue()).toBe('120');
    expect((await configNow()).pending).toBeNull();
  });

  it("shows a serial capture stored as 'QVQ=' as 'AT' and sends text typed there as base64", async () => {
    // Stored through the API and applied by the simulated device (connected since the first test).
    const put = await demo('PUT', `/api/device/${device.id}/config`, {
      config: { settings: { serial1: { capture: { start: 'QVQ=' } } } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await until('the capture start to be applied', async () => (await configNow()).pending === null, 30_000);

    const page = await signedInPageOf(stack, contexts);
    const puts = putsOf(page);
    await openSettings(page);
    const serial = section(page, 'Serial port 1');
    await serial.locator('summary').click();
    const start = serial.getByLabel('Start');
    expect(await start.inputValue()).toBe('AT');
    expect(await field(page, 'serial1.capture.start').locator('.cfg-tag--pending').count()).toBe(0);

    await serial.getByLabel('End').fill('AT');
    await serial.getByLabel('Request').fill('OK\\r\\n');
    await save(page).click();
    await status(page).getByText(DEVICE_CONFIG_MESSAGES.queued).waitFor();
    await closeSuccess(page, DEVICE_CONFIG_MESSAGES.queued);
    expect(puts.map((r) => r.postDataJSON())).toEqual([
      { config: { settings: { serial1: { capture: { end: 'QVQ=', request: 'T0sNCg==' } } } } },
    ]);
    // Shown decoded while pending, as the server keeps it.
    await field(page, 'serial1.capture.end').locator('.cfg-tag--pending').waitFor();
    expect(await serial.getByLabel('End').inputValue()).toBe('AT');
    expect(await serial.getByLabel('Request').inputValue()).toBe('OK\\r\\n');
    await until('the capture to be applied', async () => (await configNow()).pending === null, 30_000);
    expect((await configNow()).config).toMatchObject({
      settings: { serial1: { capture: { start: 'QVQ=', end: 'QVQ=', request: 'T0sNCg==' } } },
    });
  });

  it("shows the server's refusal of a change", async () => {
    const page = await signedInPageOf(stack, contexts);
    await page.route(`**/api/device/${device.id}/config`, (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({ code: 'BAD_REQUEST', message: 'config.settings.gps: refused for the test' }),
          })
        : route.fallback(),
    );
    await openSettings(page);
    const gps = section(page, 'GPS');
    await gps.locator('summary').click();
    await gps.getByLabel('Position interval').fill('5');
    await save(page).click();
    await page.getByRole('alert').filter({ hasText: 'config.settings.gps: refused for the test' }).waitFor();
    // The edit stays for another try.
    expect(await gps.getByLabel('Position interval').inputValue()).toBe('5');
    expect(await save(page).isEnabled()).toBe(true);
  });

  it('lets a USER edit, while OPERATOR and VIEW read without Save and the server refuses their change', async () => {
    const userPage = await signedInPageOf(stack, contexts, people.USER);
    await openSettings(userPage);
    await save(userPage).waitFor();
    expect(await userPage.getByLabel('Base interval').isEnabled()).toBe(true);

    for (const role of ['OPERATOR', 'VIEW'] as const) {
      const page = await signedInPageOf(stack, contexts, people[role]);
      await openSettings(page);
      expect(await page.getByLabel('Base interval').inputValue()).toBe('120');
      expect(await page.getByLabel('Base interval').isDisabled()).toBe(true);
      await page.getByText(/Read only: only the device's ADMIN and USER users change its settings/).waitFor();
      expect(await save(page).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Reset' }).count()).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);

      const api = stack.apiClient();
      expect((await api('POST', '/api/auth/login', people[role])).status).toBe(200);
      const refused = await api('PUT', `/api/device/${device.id}/config`, {
        config: { settings: { device: { base_interval: 30 } } },
      });
      expect(refused.status, role).toBe(403);
    }
    expect((await configNow()).pending).toBeNull();
    expect((await configNow()).config.settings as { device: { base_interval: number } }).toMatchObject({
      device: { base_interval: 120 },
    });
  });

  it("says 'Failed to load device configuration.' when the config call fails, and tries again on request", async () => {
    const page = await signedInPageOf(stack, contexts);
    let fail = true;
    const gets: string[] = [];
    await page.route(`**/api/device/${device.id}/config`, (route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      gets.push(fail ? 'failed' : 'answered');
      return fail
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal error"}' })
        : route.fallback();
    });
    await page.goto(stack.url(`/config/${device.id}`));
    const failure = page.getByRole('alert').filter({ hasText: CONFIG_LOAD_ERROR });
    const tryAgain = failure.getByRole('button', { name: 'Try again' });
    await failure.waitFor();
    expect(await page.getByLabel('Base interval').count()).toBe(0);
    expect(await seriousAxeViolations(page, 'section.cfg-state')).toEqual([]);
    // Every reader of the config has had its answer (the admin settings below read it too).
    await page.getByRole('heading', { name: 'Admin settings' }).waitFor();
    await expect.poll(() => tryAgain.isEnabled(), { timeout: 10_000 }).toBe(true);
    // Try again asks again, and says it again while the call still fails.
    const before = gets.length;
    await tryAgain.click();
    await expect.poll(() => gets.length).toBeGreaterThan(before);
    // A failed call is tried once more after a pause before the page says so again.
    await expect.poll(() => tryAgain.isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(gets.every((g) => g === 'failed')).toBe(true);
    // Once the call answers, the form shows.
    fail = false;
    await tryAgain.click();
    await page.getByLabel('Base interval').waitFor();
    expect(gets.at(-1)).toBe('answered');
  });

  it("says 'Failed to load Portal settings for this device.' when the settings call fails", async () => {
    const page = await signedInPageOf(stack, contexts);
    await page.route(`**/api/device/${device.id}/settings`, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal error"}' }),
    );
    await page.goto(stack.url(`/config/${device.id}`));
    await page.getByRole('alert').filter({ hasText: PORTAL_SETTINGS_LOAD_ERROR }).waitFor();
    expect(await page.getByLabel('Base interval').count()).toBe(0);
  });

  it('fits a phone with every section open: no sideways scroll, axe-clean', async () => {
    const page = await signedInPageOf(stack, contexts, DEMO, { viewport: PHONE });
    await openSettings(page);
    const summaries = page.locator('details.cfg-section:not([open]) > summary');
    while ((await summaries.count()) > 0) await summaries.first().click();
    // Keyboard: a section closes and opens again from its summary.
    const gpsSummary = section(page, 'GPS').locator('summary');
    await gpsSummary.focus();
    await page.keyboard.press('Enter');
    expect(await section(page, 'GPS').getAttribute('open')).toBeNull();
    await page.keyboard.press('Enter');
    expect(await section(page, 'GPS').getAttribute('open')).toBe('');
    expect(await section(page, 'Inputs and IO channels').locator('fieldset.cfg-group').count()).toBe(30);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // Inputs take their field's whole width.
    const input = await page.getByLabel('Base interval').boundingBox();
    const row = await field(page, 'device.base_interval').boundingBox();
    expect(input!.width).toBeGreaterThanOrEqual(row!.width - 1);
    expect(row!.width).toBeGreaterThan(PHONE.width / 2);
    expect(await axeOfSettings(page)).toEqual([]);
  });
});
