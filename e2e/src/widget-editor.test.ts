// The widget editor in Chromium against the real server (spec 1 sections 2 and 8, spec 2 sections
// 2, 3 and 9; ledger TBL-21, TBL-22, TBL-23, CHT-01 - CHT-03, CHT-09 - CHT-12, CHT-17): an editor
// opens the default view's table at /group/{groupid}/view1/editor/widget1, adds a configured column
// (key from the group's known keys, unit in the header, dp 1, a threshold), saves through the real
// PUT /group/{groupid}/view and sees on the view the header unit, 3.14159 shown as 3.1 and the
// threshold colour on the value that reaches it, the trendColor underlining the values; a headline's
// operator change is saved; a chart refuses a 16th series; 'Widget not found' and 'View not found';
// Cancel with changes asks first; a stale save (409) offers Reload and keeps the other's change;
// a VIEW member is told they cannot edit and the server refuses their save (403); the options
// beside a live preview drawn by the dashboard's own widget from real data (above them on a
// phone), series first, each colour swatch showing the colour that will be used (issue 32);
// axe-clean, at 1280 and 390 px.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  DEFAULT_VIEW,
  MAX_GROUP_CHART_SERIES,
  VIEW_NOT_FOUND,
  WIDGET_NOT_FOUND,
  widgetLimitMessage,
  type View,
  type ViewInput,
  type ViewListResponse,
  type ViewSaveResponse,
  type WidgetLayouts,
} from '@portal/core';
import { DESKTOP, PHONE, chromiumAvailable } from './browser';
import { startStack, uniqueEmail, type Stack } from './harness';
import { deviceInGroup, expectPath, makeGroup, seriousAxeViolations, signedInPageOf, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
const PASSWORD = 'editor-password-2026';
/** Where the screenshots go (looked at by hand: 1280 and 390 px). */
const SHOTS = process.env.E2E_SHOTS ?? join(tmpdir(), 'widget-editor-shots');
/** The threshold's colour, as the browser reports it. */
const THRESHOLD = { hex: '#b42318', rgb: 'rgb(180, 35, 24)' };
/** The column's trendColor, which underlines its values. */
const TREND = { hex: '#1f4e79', rgb: 'rgb(31, 78, 121)' };

type Api = ReturnType<Stack['apiClient']>;

const layouts = (y: number, h: number): WidgetLayouts => ({
  lg: { x: 0, y, w: 12, h, minW: 2, minH: 4 },
  md: { x: 0, y, w: 6, h, minW: 2, minH: 4 },
  sm: { x: 0, y, w: 4, h, minW: 2, minH: 4 },
});

describe.skipIf(!chromiumAvailable() && !required)('the widget editor', () => {
  let stack: Stack;
  let owner: { email: string; api: Api };
  let viewer: { email: string; api: Api };
  let groupid: string;
  let pumpA: string;
  let pumpB: string;
  let tilesView: string;
  let previewView: string;
  const contexts: BrowserContext[] = [];

  const signedIn = (email: string, viewport = DESKTOP): Promise<Page> =>
    signedInPageOf(stack, contexts, { email, password: PASSWORD }, { viewport });

  const storedView = async (viewid: string): Promise<View> => {
    const answer = await owner.api<ViewListResponse>('GET', `/api/group/${groupid}/views`);
    expect(answer.status).toBe(200);
    const view = answer.body.views.find((v) => v.viewid === viewid);
    if (!view) throw new Error(`view ${viewid} is not stored`);
    return view;
  };
  const editorPath = (viewid: string, widgetid: string, type: string) =>
    `/group/${groupid}/${viewid}/editor/${widgetid}?type=${type}`;
  /** A field of the editor by its settings path ('columns.4.dp'). */
  const field = (page: Page, path: string) => page.locator(`#field-we-${path.replace(/\./g, '-')}`);
  /** Chooses `option` in the PrimeReact dropdown whose input is the field at `path`. */
  async function choose(page: Page, path: string, option: string): Promise<void> {
    await page.locator('.p-dropdown', { has: field(page, path) }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
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
    owner = await user('editor-owner');
    viewer = await user('editor-viewer');
    groupid = await makeGroup(owner.api, 'Editor Yard');
    const [a, b] = await Promise.all([
      deviceInGroup(stack, owner.api, groupid, 'WEA', 'Pump A'),
      deviceInGroup(stack, owner.api, groupid, 'WEB', 'Pump B'),
    ]);
    pumpA = a.id;
    pumpB = b.id;
    const now = Math.floor(Date.now() / 1000);
    // Pump A's flow is below the threshold (10) and shows 3.1 at dp 1; Pump B's reaches it.
    // Pump A's flow over the range: 1, 2 and 3.14159 (TBL-19: avg 2.05, max 3.14, sum 6.14).
    await stack.publish(a, { ts: now - 7200, flow: 1, vsys: 12.2 });
    await stack.publish(a, { ts: now - 5400, flow: 2, vsys: 12.3 });
    await stack.publish(a, { ts: now - 120, flow: 3.14159, vsys: 12.4 });
    await stack.publish(b, { ts: now - 120, flow: 12.5, vsys: 12.1 });
    const shared = await owner.api('POST', `/api/group/${groupid}/user`, {
      targetEmail: viewer.email,
      targetPermission: 'VIEW',
    });
    expect(shared.status).toBe(200);

    // A view with a headline (operator left to its default) and a chart of 14 series.
    const series = Array.from({ length: MAX_GROUP_CHART_SERIES - 1 }, (_, i) => ({
      source: i % 2 === 0 ? pumpA : pumpB,
      key: i < 7 ? 'flow' : 'vsys',
    }));
    const view: ViewInput = {
      name: 'Tiles',
      sortOrder: 2,
      timeRange: { type: 'day', amount: 1 },
      widgets: {
        h1: { type: 'headline', settings: { key: 'flow', dataType: 'number', dp: 1 }, layouts: layouts(0, 4) },
        c1: { type: 'chart', settings: { name: 'Flows', series }, layouts: layouts(4, 8) },
      } as unknown as ViewInput['widgets'],
    };
    const made = await owner.api<ViewSaveResponse>('PUT', `/api/group/${groupid}/view`, { view });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    tilesView = made.body.view.viewid;
    // A view for the preview: a chart of both pumps' flow and a headline of its average.
    const preview = await owner.api<ViewSaveResponse>('PUT', `/api/group/${groupid}/view`, {
      view: {
        name: 'Preview',
        sortOrder: 4,
        timeRange: { type: 'day', amount: 1 },
        widgets: {
          c1: {
            type: 'chart',
            settings: {
              name: 'Flows',
              series: [
                { source: pumpA, key: 'flow' },
                { source: pumpB, key: 'flow' },
              ],
            },
            layouts: layouts(0, 8),
          },
          h1: { type: 'headline', settings: { key: 'flow', dataType: 'number', dp: 1 }, layouts: layouts(8, 4) },
        },
      },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    previewView = preview.body.view.viewid;
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('a table column with unit in header, dp 1 and a threshold is saved and shown so on the view (TBL-21, TBL-22, TBL-23)', async () => {
    const page = await signedIn(owner.email);
    await page.goto(stack.url(editorPath(DEFAULT_VIEW.viewid, 'widget1', 'table')));
    await page.getByRole('heading', { name: 'Edit Table', level: 1 }).waitFor();
    // The default view's four special columns come first.
    expect(await page.locator('li.we-item[aria-label^="Column"]').count()).toBe(4);

    await page.getByRole('button', { name: 'Add column' }).click();
    // A blank trend colour draws no line: its swatch says none, not a colour that would not be used.
    const trendSwatch = page.locator('.we-colour:has(#field-we-columns-4-trendColor) input[type="color"]');
    expect(await trendSwatch.getAttribute('data-colour')).toBe('none');
    expect(await field(page, 'columns.4.trendColor').getAttribute('placeholder')).toBe('None');
    // The key comes from the group's known keys: typing suggests flow (the devices' records have it).
    await field(page, 'columns.4.key').fill('fl');
    // (Typing the whole key then closes the list: a click on the suggestion raced the list's own refresh.)
    await page.getByRole('option', { name: 'flow', exact: true }).waitFor();
    await field(page, 'columns.4.key').fill('flow');
    await page.keyboard.press('Escape');
    await until('the key set', async () => (await field(page, 'columns.4.key').inputValue()) === 'flow');
    await field(page, 'columns.4.name').fill('Flow');
    await field(page, 'columns.4.unit').fill('L/s');
    await page.locator('label[for="field-we-columns-4-unitInHeader"]').click();
    await field(page, 'columns.4.dp').fill('1');
    await page.getByRole('button', { name: 'Add threshold to column 5 (Flow)' }).click();
    await field(page, 'columns.4.thresholds.0.value').fill('10');
    await field(page, 'columns.4.thresholds.0.colour').fill(THRESHOLD.hex);
    await field(page, 'columns.4.trendColor').fill(TREND.hex);

    // A value that is not a number is refused beside its field with the contract's message; the save waits.
    await field(page, 'columns.4.dp').fill('x');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#field-we-columns-4-dp-error').waitFor();
    expect(await page.locator('#field-we-columns-4-dp-error').textContent()).toMatch(/number/i);
    await field(page, 'columns.4.dp').fill('1');
    await until('the message gone', async () => (await page.locator('#field-we-columns-4-dp-error').count()) === 0);

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'table-editor-1280.png'), fullPage: true });

    await page.getByRole('button', { name: 'Save' }).click();
    await expectPath(page, `/group/${groupid}/${DEFAULT_VIEW.viewid}`);

    const stored = await storedView(DEFAULT_VIEW.viewid);
    expect(stored.widgets.widget1?.settings.columns).toEqual([
      ...(DEFAULT_VIEW.widgets.widget1!.settings.columns as unknown[]),
      {
        key: 'flow',
        dataType: 'number',
        name: 'Flow',
        unit: 'L/s',
        unitInHeader: true,
        dp: 1,
        trendColor: TREND.hex,
        thresholds: [{ value: 10, colour: THRESHOLD.hex }],
      },
    ]);

    // On the view: the unit in the header, not in the cells; 3.14159 as 3.1; 12.5 marked in the threshold's colour.
    const table = page.getByTestId('group-table');
    await table.getByRole('columnheader', { name: 'Flow (L/s)' }).waitFor();
    const rowOf = (deviceid: string) => table.getByRole('row').filter({ hasText: deviceid });
    const cellA = rowOf(pumpA).locator('.gt-metric');
    const cellB = rowOf(pumpB).locator('.gt-metric');
    await until('Pump A shows 3.1', async () => (await cellA.textContent())?.trim() === '3.1');
    expect((await cellB.textContent())?.trim()).toBe('12.5');
    expect(await cellA.locator('.gt-metric__mark').count()).toBe(0);
    // Polled: the table may draw its rows again as its height settles to fit them (issue 32).
    await expect
      .poll(() => cellB.locator('.gt-metric__mark').evaluate((el) => getComputedStyle(el).backgroundColor))
      .toBe(THRESHOLD.rgb);
    // The trendColor underlines the values (TBL-23).
    expect(await cellA.evaluate((el) => getComputedStyle(el).textDecorationColor)).toBe(TREND.rgb);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'table-view-1280.png') });
  });

  it("a column's operator is taken per device over the view's range: avg, max, sum; latest is the newest value (TBL-19)", async () => {
    const column = (operator: string) => ({
      key: 'flow',
      dataType: 'number',
      name: `Flow ${operator}`,
      dp: 2,
      operator,
    });
    const view: ViewInput = {
      name: 'Operators',
      sortOrder: 3,
      timeRange: { type: 'day', amount: 1 },
      widgets: {
        t1: {
          type: 'table',
          settings: { columns: [{ key: 'deviceid', dataType: 'string', name: 'Device' }, column('avg')] },
          layouts: layouts(0, 12),
        },
      } as unknown as ViewInput['widgets'],
    };
    const made = await owner.api<ViewSaveResponse>('PUT', `/api/group/${groupid}/view`, { view });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const viewid = made.body.view.viewid;
    const page = await signedIn(owner.email);
    await page.goto(stack.url(`/group/${groupid}/${viewid}`));
    const table = page.getByTestId('group-table');
    const cellOf = (deviceid: string) => table.getByRole('row').filter({ hasText: deviceid }).locator('.gt-metric');
    await table.getByRole('columnheader', { name: 'Flow avg' }).waitFor();
    // (The rollups may be written a few seconds after the records: the refresh button reads again.)
    await until('Pump A shows its average', async () => {
      if ((await cellOf(pumpA).textContent())?.trim() === '2.05') return true;
      await page
        .getByTestId('group-table')
        .getByRole('button', { name: /refresh/i })
        .click()
        .catch(() => undefined);
      return false;
    });
    expect((await cellOf(pumpB).textContent())?.trim()).toBe('12.50');
    for (const [operator, a, b] of [
      ['max', '3.14', '12.50'],
      ['sum', '6.14', '12.50'],
      ['latest', '3.14', '12.50'],
    ] as const) {
      const saved = await owner.api<ViewSaveResponse>('PUT', `/api/group/${groupid}/view`, {
        view: {
          ...view,
          viewid,
          version: (await storedView(viewid)).version,
          widgets: {
            t1: {
              ...view.widgets.t1!,
              settings: { columns: [{ key: 'deviceid', dataType: 'string', name: 'Device' }, column(operator)] },
            },
          },
        },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      await page.reload();
      await table.getByRole('columnheader', { name: `Flow ${operator}` }).waitFor();
      await until(`Pump A shows its ${operator}`, async () => (await cellOf(pumpA).textContent())?.trim() === a);
      expect((await cellOf(pumpB).textContent())?.trim()).toBe(b);
    }
  });

  it("a headline's operator change is saved (avg by default, CHT-01 - CHT-03)", async () => {
    const page = await signedIn(owner.email);
    await page.goto(stack.url(editorPath(tilesView, 'h1', 'headline')));
    await page.getByRole('heading', { name: 'Edit Headline', level: 1 }).waitFor();
    // Saved without an operator, it shows avg.
    expect(await page.locator('.p-dropdown', { has: field(page, 'operator') }).textContent()).toContain('Average');
    await choose(page, 'operator', 'Maximum');
    // dp 9 is clamped to 5 by the contract when saved.
    await field(page, 'dp').fill('9');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectPath(page, `/group/${groupid}/${tilesView}`);
    const stored = await storedView(tilesView);
    expect(stored.widgets.h1?.settings).toEqual({ key: 'flow', dataType: 'number', operator: 'max', dp: 5 });
    // The chart was left as it was.
    expect((stored.widgets.c1?.settings.series as unknown[]).length).toBe(MAX_GROUP_CHART_SERIES - 1);
    await page.getByRole('region', { name: 'flow · Maximum', exact: true }).waitFor();
  });

  it('a chart takes a 15th series and refuses a 16th (CHT-17); phone width works', async () => {
    const page = await signedIn(owner.email, PHONE);
    await page.goto(stack.url(editorPath(tilesView, 'c1', 'chart')));
    await page.getByRole('heading', { name: 'Edit Chart', level: 1 }).waitFor();
    const items = page.locator('li.we-item[aria-label^="Series"]');
    expect(await items.count()).toBe(MAX_GROUP_CHART_SERIES - 1);
    const add = page.getByRole('button', { name: 'Add series' });
    await add.click();
    expect(await items.count()).toBe(MAX_GROUP_CHART_SERIES);
    // A new series starts with line width 2 (CHT-11).
    expect(await field(page, `series.${MAX_GROUP_CHART_SERIES - 1}.lineWidth`).inputValue()).toBe('2');
    await add.click();
    await page
      .getByRole('alert')
      .filter({ hasText: widgetLimitMessage('serie', MAX_GROUP_CHART_SERIES) })
      .waitFor();
    expect(widgetLimitMessage('serie', MAX_GROUP_CHART_SERIES)).toBe('Maximum number of series reached [15]');
    expect(await items.count()).toBe(MAX_GROUP_CHART_SERIES);
    // Nothing wider than the phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'chart-editor-390.png'), fullPage: false });
  });

  /** The swatch beside the colour field at `path`: the colour it shows (data-colour, #rrggbb or 'none'). */
  const swatch = (page: Page, path: string) =>
    page.locator(`.we-colour:has(#field-we-${path.replace(/\./g, '-')}) input[type="color"]`);

  it('at 1280 px the options sit beside a live preview of the real chart; series first; swatches show the colours used (issue 32)', async () => {
    const page = await signedIn(owner.email);
    await page.goto(stack.url(editorPath(previewView, 'c1', 'chart')));
    await page.getByRole('heading', { name: 'Edit Chart', level: 1 }).waitFor();
    const preview = page.getByRole('region', { name: 'Preview' });
    const form = page.locator('form.we-body');

    // Beside: the preview on the left, the options on the right, both starting in the first screenful.
    const [p, f] = [(await preview.boundingBox())!, (await form.boundingBox())!];
    expect(p.x + p.width).toBeLessThanOrEqual(f.x);
    expect(Math.abs(p.y - f.y)).toBeLessThan(40);
    expect(p.y + p.height).toBeLessThan(DESKTOP.height);

    // The dashboard's own chart over the group's data: both series in its legend.
    const chart = preview.locator('.group-chart');
    await chart.locator('.chart-plot__legend .u-series').nth(2).waitFor();
    expect(await chart.locator('.chart-plot__legend .u-series .u-label').allTextContents()).toEqual([
      'Time',
      'Pump A · flow',
      'Pump B · flow',
    ]);

    // Series first, 'Add series' above the first series.
    expect(await form.locator('fieldset > legend').first().textContent()).toBe('Series (2 of 15)');
    const addBox = (await page.getByRole('button', { name: 'Add series' }).boundingBox())!;
    const firstSeries = (await page.locator('li.we-item[aria-label="Series 1"]').boundingBox())!;
    expect(addBox.y + addBox.height).toBeLessThanOrEqual(firstSeries.y);

    // A series without a colour shows the palette's colour the chart draws it in, not black.
    expect(await swatch(page, 'series.0.colour').getAttribute('data-colour')).toBe('#0072b2');
    expect(await swatch(page, 'series.0.colour').inputValue()).toBe('#0072b2');
    expect(await swatch(page, 'series.1.colour').getAttribute('data-colour')).toBe('#e69f00');
    expect(await field(page, 'series.0.colour').getAttribute('placeholder')).toBe('Automatic');
    const marker = (n: number) =>
      chart
        .locator('.chart-plot__legend .u-series')
        .nth(n)
        .locator('.u-marker')
        .evaluate((el) => getComputedStyle(el).borderColor);
    expect(await marker(1)).toBe('rgb(0, 114, 178)');
    // Axes and labels show the chart's ink; the background the card's ground.
    expect(await swatch(page, 'axis.ax1.colour').getAttribute('data-colour')).toBe('#59636e');
    expect(await swatch(page, 'dataLabelColor').getAttribute('data-colour')).toBe('#59636e');
    expect(await swatch(page, 'backgroundColor').getAttribute('data-colour')).toBe('#ffffff');

    // Live: a new name and colour show in the preview as they are typed (any CSS colour).
    await field(page, 'name').fill('Live flows');
    await preview.getByRole('heading', { name: 'Live flows' }).waitFor();
    await field(page, 'series.0.colour').fill('grey');
    expect(await swatch(page, 'series.0.colour').getAttribute('data-colour')).toBe('#808080');
    await until('the preview draws series 1 grey', async () => (await marker(1)) === 'rgb(128, 128, 128)');
    // Nothing saved yet.
    expect((await storedView(previewView)).widgets.c1?.settings.name).toBe('Flows');

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'chart-editor-preview-1280.png') });
  });

  it("a headline's preview shows its value from the records, and says why when there is none (issue 32)", async () => {
    const page = await signedIn(owner.email);
    await page.goto(stack.url(editorPath(previewView, 'h1', 'headline')));
    const preview = page.getByRole('region', { name: 'Preview' });
    // flow over the last day: 1, 2, 3.14159 (Pump A) and 12.5 (Pump B), average 4.66.
    await until('the value', async () => (await preview.locator('.headline__value').textContent()) === '4.7');
    expect(await swatch(page, 'trendColor').getAttribute('data-colour')).toBe('#1f2937');
    await field(page, 'key').fill('nothing_here');
    await page.keyboard.press('Escape');
    await preview.getByText('No data in this period').waitFor();
    expect(await preview.locator('.headline__value').textContent()).toBe('---');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'headline-editor-preview-1280.png') });
  });

  it('at 390 px the preview stands above the options and nothing scrolls sideways (issue 32)', async () => {
    const page = await signedIn(owner.email, PHONE);
    await page.goto(stack.url(editorPath(previewView, 'c1', 'chart')));
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.locator('.group-chart .chart-plot__legend .u-series').nth(2).waitFor();
    const [p, f] = [(await preview.boundingBox())!, (await page.locator('form.we-body').boundingBox())!];
    expect(p.y + p.height).toBeLessThanOrEqual(f.y);
    expect(p.width).toBeGreaterThan(PHONE.width - 40);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'chart-editor-preview-390.png'), fullPage: false });
  });

  it("'Widget not found', 'View not found', and Cancel with changes asks before leaving", async () => {
    const page = await signedIn(owner.email);
    await page.goto(stack.url(editorPath(DEFAULT_VIEW.viewid, 'widget99', 'table')));
    await page.getByRole('heading', { name: WIDGET_NOT_FOUND }).waitFor();
    await page.goto(stack.url(editorPath('no-such-view', 'widget1', 'table')));
    await page.getByRole('heading', { name: VIEW_NOT_FOUND }).waitFor();

    const before = await storedView(tilesView);
    await page.goto(stack.url(editorPath(tilesView, 'h1', 'headline')));
    await field(page, 'unit').fill('m3');
    await page.getByRole('button', { name: 'Cancel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Discard changes?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Discard changes' }).click();
    await expectPath(page, `/group/${groupid}/${tilesView}`);
    expect(await storedView(tilesView)).toEqual(before);
  });

  it('a save from a stale copy (409) offers Reload, which loads the stored view; the next save goes through', async () => {
    const page = await signedIn(owner.email);
    await page.goto(stack.url(editorPath(tilesView, 'h1', 'headline')));
    await field(page, 'unit').waitFor();
    // Someone else saves the view meanwhile (its version moves on).
    const other = await storedView(tilesView);
    const { viewid, sortOrder, timeRange, widgets, version } = other;
    const theirs = await owner.api('PUT', `/api/group/${groupid}/view`, {
      view: { viewid, name: 'Tiles 2', sortOrder, timeRange, widgets, version },
    });
    expect(theirs.status).toBe(200);
    await field(page, 'unit').fill('m3/h');
    await page.getByRole('button', { name: 'Save' }).click();
    const stale = page.getByRole('alert').filter({ hasText: 'changed by someone else' });
    await stale.waitFor();
    await stale.getByRole('button', { name: 'Reload' }).click();
    await until('the form starts again', async () => (await field(page, 'unit').inputValue()) === '');
    await field(page, 'unit').fill('m3/h');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectPath(page, `/group/${groupid}/${tilesView}`);
    const stored = await storedView(tilesView);
    // Their change stays, and so does this one.
    expect(stored.name).toBe('Tiles 2');
    expect(stored.widgets.h1?.settings.unit).toBe('m3/h');
  });

  it('a VIEW member is told they cannot edit, and the server refuses their save (403)', async () => {
    const page = await signedIn(viewer.email);
    await page.goto(stack.url(editorPath(tilesView, 'h1', 'headline')));
    await page.getByRole('heading', { name: 'You cannot edit this widget' }).waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    const view = await storedView(tilesView);
    const { viewid, name, sortOrder, timeRange, widgets, version } = view;
    const refused = await viewer.api('PUT', `/api/group/${groupid}/view`, {
      view: {
        viewid,
        name,
        sortOrder,
        timeRange,
        version,
        widgets: { ...widgets, h1: { ...widgets.h1, settings: { key: 'flow', operator: 'min' } } },
      },
    });
    expect(refused.status).toBe(403);
    expect(await storedView(tilesView)).toEqual(view);
  });
});
