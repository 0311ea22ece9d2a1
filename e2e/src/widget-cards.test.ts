// Widget cards in Chromium against the real server and a simulated device (issue 15; spec 2 sections
// 2, 3, 5, 8 and 9; ledger WGT-01, WGT-05, WGT-09, WGT-12 - WGT-16, WGT-22): a card built in its editor
// by dragging two indicators, which land on the 5 px grid, a text placed with the keyboard alone
// whose template reads a data key, a missing key ('???') and a config value, a string key in an
// indicator ('NaN'), the background image shown and hidden; saved into PORTAL_displaySettings.widget1,
// shown on the Data page and turning to the alarm colour when the simulated device's supply voltage
// crosses the indicator's threshold; a VIEW user sees it read only; the 100th card is refused; a
// Basic-plan device says 'Widgets are unavailable on the Basic Plan'. axe-clean; no sideways scroll
// at 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { DeviceSettingsResponse, WidgetCard } from '@portal/core';
import { startFleet, type Fleet } from '../../apps/simulator/src/index';
import { chromiumAvailable, PHONE } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { expectPath, seriousAxeViolations, signedInPageOf, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

/** A real 1 x 1 png. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const ALARM = '#d32f2f';
const NORMAL = '#16a34a';

describe.skipIf(!chromiumAvailable() && !required)('widget cards', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let device: { id: string; setupPassword: string; deviceKey: string };
  let fleet: Fleet | undefined;
  const contexts: BrowserContext[] = [];
  const owner = { email: uniqueEmail('widget-owner'), password: 'widget-owner-password-1' };
  const viewer = { email: uniqueEmail('widget-viewer'), password: 'widget-viewer-password-1' };

  const claim = async (d: { id: string; setupPassword: string }) => {
    const res = await demo('POST', `/api/device/${d.id}/user`, { setupPassword: d.setupPassword });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const savedCard = async (key = 'widget1') =>
    (await demo<DeviceSettingsResponse>('GET', `/api/device/${device.id}/settings`)).body.deviceSettings
      .PORTAL_displaySettings[key] as WidgetCard | undefined;
  const itemPanel = (page: Page) => page.getByRole('tabpanel', { name: 'Selected item' });
  const cardPanel = (page: Page) => page.getByRole('tabpanel', { name: 'Widget' });
  const canvas = (page: Page) => page.locator('.wc-canvas');

  /** A record with the supply low (normal for the card's thresholds) and a key holding text. */
  const publishLow = () => stack.publish(device, { ts: Math.floor(Date.now() / 1000), vsys: 5, door: 'open' });

  /** Drags an item by (dx, dy) screen pixels with the mouse, in small steps. */
  async function drag(page: Page, item: ReturnType<Page['locator']>, dx: number, dy: number): Promise<void> {
    const box = (await item.boundingBox())!;
    const x = box.x + Math.min(10, box.width / 2);
    const y = box.y + Math.min(10, box.height / 2);
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 4 });
    await page.mouse.move(x + dx, y + dy, { steps: 4 });
    await page.mouse.up();
  }

  beforeAll(async () => {
    stack = await startStack();
    await stack.createVerifiedUser(owner.email, owner.password);
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', owner)).status).toBe(200);
    device = await stack.provisionDevice(freshDeviceId('WGT'), 'ORB-C1', 'Widget Pump');
    await claim(device);
    // A first record: the supply low (normal for the card's thresholds), and a key holding text.
    await publishLow();
    await stack.createVerifiedUser(viewer.email, viewer.password);
    const grant = await demo('POST', `/api/device/${device.id}/user`, {
      targetEmail: viewer.email,
      targetPermission: 'VIEW',
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
  });

  afterAll(async () => {
    await fleet?.stop();
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('builds a card: two indicators dragged onto the 5 px grid, a text placed by keyboard, an image shown and hidden; Save stores widget1', async () => {
    const page = await signedInPageOf(stack, contexts, owner);
    await page.goto(stack.url(`/widget/${device.id}/new`));
    await expectPath(page, `/widget/${device.id}/widget1`);
    await canvas(page).waitFor();
    await expect.poll(() => page.title()).toBe('Portal - Widget Pump: New widget');

    // A level indicator of the supply voltage: alarm at 11 V and above.
    await page.getByRole('button', { name: 'Level indicator' }).click();
    const level = canvas(page).locator('.wc-indicator--level');
    await level.waitFor();
    const levelFields = itemPanel(page);
    await levelFields.getByLabel('Data key').fill('vsys');
    await levelFields.getByLabel('Maximum').fill('20');
    await levelFields.getByLabel('Low alarm').fill('0.5');
    await levelFields.getByLabel('Low warning').fill('1');
    await levelFields.getByLabel('High warning').fill('10.5');
    await levelFields.getByLabel('High alarm').fill('11');
    await expect.poll(() => level.getAttribute('data-state')).toBe('normal');
    // Added at (10, 10); dropped 53 px right and 37 px down, at (63, 47): it lands on (65, 45).
    await drag(page, level, 53, 37);
    await expect.poll(() => level.getAttribute('aria-label')).toMatch(/, at 65, 45\./);

    // A status indicator of a key holding text: 'NaN'.
    await page.getByRole('button', { name: 'Status indicator' }).click();
    const status = canvas(page).locator('.wc-indicator--status');
    await status.waitFor();
    await itemPanel(page).getByLabel('Data key').fill('door');
    await expect.poll(() => status.innerText()).toBe('NaN');
    // Added at (30, 30); dropped at (231, 43): it lands on (230, 45).
    await drag(page, status, 201, 13);
    await expect.poll(() => status.getAttribute('aria-label')).toMatch(/, at 230, 45\./);

    // A text placed with the keyboard alone: it has the focus once added; three steps right, one
    // big step down (Shift: ten grid steps).
    await page.getByRole('button', { name: 'Text', exact: true }).focus();
    await page.keyboard.press('Enter');
    const text = canvas(page).locator('.wc-text');
    await expect.poll(() => text.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await text.getAttribute('aria-label')).toMatch(/, at 50, 50\./);
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(() => text.getAttribute('aria-label')).toMatch(/, at 65, 100\./);
    await itemPanel(page).getByLabel('Text', { exact: true }).fill('Supply {data.vsys} {data.nokey} {cfg.device.name}');
    await expect.poll(() => text.innerText()).toBe('Supply 5.00 V ??? Widget Pump');

    // The card's own settings: its name, and an image shown only while image.imageIsActive.
    await page.getByRole('tab', { name: 'Widget' }).click();
    await cardPanel(page).getByLabel('Name').fill('Supply card');
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'tank.png', mimeType: 'image/png', buffer: TINY_PNG });
    const image = canvas(page).locator('img.wc-image');
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    const shown = cardPanel(page).getByLabel('Show the image');
    expect(await shown.isChecked()).toBe(true);
    await shown.uncheck();
    await expect.poll(() => image.count()).toBe(0);
    await shown.check();
    await image.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectPath(page, `/data/${device.id}`);
    const saved = await savedCard();
    expect(saved).toMatchObject({
      name: 'Supply card',
      type: 'widget',
      snapToGrid: true,
      showUnits: true,
      staleColor: 'grey',
      image: {
        imageIsActive: true,
        path: expect.stringMatching(new RegExp(`^/api/device/${device.id}/widget-image/widget1\\?v=\\d+$`)),
      },
      elements: [
        {
          x: 65,
          y: 45,
          active: 'levelIndicator',
          settings: { dataElement: 'vsys', highAlarm: 11, highWarning: 10.5, max: 20 },
        },
        { x: 230, y: 45, active: 'statusIndicator', settings: { dataElement: 'door', width: 50, height: 50 } },
      ],
      components: [
        { x: 65, y: 100, template: 'Supply {data.vsys} {data.nokey} {cfg.device.name}', settings: { fontSize: 16 } },
      ],
    });
    for (const item of [...saved!.elements, ...saved!.components]) {
      expect(item.x % 5, item.id).toBe(0);
      expect(item.y % 5, item.id).toBe(0);
    }
  });

  it('shows the card on the Data page and turns the indicator to the alarm colour when the simulated supply crosses 11 V', async () => {
    // A fresh record, so the device is online and its values current.
    await publishLow();
    const page = await signedInPageOf(stack, contexts, owner);
    await page.goto(stack.url(`/data/${device.id}`));
    const card = page.locator('section.wc-card[data-widget="widget1"]');
    await card.waitFor();
    expect(await card.getByRole('heading', { name: 'Supply card' }).count()).toBe(1);
    const level = card.locator('.wc-indicator--level');
    expect(await level.getAttribute('data-state')).toBe('normal');
    expect(await level.getAttribute('data-colour')).toBe(NORMAL);
    expect(await level.innerText()).toBe('5.00 V');
    expect(await card.locator('.wc-indicator--status').innerText()).toBe('NaN');
    expect(await card.locator('.wc-text').innerText()).toBe('Supply 5.00 V ??? Widget Pump');
    await expect
      .poll(() => card.locator('img.wc-image').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1);
    expect(await card.getByRole('link', { name: 'Open widget Supply card' }).getAttribute('href')).toBe(
      `/widget/${device.id}/widget1`,
    );

    // The simulated device reports a supply of 11.2 to 13.9 V every 2 s.
    fleet = startFleet({
      devices: [{ id: device.id, key: device.deviceKey, model: 'ORB-C1' }],
      transport: 'mqtt',
      mqttUrl: stack.mqttUrl,
      httpUrl: stack.url(),
      baseInterval: 2,
      staggerMs: 0,
    });
    await until(
      'the level indicator to turn to the alarm colour',
      async () => (await level.getAttribute('data-state')) === 'alarm',
      60_000,
    );
    expect(await level.getAttribute('data-colour')).toBe(ALARM);
    expect(await level.innerText()).toMatch(/^1[1-4]\.\d\d V$/);
    expect(await level.getAttribute('aria-label')).toMatch(/^Level indicator Supply Voltage: 1[1-4]\.\d\d V, alarm$/);
    const fill = card.locator('.wc-indicator__fill');
    expect(await fill.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(211, 47, 47)');
    // The text reads the new value; the door's text is now a last known value (the simulator never sends it).
    await expect.poll(() => card.locator('.wc-text').innerText()).toMatch(/^Supply 1[1-4]\.\d\d V \?\?\? Widget Pump$/);
    expect(await card.locator('.wc-indicator--status').getAttribute('aria-label')).toBe(
      'Status indicator door: NaN, last known value',
    );
    expect(await card.locator('.wc-indicator--status').getAttribute('data-colour')).toBe('grey');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // At 390 px the card shrinks to the screen; the page never scrolls sideways.
    const phone = await signedInPageOf(stack, contexts, owner, { viewport: PHONE });
    await phone.goto(stack.url(`/data/${device.id}`));
    const phoneCard = phone.locator('section.wc-card[data-widget="widget1"]');
    await phoneCard.waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const drawn = (await phoneCard.locator('.wc-stage').boundingBox())!;
    expect(drawn.width).toBeLessThan(400);
    expect(drawn.width).toBeGreaterThan(250);
  });

  it('moves an item with the keyboard on the saved card, and a VIEW user sees the card read only', async () => {
    const page = await signedInPageOf(stack, contexts, owner);
    await page.goto(stack.url(`/widget/${device.id}/widget1`));
    const status = canvas(page).locator('.wc-indicator--status');
    await status.waitFor();
    await expect.poll(() => page.title()).toBe('Portal - Widget Pump: Supply card');
    await status.focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => status.getAttribute('aria-label')).toMatch(/, at 225, 40\./);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectPath(page, `/data/${device.id}`);
    expect((await savedCard())?.elements[1]).toMatchObject({ x: 225, y: 40 });

    const view = await signedInPageOf(stack, contexts, viewer);
    await view.goto(stack.url(`/data/${device.id}`));
    const card = view.locator('section.wc-card[data-widget="widget1"]');
    await card.waitFor();
    expect(await card.getByRole('link', { name: /^Open widget/ }).count()).toBe(0);
    expect(await view.getByRole('button', { name: 'New widget' }).count()).toBe(0);
    await view.goto(stack.url(`/widget/${device.id}/widget1`));
    await view
      .getByText('You can view this widget; changing it needs ADMIN or USER permission on the device.')
      .waitFor();
    expect(await view.locator('.wc-canvas').count()).toBe(0);
    expect(await view.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    expect(await view.locator('.wc-indicator--level').count()).toBe(1);
    await view.goto(stack.url(`/widget/${device.id}/widget2`));
    await view.getByText('Widget not found').waitFor();
  });

  it('Delete asks first and removes the card; the 100th card is refused with its message', async () => {
    const own = await stack.provisionDevice(freshDeviceId('WGF'), 'ORB-C1', 'Full Pump');
    await claim(own);
    const cards: Record<string, unknown> = {};
    for (let n = 1; n <= 99; n += 1) cards[`widget${n}`] = { name: `Card ${n}` };
    const put = await demo('PUT', `/api/device/${own.id}/settings`, { PORTAL_displaySettings: cards });
    expect(put.status, JSON.stringify(put.body)).toBe(200);

    const page = await signedInPageOf(stack, contexts, owner);
    await page.goto(stack.url(`/data/${own.id}`));
    await page.getByRole('button', { name: 'New widget' }).click();
    await page.getByRole('alert').filter({ hasText: 'Maximum number of widgets reached [99]' }).waitFor();
    await page.goto(stack.url(`/widget/${own.id}/new`));
    await page.getByRole('alert').filter({ hasText: 'Maximum number of widgets reached [99]' }).waitFor();

    // Delete: Cancel keeps it, Delete widget removes it.
    await page.goto(stack.url(`/widget/${own.id}/widget7`));
    await canvas(page).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete widget?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete widget' }).click();
    await expectPath(page, `/data/${own.id}`);
    const left = (await demo<DeviceSettingsResponse>('GET', `/api/device/${own.id}/settings`)).body.deviceSettings
      .PORTAL_displaySettings;
    expect(Object.keys(left)).not.toContain('widget7');
    expect(Object.keys(left).filter((k) => k.startsWith('widget'))).toHaveLength(98);
    // One free again: New widget opens it.
    await page.getByRole('button', { name: 'New widget' }).click();
    await expectPath(page, `/widget/${own.id}/widget7`);
  });

  it("a Basic-plan device's Data page and widget page say 'Widgets are unavailable on the Basic Plan'", async () => {
    const basic = await stack.provisionDevice(freshDeviceId('WGB'), 'ORB-C1', 'Basic Pump');
    await claim(basic);
    await stack.publish(basic, { ts: Math.floor(Date.now() / 1000), vsys: 12 });
    // 91 days after it was added, the trial is over: the device is on the Basic plan.
    await stack.ageDevice(basic.id, 91);
    const page = await signedInPageOf(stack, contexts, owner);
    await page.goto(stack.url(`/data/${basic.id}`));
    await page.getByText('Widgets are unavailable on the Basic Plan').first().waitFor();
    expect(await page.getByRole('button', { name: 'New widget' }).count()).toBe(0);
    await page.goto(stack.url(`/widget/${basic.id}/widget1`));
    await page.getByRole('alert').filter({ hasText: 'Widgets are unavailable on the Basic Plan' }).waitFor();
    expect(await page.locator('.wc-canvas').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
