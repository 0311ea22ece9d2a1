// A device row's dialogs on the group view, in Chromium against the real server (spec 1 section 2
// 'Group view'; ledger VIEW-25 - VIEW-27): the row's actions menu opens the device page's Asset
// Notes, Display Settings (after choosing a reading) and Regulatory Information dialogs, saves go
// through the real PUT /device/{id}/settings, the plan link goes to /plans, and a VIEW member of
// the group is told they cannot change display settings (the server refuses them too); axe-clean.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { DESKTOP, PHONE, chromiumAvailable } from './browser';
import { startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, closeSuccess, deviceInGroup, makeGroup, seriousAxeViolations, signedInPageOf, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
const PASSWORD = 'viewer-pass-2026';

type Api = ReturnType<Stack['apiClient']>;

interface Settings {
  deviceSettings: { PORTAL_deviceNotes: Record<string, unknown>; PORTAL_displaySettings: Record<string, unknown> };
}

describe.skipIf(!chromiumAvailable() && !required)("a device row's dialogs on the group view", () => {
  let stack: Stack;
  let demo: Api;
  let groupid: string;
  let deviceid: string;
  const viewer = uniqueEmail('row-viewer');
  const contexts: BrowserContext[] = [];

  const pageAs = (credentials: { email: string; password: string }, viewport = DESKTOP): Promise<Page> =>
    signedInPageOf(stack, contexts, credentials, { viewport });

  async function openMenu(page: Page): Promise<void> {
    await page.goto(stack.url(`/group/${groupid}`));
    await page.getByRole('button', { name: `Device actions: Row Pump (${deviceid})` }).click();
    await page.getByRole('menu').waitFor();
  }

  const settings = async () => (await demo<Settings>('GET', `/api/device/${deviceid}/settings`)).body;

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    groupid = await makeGroup(demo, 'Row Dialog Yard');
    const device = await deviceInGroup(stack, demo, groupid, 'ROW', 'Row Pump');
    deviceid = device.id;
    await stack.publish(device, [{ ts: Math.floor(Date.now() / 1000) - 60, batt: 12.6, flow: 3.25 }]);
    await stack.createVerifiedUser(viewer, PASSWORD);
    const shared = await demo('POST', `/api/group/${groupid}/user`, { targetEmail: viewer, targetPermission: 'VIEW' });
    expect(shared.status).toBe(200);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('offers the Device Page, Display Settings, Asset Notes and Regulatory Information, axe-clean', async () => {
    const page = await pageAs(DEMO);
    await openMenu(page);
    const items = await page.getByRole('menuitem').allTextContents();
    expect(items.map((t) => t.trim())).toEqual([
      'Device Page',
      'Display Settings',
      'Asset Notes',
      'Regulatory Information',
    ]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('menuitem', { name: 'Device Page' }).click();
    await until('the device page', async () => new URL(page.url()).pathname === `/data/${deviceid}`);
  });

  it('saves Asset Notes from the row through the device settings call', async () => {
    const page = await pageAs(DEMO);
    await openMenu(page);
    await page.getByRole('menuitem', { name: 'Asset Notes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Asset Notes' });
    await dialog.getByLabel('Status', { exact: true }).fill('On site');
    expect(await seriousAxeViolations(page, '.notes-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await closeSuccess(page, 'Asset notes saved.');
    expect((await settings()).deviceSettings.PORTAL_deviceNotes.status).toBe('On site');
  });

  it('saves a reading’s Display Settings after choosing the reading', async () => {
    const page = await pageAs(DEMO);
    await openMenu(page);
    await page.getByRole('menuitem', { name: 'Display Settings' }).click();
    const picker = page.getByRole('dialog', { name: /Display Settings: Row Pump/ });
    await picker.locator('.p-dropdown').click();
    await page.getByRole('option', { name: /\(flow\)$/ }).click();
    await picker.getByRole('button', { name: 'Next' }).click();
    const dialog = page.locator('.dp-dialog');
    await dialog.getByLabel('Decimal places').fill('3');
    await dialog.getByLabel('Display order (1-100)').fill('7');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await closeSuccess(page, 'Display settings saved.');
    const saved = (await settings()).deviceSettings.PORTAL_displaySettings.flow as { dp?: number; sort?: number };
    expect(saved).toMatchObject({ dp: 3, sort: 7 });
  });

  it('shows Regulatory Information, and the plan link goes to /plans', async () => {
    const page = await pageAs(DEMO);
    await openMenu(page);
    await page.getByRole('menuitem', { name: 'Regulatory Information' }).click();
    const dialog = page.getByRole('dialog', { name: 'Regulatory Information' });
    await dialog.waitFor();
    await dialog.locator('button.p-button', { hasText: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The group view's own plan link (VIEW-27), not the navigation bar's.
    const plans = page.getByRole('main').getByRole('link', { name: 'Compare plans' });
    expect(await plans.getAttribute('href')).toBe('/plans');
  });

  it('tells a VIEW member they cannot change display settings, and the server refuses them', async () => {
    const page = await pageAs({ email: viewer, password: PASSWORD }, PHONE);
    await openMenu(page);
    await page.getByRole('menuitem', { name: 'Display Settings' }).click();
    const dialog = page.getByRole('dialog', { name: /Display Settings: Row Pump/ });
    await expect.poll(async () => dialog.getByRole('status').textContent()).toContain('your role here is VIEW');
    expect(await dialog.getByRole('button', { name: 'Next' }).count()).toBe(0);
    const viewerApi = stack.apiClient();
    expect((await viewerApi('POST', '/api/auth/login', { email: viewer, password: PASSWORD })).status).toBe(200);
    const refused = await viewerApi('PUT', `/api/device/${deviceid}/settings`, {
      PORTAL_displaySettings: { flow: { name: 'Not mine' } },
    });
    expect(refused.status).toBe(403);
  });
});
