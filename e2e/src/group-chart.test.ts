// Group charts on a saved view, in Chromium against the real server (spec 2 sections 3, 5, 8 and
// 9; ledger CHT-09 - CHT-18, CHT-24, CHT-26, CHT-27): two devices record batt (and one flow)
// hourly over MQTT in the last 20 hours; a view saved through the real PUT /group/{groupid}/view
// carries three charts: one with a goal series and a series bound to ax2, one whose only device
// has no data, and one stacked with data labels. The charts draw their series (legend entries),
// one data call per series with 600 points, downsampled for the 24-hour range; 'No Data' for the
// empty one; selection zoom narrows the x scale and a double-click resets it; pan mode moves it;
// the keyboard pans and zooms; ax2 scales against the right axis; stacking and labels show; a failed call and Retry; axe-clean;
// at 1280 and 390 px.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Workbook } from 'exceljs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { ViewInput } from '@portal/core';
import { DESKTOP, PHONE, chromiumAvailable } from './browser';
import { startStack, type Stack } from './harness';
import { DEMO, deviceInGroup, makeGroup, parseCsv, seriousAxeViolations, signedInPageOf, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
/** Where the screenshots go (looked at by hand: 1280 and 390 px). */
const SHOTS = process.env.E2E_SHOTS ?? join(tmpdir(), 'group-chart-shots');

type Api = ReturnType<Stack['apiClient']>;

const HOUR = 3600;
/** The data labels' colour: a magenta no other part of the chart uses, so its pixels are the labels. */
const LABEL_COLOUR = '#ff00ff';

/** A chart across the whole row, `row` charts down. */
function chartAt(row: number) {
  return {
    lg: { x: 0, y: row * 8, w: 12, h: 8, minW: 3, minH: 4 },
    md: { x: 0, y: row * 8, w: 6, h: 8, minW: 3, minH: 4 },
    sm: { x: 0, y: row * 8, w: 4, h: 8, minW: 2, minH: 4 },
  };
}

describe.skipIf(!chromiumAvailable() && !required)('group charts on a group view', () => {
  let stack: Stack;
  let demo: Api;
  let groupid: string;
  let viewid: string;
  let deviceA: string;
  let deviceB: string;
  let deviceC: string;
  const contexts: BrowserContext[] = [];

  const signedInPage = (viewport = DESKTOP): Promise<Page> => signedInPageOf(stack, contexts, DEMO, { viewport });

  const card = (page: Page, title: string): Locator => page.getByRole('region', { name: title, exact: true });
  const stacked = (page: Page): Locator => card(page, 'Stacked Battery');

  /** A scale's [min, max] as the chart shows it (its data-scale-{key} attribute). */
  async function scale(chart: Locator, key: string): Promise<[number, number]> {
    const text = await chart.locator('.group-chart').getAttribute(`data-scale-${key}`);
    if (!text) throw new Error(`no scale ${key}`);
    const [min, max] = text.split(',').map(Number);
    return [min!, max!];
  }

  /** The legend's series names (the time row left out). */
  async function legend(chart: Locator): Promise<string[]> {
    await chart.locator('.chart-plot__legend .u-series').first().waitFor();
    const names = await chart.locator('.chart-plot__legend .u-series .u-label').allTextContents();
    return names.slice(1);
  }

  /** Pixels of the chart's canvas in exactly the label colour. */
  async function labelPixels(chart: Locator): Promise<number> {
    return chart.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
      const ctx = canvas.getContext('2d')!;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i] === 255 && data[i + 1] === 0 && data[i + 2] === 255 && data[i + 3] === 255) n++;
      return n;
    });
  }

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    groupid = await makeGroup(demo, 'Chart Yard');
    const [a, b, c] = await Promise.all([
      deviceInGroup(stack, demo, groupid, 'CHA', 'Pump A'),
      deviceInGroup(stack, demo, groupid, 'CHB', 'Pump B'),
      deviceInGroup(stack, demo, groupid, 'CHC', 'Pump C'),
    ]);
    deviceA = a!.id;
    deviceB = b!.id;
    deviceC = c!.id;
    // Hourly records over the last 20 hours: batt 3.5 - 4.45 on A, 3.0 - 3.95 on B, flow 1000 - 1950 on B.
    const h = Math.floor(Date.now() / 1000 / HOUR) * HOUR;
    const hours = Array.from({ length: 20 }, (_, i) => i);
    await stack.publish(
      a!,
      hours.map((i) => ({ ts: h - (20 - i) * HOUR + 60, batt: 3.5 + i * 0.05 })),
    );
    await stack.publish(
      b!,
      hours.map((i) => ({ ts: h - (20 - i) * HOUR + 120, batt: 3 + i * 0.05, flow: 1000 + i * 50 })),
    );

    const widgets = {
      fleet: {
        type: 'chart',
        layouts: chartAt(0),
        settings: {
          name: 'Fleet Battery',
          axis: { ax1: { name: 'Voltage', unit: 'V', dp: 1 }, ax2: { name: 'Flow', unit: 'L/min', dp: 0 } },
          series: [
            { source: deviceA, key: 'batt', colour: '#0072B2' },
            { source: deviceB, key: 'batt', goalSeries: true, lineType: 'dashed' },
            { source: deviceB, key: 'flow', axisBind: 'ax2', lineType: 'step', lineWidth: 3 },
          ],
        },
      },
      empty: {
        type: 'chart',
        layouts: chartAt(1),
        settings: { name: 'Empty Chart', series: [{ source: deviceC, key: 'batt' }] },
      },
      stacked: {
        type: 'chart',
        layouts: chartAt(2),
        settings: {
          name: 'Stacked Battery',
          stack: true,
          dataLabels: true,
          dataLabelColor: LABEL_COLOUR,
          backgroundColor: '#fffdf5',
          axis: { ax1: { min: 0, dp: 2 } },
          series: [
            { source: deviceA, key: 'batt' },
            { source: deviceB, key: 'batt' },
          ],
        },
      },
    } as unknown as ViewInput['widgets'];
    const view: ViewInput = { name: 'Charts', sortOrder: 2, timeRange: { type: 'day', amount: 1 }, widgets };
    const put = await demo<{ view: { viewid: string } }>('PUT', `/api/group/${groupid}/view`, { view });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    viewid = put.body.view.viewid;
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('draws every series (legend entries), one data call per series with 600 points, downsampled; an empty chart shows No Data', async () => {
    const page = await signedInPage();
    const calls: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (/^\/api\/device\/[^/]+\/data$/.test(url.pathname)) calls.push(url);
    });
    await page.goto(stack.url(`/group/${groupid}/${viewid}`));

    const fleet = card(page, 'Fleet Battery');
    expect(await legend(fleet)).toEqual([
      'Pump A · Battery Voltage',
      'Pump B · Battery Voltage (goal)',
      'Pump B · flow',
    ]);
    expect(await legend(card(page, 'Stacked Battery'))).toEqual([
      'Pump A · Battery Voltage',
      'Pump B · Battery Voltage',
    ]);
    const empty = card(page, 'Empty Chart');
    await empty.getByText('No Data', { exact: true }).waitFor();
    expect(await empty.locator('canvas').count()).toBe(0);

    // One call per series, for its device and key only: A batt, B batt, B flow, C batt (a pair two charts show is
    // shared when both ask the same minute).
    const asked = calls.map((u) => `${u.pathname.split('/')[3]}/${u.searchParams.get('dataKeys')}`);
    expect([...new Set(asked)].sort()).toEqual(
      [`${deviceA}/batt`, `${deviceB}/batt`, `${deviceB}/flow`, `${deviceC}/batt`].sort(),
    );
    expect(calls.length).toBeLessThanOrEqual(6);
    for (const u of calls) {
      expect(u.searchParams.get('dataPoints')).toBe('600');
      expect(u.searchParams.get('downsample')).toBe('true');
      expect(u.searchParams.get('events')).toBe('false');
      expect(Number(u.searchParams.get('toTime')) - Number(u.searchParams.get('fromTime'))).toBe(24 * HOUR);
    }

    // The crosshair legend lists every series' value at the cursor.
    const over = fleet.locator('.u-over');
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
    const values = await fleet.locator('.chart-plot__legend .u-series .u-value').allTextContents();
    expect(values).toHaveLength(4);
    expect(values.slice(1).filter((v) => /^\d/.test(v)).length).toBeGreaterThan(0);

    expect(await seriousAxeViolations(page)).toEqual([]);
    // The viewport, not fullPage: a full-page shot resizes the page while the grid animates its widths.
    await page.screenshot({ path: join(SHOTS, 'group-chart-1280.png') });
    await stacked(page).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'group-chart-1280-stacked.png') });
  });

  it('ax2 scales against the right axis; the stacked chart stacks and shows its labels in dataLabelColor', async () => {
    const page = await signedInPage();
    await page.goto(stack.url(`/group/${groupid}/${viewid}`));
    const fleet = card(page, 'Fleet Battery');
    await legend(fleet);
    // batt (3 - 4.45 V) on the left axis, flow (1000 - 1950) on the right one, with their titles.
    const [yMin, yMax] = await scale(fleet, 'y');
    const [y2Min, y2Max] = await scale(fleet, 'y2');
    expect(yMin).toBeGreaterThan(2);
    expect(yMax).toBeLessThan(6);
    expect(y2Min).toBeGreaterThan(800);
    expect(y2Max).toBeGreaterThanOrEqual(1950);
    // The canvas draws the axes' titles; the plot's text equivalent names them.
    await fleet
      .getByRole('img', {
        name: 'Fleet Battery: 3 series, Last 24 hours; left axis Voltage (V); right axis Flow (L/min)',
      })
      .waitFor();
    expect(await stacked(page).getByRole('img').getAttribute('aria-label')).toBe(
      'Stacked Battery: 2 series, Last 24 hours',
    );

    // Stacked: B's batt sits on A's (3.95 + 4.45 = 8.4 at the top); min 0 is the axis's fixed bound.
    const stackedChart = stacked(page);
    await legend(stackedChart);
    const [sMin, sMax] = await scale(stackedChart, 'y');
    expect(sMin).toBe(0);
    expect(sMax).toBeGreaterThanOrEqual(8.4);
    expect(await labelPixels(stackedChart)).toBeGreaterThan(50);
    expect(await labelPixels(fleet)).toBe(0);
    expect(await stackedChart.locator('.group-chart').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(255, 253, 245)',
    );
  });

  it('selection zoom narrows the x scale and a double-click resets it; pan mode moves it; so do the keys', async () => {
    const page = await signedInPage();
    await page.goto(stack.url(`/group/${groupid}/${viewid}`));
    const fleet = card(page, 'Fleet Battery');
    await legend(fleet);
    const whole = await scale(fleet, 'x');
    expect(whole[1] - whole[0]).toBe(24 * HOUR);

    const zoomButton = fleet.getByRole('button', { name: 'Selection zoom' });
    const panButton = fleet.getByRole('button', { name: 'Pan' });
    expect(await zoomButton.getAttribute('aria-pressed')).toBe('true');
    expect(await panButton.getAttribute('aria-pressed')).toBe('false');

    const over = fleet.locator('.u-over');
    const box = (await over.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.3, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, y, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.6, y, { steps: 5 });
    await page.mouse.up();
    const zoomed = await until('the zoom', async () => {
      const s = await scale(fleet, 'x');
      return s[1] - s[0] < whole[1] - whole[0] ? s : null;
    });
    // About 30 % of the day, starting about 30 % in.
    expect((zoomed[1] - zoomed[0]) / (whole[1] - whole[0])).toBeCloseTo(0.3, 1);
    expect((zoomed[0] - whole[0]) / (whole[1] - whole[0])).toBeCloseTo(0.3, 1);

    await over.dblclick({ position: { x: box.width / 2, y: box.height / 2 } });
    await until('the reset', async () => {
      const s = await scale(fleet, 'x');
      return s[0] === whole[0] && s[1] === whole[1];
    });

    // Pan: dragging right moves the range back in time by the dragged share, keeping its length.
    await panButton.click();
    expect(await panButton.getAttribute('aria-pressed')).toBe('true');
    expect(await zoomButton.getAttribute('aria-pressed')).toBe('false');
    await page.mouse.move(box.x + box.width * 0.2, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.35, y, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.45, y, { steps: 5 });
    await page.mouse.up();
    const panned = await scale(fleet, 'x');
    expect(panned[1] - panned[0]).toBeCloseTo(whole[1] - whole[0], 0);
    expect((whole[0] - panned[0]) / (whole[1] - whole[0])).toBeCloseTo(0.25, 1);
    // No selection box was drawn in pan mode.
    expect(await fleet.locator('.u-select').evaluate((el) => el.getBoundingClientRect().width)).toBe(0);

    // The Reset zoom button does what the double-click does.
    await fleet.getByRole('button', { name: 'Reset zoom' }).click();
    expect(await scale(fleet, 'x')).toEqual(whole);

    // The keyboard, with the plot focused: + zooms to the middle half, arrows pan a tenth (Shift:
    // half), - zooms back out (never past the whole range) and Home resets.
    const plot = fleet.getByRole('img', { name: /^Fleet Battery: / });
    await plot.focus();
    const length = whole[1] - whole[0];
    const ratioOf = (s: [number, number]) => [(s[0] - whole[0]) / length, (s[1] - whole[0]) / length];
    await page.keyboard.press('+');
    expect(ratioOf(await scale(fleet, 'x'))).toEqual([0.25, 0.75]);
    await page.keyboard.press('ArrowRight');
    expect(ratioOf(await scale(fleet, 'x')).map((r) => Math.round(r * 100))).toEqual([30, 80]);
    await page.keyboard.press('Shift+ArrowLeft');
    expect(ratioOf(await scale(fleet, 'x')).map((r) => Math.round(r * 100))).toEqual([5, 55]);
    await page.keyboard.press('-');
    expect(await scale(fleet, 'x')).toEqual(whole);
    await page.keyboard.press('+');
    await page.keyboard.press('Home');
    expect(await scale(fleet, 'x')).toEqual(whole);
  });

  it('exports the series as plotted as CSV and as a workbook: a time column, then one column per series', async () => {
    const page = await signedInPage();
    await page.goto(stack.url(`/group/${groupid}/${viewid}`));
    const fleet = card(page, 'Fleet Battery');
    await fleet.locator('.group-chart[data-scale-x]').waitFor();
    const exportAs = async (item: 'Export CSV' | 'Export Excel') => {
      await fleet.getByRole('button', { name: 'Export Fleet Battery' }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: item }).click(),
      ]);
      return download;
    };
    const columns = ['Time', 'Pump A · Battery Voltage', 'Pump B · Battery Voltage (goal)', 'Pump B · flow'];

    const csv = await exportAs('Export CSV');
    expect(csv.suggestedFilename()).toMatch(/ - Fleet Battery - .+\.csv$/);
    const records = parseCsv(readFileSync(await csv.path(), 'utf8').slice(1));
    expect(records[0]).toEqual(columns);
    expect(records.length).toBeGreaterThan(1);
    for (const row of records.slice(1)) {
      expect(row[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(row.slice(1).some((cell) => cell !== '' && Number.isFinite(Number(cell)))).toBe(true);
    }

    const xlsx = await exportAs('Export Excel');
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const workbook = new Workbook();
    await workbook.xlsx.readFile(await xlsx.path());
    const sheet = workbook.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(columns);
    expect(sheet.rowCount).toBe(records.length);
  });

  it("a failed data call shows 'Error Loading Data' in the chart, and Retry draws it", async () => {
    const page = await signedInPage();
    const data = `**/api/device/${deviceA}/data?**`;
    await page.route(data, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'boom' }) }),
    );
    await page.goto(stack.url(`/group/${groupid}/${viewid}`));
    const fleet = card(page, 'Fleet Battery');
    await fleet.getByRole('alert').filter({ hasText: 'Error Loading Data' }).waitFor();
    expect(await fleet.locator('canvas').count()).toBe(0);
    await page.unroute(data);
    await fleet.getByRole('button', { name: 'Retry' }).click();
    expect(await legend(fleet)).toHaveLength(3);
  });

  it('at phone width the charts fit the card, the page does not scroll sideways, axe finds nothing serious', async () => {
    const page = await signedInPage(PHONE);
    await page.goto(stack.url(`/group/${groupid}/${viewid}`));
    const fleet = card(page, 'Fleet Battery');
    await legend(fleet);
    const cardBox = (await fleet.boundingBox())!;
    const canvasBox = (await fleet.locator('canvas').boundingBox())!;
    expect(canvasBox.width).toBeLessThanOrEqual(cardBox.width);
    expect(canvasBox.width).toBeGreaterThan(PHONE.width / 2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await card(page, 'Empty Chart').getByText('No Data', { exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'group-chart-390.png') });
  });
});
