// A device's custom charts in Chromium against the real server and a simulated device (issue 15;
// spec 2 sections 2, 3, 5, 8 and 9; ledger CHT-19 - CHT-24, WGT-17 - WGT-22): an ORB-C1 on the
// embedded broker, plus one record of its own holding a numeric array. A chart made on its page
// from 'New chart' (editor, Save: PUT settings with PORTAL_displaySettings.chart1) draws the
// simulator's readings over the default 6 hours, zooms by a selection and pans; its Data page card
// defaults to 10 minutes and exports what it plots as CSV; an array value draws as bars over the
// xa1 axis; a key without data shows 'No Data'; the utilisation chart asks with downsample=2 and
// again after 10 minutes (fake clock); the 6th chart is refused with 'Maximum number of charts
// reached [5]' in the page and by the server; Delete asks first; a Basic device says 'Custom
// charts are unavailable on the Basic Plan'; axe-clean, and no sideways scroll at 390 px.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { keyDisplayName, type DataResponse, type DeviceSettingsResponse } from '@portal/core';
import { startFleet, type Fleet } from '../../apps/simulator/src/index';
import { DESKTOP, PHONE, chromiumAvailable } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, parseCsv, seriousAxeViolations, signedInPageOf, typeKey, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
/** Where the screenshots go (looked at by hand: 1280 and 390 px). */
const SHOTS = process.env.E2E_SHOTS ?? join(tmpdir(), 'device-charts-shots');

const SPECTRUM = [4, 9, 6, 12, 3];
const LIMIT_TEXT = 'Maximum number of charts reached [5]';

