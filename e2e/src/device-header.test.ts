// The device pages' header and the Data page's section index in Chromium against the real server (issue 32):
// the page shown marked among the header's buttons (aria-current and its own style), the contact status and last
// data on every device page, the section index that jumps, folds and remembers, and ledger rows built but not yet
// checked: HDR-02, HDR-10, HDR-12, CARD-05, CARD-09, CARD-24, ERR-09 and PLAN-12.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { MISSING_VALUE, type DeviceConfigResponse } from '@portal/core';
import { startFleet, type Fleet } from '../../apps/simulator/src/index';
import { DESKTOP, PHONE, chromiumAvailable } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, expectPath, pathOf, seriousAxeViolations, signedInPageOf, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

/** Seconds between the simulated device's records. */
const SIM_INTERVAL_S = 3;

type Device = Awaited<ReturnType<Stack['provisionDevice']>>;

describe.skipIf(!chromiumAvailable() && !required)('device pages: header, section index (issue 32)', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let fleet: Fleet | undefined;
  /** Simulated: a record every SIM_INTERVAL_S seconds. */
  let live: Device;
  /** Two records published here and no events; shared with an OPERATOR and a VIEW user. */
  let quiet: Device;
  const operator = { email: uniqueEmail('hdr-operator'), password: 'operator-password-1' };
  const viewer = { email: uniqueEmail('hdr-viewer'), password: 'viewer-password-1' };
  const contexts: BrowserContext[] = [];

  const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Device pages' });
  const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Breadcrumb' }).locator('li');
  const statusText = async (page: Page) => (await page.locator('.dp-status').innerText()).replace(/\s+/g, ' ');
  const sectionsButton = (page: Page) => page.getByRole('button', { name: 'Sections', exact: true });
  const sectionsList = (page: Page) => page.getByRole('navigation', { name: 'Sections of this page' });
  const toggles = (page: Page) => page.locator('.dp-readings .dp-section-toggle');
  const card = (page: Page, key: string): Locator =>
    page.locator('section.dp-reading').filter({ has: page.locator(`h3.dp-card-title[title="${key}"]`) });

  async function openData(page: Page, device: Device): Promise<void> {
    await page.goto(stack.url(`/data/${device.id}`));
    await page.locator('section.dp-reading').first().waitFor();
  }

  /** Waits for the sub-page of `path` to show its header, its content loaded behind it. */
  async function openSubPage(page: Page, path: string, name: string): Promise<void> {
    await page.goto(stack.url(path));
    await crumbs(page).nth(2).getByText(name, { exact: true }).waitFor();
  }

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    const login = await demo('POST', '/api/auth/login', DEMO);
    if (login.status !== 200) throw new Error(`demo sign-in failed: ${JSON.stringify(login)}`);
    live = await stack.provisionDevice(freshDeviceId('HDL'), 'ORB-C1', 'Header Pump');
    quiet = await stack.provisionDevice(freshDeviceId('HDQ'), 'ORB-C1', 'Quiet Pump');
    for (const device of [live, quiet]) {
      const claim = await demo('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword });
      if (claim.status !== 200) throw new Error(`adding ${device.id} failed: ${JSON.stringify(claim)}`);
    }
    for (const [user, role] of [
      [operator, 'OPERATOR'],
      [viewer, 'VIEW'],
    ] as const) {
      await stack.createVerifiedUser(user.email, user.password);
      const grant = await demo('POST', `/api/device/${quiet.id}/user`, {
        targetEmail: user.email,
        targetPermission: role,
      });
      if (grant.status !== 200) throw new Error(`granting ${role} failed: ${JSON.stringify(grant)}`);
    }
    // The quiet device: batt and ambient_hum only in the older record, so both are stale in the newer one.
    const now = Date.now() / 1000;
    await stack.publish(quiet, [
      { ts: now - 20, vsys: 12.1, batt: 4.1, ambient_hum: 55 },
      { ts: now - 10, vsys: 12.2 },
    ]);
    const settings = await demo('PUT', `/api/device/${quiet.id}/settings`, {
      PORTAL_displaySettings: {
        batt: { showLastReading: false },
        chart2: { name: 'Supply Trend', series: [{ source: quiet.id, key: 'vsys' }] },
      },
    });
    if (settings.status !== 200) throw new Error(`display settings failed: ${JSON.stringify(settings)}`);

    fleet = startFleet({
      devices: [{ id: live.id, key: live.deviceKey, model: 'ORB-C1' }],
      transport: 'mqtt',
      mqttUrl: stack.mqttUrl,
      httpUrl: stack.url(),
      baseInterval: SIM_INTERVAL_S,
      staggerMs: 0,
    });
    const sim = fleet;
    await until('the simulated device to publish', async () => sim.devices.every((d) => d.stats.records >= 1));
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await fleet?.stop();
    await stack?.close();
  });

  it('marks the page shown among the header buttons and shows the contact status on every device page (HDR-02, HDR-10)', async () => {
    const page = await signedInPageOf(stack, contexts, DEMO);
    await openData(page, live);
    // The Data page: the name crumb is plain text (HDR-02), no header button is marked, Raw Data is offered (HDR-10).
    expect(await crumbs(page).nth(1).locator('a').count()).toBe(0);
    expect(await toolbar(page).locator('[aria-current]').count()).toBe(0);
    expect(await toolbar(page).getByRole('link', { name: 'Raw Data', exact: true }).count()).toBe(1);
    await expect.poll(() => statusText(page)).toMatch(/Online · last data \d+ seconds? ago/);

    const pages: [path: string, name: string, button: string | null][] = [
      [`/raw/${live.id}`, 'Raw Data', null],
      [`/diag/${live.id}`, 'Diagnostics', 'Diagnostics'],
      [`/serverlog/${live.id}`, 'Server Log', 'Server Log'],
      [`/script/${live.id}`, 'Scripting', 'Scripting'],
      [`/config/${live.id}`, 'Settings', null],
      [`/users/${live.id}`, 'Users and Permissions', null],
    ];
    for (const [path, name, button] of pages) {
      await openSubPage(page, path, name);
      // HDR-02: the name crumb links to the Data page.
      expect(await crumbs(page).nth(1).getByRole('link', { name: 'Header Pump' }).getAttribute('href'), path).toBe(
        `/data/${live.id}`,
      );
      // HDR-10: Raw Data is not offered on Raw Data, and is everywhere else.
      expect(await toolbar(page).getByRole('link', { name: 'Raw Data', exact: true }).count(), path).toBe(
        name === 'Raw Data' ? 0 : 1,
      );
      // The contact status and last data, as on the Data page.
      await expect.poll(() => statusText(page), { message: path }).toMatch(/Online · last data \d+ seconds? ago/);
      // The page's own button (where the header has one) is marked, and looks it: no other button is.
      const marked = toolbar(page).locator('[aria-current="page"]');
      expect(await marked.count(), path).toBe(button === null ? 0 : 1);
      if (button !== null) {
        expect((await marked.innerText()).trim()).toBe(button);
        const other = toolbar(page).getByRole('link', { name: button === 'Scripting' ? 'Diagnostics' : 'Scripting' });
        const look = (l: Locator) =>
          l.evaluate((el) => {
            const s = getComputedStyle(el);
            return `${s.backgroundColor} ${s.borderTopColor} ${s.boxShadow}`;
          });
        expect(await look(marked)).not.toBe(await look(other));
      }
    }
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('makes the permission button inert for OPERATOR and VIEW users: a click goes nowhere (HDR-12)', async () => {
    for (const [user, role] of [
      [operator, 'OPERATOR'],
      [viewer, 'VIEW'],
    ] as const) {
      const page = await signedInPageOf(stack, contexts, user);
      await openData(page, quiet);
      const permission = toolbar(page).locator('.dp-permission');
      expect((await permission.innerText()).trim(), role).toBe(role);
      expect(await permission.getAttribute('href'), role).toBeNull();
      expect(await permission.getAttribute('aria-disabled'), role).toBe('true');
      // A real click on it (aria-disabled: the browser test's click would otherwise wait for it to be enabled).
      await permission.click({ force: true });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
      expect(pathOf(page), role).toBe(`/data/${quiet.id}`);
    }
    // An ADMIN's goes to the device's users.
    const admin = await signedInPageOf(stack, contexts, DEMO);
    await openData(admin, quiet);
    await toolbar(admin).getByRole('link', { name: 'ADMIN', exact: true }).click();
    await expectPath(admin, `/users/${quiet.id}`);
  });

  it("shows 'No Events', 17rem cards, a stale key without its last reading when showLastReading is off, and a chart's eye (ERR-09, CARD-09, CARD-24, CARD-05)", async () => {
    const page = await signedInPageOf(stack, contexts, DEMO, { viewport: DESKTOP });
    await openData(page, quiet);
    // ERR-09: a device without events.
    await page.locator('#dp-events').getByText('No Events', { exact: true }).waitFor();
    // CARD-09: every card is at least 17rem (16 px to the rem).
    const heights = await page
      .locator('section.dp-reading')
      .evaluateAll((els) => els.map((el) => getComputedStyle(el).minHeight));
    expect(heights.length).toBe(3);
    expect(new Set(heights)).toEqual(new Set(['272px']));
    // CARD-24: batt (showLastReading false) shows as missing; ambient_hum (the default) keeps its last known value.
    expect((await card(page, 'batt').locator('.dp-value--missing').innerText()).trim()).toBe(MISSING_VALUE.text);
    expect((await card(page, 'ambient_hum').locator('.dp-value-text').innerText()).trim()).toMatch(/^55(\.0+)?$/);
    expect(await card(page, 'ambient_hum').getAttribute('class')).toContain('dp-reading--stale');
    // CARD-05: the eye on chart2 goes to its page.
    const chart = page.locator('section.dc-card[aria-label="Supply Trend"]');
    await chart.getByRole('link', { name: 'Open chart Supply Trend' }).click();
    await expectPath(page, `/chart/${quiet.id}/chart2`);
  });

  it('gives the Data page a section index: readings first, jumps to a section, folds all and remembers it, by keyboard too', async () => {
    const page = await signedInPageOf(stack, contexts, DEMO, { viewport: DESKTOP });
    await openData(page, live);
    await page.locator('#dp-map').waitFor();
    // The bar sits between the timeline and the readings; the first card is still whole on the first screen.
    const bar = (await page.locator('.dp-index').boundingBox())!;
    const timeline = (await page.getByRole('group', { name: 'Timeline' }).boundingBox())!;
    const first = (await page.locator('section.dp-reading').first().boundingBox())!;
    expect(bar.y).toBeGreaterThan(timeline.y + timeline.height - 1);
    expect(first.y).toBeGreaterThan(bar.y + bar.height);
    expect(first.y + first.height).toBeLessThanOrEqual(DESKTOP.height);

    // The list: every reading section in page order, then the other cards, Events and Map among them
    // (the widget and chart cards come with their own code: the list is read once they are there).
    for (const id of ['dp-widgets', 'dp-charts', 'dp-events', 'dp-map', 'dp-commands']) {
      await page.locator(`#${id}`).waitFor({ state: 'attached' });
    }
    await sectionsButton(page).click();
    expect(await sectionsButton(page).getAttribute('aria-expanded')).toBe('true');
    const names = (await sectionsList(page).locator('.dp-index-label').allInnerTexts()).map((t) => t.trim());
    const headings = (await page.locator('.dp-readings .dp-section-name').allInnerTexts()).map((t) => t.trim());
    expect(names.slice(0, headings.length)).toEqual(headings);
    const more = names.slice(headings.length);
    for (const name of ['Widgets', 'Charts', 'Events', 'Map', 'Command queue']) expect(more, name).toContain(name);
    expect(more.indexOf('Events')).toBeLessThan(more.indexOf('Map'));

    // A jump: Events' heading has the focus, in sight under the bar, which stays under the navigation bar.
    await sectionsList(page).getByRole('link', { name: 'Events' }).click();
    expect(await sectionsButton(page).getAttribute('aria-expanded')).toBe('false');
    const events = page.locator('#dp-events h2');
    expect(await events.evaluate((el) => el === document.activeElement)).toBe(true);
    const stuck = (await page.locator('.dp-index').boundingBox())!;
    const heading = (await events.boundingBox())!;
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    expect(heading.y).toBeGreaterThanOrEqual(stuck.y + stuck.height);
    expect(heading.y + heading.height).toBeLessThanOrEqual(DESKTOP.height);

    // Fold all readings: every section folds, and stays folded after a reload.
    const tall = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.getByRole('button', { name: 'Fold all readings' }).click();
    await expect
      .poll(() => toggles(page).evaluateAll((els) => els.map((el) => el.getAttribute('aria-expanded'))))
      .toEqual(headings.map(() => 'false'));
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(tall - 1000);
    await page.reload();
    // Polled: the sections come with the latest values, a moment after the first one is drawn.
    await expect
      .poll(() => toggles(page).evaluateAll((els) => els.map((el) => el.getAttribute('aria-expanded'))))
      .toEqual(headings.map(() => 'false'));
    await page.getByRole('button', { name: 'Open all readings' }).waitFor();

    // By keyboard: the button opens the list, Tab reaches the first section, Enter jumps there and opens it.
    await sectionsButton(page).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const firstLink = sectionsList(page).getByRole('link').first();
    expect(await firstLink.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await firstLink.innerText()).toContain('folded');
    await page.keyboard.press('Enter');
    const firstToggle = toggles(page).first();
    await expect.poll(() => firstToggle.getAttribute('aria-expanded')).toBe('true');
    expect(await firstToggle.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.locator('section.dp-reading').first().isVisible()).toBe(true);
    // The others stay folded, and the button folds again while any is open; once all are folded it opens them
    // all, which leaves nothing folded after a reload.
    expect(await toggles(page).nth(1).getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('button', { name: 'Fold all readings' }).click();
    await page.getByRole('button', { name: 'Open all readings' }).click();
    await page.reload();
    await page.locator('section.dp-reading').first().waitFor();
    expect(
      await toggles(page).evaluateAll((els) => els.every((el) => el.getAttribute('aria-expanded') === 'true')),
    ).toBe(true);
  });

  it('keeps the section index on a phone in one row without sideways scroll; its list closes on Escape; axe-clean', async () => {
    const page = await signedInPageOf(stack, contexts, DEMO, { viewport: PHONE });
    await openData(page, live);
    await page.locator('#dp-map').waitFor();
    const bar = (await page.locator('.dp-index').boundingBox())!;
    expect(bar.height).toBeLessThan(60);
    const first = (await page.locator('section.dp-reading').first().boundingBox())!;
    expect(first.y + first.height).toBeLessThanOrEqual(PHONE.height);

    await sectionsButton(page).click();
    await sectionsList(page).getByRole('link', { name: 'Map' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const list = (await sectionsList(page).boundingBox())!;
    expect(list.x).toBeGreaterThanOrEqual(0);
    expect(list.x + list.width).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await sectionsList(page).getByRole('link').first().focus();
    await page.keyboard.press('Escape');
    expect(await sectionsButton(page).getAttribute('aria-expanded')).toBe('false');
    expect(await sectionsButton(page).evaluate((el) => el === document.activeElement)).toBe(true);

    await sectionsButton(page).click();
    await sectionsList(page).getByRole('link', { name: 'Map' }).click();
    const map = (await page.locator('#dp-map h2').boundingBox())!;
    expect(map.y).toBeGreaterThanOrEqual(0);
    expect(map.y).toBeLessThan(PHONE.height);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
  it('shows the banner once the device applies a config with endpoint.data_to_portal off, on every device page (PLAN-12)', async () => {
    const banner = (page: Page) => page.getByText(/set not to send data to the portal/);
    const page = await signedInPageOf(stack, contexts, DEMO);
    await openData(page, live);
    expect(await banner(page).count()).toBe(0);

    const put = await demo('PUT', `/api/device/${live.id}/config`, {
      config: { settings: { device: { base_interval: SIM_INTERVAL_S }, endpoint: { data_to_portal: false } } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await until(
      'the device to apply its config',
      async () => (await demo<DeviceConfigResponse>('GET', `/api/device/${live.id}/config`)).body.pending === null,
      30_000,
    );
    await openData(page, live);
    await banner(page).waitFor();
    await openSubPage(page, `/diag/${live.id}`, 'Diagnostics');
    await banner(page).waitFor();
  });
});
