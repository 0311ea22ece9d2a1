// Views on the group dashboard, in Chromium against the real server (issue 13; spec 1 sections 2, 4, 5, 7,
// 8, 9; ledger VIEW-01, 02, 05, 06, 08, 29..37, RTE-26, HOME-04): tabs by sortOrder, Add New View and View
// Settings, delete with confirmation, the View Range dialog driving the data call, the failure dialogs, the
// 409 path offering Reload, a VIEW member without edit controls, axe and phone width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  DEFAULT_VIEW,
  INVALID_DATE_RANGE,
  VIEW_MESSAGES,
  VIEW_RANGE_PRESETS,
  VIEW_RANGE_PRESET_LABELS,
  VIEW_SAVE_ERROR,
  CUSTOM_RANGE_SHORTCUTS,
  CUSTOM_RANGE_SHORTCUT_LABELS,
  dataCallRange,
  shortcutRange,
  startOfWeekIn,
  type View,
  type ViewListResponse,
  type ViewSaveResponse,
} from '@portal/core';
import { chromiumAvailable, DESKTOP, PHONE } from './browser';
import { startStack, uniqueEmail, type Stack } from './harness';
import { deviceInGroup, expectPath, makeGroup, seriousAxeViolations, signedInPageOf, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
const PASSWORD = 'views-password-2026';
/** The browsers run in a zone with whole-hour offsets and a clock change, not the machine's. */
const ZONE = 'Europe/Berlin';

describe.skipIf(!chromiumAvailable() && !required)('views on the group dashboard', () => {
  let stack: Stack;
  let owner: { email: string; api: ReturnType<Stack['apiClient']> };
  let viewer: { email: string; api: ReturnType<Stack['apiClient']> };
  let groupid: string;
  let deviceid: string;
  const contexts: BrowserContext[] = [];

  const signedIn = (email: string, viewport = DESKTOP): Promise<Page> =>
    signedInPageOf(stack, contexts, { email, password: PASSWORD }, { viewport, context: { timezoneId: ZONE } });

  const tabs = (page: Page) => page.getByRole('navigation', { name: 'Views' }).getByRole('link');
  const tab = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name, exact: true });
  const expectActive = async (page: Page, name: string) =>
    until(`tab ${name} active`, async () => (await tab(page, name).getAttribute('aria-current')) === 'page');
  const tabNames = async (page: Page) => (await tabs(page).allInnerTexts()).map((t) => t.trim());
  const storedViews = async () => {
    const answer = await owner.api<ViewListResponse>('GET', `/api/group/${groupid}/views`);
    expect(answer.status).toBe(200);
    return answer.body.views;
  };
  const storedView = async (viewid: string) => (await storedViews()).find((v) => v.viewid === viewid) as View;
  /** Opens the group and waits for the table to show the device. */
  async function openGroup(page: Page, path = `/group/${groupid}`): Promise<void> {
    await page.goto(stack.url(path));
    await page.locator('.widget-card').first().getByText(deviceid).first().waitFor();
  }
  /** The from/to of every group data call the page makes from now on. */
  function dataCalls(page: Page): { from: number; to: number }[] {
    const calls: { from: number; to: number }[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname !== `/api/group/${groupid}/data`) return;
      calls.push({ from: Number(url.searchParams.get('from')), to: Number(url.searchParams.get('to')) });
    });
    return calls;
  }
  async function createView(name: string, sortOrder: number): Promise<View> {
    const made = await owner.api<ViewSaveResponse>('PUT', `/api/group/${groupid}/view`, {
      view: { name, sortOrder, timeRange: DEFAULT_VIEW.timeRange, widgets: DEFAULT_VIEW.widgets },
    });
    expect(made.status).toBe(200);
    return made.body.view;
  }

  beforeAll(async () => {
    stack = await startStack();
    const user = async (tag: string) => {
      const email = uniqueEmail(tag);
      await stack.createVerifiedUser(email, PASSWORD);
      const api = stack.apiClient();
      expect((await api('POST', '/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
      return { email, api };
    };
    owner = await user('views-owner');
    viewer = await user('views-viewer');
    groupid = await makeGroup(owner.api, 'Views Yard');
    const device = await deviceInGroup(stack, owner.api, groupid, 'VEW', 'Yard Pump');
    deviceid = device.id;
    await stack.publish(device, { ts: Math.floor(Date.now() / 1000), vsys: 12.4 });
    const shared = await owner.api('POST', `/api/group/${groupid}/user`, {
      targetEmail: viewer.email,
      targetPermission: 'VIEW',
    });
    expect(shared.status).toBe(200);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('an editor adds a view (blank name, display order abc), renames and reorders; tabs follow sortOrder; URL and click switch (VIEW-01, 02, 05, 06, 08, RTE-26)', async () => {
    const page = await signedIn(owner.email);
    await openGroup(page);
    expect(await tabNames(page)).toEqual([DEFAULT_VIEW.name]);
    await expectActive(page, DEFAULT_VIEW.name);
    await page.getByRole('button', { name: /View Range: 7 days/ }).waitFor();

    await page.getByRole('button', { name: 'Add New View' }).click();
    const add = page.getByRole('dialog', { name: 'Add New View' });
    await add.getByLabel('Display order').fill('abc');
    await add.getByRole('button', { name: 'Add View' }).click();
    await add.waitFor({ state: 'detached' });
    await page.waitForURL((url) => /^\/group\/[A-Z0-9]+\/v-[a-z0-9]{8}$/.test(url.pathname));
    const viewid = new URL(page.url()).pathname.split('/').pop() ?? '';
    await expectActive(page, 'View 2');
    expect(await tabNames(page)).toEqual([DEFAULT_VIEW.name, 'View 2']);
    // Blank name: 'View {n+1}'; 'abc' falls back to after the last tab.
    expect(await storedView(viewid)).toMatchObject({ name: 'View 2', sortOrder: 2 });
    await page.locator('.widget-card').first().getByText(deviceid).first().waitFor();

    // Rename, sanitised by core's rule (` ~ " ' ? < > removed).
    await page.getByRole('button', { name: 'View Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'View Settings' });
    await settings.getByLabel('View name').fill('North "Pumps"?');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.waitFor({ state: 'detached' });
    await tab(page, 'North Pumps').waitFor();
    expect(await storedView(viewid)).toMatchObject({ name: 'North Pumps', sortOrder: 2 });

    // Reorder: the default view to 5 puts North Pumps first.
    await tab(page, DEFAULT_VIEW.name).click();
    await expectActive(page, DEFAULT_VIEW.name);
    await page.getByRole('button', { name: 'View Settings' }).click();
    await settings.getByLabel('Display order').fill('5');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.waitFor({ state: 'detached' });
    await until('the tabs reordered', async () => (await tabNames(page)).join() === `North Pumps,${DEFAULT_VIEW.name}`);

    // The URL selects the tab; a click switches.
    await page.goto(stack.url(`/group/${groupid}/${viewid}`));
    await expectActive(page, 'North Pumps');
    await tab(page, DEFAULT_VIEW.name).click();
    await expectPath(page, `/group/${groupid}/${DEFAULT_VIEW.viewid}`);
    await expectActive(page, DEFAULT_VIEW.name);
    // An unknown view id shows the first view and says so.
    await page.goto(stack.url(`/group/${groupid}/v-gone0000`));
    await expectActive(page, 'North Pumps');
    await page.getByRole('status').getByText('View not found').waitFor();
  });

  it('GET views: a failure is asked again once, and the answer is not asked for again on tab switches (VIEW-39)', async () => {
    const page = await signedIn(owner.email);
    let asked = 0;
    await page.route(`**/api/group/${groupid}/views`, async (route) => {
      asked += 1;
      if (asked === 1)
        await route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Busy"}' });
      else await route.continue();
    });
    await openGroup(page);
    expect(asked).toBe(2);
    const [second] = (await tabNames(page)).slice(1);
    await tab(page, second as string).click();
    await expectActive(page, second as string);
    await tab(page, (await tabNames(page))[0] as string).click();
    await page.locator('.widget-card').first().getByText(deviceid).first().waitFor();
    expect(asked).toBe(2);
  });

  it('View Range: six presets; week to date (Monday) and a custom shortcut are saved and drive the data call; From not before To is refused (VIEW-29..32)', async () => {
    const view = await createView('Ranges', 50);
    const page = await signedIn(owner.email);
    const calls = dataCalls(page);
    await openGroup(page, `/group/${groupid}/${view.viewid}`);

    await page.getByRole('button', { name: /^View Range:/ }).click();
    const dialog = page.getByRole('dialog', { name: 'View Range' });
    const radios = dialog.getByRole('radio');
    await radios.first().waitFor();
    expect(await radios.count()).toBe(6);
    for (const preset of VIEW_RANGE_PRESETS)
      await dialog.getByRole('radio', { name: VIEW_RANGE_PRESET_LABELS[preset] }).waitFor();
    expect(await dialog.getByRole('radio', { name: '7 days' }).isChecked()).toBe(true);

    await dialog.getByRole('radio', { name: 'Week to date' }).check();
    calls.length = 0;
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'View Range: Week to date' }).waitFor();
    expect((await storedView(view.viewid)).timeRange).toEqual({ type: 'week', amount: 1, rolling: false });
    const monday = startOfWeekIn(Date.now(), ZONE) / 1000;
    await until('a data call from Monday 00:00', async () => calls.some((c) => c.from === monday));

    // Custom: the five shortcuts; previous week is Monday to Monday.
    await page.getByRole('button', { name: /^View Range:/ }).click();
    await dialog.getByRole('radio', { name: 'Custom' }).check();
    const shortcuts = dialog.getByRole('group', { name: 'Shortcuts' }).getByRole('button');
    expect(await shortcuts.allInnerTexts()).toEqual(CUSTOM_RANGE_SHORTCUTS.map((s) => CUSTOM_RANGE_SHORTCUT_LABELS[s]));
    // From not before To: the message, Apply disabled.
    await dialog.getByLabel('From', { exact: true }).fill('2026-03-10T12:00');
    await dialog.getByLabel('To', { exact: true }).fill('2026-03-10T11:00');
    await dialog.getByRole('alert').getByText(INVALID_DATE_RANGE).waitFor();
    expect(await dialog.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
    await dialog.getByLabel('To', { exact: true }).fill('2026-03-10T12:00');
    expect(await dialog.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);

    await dialog.getByRole('button', { name: 'Previous week' }).click();
    const expected = shortcutRange('previousWeek', Date.now(), ZONE);
    expect(await dialog.getByText(INVALID_DATE_RANGE).count()).toBe(0);
    calls.length = 0;
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await storedView(view.viewid)).timeRange).toEqual({ type: 'custom', ...expected });
    const sent = dataCallRange(expected);
    await until('a data call over the previous week', async () =>
      calls.some((c) => c.from === sent.from && c.to === sent.to),
    );
  });

  it('delete asks first (Cancel keeps the view), shows a deleting state, then the first view (VIEW-33..35)', async () => {
    const view = await createView('Temporary', 60);
    const page = await signedIn(owner.email);
    await openGroup(page, `/group/${groupid}/${view.viewid}`);
    await expectActive(page, 'Temporary');
    await page.getByRole('button', { name: 'View Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'View Settings' });
    await settings.getByRole('button', { name: 'Delete View' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete View' });
    await confirm.getByText('Temporary').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await storedViews()).some((v) => v.viewid === view.viewid)).toBe(true);

    // Hold the DELETE until the deleting state has been seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/group/${groupid}/view`, async (route) => {
      if (route.request().method() === 'DELETE') await held;
      await route.continue();
    });
    await settings.getByRole('button', { name: 'Delete View' }).click();
    await confirm.getByRole('button', { name: 'Delete View' }).click();
    await confirm.getByRole('button', { name: 'Deleting…' }).waitFor();
    release();
    await expectPath(page, `/group/${groupid}`);
    await until('the tab gone', async () => !(await tabNames(page)).includes('Temporary'));
    const first = (await storedViews())[0] as View;
    await expectActive(page, first.name);
    expect((await storedViews()).some((v) => v.viewid === view.viewid)).toBe(false);
  });

  it('a failed save shows An error occurred with the server message; a failed delete the server message (VIEW-36, VIEW-37)', async () => {
    const view = await createView('Failing', 70);
    const page = await signedIn(owner.email);
    await openGroup(page, `/group/${groupid}/${view.viewid}`);
    await page.route(`**/api/group/${groupid}/view`, (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ message: 'Disk full' }),
          })
        : route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: 'X' }) }),
    );
    await page.getByRole('button', { name: 'View Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'View Settings' });
    await settings.getByLabel('View name').fill('Renamed');
    await settings.getByRole('button', { name: 'Save' }).click();
    const error = page.getByRole('dialog', { name: VIEW_SAVE_ERROR });
    await error.getByText('Disk full').waitFor();
    await error.getByRole('button', { name: 'OK' }).click();
    await settings.getByRole('button', { name: 'Delete View' }).click();
    await page.getByRole('dialog', { name: 'Delete View' }).getByRole('button', { name: 'Delete View' }).click();
    await error.getByText('X', { exact: true }).waitFor();
    expect((await storedView(view.viewid)).name).toBe('Failing');
  });

  it('a save from a stale copy (409) offers Reload; after it the save goes through and keeps the other change (DESIGN.md 5)', async () => {
    const view = await createView('Shared', 80);
    const page = await signedIn(owner.email);
    await openGroup(page, `/group/${groupid}/${view.viewid}`);
    // Someone else saves the view meanwhile: another range.
    const other = await owner.api<ViewSaveResponse>('PUT', `/api/group/${groupid}/view`, {
      view: { ...view, timeRange: { type: 'day', amount: 30 } },
    });
    expect(other.status).toBe(200);

    await page.getByRole('button', { name: 'View Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'View Settings' });
    await settings.getByLabel('View name').fill('Shared 2');
    await settings.getByRole('button', { name: 'Save' }).click();
    const notice = settings.getByRole('alert');
    await notice.getByText(VIEW_MESSAGES.stale).waitFor();
    expect((await storedView(view.viewid)).name).toBe('Shared');
    await notice.getByRole('button', { name: 'Reload' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'View Range: 30 days' }).waitFor();
    expect(await settings.getByLabel('View name').inputValue()).toBe('Shared 2');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.waitFor({ state: 'detached' });
    const saved = await storedView(view.viewid);
    expect(saved).toMatchObject({
      name: 'Shared 2',
      timeRange: { type: 'day', amount: 30 },
      version: view.version + 2,
    });
  });

  it('a VIEW member sees no edit controls, and the server refuses their save; their range applies to their tab only', async () => {
    const views = await storedViews();
    const first = views[0] as View;
    const page = await signedIn(viewer.email);
    const calls = dataCalls(page);
    await openGroup(page);
    await expectActive(page, first.name);
    expect(await page.getByRole('button', { name: 'Add New View' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'View Settings' }).count()).toBe(0);
    const refused = await viewer.api('PUT', `/api/group/${groupid}/view`, { view: { ...first, name: 'Mine' } });
    expect(refused.status).toBe(403);

    await page.getByRole('button', { name: /^View Range:/ }).click();
    const dialog = page.getByRole('dialog', { name: 'View Range' });
    await dialog.getByText('Only for you').waitFor();
    await dialog.getByRole('radio', { name: 'Last 24 hours' }).check();
    calls.length = 0;
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('button', { name: 'View Range: Last 24 hours' }).waitFor();
    await until('a 24-hour data call', async () => calls.some((c) => c.to - c.from <= 25 * 3600));
    expect((await storedView(first.viewid)).timeRange).toEqual(first.timeRange);
  });

  it('axe finds nothing serious on the dashboard and its dialogs; at phone width nothing scrolls sideways', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await signedIn(owner.email, viewport);
      await openGroup(page);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: /^View Range:/ }).click();
      const range = page.getByRole('dialog', { name: 'View Range' });
      await range.getByRole('radio', { name: 'Custom' }).check();
      await range.getByLabel('From', { exact: true }).waitFor();
      expect(await seriousAxeViolations(page, '.view-dialog')).toEqual([]);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      const box = await range.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
      await page.keyboard.press('Escape');
      await range.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Add New View' }).click();
      const add = page.getByRole('dialog', { name: 'Add New View' });
      // Focus starts in the name field; the dialog is keyboard-usable.
      const name = add.getByLabel('View name');
      await until('focus in the name field', () => name.evaluate((el) => el === document.activeElement));
      expect(await seriousAxeViolations(page, '.view-dialog')).toEqual([]);
      await page.keyboard.press('Escape');
    }
  });
});