describe.skipIf(!chromiumAvailable() && !required)('custom charts of a device', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let fleet: Fleet | undefined;
  let deviceid: string;
  let basicId: string;
  const contexts: BrowserContext[] = [];

  const signedInPage = (viewport = DESKTOP): Promise<Page> => signedInPageOf(stack, contexts, DEMO, { viewport });
  const putCharts = (id: string, charts: Record<string, unknown>) =>
    demo<{ message?: string }>('PUT', `/api/device/${id}/settings`, { PORTAL_displaySettings: charts });

  /** A scale's [min, max] as the chart shows it (its data-scale-{key} attribute). */
  async function scale(chart: Locator, key: string): Promise<[number, number]> {
    const text = await chart.locator('.chart-plot').getAttribute(`data-scale-${key}`);
    if (!text) throw new Error(`no scale ${key}`);
    const [min, max] = text.split(',').map(Number);
    return [min!, max!];
  }

  /** The legend's series names (the x row left out), once the chart is drawn. */
  async function legend(chart: Locator): Promise<string[]> {
    await chart.locator('.chart-plot__legend .u-series').first().waitFor();
    return (await chart.locator('.chart-plot__legend .u-series .u-label').allTextContents()).slice(1);
  }

  /** The range button pressed in a chart's range group. */
  const pressedRange = (chart: Locator) =>
    chart
      .getByRole('group', { name: /^Range of / })
      .getByRole('button', { pressed: true })
      .textContent();

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    const device = await stack.provisionDevice(freshDeviceId('CHT'), 'ORB-C1', 'Chart Pump');
    deviceid = device.id;
    expect((await demo('POST', `/api/device/${deviceid}/user`, { setupPassword: device.setupPassword })).status).toBe(
      200,
    );
    // A record of its own with a numeric array (a spectrum), a minute before the simulator starts.
    await stack.publish(device, { ts: Math.floor(Date.now() / 1000) - 60, spectrum: SPECTRUM });
    fleet = startFleet({
      devices: [{ id: device.id, key: device.deviceKey, model: 'ORB-C1' }],
      transport: 'mqtt',
      mqttUrl: stack.mqttUrl,
      httpUrl: stack.url(),
      baseInterval: 2,
      staggerMs: 0,
    });
    await until('three records of the simulator', async () => {
      const got = await demo<DataResponse>('GET', `/api/device/${deviceid}/data?dataKeys=vsys&dataPoints=10`);
      return (got.body.data.vsys?.length ?? 0) >= 3;
    });

    // A device on the Basic plan: its trial ran out.
    const basic = await stack.provisionDevice(freshDeviceId('CHB'), 'ORB-C1', 'Basic Pump');
    basicId = basic.id;
    expect((await demo('POST', `/api/device/${basicId}/user`, { setupPassword: basic.setupPassword })).status).toBe(
      200,
    );
    await stack.ageDevice(basicId, 91);
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await fleet?.stop();
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it("'New chart' opens chart1's editor; Save stores it (PUT settings) and the chart draws the simulator's data over 6 hours", async () => {
    const page = await signedInPage();
    await page.goto(stack.url(`/data/${deviceid}`));
    const charts = page.getByRole('region', { name: 'Charts' });
    await charts.getByRole('button', { name: 'New chart' }).click();
    await page.waitForURL((url) => url.pathname === `/chart/${deviceid}/chart1`);
    await page.getByRole('heading', { level: 2, name: 'New chart: Chart 1' }).waitFor();
    // The new chart's page starts at 6 hours too (CHT-21).
    expect(await pressedRange(page.getByRole('region', { name: 'New chart: Chart 1' }))).toBe('6h');

    await page.locator('#field-dc-name').fill('Supply Trend');
    await page.getByRole('button', { name: 'Add series' }).click();
    await typeKey(page, page.locator('#field-dc-series-0-key'), 'vsys');
    await page.getByRole('button', { name: 'Add series' }).click();
    await typeKey(page, page.locator('#field-dc-series-1-key'), 'batt');
    await page.locator('.p-dropdown:has(#field-dc-series-1-axisBind)').click();
    await page.getByRole('option', { name: 'Right axis (ax2)' }).click();
    await page.locator('#field-dc-axis-ax1-unit').fill('V');

    const [put] = await Promise.all([
      page.waitForResponse(
        (r) => r.url().endsWith(`/api/device/${deviceid}/settings`) && r.request().method() === 'PUT',
      ),
      page.getByRole('button', { name: 'Save', exact: true }).click(),
    ]);
    expect(put.status()).toBe(200);
    expect(put.request().postDataJSON()).toEqual({
      PORTAL_displaySettings: {
        chart1: {
          name: 'Supply Trend',
          series: [
            { source: deviceid, key: 'vsys', axisBind: 'ax1', lineWidth: 2 },
            { source: deviceid, key: 'batt', axisBind: 'ax2', lineWidth: 2 },
          ],
          axis: { ax1: { unit: 'V' } },
        },
      },
    });
    const stored = (await put.json()) as DeviceSettingsResponse;
    expect(stored.deviceSettings.PORTAL_displaySettings.chart1).toMatchObject({ name: 'Supply Trend' });

    // Saved: the editor closes, the page shows the chart with the simulator's readings over 6 hours.
    const chart = page.getByRole('region', { name: 'Supply Trend' });
    await chart.getByRole('button', { name: 'Edit' }).waitFor();
    expect(await page.locator('#field-dc-name').count()).toBe(0);
    expect(await legend(chart)).toEqual([keyDisplayName('vsys'), keyDisplayName('batt')]);
    expect(await pressedRange(chart)).toBe('6h');
    const [x0, x1] = await scale(chart, 'x');
    expect(x1 - x0).toBe(6 * 3600);
    // The right axis fits the battery's readings once they are drawn (the plot may show before its data).
    await expect.poll(async () => (await scale(chart, 'y2'))[0]).toBeGreaterThan(3);
    expect((await scale(chart, 'y2'))[1]).toBeLessThan(5);
    await chart
      .getByRole('img', { name: /^Supply Trend: 2 series, Last 6 hours; left axis \(V\); right axis unnamed$/ })
      .waitFor();
    expect(await page.title()).toBe('Portal - Chart Pump: Chart');
  });

  it('/chart/{id}/new opens the next free chart (chart2 once chart1 is saved), as /widget/{id}/new does (issue 32)', async () => {
    const page = await signedInPage();
    await page.goto(stack.url(`/chart/${deviceid}/new`));
    await page.waitForURL((url) => url.pathname === `/chart/${deviceid}/chart2`);
    await page.getByRole('heading', { level: 2, name: 'New chart: Chart 2' }).waitFor();
    await page.locator('#field-dc-name').waitFor();
    // Cancel leaves a new chart unsaved and returns to the Data page.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === `/data/${deviceid}`);

    // Someone who may not edit finds no chart at chart2's address, as with a widget card ('Widget not found').
    const viewer = { email: uniqueEmail('chart-viewer'), password: 'chart-viewer-password-1' };
    await stack.createVerifiedUser(viewer.email, viewer.password);
    const grant = await demo('POST', `/api/device/${deviceid}/user`, {
      targetEmail: viewer.email,
      targetPermission: 'VIEW',
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    const view = await signedInPageOf(stack, contexts, viewer);
    await view.goto(stack.url(`/chart/${deviceid}/chart2`));
    await view.getByRole('heading', { level: 2, name: 'Chart not found' }).waitFor();
    expect(await view.locator('#field-dc-name').count()).toBe(0);
    await view.goto(stack.url(`/chart/${deviceid}/new`));
    await view.waitForURL((url) => url.pathname === `/chart/${deviceid}/chart2`);
    await view.getByRole('heading', { level: 2, name: 'Chart not found' }).waitFor();
    expect(await seriousAxeViolations(view)).toEqual([]);
  });

  it('a selection zooms the chart and pan mode moves it; Reset zoom returns; another range asks again', async () => {
    const page = await signedInPage();
    await page.goto(stack.url(`/chart/${deviceid}/chart1`));
    const chart = page.getByRole('region', { name: 'Supply Trend' });
    await legend(chart);
    const whole = await scale(chart, 'x');
    const over = chart.locator('.u-over');
    const box = (await over.boundingBox())!;
    const y = box.y + box.height / 2;

    await page.mouse.move(box.x + box.width * 0.3, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.45, y, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.6, y, { steps: 5 });
    await page.mouse.up();
    const zoomed = await until('the zoom', async () => {
      const s = await scale(chart, 'x');
      return s[1] - s[0] < whole[1] - whole[0] ? s : null;
    });
    expect((zoomed[1] - zoomed[0]) / (whole[1] - whole[0])).toBeCloseTo(0.3, 1);

    await chart.getByRole('button', { name: 'Pan' }).click();
    expect(await chart.getByRole('button', { name: 'Pan' }).getAttribute('aria-pressed')).toBe('true');
    await page.mouse.move(box.x + box.width * 0.5, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, y, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.7, y, { steps: 5 });
    await page.mouse.up();
    const panned = await scale(chart, 'x');
    // Dragged right by a fifth of the plot: the zoomed range moves back in time by a fifth of its length, same length.
    expect(panned[1] - panned[0]).toBeCloseTo(zoomed[1] - zoomed[0], 0);
    expect((zoomed[0] - panned[0]) / (zoomed[1] - zoomed[0])).toBeCloseTo(0.2, 1);

    await chart.getByRole('button', { name: 'Reset zoom' }).click();
    expect(await scale(chart, 'x')).toEqual(whole);

    // Another range: its own data call, and the x scale spans it.
    const day = (r: { url: () => string }) => {
      const q = new URL(r.url()).searchParams;
      return (
        r.url().includes(`/api/device/${deviceid}/data?`) &&
        Number(q.get('toTime')) - Number(q.get('fromTime')) === 86_400
      );
    };
    const [call] = await Promise.all([
      page.waitForRequest(day),
      chart.getByRole('button', { name: '1d', exact: true }).click(),
    ]);
    const q = new URL(call.url()).searchParams;
    expect(q.get('dataKeys')).toBe('vsys,batt');
    expect(q.get('downsample')).toBe('true');
    await until('the day', async () => {
      const s = await scale(chart, 'x');
      return s[1] - s[0] === 86_400;
    });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'chart-page-1280.png'), fullPage: true });
  });

  it('on the Data page the chart is a card over 10 minutes that exports what it plots as CSV', async () => {
    const page = await signedInPage();
    await page.goto(stack.url(`/data/${deviceid}`));
    const card = page.getByRole('region', { name: 'Supply Trend' });
    expect(await legend(card)).toEqual([keyDisplayName('vsys'), keyDisplayName('batt')]);
    expect(await pressedRange(card)).toBe('10m');
    const [x0, x1] = await scale(card, 'x');
    expect(x1 - x0).toBe(600);
    expect(await card.getByRole('link', { name: 'Supply Trend', exact: true }).getAttribute('href')).toBe(
      `/chart/${deviceid}/chart1`,
    );

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${deviceid} - Supply Trend - .+\\.csv$`));
    const rows = parseCsv(readFileSync(await download.path(), 'utf8').slice(1));
    expect(rows[0]).toEqual(['Time', keyDisplayName('vsys'), keyDisplayName('batt')]);
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows.slice(1)) {
      expect(row[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(Number(row[1])).toBeGreaterThan(5);
    }
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'data-page-charts-1280.png') });
  });

  it("a numeric-array value draws as bars over the xa1 axis (offset + i x scale); a key without data shows 'No Data'", async () => {
    const saved = await putCharts(deviceid, {
      chart2: {
        name: 'Spectrum',
        series: [{ source: deviceid, key: 'spectrum', colour: '#0072B2' }],
        xAxis: { xa1: { name: 'Frequency', offset: 100, scale: 50, dp: 0 } },
      },
      chart3: { name: 'Nothing', series: [{ source: deviceid, key: 'nosuchkey' }] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const page = await signedInPage();
    await page.goto(stack.url(`/chart/${deviceid}/chart2`));
    const chart = page.getByRole('region', { name: 'Spectrum' });
    expect(await legend(chart)).toEqual(['spectrum']);
    // Five bars at 100, 150, ... 300, with half a bar's slot beside the outer ones; the y axis from 0.
    expect(await scale(chart, 'x')).toEqual([75, 325]);
    const [yMin, yMax] = await scale(chart, 'y');
    expect(yMin).toBe(0);
    expect(yMax).toBeGreaterThanOrEqual(12);
    // The crosshair over the second bar: its label (150) and value (9).
    const box = (await chart.locator('.u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width * (75 / 250), box.y + box.height / 2);
    const values = await chart.locator('.chart-plot__legend .u-series .u-value').allTextContents();
    expect(values).toEqual(['150', '9']);
    await chart.getByRole('img', { name: /^Spectrum: 1 series, bars of the newest values/ }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      chart.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const rows = parseCsv(readFileSync(await download.path(), 'utf8').slice(1));
    expect(rows).toEqual([['Frequency', 'spectrum'], ...SPECTRUM.map((v, i) => [String(100 + i * 50), String(v)])]);
    await page.screenshot({ path: join(SHOTS, 'bar-chart-1280.png') });

    await page.goto(stack.url(`/chart/${deviceid}/chart3`));
    const empty = page.getByRole('region', { name: 'Nothing' });
    await empty.getByText('No Data', { exact: true }).waitFor();
    expect(await empty.locator('canvas').count()).toBe(0);
    expect(await empty.getByRole('button', { name: 'Export CSV' }).isDisabled()).toBe(true);
  });

  it('the utilisation chart asks with downsample=2 and asks again after 10 minutes', async () => {
    const page = await signedInPage();
    await page.clock.install();
    const calls: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === `/api/device/${deviceid}/data` && url.searchParams.get('dataKeys')?.startsWith('state'))
        calls.push(url);
    });
    await page.goto(stack.url(`/data/${deviceid}`));
    const card = page.getByRole('region', { name: 'Utilisation' });
    await card.getByText(/^Working .* of .*: [\d.]+ %$/).waitFor();
    expect(await pressedRange(card)).toBe('10m');
    expect(calls).toHaveLength(1);
    const first = calls[0]!;
    expect(first.searchParams.get('downsample')).toBe('2');
    expect(first.searchParams.get('dataKeys')).toBe('state4_hrs,state5_hrs,state6_hrs');
    expect(Number(first.searchParams.get('toTime')) - Number(first.searchParams.get('fromTime'))).toBe(600);

    // Nine minutes on: the page's own poll is asked again, the utilisation chart is not.
    const poll = (r: { url: () => string }) => {
      const url = new URL(r.url());
      return url.pathname === `/api/device/${deviceid}/data` && !url.searchParams.has('dataKeys');
    };
    await Promise.all([page.waitForRequest(poll), page.clock.fastForward('09:00')]);
    expect(calls).toHaveLength(1);
    await page.clock.fastForward('01:30');
    await until('the refetch', async () => calls.length === 2);
    // The range moved on with the clock.
    expect(
      Number(calls[1]!.searchParams.get('toTime')) - Number(first.searchParams.get('toTime')),
    ).toBeGreaterThanOrEqual(600);
  });

  it("the 6th chart is refused: 'Maximum number of charts reached [5]' on the Data page, its page and from the server", async () => {
    expect((await putCharts(deviceid, { chart4: { name: 'Four' }, chart7: { name: 'Seven' } })).status).toBe(200);
    const refused = await putCharts(deviceid, { chart6: { name: 'Six' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(LIMIT_TEXT);

    const page = await signedInPage();
    await page.goto(stack.url(`/data/${deviceid}`));
    const charts = page.getByRole('region', { name: 'Charts' });
    await charts.getByRole('button', { name: 'New chart' }).click();
    await charts.getByRole('alert').filter({ hasText: LIMIT_TEXT }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/data/${deviceid}`);

    await page.goto(stack.url(`/chart/${deviceid}/chart6`));
    await page.getByRole('alert').filter({ hasText: LIMIT_TEXT }).waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    // /chart/{id}/new says the same where it stands (issue 32).
    await page.goto(stack.url(`/chart/${deviceid}/new`));
    await page.getByRole('alert').filter({ hasText: LIMIT_TEXT }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/chart/${deviceid}/new`);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
  });

  it('Delete asks first, removes the chart (null) and returns to the Data page', async () => {
    const page = await signedInPage();
    await page.goto(stack.url(`/chart/${deviceid}/chart7`));
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete chart' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete' }).click();
    const [put] = await Promise.all([
      page.waitForResponse(
        (r) => r.url().endsWith(`/api/device/${deviceid}/settings`) && r.request().method() === 'PUT',
      ),
      dialog.getByRole('button', { name: 'Delete' }).click(),
    ]);
    expect(put.request().postDataJSON()).toEqual({ PORTAL_displaySettings: { chart7: null } });
    await page.waitForURL((url) => url.pathname === `/data/${deviceid}`);
    const settings = await demo<DeviceSettingsResponse>('GET', `/api/device/${deviceid}/settings`);
    expect(
      Object.keys(settings.body.deviceSettings.PORTAL_displaySettings)
        .filter((k) => k.startsWith('chart'))
        .sort(),
    ).toEqual(['chart1', 'chart2', 'chart3', 'chart4']);
  });

  it("a Basic device: 'Custom charts are unavailable on the Basic Plan' on its Data page, a chart page and from the server", async () => {
    const text = 'Custom charts are unavailable on the Basic Plan';
    const refused = await putCharts(basicId, { chart1: { name: 'Nope' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(text);

    const page = await signedInPage();
    await page.goto(stack.url(`/data/${basicId}`));
    await page.getByRole('region', { name: 'Charts' }).getByText(text, { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'New chart' }).count()).toBe(0);
    await page.goto(stack.url(`/chart/${basicId}/chart1`));
    await page.getByText(text, { exact: true }).waitFor();
    expect(await page.locator('#field-dc-name').count()).toBe(0);
  });

  it('at phone width the chart page and the cards fit, the page does not scroll sideways, axe finds nothing serious', async () => {
    const page = await signedInPage(PHONE);
    await page.goto(stack.url(`/chart/${deviceid}/chart1`));
    const chart = page.getByRole('region', { name: 'Supply Trend' });
    await legend(chart);
    await chart.getByRole('button', { name: 'Edit' }).click();
    await page.locator('#field-dc-name').waitFor();
    const canvas = (await chart.locator('canvas').boundingBox())!;
    expect(canvas.width).toBeLessThanOrEqual(PHONE.width);
    expect(canvas.width).toBeGreaterThan(PHONE.width / 2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'chart-page-390.png'), fullPage: true });

    await page.goto(stack.url(`/data/${deviceid}`));
    const card = page.getByRole('region', { name: 'Supply Trend' });
    await legend(card);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'data-page-charts-390.png') });
  });
});
