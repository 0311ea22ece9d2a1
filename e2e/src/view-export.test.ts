// Widget export and view copy / view files, in Chromium against the real server (issue 13): the table
// widget's and a headline tile's Export CSV and Export Excel (the downloads caught, the CSV parsed, the
// workbook read back with exceljs), named with the group, the widget and the view's range; a view copied
// to another group where the user edits views (chart series of devices not there dropped, with the
// notice); a view exported as a JSON file and imported into another group as a new view; tampered and
// wrong files refused with the message naming what is wrong; axe with the menu and the dialog open.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Download, Page } from 'playwright-core';
import { Workbook } from 'exceljs';
import {
  HEADLINE_EXPORT_COLUMNS,
  VIEW_FILE_FORMAT,
  VIEW_FILE_FORMAT_VERSION,
  VIEW_TRANSFER_MESSAGES,
  exportFileName,
  headlineTitle,
  resolveHeadline,
  resolveTimeRange,
  type View,
  type ViewFile,
  type ViewInput,
  type ViewListResponse,
  type ViewSaveResponse,
  type WidgetLayouts,
} from '@portal/core';
import { DESKTOP, PHONE, chromiumAvailable } from './browser';
import { startStack, uniqueEmail, type Stack } from './harness';
import { deviceInGroup, makeGroup, parseCsv, seriousAxeViolations, signedInPageOf, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
const PASSWORD = 'export-password-2026';
/** The browsers run in a zone of their own, not the machine's: file names carry its dates. */
const ZONE = 'Europe/Berlin';
/** Where downloads, edited files and screenshots go (screenshots looked at by hand). */
const WORK = process.env.E2E_SHOTS ?? join(tmpdir(), `view-export-${process.pid}`);

type Api = ReturnType<Stack['apiClient']>;

const layouts = (y: number, w: number, h: number): WidgetLayouts => ({
  lg: { x: 0, y, w, h, minW: Math.min(w, 2), minH: 4 },
  md: { x: 0, y, w: Math.min(w, 6), h, minW: 2, minH: 4 },
  sm: { x: 0, y, w: Math.min(w, 4), h, minW: 2, minH: 4 },
});

const HEADLINE = { key: 'vsys', operator: 'max', dp: 2 } as const;
const HEADLINE_TITLE = headlineTitle(resolveHeadline(HEADLINE));

describe.skipIf(!chromiumAvailable() && !required)('widget export, view copy and view files', () => {
  let stack: Stack;
  let owner: { email: string; api: Api };
  let yard: string;
  let second: string;
  let third: string;
  let watched: string;
  let view: View;
  const ids: Record<'a' | 'b' | 'c' | 'second', string> = { a: '', b: '', c: '', second: '' };
  const contexts: BrowserContext[] = [];

  const signedIn = (viewport = DESKTOP): Promise<Page> =>
    signedInPageOf(
      stack,
      contexts,
      { email: owner.email, password: PASSWORD },
      { viewport, context: { timezoneId: ZONE, acceptDownloads: true } },
    );

  const viewsOf = async (groupid: string): Promise<View[]> => {
    const answer = await owner.api<ViewListResponse>('GET', `/api/group/${groupid}/views`);
    expect(answer.status).toBe(200);
    return answer.body.views;
  };

  /** The file name a widget's export should have now (the range resolved in the browser's zone). */
  const expectedName = (title: string, extension: string) =>
    exportFileName(
      { groupName: 'Export Yard', title, range: resolveTimeRange(view.timeRange, Date.now(), ZONE), timeZone: ZONE },
      extension,
    );

  /** Opens a widget's export menu and picks an item; answers the download. */
  async function exportFrom(page: Page, widgetTitle: string, item: 'Export CSV' | 'Export Excel'): Promise<Download> {
    const card = page.getByRole('region', { name: widgetTitle, exact: true });
    await card.getByRole('button', { name: `Export ${widgetTitle}` }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: item }).click(),
    ]);
    return download;
  }

  async function csvOf(download: Download): Promise<string[][]> {
    const text = readFileSync(await download.path(), 'utf8');
    expect(text.startsWith('\uFEFF'), 'a byte order mark for spreadsheets').toBe(true);
    return parseCsv(text.slice(1));
  }

  const table = (page: Page) => page.getByTestId('group-table');
  const bodyRows = (page: Page) => table(page).locator('tbody.p-datatable-tbody > tr.gt-row');
  const headerCell = (page: Page, name: string) =>
    table(page)
      .locator('thead th')
      .filter({ has: page.locator('.p-column-title', { hasText: name }) });

  async function openView(page: Page, groupid = yard, viewid = view.viewid): Promise<void> {
    await page.goto(stack.url(`/group/${groupid}/${viewid}`));
    await bodyRows(page).first().waitFor();
  }

  async function openSettings(page: Page) {
    await page.getByRole('button', { name: 'View Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'View Settings' });
    await dialog.waitFor();
    return dialog;
  }

  beforeAll(async () => {
    mkdirSync(WORK, { recursive: true });
    stack = await startStack();
    const email = uniqueEmail('export-owner');
    await stack.createVerifiedUser(email, PASSWORD);
    const api = stack.apiClient();
    expect((await api('POST', '/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
    owner = { email, api };

    yard = await makeGroup(api, 'Export Yard');
    second = await makeGroup(api, 'Second Yard');
    third = await makeGroup(api, 'Third Yard');
    // Two hours ago: inside the headline's current period, which ends at the start of this hour.
    const now = Math.floor(Date.now() / 1000) - 2 * 3600;
    const a = await deviceInGroup(stack, api, yard, 'EXA', 'North Pump');
    const b = await deviceInGroup(stack, api, yard, 'EXB', 'South Pump');
    const c = await deviceInGroup(stack, api, yard, 'EXC', 'West Pump');
    const s = await deviceInGroup(stack, api, second, 'EXS', 'Second Pump');
    await deviceInGroup(stack, api, third, 'EXT', 'Third Pump');
    Object.assign(ids, { a: a.id, b: b.id, c: c.id, second: s.id });
    await stack.publish(a, { ts: now, vsys: 12.4, temp: -3.24 });
    await stack.publish(b, { ts: now, vsys: 11.9, temp: 20 });
    // A day before: the headline's previous period (the view shows the last 24 hours).
    await stack.publish(c, [
      { ts: now - 24 * 3600, vsys: 12 },
      { ts: now, vsys: 13.1 },
    ]);

    // A group where the owner only watches (VIEW): never offered as a copy target.
    const other = stack.apiClient();
    const otherEmail = uniqueEmail('export-other');
    await stack.createVerifiedUser(otherEmail, PASSWORD);
    expect((await other('POST', '/api/auth/login', { email: otherEmail, password: PASSWORD })).status).toBe(200);
    watched = await makeGroup(other, 'Watched Yard');
    const shared = await other('POST', `/api/group/${watched}/user`, { targetEmail: email, targetPermission: 'VIEW' });
    expect(shared.status).toBe(200);

    const widgets: ViewInput['widgets'] = {
      t1: {
        type: 'table',
        settings: {
          columns: [
            { key: 'deviceid', dataType: 'special', name: 'Device ID' },
            { key: 'temp', dataType: 'number', name: 'Temp', unit: '°C', dp: 1 },
            { key: 'vsys', dataType: 'number', name: 'Battery', unit: 'V', unitInHeader: true, dp: 2 },
          ],
        },
        layouts: layouts(0, 12, 10),
      },
      h1: { type: 'headline', settings: HEADLINE, layouts: layouts(10, 3, 4) },
      c1: {
        type: 'chart',
        settings: {
          name: 'Voltages',
          series: [
            { source: a.id, key: 'vsys', axisBind: 'ax1', lineWidth: 2 },
            { source: s.id, key: 'vsys', axisBind: 'ax1', lineWidth: 2 },
            { source: 'ZZZ000000', key: 'temp', axisBind: 'ax2', lineWidth: 2 },
          ],
        },
        layouts: layouts(14, 6, 6),
      },
    };
    const made = await api<ViewSaveResponse>('PUT', `/api/group/${yard}/view`, {
      view: { name: 'Sites', sortOrder: 2, timeRange: { type: 'day', amount: 1 }, widgets },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    view = made.body.view;
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('the table exports CSV and Excel: rows as filtered and sorted, the shown columns and values, the range in the name; axe with the menu open', async () => {
    const page = await signedIn();
    await openView(page);
    await until('three rows', async () => ((await bodyRows(page).count()) === 3 ? true : null));

    // Battery (V) greater than 12, sorted descending: C (13.10), then A (12.40); B is filtered out.
    await headerCell(page, 'Battery (V)').locator('.p-column-filter-menu-button').click();
    const overlay = page.locator('.p-column-filter-overlay');
    await overlay.locator('.p-column-filter-matchmode-dropdown').click();
    await page.locator('.p-dropdown-panel .p-dropdown-item', { hasText: /^Greater than$/ }).click();
    await overlay.locator('input.gt-filter__input').first().fill('12');
    await overlay.getByRole('button', { name: 'Apply' }).click();
    await overlay.waitFor({ state: 'hidden' });
    await until('two rows', async () => ((await bodyRows(page).count()) === 2 ? true : null));
    await headerCell(page, 'Battery (V)').click();
    await headerCell(page, 'Battery (V)').click();
    await until(
      'descending',
      async () => (await headerCell(page, 'Battery (V)').getAttribute('aria-sort')) === 'descending',
    );

    // The menu opens from the keyboard too, and axe finds nothing serious with it open.
    const button = page
      .getByRole('region', { name: 'Devices', exact: true })
      .getByRole('button', { name: 'Export Devices' });
    await button.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['Export CSV', 'Export Excel']);
    await page.screenshot({ path: join(WORK, 'export-menu-1280.png') });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });

    const csv = await exportFrom(page, 'Devices', 'Export CSV');
    expect(csv.suggestedFilename()).toBe(expectedName('Devices', 'csv'));
    expect(csv.suggestedFilename()).toMatch(/^Export Yard - Devices - \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d\.csv$/);
    expect(await csvOf(csv)).toEqual([
      ['Device ID', 'Temp', 'Battery (V)'],
      [ids.c, '', '13.10'],
      // A negative reading with its unit would start a formula: it gets the guard's apostrophe.
      [ids.a, "'-3.2 °C", '12.40'],
    ]);

    const xlsx = await exportFrom(page, 'Devices', 'Export Excel');
    expect(xlsx.suggestedFilename()).toBe(expectedName('Devices', 'xlsx'));
    const workbook = new Workbook();
    await workbook.xlsx.readFile(await xlsx.path());
    const sheet = workbook.worksheets[0];
    expect(sheet?.name).toBe('Devices');
    const rows: unknown[][] = [];
    sheet?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows).toEqual([
      ['Device ID', 'Temp', 'Battery (V)'],
      [ids.c, undefined, 13.1],
      // In a workbook text is never a formula: no guard; numbers stay numbers, shown with the table's dp.
      [ids.a, '-3.2 °C', 12.4],
    ]);
    expect(sheet?.getRow(1).font?.bold).toBe(true);
    expect(sheet?.getCell('C2').numFmt).toBe('0.00');
  });

  it('the headline tile exports its one row (key, operator, value, previous, unit, period)', async () => {
    const page = await signedIn();
    await openView(page);
    const tile = page.getByRole('region', { name: HEADLINE_TITLE, exact: true });
    await tile.locator('.headline__value', { hasText: '13.10' }).waitFor();
    const csv = await exportFrom(page, HEADLINE_TITLE, 'Export CSV');
    expect(csv.suggestedFilename()).toBe(expectedName(HEADLINE_TITLE, 'csv'));
    const [header, row, ...rest] = await csvOf(csv);
    expect(header).toEqual([...HEADLINE_EXPORT_COLUMNS]);
    expect(rest).toEqual([]);
    expect(row?.slice(0, 5)).toEqual(['vsys', 'Maximum', '13.10', '12.00', 'V']);
    for (const time of row?.slice(5) ?? []) expect(time).toMatch(/^\d{4}-\d\d-\d\d \d\d:00:00$/);

    const xlsx = await exportFrom(page, HEADLINE_TITLE, 'Export Excel');
    const workbook = new Workbook();
    await workbook.xlsx.readFile(await xlsx.path());
    const values = (workbook.worksheets[0]?.getRow(2).values as unknown[]).slice(1, 6);
    expect(values).toEqual(['vsys', 'Maximum', 13.1, 12, 'V']);
  });

  it('copies a view to another group where the user edits views; chart series of devices not there are dropped with a notice', async () => {
    const page = await signedIn();
    await openView(page);
    const settings = await openSettings(page);
    await settings.getByRole('button', { name: 'Copy to Group' }).click();
    const copy = page.getByRole('dialog', { name: 'Copy View' });
    await copy.waitFor();
    await copy.locator('.view-transfer__picker').click();
    const options = page.locator('.p-dropdown-panel .p-dropdown-item');
    await options.first().waitFor();
    // Only the groups where the owner edits views, not the current one nor the watched one.
    expect((await options.allInnerTexts()).map((t) => t.trim())).toEqual(['Second Yard', 'Third Yard']);
    await options.filter({ hasText: /^Second Yard$/ }).click();
    await copy.getByRole('button', { name: 'Copy' }).click();
    await copy.waitFor({ state: 'detached' });
    await settings
      .getByRole('status')
      .getByText('‘Sites’ was copied to Second Yard. 2 chart series were dropped: their devices are not in this group.')
      .waitFor();

    const copied = (await viewsOf(second)).find((v) => v.name === 'Sites');
    expect(copied?.viewid).toMatch(/^v-[a-z0-9]{8}$/);
    expect(copied?.version).toBe(1);
    expect(Object.keys(copied?.widgets ?? {}).sort()).toEqual(['c1', 'h1', 't1']);
    expect((copied?.widgets.c1?.settings.series as { source: string }[]).map((s) => s.source)).toEqual([ids.second]);
    expect(copied?.widgets.t1).toEqual(view.widgets.t1);
    expect(copied?.timeRange).toEqual(view.timeRange);
    // The source view is as it was.
    expect((await viewsOf(yard)).find((v) => v.viewid === view.viewid)).toEqual(view);

    // It appears in the other group, as a tab after the default view.
    await page.keyboard.press('Escape');
    await page.goto(stack.url(`/group/${second}`));
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Sites', exact: true }).waitFor();
  });

  it('exports the view as a JSON file and imports it into another group as a new view; axe with the dialog open', async () => {
    const page = await signedIn();
    await openView(page);
    const settings = await openSettings(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(WORK, 'view-settings-1280.png') });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      settings.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Export Yard - Sites.json');
    const file = JSON.parse(readFileSync(await download.path(), 'utf8')) as ViewFile;
    expect(file.format).toBe(VIEW_FILE_FORMAT);
    expect(file.formatVersion).toBe(VIEW_FILE_FORMAT_VERSION);
    expect(file.view).not.toHaveProperty('viewid');
    expect(file.view).not.toHaveProperty('version');
    expect(file.view.widgets).toEqual(view.widgets);
    const path = join(WORK, 'sites.json');
    writeFileSync(path, JSON.stringify(file));

    // Into the third group (none of the chart's devices there): a new view, opened, with the notice.
    await page.goto(stack.url(`/group/${third}`));
    await bodyRows(page).first().waitFor();
    const before = await viewsOf(third);
    const thirdSettings = await openSettings(page);
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      thirdSettings.getByRole('button', { name: 'Import JSON' }).click(),
    ]);
    await chooser.setFiles(path);
    await thirdSettings.waitFor({ state: 'detached' });
    await page.waitForURL((url) => /^\/group\/[A-Z0-9]+\/v-[a-z0-9]{8}$/.test(url.pathname));
    const viewid = new URL(page.url()).pathname.split('/').pop() ?? '';
    await page.getByText('‘Sites’: 3 chart series were dropped: their devices are not in this group.').waitFor();
    const after = await viewsOf(third);
    const imported = after.find((v) => v.viewid === viewid);
    expect(imported).toBeDefined();
    expect(viewid).not.toBe(view.viewid);
    expect(imported?.name).toBe('Sites');
    expect(imported?.widgets.c1?.settings.series).toEqual([]);
    expect(imported?.widgets.t1).toEqual(view.widgets.t1);
    expect(imported?.widgets.h1).toEqual(view.widgets.h1);
    // After the group's tabs: the default view stored at 1 on first write, the new view after it.
    expect(imported?.sortOrder).toBe(Math.max(1, ...before.map((v) => v.sortOrder)) + 1);
  });

  it('refuses a tampered or wrong file with a message naming what is wrong, and adds nothing', async () => {
    const page = await signedIn(PHONE);
    await openView(page);
    const before = await viewsOf(yard);
    const settings = await openSettings(page);
    const tampered = join(WORK, 'tampered.json');
    const original = JSON.parse(readFileSync(join(WORK, 'sites.json'), 'utf8')) as ViewFile;
    writeFileSync(tampered, JSON.stringify({ ...original, view: { ...original.view, sortOrder: 500 } }));
    const wrong = join(WORK, 'wrong.json');
    writeFileSync(wrong, JSON.stringify({ dashboard: { panels: [] } }));

    const importFile = async (path: string) => {
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        settings.getByRole('button', { name: 'Import JSON' }).click(),
      ]);
      await chooser.setFiles(path);
    };
    await importFile(tampered);
    await settings
      .getByRole('alert')
      .getByText('tampered.json: This view file is not valid: view.sortOrder: Too big: expected number to be <=100')
      .waitFor();
    await page.screenshot({ path: join(WORK, 'view-import-refused-390.png') });
    await importFile(wrong);
    await settings.getByRole('alert').getByText(`wrong.json: ${VIEW_TRANSFER_MESSAGES.notViewFile}`).waitFor();
    expect(await viewsOf(yard)).toEqual(before);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
