// The Data page's layout in Chromium against the real server, with simulated devices publishing over MQTT to the
// stack's broker (UI.md 'Device page', DESIGN.md section 5, issue 15): readings on the first screen at 1280 x 800
// and 390 x 844, cards in labelled sections (a groupKey set through the Display Settings dialog moves a card into
// its section), sections that fold and stay folded, the header's buttons folded into a menu on a phone, and a
// 49-key QUAD device's page on a phone far shorter than the 15,777 px of one full-size card a row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import {
  RECORD_STRUCTURED_KEYS,
  cardSections,
  type DeviceConfigResponse,
  type DeviceSettingsResponse,
} from '@portal/core';
import { startFleet, type Fleet } from '../../apps/simulator/src/index';
import { DEMO_CUSTOM_SETTINGS, DEMO_DISPLAY_SETTINGS, DEMO_TRIGGERS } from '../../scripts/demo-fleet';
import { DESKTOP, PHONE, chromiumAvailable } from './browser';
import { freshDeviceId, startStack, type Stack } from './harness';
import { DEMO, closeSuccess, seriousAxeViolations, signedInPageOf, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

/** Seconds between the simulated devices' records. */
const SIM_INTERVAL_S = 3;
/** The cards a QUAD-C2 shows (apps/simulator/src/models.ts). */
const QUAD_KEYS = 49;
/** The QUAD's page on a phone before sections and compact cards (issue 15). */
const OLD_PHONE_HEIGHT_PX = 15_777;
/** What the QUAD's page on a phone must stay under: a little over half the old height. */
const PHONE_HEIGHT_LIMIT_PX = 9_000;

type Device = Awaited<ReturnType<Stack['provisionDevice']>>;
type Viewport = typeof DESKTOP;
interface DataAnswer {
  data: Record<string, { v: unknown; ts: number }[]>;
}

describe.skipIf(!chromiumAvailable() && !required)('Data page layout: readings first, in sections', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let fleet: Fleet | undefined;
  /** An ORB-C1 presented as the demo fleet presents it: display settings, triggers, custom settings. */
  let orb: Device;
  /** A QUAD-C2: 49 keys, no display settings. */
  let quad: Device;
  const contexts: BrowserContext[] = [];

  const pageAt = (viewport: Viewport) => signedInPageOf(stack, contexts, DEMO, { viewport });

  /** The keys the page shows cards for: what the data call gives, less the structured keys. */
  async function cardKeys(device: Device): Promise<string[]> {
    const data = await demo<DataAnswer>('GET', `/api/device/${device.id}/data?dataPoints=5`);
    expect(data.status).toBe(200);
    return Object.keys(data.body.data).filter((k) => !(RECORD_STRUCTURED_KEYS as readonly string[]).includes(k));
  }

  async function displaySettingsOf(device: Device): Promise<Record<string, unknown>> {
    const got = await demo<DeviceSettingsResponse>('GET', `/api/device/${device.id}/settings`);
    expect(got.status).toBe(200);
    return got.body.deviceSettings.PORTAL_displaySettings;
  }

  async function openData(page: Page, device: Device): Promise<void> {
    await page.goto(stack.url(`/data/${device.id}`));
    await page.locator('section.dp-reading').first().waitFor();
  }

  const section = (page: Page, name: string): Locator =>
    page.locator('section.dp-section').filter({ has: page.getByRole('heading', { level: 2, name, exact: true }) });
  const cardTitles = (scope: Locator) =>
    scope.locator('section.dp-reading .dp-card-title').evaluateAll((els) => els.map((e) => e.getAttribute('title')));
  const sectionNames = (page: Page) =>
    page.locator('.dp-readings .dp-section-title').evaluateAll((els) => els.map((e) => e.textContent?.trim() ?? ''));
  // The count beside a name is decoration (aria-hidden): headings are named by the section alone.
  const namesOnly = (texts: string[]) => texts.map((t) => t.replace(/\d+$/, '').trim());

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    const login = await demo('POST', '/api/auth/login', DEMO);
    if (login.status !== 200) throw new Error(`demo sign-in failed: ${JSON.stringify(login)}`);
    orb = await stack.provisionDevice(freshDeviceId('LYO'), 'ORB-C1', 'Layout Pump');
    quad = await stack.provisionDevice(freshDeviceId('LYQ'), 'QUAD-C2', 'Layout Excavator');
    for (const device of [orb, quad]) {
      const claim = await demo('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword });
      if (claim.status !== 200) throw new Error(`adding ${device.id} failed: ${JSON.stringify(claim)}`);
    }
    fleet = startFleet({
      devices: [
        { id: orb.id, key: orb.deviceKey, model: 'ORB-C1' },
        { id: quad.id, key: quad.deviceKey, model: 'QUAD-C2' },
      ],
      transport: 'mqtt',
      mqttUrl: stack.mqttUrl,
      httpUrl: stack.url(),
      baseInterval: SIM_INTERVAL_S,
      staggerMs: 500,
    });
    // The ORB as the demo fleet presents it: the demo's display settings, trigger buttons and custom
    // settings, applied by the simulated device itself.
    const settings = await demo('PUT', `/api/device/${orb.id}/settings`, {
      PORTAL_displaySettings: DEMO_DISPLAY_SETTINGS,
    });
    if (settings.status !== 200) throw new Error(`display settings failed: ${JSON.stringify(settings)}`);
    const put = await demo('PUT', `/api/device/${orb.id}/config`, {
      config: {
        settings: {
          device: { base_interval: SIM_INTERVAL_S, transmit_interval: 1 },
          script: { triggers: DEMO_TRIGGERS, ...DEMO_CUSTOM_SETTINGS },
        },
      },
    });
    if (put.status !== 200) throw new Error(`config change failed: ${JSON.stringify(put)}`);
    await until(
      'the ORB to apply its config',
      async () => (await demo<DeviceConfigResponse>('GET', `/api/device/${orb.id}/config`)).body.pending === null,
      30_000,
    );
    await until('the QUAD to send its 49 keys', async () => (await cardKeys(quad)).length >= QUAD_KEYS, 30_000);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await fleet?.stop();
    await stack?.close();
  });

  describe.each([
    ['1280 x 800', DESKTOP],
    ['390 x 844', PHONE],
  ] as const)('the first screen at %s', (_name, viewport) => {
    it.each([
      ['a demo-like ORB', () => orb],
      ['a 49-key QUAD', () => quad],
    ] as const)('holds readings for %s, below the header band and the timeline bar', async (_label, device) => {
      const page = await pageAt(viewport);
      await openData(page, device());
      const first = await page.locator('section.dp-reading').first().boundingBox();
      const timeline = await page.getByRole('group', { name: 'Timeline' }).boundingBox();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(first).not.toBeNull();
      expect(timeline).not.toBeNull();
      // The whole card is in view on load, under the timeline bar.
      expect(first!.y).toBeGreaterThanOrEqual(timeline!.y + timeline!.height);
      expect(first!.y + first!.height).toBeLessThanOrEqual(viewport.height);
      expect(first!.x).toBeGreaterThanOrEqual(0);
      expect(first!.x + first!.width).toBeLessThanOrEqual(viewport.width);
      // The app's authored cards (widget cards, custom charts), events and the map come after every reading.
      const lastReading = await page.locator('section.dp-reading').last().boundingBox();
      const after = [page.getByRole('heading', { level: 2, name: 'Events', exact: true })];
      after.push(page.getByRole('heading', { level: 2, name: 'Map', exact: true }), page.locator('.dp-authored'));
      for (const locator of after) {
        if ((await locator.count()) === 0) continue; // no authored cards for this user
        const box = await locator.boundingBox();
        expect(box!.y, String(locator)).toBeGreaterThan(lastReading!.y + lastReading!.height);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    });
  });

  it("shows the QUAD's cards in the catalogue's sections, named, in core's order, every card once", async () => {
    const page = await pageAt(DESKTOP);
    await openData(page, quad);
    const keys = await cardKeys(quad);
    const expected = cardSections(keys, await displaySettingsOf(quad));
    await expect.poll(async () => page.locator('section.dp-reading').count()).toBe(keys.length);
    expect(namesOnly(await sectionNames(page))).toEqual(expected.map((s) => s.name));
    expect(expected.map((s) => s.name)).toEqual(['Power', 'Sensors', 'Inputs', 'Hours', 'Custom', 'GPS', 'Device']);
    for (const s of expected) expect(await cardTitles(section(page, s.name)), s.name).toEqual(s.keys);
    // Section headings are level 2 and the cards' level 3, under the device's level-1 name.
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await page.locator('section.dp-reading h3.dp-card-title').count()).toBe(keys.length);
  });

  it('moves a card into the section its groupKey names, set through the Display Settings dialog, and back', async () => {
    const page = await pageAt(DESKTOP);
    await openData(page, orb);
    await section(page, 'Inputs').waitFor();
    expect(await cardTitles(section(page, 'Inputs'))).toContain('analog1');
    expect(await section(page, 'Hydraulics').count()).toBe(0);

    await page.getByRole('button', { name: 'Display settings of Analog Input 1' }).click();
    const dialog = page.getByRole('dialog').and(page.locator('.dp-dialog'));
    const field = dialog.getByLabel('Section', { exact: true });
    await field.waitFor();
    // Empty: the card sits in its catalogue section, which the field says; the page's sections are suggested.
    expect(await field.inputValue()).toBe('');
    expect(await field.getAttribute('placeholder')).toBe('Inputs');
    const suggested = await dialog
      .locator(`datalist#${await field.getAttribute('list')} option`)
      .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
    expect(suggested).toEqual(expect.arrayContaining(['Power', 'Inputs', 'GPS']));
    expect(suggested).not.toContain('Other');
    await field.fill('Hydraulics');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await closeSuccess(page, 'Display settings saved.');

    // A user's section comes before the catalogue's, with its card, and the server holds the groupKey.
    await section(page, 'Hydraulics').waitFor();
    expect(await cardTitles(section(page, 'Hydraulics'))).toEqual(['analog1']);
    expect(await cardTitles(section(page, 'Inputs'))).not.toContain('analog1');
    expect(namesOnly(await sectionNames(page))[0]).toBe('Hydraulics');
    const saved = (await displaySettingsOf(orb)).analog1 as { groupKey?: string };
    expect(saved.groupKey).toBe('Hydraulics');

    // A second card joins it by choosing the suggestion's name.
    await page.getByRole('button', { name: 'Display settings of Analog Input 2' }).click();
    await dialog.getByLabel('Section', { exact: true }).fill('Hydraulics');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await closeSuccess(page, 'Display settings saved.');
    await expect.poll(() => cardTitles(section(page, 'Hydraulics'))).toEqual(['analog1', 'analog2']);

    // Cleared, the cards go back to Inputs and the section goes.
    for (const name of ['Analog Input 1', 'Analog Input 2']) {
      await page.getByRole('button', { name: `Display settings of ${name}` }).click();
      await dialog.getByLabel('Section', { exact: true }).fill('');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await closeSuccess(page, 'Display settings saved.');
    }
    await section(page, 'Hydraulics').waitFor({ state: 'detached' });
    expect(await cardTitles(section(page, 'Inputs'))).toEqual(expect.arrayContaining(['analog1', 'analog2']));
    expect((await displaySettingsOf(orb)).analog1).not.toHaveProperty('groupKey');
  });

  it("keeps the QUAD's page on a phone far shorter than one full-size card a row, and reports its height", async () => {
    const page = await pageAt(PHONE);
    await openData(page, quad);
    await expect.poll(async () => page.locator('section.dp-reading').count()).toBe(QUAD_KEYS);
    await page.locator('.leaflet-container').waitFor();
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    console.log(
      `Data page of a ${QUAD_KEYS}-key QUAD-C2 at ${PHONE.width} x ${PHONE.height}: ${height} px tall ` +
        `(${OLD_PHONE_HEIGHT_PX} px before sections and compact cards)`,
    );
    expect(height).toBeLessThan(PHONE_HEIGHT_LIMIT_PX);
    // Two cards a row: the second card of a full row sits beside the first.
    const [a, b] = await Promise.all(
      [0, 1].map((i) => section(page, 'Inputs').locator('section.dp-reading').nth(i).boundingBox()),
    );
    expect(Math.abs(a!.y - b!.y)).toBeLessThan(1);
    expect(b!.x).toBeGreaterThan(a!.x + a!.width);
  });

  it('folds a section away from its heading, keeps it folded after a reload, and opens it again', async () => {
    const page = await pageAt(PHONE);
    await openData(page, quad);
    const toggle = page.getByRole('button', { name: 'Inputs', exact: true });
    const before = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await section(page, 'Inputs').locator('section.dp-reading').first().isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(before - 1000);

    await page.reload();
    await page.locator('section.dp-reading').first().waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await section(page, 'Power').locator('section.dp-reading').first().isVisible()).toBe(true);
    // Keyboard: Enter on the heading's button opens it again.
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await section(page, 'Inputs').locator('section.dp-reading').first().isVisible()).toBe(true);
  });

  it("folds the header's buttons into the Device menu on a phone: opened, used, closed by Escape; axe-clean", async () => {
    const page = await pageAt(PHONE);
    await openData(page, orb);
    const toolbar = page.getByRole('toolbar', { name: 'Device pages' });
    const menu = page.getByRole('button', { name: 'Device menu' });
    const scripting = toolbar.getByRole('link', { name: 'Scripting', exact: true });
    // Folded: the menu and the user's permission, nothing else.
    expect(await scripting.isVisible()).toBe(false);
    expect(await toolbar.getByRole('link', { name: 'ADMIN', exact: true }).isVisible()).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');

    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    for (const name of ['Asset Notes', 'Alerts'])
      expect(await toolbar.getByRole('button', { name, exact: true }).isVisible(), name).toBe(true);
    expect(await scripting.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await scripting.focus();
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await scripting.isVisible()).toBe(false);
    expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true);

    // A dialog opened from the menu stays open as the menu folds away.
    await menu.click();
    await toolbar.getByRole('button', { name: 'Asset Notes', exact: true }).click();
    await page.getByRole('dialog').filter({ hasText: 'Asset Notes' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
  });

  it('shows the model and firmware small under the name, and every header action in one button style', async () => {
    const page = await pageAt(DESKTOP);
    await openData(page, quad);
    const config = await demo<DeviceConfigResponse>('GET', `/api/device/${quad.id}/config`);
    const device = (config.body.config.settings as { device: { model: string; fw: string } }).device;
    expect(device.model).toBe('QUAD-C2');
    const identity = (await page.locator('.dp-identity').innerText()).replace(/\s+/g, ' ');
    expect(identity).toContain('QUAD-C2');
    expect(identity).toContain(device.fw);
    const nameSize = await page.locator('h1.dp-name').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    const identitySize = await page.locator('.dp-identity').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(identitySize).toBeLessThan(nameSize / 2);
    // One style: the same border, background, height and text size for every labelled button and link.
    const styles = await page
      .getByRole('toolbar', { name: 'Device pages' })
      .locator('.p-button:not(.p-button-icon-only)')
      .evaluateAll((els) =>
        els.map((el) => {
          const s = getComputedStyle(el);
          return [s.borderTopWidth, s.borderTopStyle, s.backgroundColor, s.fontSize, el.getBoundingClientRect().height];
        }),
      );
    expect(styles.length).toBeGreaterThanOrEqual(7);
    expect(new Set(styles.map((s) => JSON.stringify(s))).size).toBe(1);
  });
});
