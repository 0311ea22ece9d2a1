// The device's Server Log page in Chromium against the real server (issue 14; spec 2 sections 2 and 6;
// ledger RTE-23, HDR-08, SUB-25, SUB-26, API-28): a device of the demo account whose records with a
// bad key (through the embedded MQTT broker) and a config change (through the API) wrote its log;
// newest first, 50 a page with the older ones on request, a kind at a time, exported as CSV as
// shown; a USER of the device is refused (the page says so and the server answers 403); a Basic-plan
// device's log is unavailable with the way to plans; axe-clean, and no sideways scroll at 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumAvailable, PHONE } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, parseCsv, seriousAxeViolations, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
/** Records with a bad key: each writes a 'dropped' line. */
const DROPPED = 55;

describe.skipIf(!chromiumAvailable() && !required)('device Server Log page', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let deviceid: string;
  const contexts: BrowserContext[] = [];
  const user = { email: uniqueEmail('log-user'), password: 'log-user-password-1' };

  const rows = (page: Page) => page.locator('table.sl-table tbody tr');

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    const device = await stack.provisionDevice(freshDeviceId('LOG'), 'ORB-C1', 'Log Pump');
    deviceid = device.id;
    expect((await demo('POST', `/api/device/${deviceid}/user`, { setupPassword: device.setupPassword })).status).toBe(
      200,
    );
    const t0 = Math.floor(Date.now() / 1000) - 3600;
    await stack.publish(
      device,
      Array.from({ length: DROPPED }, (_, i) => ({ ts: t0 + i * 60, vsys: 12, 'bad key!': i })),
    );
    const change = await demo('PUT', `/api/device/${deviceid}/config`, {
      config: { settings: { device: { base_interval: 120 } } },
    });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    // A USER of the device (not an ADMIN).
    await stack.createVerifiedUser(user.email, user.password);
    const grant = await demo('POST', `/api/device/${deviceid}/user`, {
      targetEmail: user.email,
      targetPermission: 'USER',
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('shows the log newest first, 50 at a time with the older ones on request, from the header button', async () => {
    const page = await signedInPageOf(stack, contexts);
    await page.goto(stack.url(`/data/${deviceid}`));
    await page.getByRole('toolbar', { name: 'Device pages' }).getByRole('link', { name: 'Server Log' }).click();
    await page.waitForURL(`**/serverlog/${deviceid}`);
    await expect
      .poll(() => page.locator('nav[aria-label="Breadcrumb"] li[aria-current="page"]').innerText())
      .toBe('Server Log');
    await expect.poll(() => page.title()).toBe('Portal - Log Pump: Server Log');

    // The whole log as the API answers it (the device's connections are logged too).
    const all = await demo<{ entries: { id: number }[] }>('GET', `/api/device/${deviceid}/serverlog?dataPoints=1000`);
    const total = all.body.entries.length;
    expect(total).toBeGreaterThan(DROPPED + 1);
    await expect.poll(() => rows(page).count()).toBe(50);
    expect(await page.locator('.sl-count').innerText()).toBe('50 entries shown, older ones below');
    // The time carries its UTC offset on hover.
    expect(await rows(page).first().locator('time').getAttribute('title')).toMatch(/GMT|UTC/);

    await page.getByRole('button', { name: /^Older entries/ }).click();
    await expect.poll(() => rows(page).count()).toBe(total);
    expect(await page.getByRole('button', { name: /^Older entries/ }).count()).toBe(0);
    expect(await page.locator('.sl-count').innerText()).toBe(`${total} entries`);
    // Newest first, every dropped record once, and the config change made after them above them.
    const times = await rows(page)
      .locator('time')
      .evaluateAll((els) => els.map((e) => e.getAttribute('datetime') ?? ''));
    expect([...times].sort().reverse()).toEqual(times);
    const messages = await rows(page).locator('td:nth-child(3)').allInnerTexts();
    const dropped = messages.filter((m) => m.startsWith('Record '));
    expect(dropped).toHaveLength(DROPPED);
    expect(new Set(dropped).size).toBe(DROPPED);
    const config = messages.findIndex((m) => m.startsWith('Config change queued by demo@portal.local'));
    expect(config).toBeGreaterThanOrEqual(0);
    expect(config).toBeLessThan(messages.indexOf(dropped[0]!));
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('filters by kind and exports what it shows as CSV', async () => {
    const page = await signedInPageOf(stack, contexts, DEMO, { context: { acceptDownloads: true } });
    await page.goto(stack.url(`/serverlog/${deviceid}`));
    await expect.poll(() => rows(page).count()).toBe(50);
    await page.locator('.sl-filter .p-dropdown').click();
    const options = page.locator('.p-dropdown-panel .p-dropdown-item');
    const kinds = await options.allInnerTexts();
    expect(kinds[0]).toBe('All kinds');
    expect(kinds).toEqual(expect.arrayContaining(['config', 'dropped']));
    expect(kinds.slice(1)).toEqual([...kinds.slice(1)].sort());
    await options.filter({ hasText: /^config$/ }).click();
    // What the API answers for the kind (the config sent on connecting is logged as well).
    const config = await demo<{ entries: { kind: string; message: string }[] }>(
      'GET',
      `/api/device/${deviceid}/serverlog?kind=config`,
    );
    const count = config.body.entries.length;
    expect(config.body.entries.every((e) => e.kind === 'config')).toBe(true);
    await expect.poll(() => rows(page).count()).toBe(count);
    expect(await page.locator('.sl-count').innerText()).toBe(count === 1 ? '1 entry' : `${count} entries`);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Log Pump-server-log-config.csv');
    const csv = parseCsv(readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, ''));
    expect(csv[0]).toEqual(['Time', 'Kind', 'Message']);
    expect(csv.slice(1).map((r) => r.slice(1))).toEqual(config.body.entries.map((e) => ['config', e.message]));
    for (const row of csv.slice(1)) expect(row[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(csv.some((r) => r[2] === 'Config change queued by demo@portal.local: device')).toBe(true);
  });

  it('fits a phone: no sideways scroll, axe-clean', async () => {
    const page = await signedInPageOf(stack, contexts, DEMO, { viewport: PHONE });
    await page.goto(stack.url(`/serverlog/${deviceid}`));
    await expect.poll(() => rows(page).count()).toBe(50);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('refuses a USER of the device: the page says why and the server answers 403', async () => {
    const page = await signedInPageOf(stack, contexts, user);
    const answer = page.waitForResponse((r) => r.url().includes(`/api/device/${deviceid}/serverlog`));
    await page.goto(stack.url(`/serverlog/${deviceid}`));
    expect((await answer).status()).toBe(403);
    const refusal = page.getByRole('alert').filter({ hasText: 'You do not have permission to do this.' });
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain("Only the device's administrators read its server log.");
    expect(await rows(page).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it("says a Basic-plan device's log is unavailable, with the way to plans", async () => {
    const device = await stack.provisionDevice(freshDeviceId('LGB'), 'ORB-C1', 'Basic Pump');
    expect((await demo('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword })).status).toBe(
      200,
    );
    await stack.ageDevice(device.id, 91);
    const page = await signedInPageOf(stack, contexts);
    await page.goto(stack.url(`/serverlog/${device.id}`));
    const refusal = page.getByRole('alert').filter({ hasText: 'The server log is unavailable on the Basic Plan' });
    await refusal.waitFor();
    await refusal.getByRole('link', { name: 'See plans' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
