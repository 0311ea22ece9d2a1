// Edit mode on the group dashboard, in Chromium against the real server (issue 13; spec 1 sections 2, 3,
// 4, 5, 9; ledger VIEW-11..24): Edit Widgets / Exit Edit, adding each widget kind, dragging and resizing
// with the mouse saved for the breakpoint it was made at (1280, 800 and 390 px wide, read back through
// GET views), minW/minH, removing with a confirmation, the limits and their messages, keyboard steps, the
// widget editor's links, two browsers editing one view (the 409 path), a VIEW member without edit
// mode, axe and phone width.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import {
  DEFAULT_VIEW,
  GRID_BREAKPOINT_NAMES,
  GRID_COLS,
  GRID_ROW_HEIGHT,
  widgetLimitMessage,
  type GridBreakpoint,
  type View,
  type ViewListResponse,
  type ViewSaveResponse,
  type WidgetLayouts,
} from '@portal/core';
import { chromiumAvailable, DESKTOP, PHONE } from './browser';
import { startStack, uniqueEmail, type Stack } from './harness';
import { deviceInGroup, makeGroup, seriousAxeViolations, signedInPageOf, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
const PASSWORD = 'view-edit-password-2026';
/** The grid's margin between widgets (dashboard-grid.tsx). */
const MARGIN = 16;
const TABLET = { width: 800, height: 900 };
/** E2E_SHOTS=<dir>: screenshots of edit mode at each width, to look at. */
const SHOTS = process.env.E2E_SHOTS;

const at = (x: number, y: number, w: number, h: number, minW: number, minH: number) => ({ x, y, w, h, minW, minH });
/** A view of a table, a chart and a headline (no map), laid out per breakpoint. */
const WIDGETS = {
  widget1: {
    type: 'table' as const,
    settings: DEFAULT_VIEW.widgets.widget1?.settings ?? {},
    layouts: { lg: at(0, 0, 12, 8, 12, 4), md: at(0, 0, 6, 8, 6, 4), sm: at(0, 0, 4, 8, 4, 4) },
  },
  widget3: {
    type: 'chart' as const,
    settings: { name: 'Chart', series: [] },
    layouts: { lg: at(0, 8, 6, 9, 3, 6), md: at(0, 12, 6, 9, 3, 6), sm: at(0, 12, 4, 9, 2, 6) },
  },
  widget4: {
    type: 'headline' as const,
    settings: { key: 'vsys', operator: 'avg' },
    layouts: { lg: at(6, 8, 3, 4, 2, 3), md: at(0, 8, 3, 4, 2, 3), sm: at(0, 8, 2, 4, 2, 3) },
  },
};

describe.skipIf(!chromiumAvailable() && !required)('edit mode on the group dashboard', () => {
  let stack: Stack;
  let owner: { email: string; api: ReturnType<Stack['apiClient']> };
  let viewer: { email: string; api: ReturnType<Stack['apiClient']> };
  let groupid: string;
  const contexts: BrowserContext[] = [];

  const signedIn = (email: string, viewport = DESKTOP): Promise<Page> =>
    signedInPageOf(stack, contexts, { email, password: PASSWORD }, { viewport });

  const storedView = async (viewid: string): Promise<View> => {
    const answer = await owner.api<ViewListResponse>('GET', `/api/group/${groupid}/views`);
    expect(answer.status).toBe(200);
    const view = answer.body.views.find((v) => v.viewid === viewid);
    if (!view) throw new Error(`view ${viewid} not stored`);
    return view;
  };
  async function createView(name: string, widgets: Record<string, unknown>): Promise<View> {
    const made = await owner.api<ViewSaveResponse>('PUT', `/api/group/${groupid}/view`, {
      view: { name, sortOrder: 10, timeRange: DEFAULT_VIEW.timeRange, widgets },
    });
    expect(made.status).toBe(200);
    return made.body.view;
  }
  /** Opens a view and waits for its widgets. */
  async function openView(page: Page, viewid: string): Promise<void> {
    await page.goto(stack.url(`/group/${groupid}/${viewid}`));
    await page.locator('.widget-card').first().waitFor();
  }
  async function enterEdit(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Edit Widgets' }).click();
    await page.getByRole('button', { name: 'Exit Edit' }).waitFor();
    await page.locator('.widget-edit-bar').first().waitFor();
  }
  /** Resolves with the next view save's answer once it has come. */
  const nextSave = (page: Page) =>
    page.waitForResponse((r) => r.url().endsWith(`/api/group/${groupid}/view`) && r.request().method() === 'PUT');
  /** The resize handles shown (react-grid-layout keeps hidden ones in the page). */
  const handles = (scope: Locator): Locator => scope.locator('.react-resizable-handle').filter({ visible: true });
  const item = (page: Page, id: string): Locator => page.locator(`.react-grid-item[data-widget-id="${id}"]`);
  /** The grid's pixels per column and row step at the page's breakpoint. */
  async function steps(page: Page, bp: GridBreakpoint): Promise<{ col: number; row: number; top: number }> {
    const box = await page.locator('.dashboard-grid .react-grid-layout').boundingBox();
    if (!box) throw new Error('no grid');
    const cols = GRID_COLS[bp];
    const colWidth = (box.width - MARGIN * (cols - 1)) / cols;
    return { col: colWidth + MARGIN, row: GRID_ROW_HEIGHT + MARGIN, top: box.y };
  }
  /** Presses the mouse on `from`, moves by (dx, dy) in steps, releases. */
  async function dragBy(page: Page, from: Locator, dx: number, dy: number): Promise<void> {
    const box = await from.boundingBox();
    if (!box) throw new Error('nothing to drag');
    const x = box.x + Math.min(box.width / 2, 40);
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 5, y + 5, { steps: 2 });
    await page.mouse.move(x + dx, y + dy, { steps: 12 });
    await page.mouse.up();
  }
  const others = (bp: GridBreakpoint) => GRID_BREAKPOINT_NAMES.filter((b) => b !== bp);
  const layoutsOf = (view: View, id: string): WidgetLayouts => {
    const widget = view.widgets[id];
    if (!widget) throw new Error(`no ${id} in the view`);
    return widget.layouts;
  };

  beforeAll(async () => {
    stack = await startStack();
    const user = async (tag: string) => {
      const email = uniqueEmail(tag);
      await stack.createVerifiedUser(email, PASSWORD);
      const api = stack.apiClient();
      expect((await api('POST', '/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
      return { email, api };
    };
    owner = await user('edit-owner');
    viewer = await user('edit-viewer');
    groupid = await makeGroup(owner.api, 'Edit Yard');
    const device = await deviceInGroup(stack, owner.api, groupid, 'EDT', 'Yard Pump');
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

  it('Edit Widgets enters edit mode and Exit Edit leaves it; outside it nothing can be moved, resized or removed; a table has no resize handle nor Remove (VIEW-11, 16, 18, 19)', async () => {
    const page = await signedIn(owner.email);
    await openView(page, DEFAULT_VIEW.viewid);
    const grid = page.locator('.dashboard-grid');
    expect(await handles(grid).count()).toBe(0);
    expect(await page.locator('.widget-edit-bar').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);

    await enterEdit(page);
    // The default view: a table (moves, is edited, never removed nor resized) and a map (no settings to edit).
    const table = item(page, 'widget1');
    const map = item(page, 'widget2');
    expect(await handles(table).count()).toBe(0);
    expect(await table.getByRole('button', { name: 'Remove Table 1' }).count()).toBe(0);
    expect(await table.getByRole('link', { name: 'Edit Table 1' }).getAttribute('href')).toBe(
      `/group/${groupid}/${DEFAULT_VIEW.viewid}/editor/widget1?type=table`,
    );
    expect(await handles(map).count()).toBe(1);
    await map.getByRole('button', { name: 'Remove Map 1' }).waitFor();
    expect(await map.getByRole('link', { name: /^Edit / }).count()).toBe(0);
    await table.getByRole('button', { name: 'Move or resize Table 1' }).click();
    const tableSteps = table.getByRole('group', { name: 'Move or resize Table 1' });
    await tableSteps.getByRole('button', { name: 'Move Table 1 down' }).waitFor();
    expect(await tableSteps.getByRole('button', { name: /wider|narrower|taller|shorter/ }).count()).toBe(0);

    await page.getByRole('button', { name: 'Exit Edit' }).click();
    await page.getByRole('button', { name: 'Edit Widgets' }).waitFor();
    expect(await page.locator('.widget-edit-bar').count()).toBe(0);
    expect(await handles(grid).count()).toBe(0);
  });

  it('adds each kind below the others with layouts at lg, md and sm; a second map or table is refused with the message; remove asks first (VIEW-12, 15, 17, 20)', async () => {
    const view = await createView('Adding', DEFAULT_VIEW.widgets);
    const page = await signedIn(owner.email);
    await openView(page, view.viewid);
    await enterEdit(page);
    const add = page.getByRole('group', { name: 'Add Widget' });

    let saved = nextSave(page);
    await add.getByRole('button', { name: 'Add Chart' }).click();
    await saved;
    saved = nextSave(page);
    await add.getByRole('button', { name: 'Add Headline' }).click();
    await saved;
    await item(page, 'widget4').getByRole('link', { name: 'Edit Headline 1' }).waitFor();
    let stored = await storedView(view.viewid);
    expect(stored.widgets.widget3?.type).toBe('chart');
    expect(stored.widgets.widget4).toMatchObject({ type: 'headline', settings: { key: 'vsys', operator: 'avg' } });
    for (const bp of GRID_BREAKPOINT_NAMES) {
      expect(layoutsOf(stored, 'widget3')[bp].y).toBe(24);
      expect(layoutsOf(stored, 'widget4')[bp].y).toBe(24 + layoutsOf(stored, 'widget3')[bp].h);
    }
    expect(await item(page, 'widget3').getByRole('link', { name: 'Edit Chart 1' }).getAttribute('href')).toBe(
      `/group/${groupid}/${view.viewid}/editor/widget3?type=chart`,
    );

    // One map per view; a table only while there is none. Each refusal gives a notice of its own
    // (issue 32: a second map refused gave no feedback), stacked until the next change or Dismiss.
    const mapRefused = page.getByRole('alert').filter({ hasText: widgetLimitMessage('map', 1) });
    await add.getByRole('button', { name: 'Add Map' }).click();
    await mapRefused.first().waitFor();
    expect(await mapRefused.count()).toBe(1);
    await add.getByRole('button', { name: 'Add Map' }).click();
    await until('a second notice for the second refusal', async () => (await mapRefused.count()) === 2);
    await add.getByRole('button', { name: 'Add Table' }).click();
    await page.getByRole('alert').getByText(widgetLimitMessage('table', 1)).waitFor();
    expect(await page.locator('.view-edit-bar__notice').count()).toBe(3);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Dismiss the notices' }).click();
    await until('the notices dismissed', async () => (await page.locator('.view-edit-bar__notice').count()) === 0);
    await add.getByRole('button', { name: 'Add Map' }).click();
    await until('a refusal after Dismiss shows again', async () => (await mapRefused.count()) === 1);
    expect(Object.keys((await storedView(view.viewid)).widgets)).toHaveLength(4);

    // Remove asks first; Cancel keeps the map.
    await item(page, 'widget2').getByRole('button', { name: 'Remove Map 1' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Widget' });
    await confirm.getByText('Remove Map 1 from this view?').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await storedView(view.viewid)).widgets.widget2?.type).toBe('map');
    await item(page, 'widget2').getByRole('button', { name: 'Remove Map 1' }).click();
    saved = nextSave(page);
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await saved;
    await item(page, 'widget2').waitFor({ state: 'detached' });
    stored = await storedView(view.viewid);
    expect(stored.widgets.widget2).toBeUndefined();

    // Now a map can be added again; it goes below the others.
    saved = nextSave(page);
    await add.getByRole('button', { name: 'Add Map' }).click();
    await saved;
    stored = await storedView(view.viewid);
    expect(stored.widgets.widget5?.type).toBe('map');
    expect(layoutsOf(stored, 'widget5').lg.y).toBe(24 + 9 + 4);
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('button', { name: 'Exit Edit' }).click();
    await item(page, 'widget5').locator('.widget-card').waitFor();
  });

  it.each([
    { viewport: DESKTOP, bp: 'lg' as const },
    { viewport: TABLET, bp: 'md' as const },
    { viewport: PHONE, bp: 'sm' as const },
  ])(
    'at $viewport.width px a drag and a resize with the mouse are saved for $bp only, never below minW/minH (VIEW-13, 14, 24)',
    async ({ viewport, bp }) => {
      const view = await createView(`Drag ${bp}`, WIDGETS);
      const page = await signedIn(owner.email, viewport);
      await openView(page, view.viewid);
      await enterEdit(page);
      const { col, row } = await steps(page, bp);
      const before = view;

      // Drag the headline by its bar one column right and above the table: it goes to row 0, the table below it.
      const headline = layoutsOf(before, 'widget4')[bp];
      const handle = item(page, 'widget4').locator('.widget-edit-bar__drag');
      // The grid's top at the window's top, so the whole drag stays inside the window.
      await page.locator('.dashboard-grid').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      let saved = nextSave(page);
      await dragBy(page, handle, col, -(headline.y * row) - row / 2);
      await saved;
      let stored = await storedView(view.viewid);
      expect(layoutsOf(stored, 'widget4')[bp]).toMatchObject({ x: headline.x + 1, y: 0, w: headline.w, h: headline.h });
      expect(layoutsOf(stored, 'widget1')[bp].y).toBeGreaterThanOrEqual(headline.h);
      for (const other of others(bp)) {
        expect(layoutsOf(stored, 'widget4')[other]).toEqual(layoutsOf(before, 'widget4')[other]);
        expect(layoutsOf(stored, 'widget1')[other]).toEqual(layoutsOf(before, 'widget1')[other]);
      }

      // Resize the chart by its corner: one column narrower, two rows taller.
      const chart = layoutsOf(stored, 'widget3')[bp];
      const corner = item(page, 'widget3').locator('.react-resizable-handle');
      await corner.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      saved = nextSave(page);
      await dragBy(page, corner, -col, 2 * row);
      await saved;
      stored = await storedView(view.viewid);
      expect(layoutsOf(stored, 'widget3')[bp]).toMatchObject({ w: chart.w - 1, h: chart.h + 2, minW: chart.minW });
      for (const other of others(bp))
        expect(layoutsOf(stored, 'widget3')[other]).toEqual(layoutsOf(before, 'widget3')[other]);

      // Far smaller than allowed: it stops at minW x minH.
      saved = nextSave(page);
      // The chart's top at the window's top: the pointer goes up to it.
      await item(page, 'widget3').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await dragBy(page, corner, -(chart.w - 1) * col + col / 2, -(chart.h + 2) * row + row / 2);
      await saved;
      stored = await storedView(view.viewid);
      expect(layoutsOf(stored, 'widget3')[bp]).toMatchObject({ w: chart.minW, h: chart.minH });

      // The table has no corner to resize by.
      expect(await handles(item(page, 'widget1')).count()).toBe(0);
      // Nothing scrolls sideways in edit mode.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);

      // After a reload the saved layout is what the grid shows.
      await openView(page, view.viewid);
      const top = (await item(page, 'widget4').boundingBox())?.y ?? Number.NaN;
      const tableTop = (await item(page, 'widget1').boundingBox())?.y ?? Number.NaN;
      expect(top).toBeLessThan(tableTop);
    },
  );

  it('two browsers edit one view: the later save from a stale copy is refused (409) and offers Reload, which shows the other change; then it saves (DESIGN.md 5)', async () => {
    const view = await createView('Two editors', WIDGETS);
    const first = await signedIn(owner.email);
    const second = await signedIn(owner.email);
    for (const page of [first, second]) {
      await openView(page, view.viewid);
      await enterEdit(page);
      await page.locator('.dashboard-grid').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    }
    const { col } = await steps(first, 'lg');
    const headline = layoutsOf(view, 'widget4').lg;
    const chart = layoutsOf(view, 'widget3').lg;

    // The first moves the headline one column right.
    const moved = nextSave(first);
    await dragBy(first, item(first, 'widget4').locator('.widget-edit-bar__drag'), col, 0);
    expect((await moved).status()).toBe(200);

    // The second, still on the version it loaded, makes the chart a column narrower: refused.
    const corner = item(second, 'widget3').locator('.react-resizable-handle');
    await corner.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const refused = nextSave(second);
    await dragBy(second, corner, -col, 0);
    expect((await refused).status()).toBe(409);
    const notice = second.getByRole('alert').filter({ has: second.getByRole('button', { name: 'Reload' }) });
    await notice.waitFor();
    expect(layoutsOf(await storedView(view.viewid), 'widget3').lg.w).toBe(chart.w);
    expect(await seriousAxeViolations(second)).toEqual([]);

    // Reload shows the first's move; the resize made again is saved, and both changes are kept.
    await notice.getByRole('button', { name: 'Reload' }).click();
    await notice.waitFor({ state: 'detached' });
    const firstBox = await item(first, 'widget4').boundingBox();
    await until('the second shows the moved headline', async () => {
      const box = await item(second, 'widget4').boundingBox();
      return box !== null && firstBox !== null && Math.abs(box.x - firstBox.x) < 2;
    });
    await corner.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const saved = nextSave(second);
    await dragBy(second, corner, -col, 0);
    expect((await saved).status()).toBe(200);
    const stored = await storedView(view.viewid);
    expect(layoutsOf(stored, 'widget4').lg).toMatchObject({ x: headline.x + 1, y: headline.y });
    expect(layoutsOf(stored, 'widget3').lg).toMatchObject({ w: chart.w - 1, h: chart.h });
    expect(stored.version).toBe(view.version + 2);
  });

  it('keyboard users move and resize with the step buttons; focus stays on the button (VIEW-13, 14 by keyboard)', async () => {
    const view = await createView('Keys', WIDGETS);
    const page = await signedIn(owner.email);
    await openView(page, view.viewid);
    await enterEdit(page);
    const headline = item(page, 'widget4');
    await headline.getByRole('button', { name: 'Move or resize Headline 1' }).focus();
    await page.keyboard.press('Enter');
    const right = headline.getByRole('button', { name: 'Move Headline 1 right' });
    await right.waitFor();
    await right.focus();
    let saved = nextSave(page);
    await page.keyboard.press('Enter');
    await saved;
    expect(layoutsOf(await storedView(view.viewid), 'widget4').lg).toMatchObject({ x: 7, y: 8 });
    expect(await right.evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const wider = headline.getByRole('button', { name: 'Make Headline 1 wider' });
    expect(await wider.evaluate((el) => el === document.activeElement)).toBe(true);
    saved = nextSave(page);
    await page.keyboard.press('Enter');
    await saved;
    expect(layoutsOf(await storedView(view.viewid), 'widget4').lg).toMatchObject({ x: 7, w: 4 });

    // Up swaps with the widget above: the headline above the table.
    const up = headline.getByRole('button', { name: 'Move Headline 1 up' });
    await up.focus();
    saved = nextSave(page);
    await page.keyboard.press('Enter');
    await saved;
    const stored = await storedView(view.viewid);
    expect(layoutsOf(stored, 'widget4').lg).toMatchObject({ y: 0 });
    expect(layoutsOf(stored, 'widget1').lg.y).toBeGreaterThanOrEqual(4);
    expect(layoutsOf(stored, 'widget4').md).toEqual(WIDGETS.widget4.layouts.md);
    await until('focus back on Move up', () => up.evaluate((el) => el === document.activeElement));
  });

  it('a VIEW member has no Edit Widgets, and the server refuses their save', async () => {
    const view = await storedView(DEFAULT_VIEW.viewid).catch(() => DEFAULT_VIEW);
    const page = await signedIn(viewer.email);
    await openView(page, view.viewid);
    await page.getByRole('button', { name: /^View Range:/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Edit Widgets' }).count()).toBe(0);
    expect(await page.locator('.widget-edit-bar').count()).toBe(0);
    expect(await handles(page.locator('.dashboard-grid')).count()).toBe(0);
    const refused = await viewer.api('PUT', `/api/group/${groupid}/view`, { view: { ...view, widgets: {} } });
    expect(refused.status).toBe(403);
  });

  it('axe finds nothing serious in edit mode, with the steps and the remove dialog open, at 1280, 800 and 390 px', async () => {
    const view = await createView('Axe', { ...WIDGETS, widget2: DEFAULT_VIEW.widgets.widget2 });
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
    for (const viewport of [DESKTOP, TABLET, PHONE]) {
      const page = await signedIn(owner.email, viewport);
      await openView(page, view.viewid);
      await enterEdit(page);
      await item(page, 'widget4').getByRole('button', { name: 'Move or resize Headline 1' }).click();
      await page.getByRole('group', { name: 'Move or resize Headline 1' }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/edit-${viewport.width}.png`, fullPage: true });
      await item(page, 'widget2').getByRole('button', { name: 'Remove Map 1' }).click();
      const confirm = page.getByRole('dialog', { name: 'Remove Widget' });
      await confirm.waitFor();
      expect(await seriousAxeViolations(page, '.view-dialog')).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/remove-${viewport.width}.png` });
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'hidden' });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
    }
  }, 180_000);
});
