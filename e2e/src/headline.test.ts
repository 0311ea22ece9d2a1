// Headline tiles on a saved group view, in Chromium against the real server (spec 2 sections 3, 4,
// 5, 8 and 9; DESIGN.md section 5 'group metrics'; ledger CHT-01 - CHT-06): three devices record
// batt and flow over MQTT in the last 24 hours and the 24 before; views saved through the real
// PUT /group/{groupid}/view carry headline tiles (avg, sum, max, min, latest); the tiles show what
// the records imply, with their decimals and unit, the trend only when the rounded values differ,
// '---' for a key nobody has with the reason under it, one metrics call per tile with both periods
// running to the end of the hour in progress, a tile over records of that hour alone has a value
// (issue 32), axe-clean, at 1280 and 390 px.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { ViewInput, WidgetLayouts } from '@portal/core';
import { DESKTOP, PHONE, chromiumAvailable } from './browser';
import { startStack, type Stack } from './harness';
import { DEMO, deviceInGroup, makeGroup, seriousAxeViolations, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
/** Where the screenshots go (looked at by hand: 1280 and 390 px). */
const SHOTS = process.env.E2E_SHOTS ?? join(tmpdir(), 'headline-shots');

type Api = ReturnType<Stack['apiClient']>;

const HOUR = 3600;

/** A tile's place: a quarter of the row on a desktop, half on a tablet, the whole row on a phone. */
function tileAt(index: number): WidgetLayouts {
  return {
    lg: { x: (index % 4) * 3, y: 0, w: 3, h: 4, minW: 2, minH: 4 },
    md: { x: (index % 2) * 3, y: Math.floor(index / 2) * 4, w: 3, h: 4, minW: 2, minH: 4 },
    sm: { x: 0, y: index * 4, w: 4, h: 4, minW: 2, minH: 4 },
  };
}

function headlines(settings: Record<string, unknown>[]): ViewInput['widgets'] {
  return Object.fromEntries(
    settings.map((s, i) => [`h${i + 1}`, { type: 'headline', settings: s, layouts: tileAt(i) }]),
  ) as ViewInput['widgets'];
}

describe.skipIf(!chromiumAvailable() && !required)('headline tiles on a group view', () => {
  let stack: Stack;
  let demo: Api;
  let groupid: string;
  let fleetView: string;
  let extremesView: string;
  let thisHourView: string;
  const contexts: BrowserContext[] = [];

  const signedInPage = (viewport = DESKTOP): Promise<Page> => signedInPageOf(stack, contexts, DEMO, { viewport });

  const tile = (page: Page, title: string): Locator => page.getByRole('region', { name: title, exact: true });

  /** What a tile shows once loaded: value, unit and trend texts ('' when absent). */
  async function shown(page: Page, title: string): Promise<{ value: string; unit: string; trend: string }> {
    const t = tile(page, title);
    await t.locator('.headline__value').waitFor();
    const text = async (selector: string) =>
      (await t.locator(selector).count()) === 0 ? '' : ((await t.locator(selector).textContent()) ?? '').trim();
    return {
      value: await text('.headline__value'),
      unit: await text('.headline__unit'),
      trend: await text('.headline__trend'),
    };
  }

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    groupid = await makeGroup(demo, 'Headline Yard');
    const [a, b, c] = await Promise.all([
      deviceInGroup(stack, demo, groupid, 'HLA', 'Pump A'),
      deviceInGroup(stack, demo, groupid, 'HLB', 'Pump B'),
      deviceInGroup(stack, demo, groupid, 'HLC', 'Pump C'),
    ]);
    // h: this hour's start. The view's range is the last 24 hours: its whole hours end at h (the
    // hour in progress is not read), the previous period is the 24 hours before. The records sit
    // hours inside each, so a new hour starting during the test moves no record across.
    const h = Math.floor(Date.now() / 1000 / HOUR) * HOUR;
    // Current: batt 3.5, 3.75, 4.25, 4.5 (avg 4, max 4.5, min 3.5, latest 4.5 from C); flow 10 + 20 + 15 = 45.
    // Previous: batt 3.5, 3.5 (avg, max, min and latest 3.5); flow 45.25 (45 at 0 decimals: no trend).
    await stack.publish(a!, [
      { ts: h - 40 * HOUR + 60, batt: 3.5 },
      { ts: h - 5 * HOUR + 60, batt: 3.5, flow: 10 },
      { ts: h - 3 * HOUR + 60, batt: 3.75, flow: 20 },
    ]);
    await stack.publish(b!, [
      { ts: h - 30 * HOUR + 60, batt: 3.5, flow: 45.25 },
      { ts: h - 4 * HOUR + 60, batt: 4.25 },
    ]);
    await stack.publish(c!, [{ ts: h - 2 * HOUR + 60, batt: 4.5, flow: 15 }]);
    // Only in the hour in progress: ten seconds ago (issue 32: a fleet sending for ten minutes).
    const now = Math.floor(Date.now() / 1000);
    await stack.publish(a!, [{ ts: now - 10, fresh: 12.25 }]);
    await stack.publish(b!, [{ ts: now - 5, fresh: 12.75 }]);

    const save = async (name: string, sortOrder: number, widgets: ViewInput['widgets']) => {
      const view: ViewInput = { name, sortOrder, timeRange: { type: 'day', amount: 1 }, widgets };
      const put = await demo<{ view: { viewid: string } }>('PUT', `/api/group/${groupid}/view`, { view });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      return put.body.view.viewid;
    };
    fleetView = await save(
      'Fleet',
      2,
      headlines([
        { key: 'batt', dataType: 'number', dp: 2, trendColor: '#b42318' },
        { key: 'batt', dataType: 'number', operator: 'max', dp: 1, unit: 'volts' },
        { key: 'flow', dataType: 'number', operator: 'sum', dp: 0, unit: 'L' },
        { key: 'nothing_here', dataType: 'number', operator: 'avg', dp: 1, unit: 'kPa' },
      ]),
    );
    extremesView = await save(
      'Extremes',
      3,
      headlines([
        { key: 'batt', dataType: 'number', operator: 'min', dp: 2 },
        // dp 9 is saved as 5 (clamped 0-5).
        { key: 'batt', dataType: 'number', operator: 'latest', dp: 9 },
      ]),
    );
    // The tile: a key's average over the last 7 days.
    thisHourView = await (async () => {
      const view: ViewInput = {
        name: 'This hour',
        sortOrder: 4,
        timeRange: { type: 'day', amount: 7 },
        widgets: headlines([{ key: 'fresh', dataType: 'number', operator: 'avg', dp: 2, unit: 'V' }]),
      };
      const put = await demo<{ view: { viewid: string } }>('PUT', `/api/group/${groupid}/view`, { view });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      return put.body.view.viewid;
    })();
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('avg, max and sum tiles show what the records imply, with dp, unit and the trend; a key nobody has shows ---', async () => {
    const page = await signedInPage();
    const calls: URL[] = [];
    const askedAt: number[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname !== `/api/group/${groupid}/metrics`) return;
      calls.push(url);
      askedAt.push(Date.now() / 1000);
    });
    await page.goto(stack.url(`/group/${groupid}/${fleetView}`));

    expect(await shown(page, 'Battery Voltage · Average')).toEqual({
      value: '4.00',
      unit: 'V',
      trend: 'Increased from 3.50',
    });
    const arrow = tile(page, 'Battery Voltage · Average').locator('.headline__arrow');
    expect(await arrow.getAttribute('class')).toContain('pi-arrow-up');
    expect(await arrow.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(180, 35, 24)');
    expect(await shown(page, 'Battery Voltage · Maximum')).toEqual({
      value: '4.5',
      unit: 'volts',
      trend: 'Increased from 3.5',
    });
    // 45 against 45.25: equal at 0 decimals, so no trend.
    expect(await shown(page, 'flow · Sum')).toEqual({ value: '45', unit: 'L', trend: '' });
    expect(await shown(page, 'nothing_here · Average')).toEqual({ value: '---', unit: '', trend: '' });
    // The tile says why it has no value.
    expect(await tile(page, 'nothing_here · Average').locator('.headline__reason').textContent()).toBe(
      'No data in this period',
    );
    await page.getByText('Last 24 hours').first().waitFor();

    // One metrics call per tile, each with its key and operator and both periods of whole hours (CHT-06).
    const asked = calls.map((u) => `${u.searchParams.get('key')}/${u.searchParams.get('operator')}`).sort();
    expect(asked).toEqual(['batt/avg', 'batt/max', 'flow/sum', 'nothing_here/avg']);
    calls.forEach((u, i) => {
      const [cs, ce, ps, pe] = ['currentStartTime', 'currentEndTime', 'previousStartTime', 'previousEndTime'].map(
        (name) => Number(u.searchParams.get(name)),
      );
      // Whole hours, the current period up to the end of the hour in progress (docs/decisions.md
      // 'The hour in progress'): the 24 hours touched, 25 whole hours unless asked on the hour.
      expect(cs! % HOUR).toBe(0);
      expect(ce! % HOUR).toBe(0);
      expect(ce!).toBeGreaterThan(askedAt[i]! - 1);
      expect(ce! - HOUR).toBeLessThanOrEqual(askedAt[i]!);
      expect([24 * HOUR, 25 * HOUR]).toContain(ce! - cs!);
      expect(pe).toBe(cs);
      expect(pe! - ps!).toBe(ce! - cs!);
    });

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'headline-1280.png'), fullPage: true });
  });

  it('min and latest tiles; dp saved as 9 shows 5 decimals; equal rounded values show no trend', async () => {
    const page = await signedInPage();
    await page.goto(stack.url(`/group/${groupid}/${extremesView}`));
    expect(await shown(page, 'Battery Voltage · Minimum')).toEqual({ value: '3.50', unit: 'V', trend: '' });
    expect(await shown(page, 'Battery Voltage · Latest')).toEqual({
      value: '4.50000',
      unit: 'V',
      trend: 'Increased from 3.50000',
    });
  });

  it('a tile over records of the hour in progress alone has a value: the current hour counts (issue 32)', async () => {
    const page = await signedInPage();
    await page.goto(stack.url(`/group/${groupid}/${thisHourView}`));
    // (12.25 + 12.75) / 2, both sent seconds ago; nothing in the 7 days before, so no trend.
    expect(await shown(page, 'fresh · Average')).toEqual({ value: '12.50', unit: 'V', trend: '' });
    expect(await tile(page, 'fresh · Average').locator('.headline__reason').count()).toBe(0);
  });

  it("a failed metrics call shows 'Error Loading Data' in the tile, and Retry loads the value", async () => {
    const page = await signedInPage();
    const metrics = `**/api/group/${groupid}/metrics?**`;
    await page.route(metrics, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'boom' }) }),
    );
    await page.goto(stack.url(`/group/${groupid}/${extremesView}`));
    const minimum = tile(page, 'Battery Voltage · Minimum');
    await minimum.getByRole('alert').filter({ hasText: 'Error Loading Data' }).waitFor();
    expect(await minimum.locator('.headline__value').count()).toBe(0);
    await page.unroute(metrics);
    await minimum.getByRole('button', { name: 'Retry' }).click();
    expect(await shown(page, 'Battery Voltage · Minimum')).toEqual({ value: '3.50', unit: 'V', trend: '' });
  });

  it('at phone width the tiles go one per row, the page does not scroll sideways, axe finds nothing serious', async () => {
    const page = await signedInPage(PHONE);
    await page.goto(stack.url(`/group/${groupid}/${fleetView}`));
    expect((await shown(page, 'Battery Voltage · Average')).value).toBe('4.00');
    await tile(page, 'nothing_here · Average').locator('.headline__value').waitFor();
    const boxes = await Promise.all(
      ['Battery Voltage · Average', 'Battery Voltage · Maximum'].map((t) => tile(page, t).boundingBox()),
    );
    expect(boxes[1]!.y).toBeGreaterThanOrEqual(boxes[0]!.y + boxes[0]!.height);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'headline-390.png'), fullPage: true });
  });
});
