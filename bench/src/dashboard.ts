/**
 * A full group dashboard in Chromium against the real server and the built app (issue 13): a
 * view of the group table, the map, 4 headline tiles and a 15-series chart over 7 days, on a
 * group of 10,000 devices. Measured: from navigation to /group/{id}/{view} until every widget
 * has drawn (the table's first page, the map's clusters, the 4 tiles' values and the chart's
 * plot with its scales), target < 2 s; and switching tabs (a click on the other view's tab until
 * its widgets have drawn, both ways), target < 500 ms. Medians of 3 runs after a warm-up, each
 * run in a fresh browser context (cold cache).
 *
 * Data: home-map's fleet (10,000 devices over Great Britain, a record each through the ingest
 * path) and 15 chart devices with a record a minute for 7 days (the simulator's ORB-C1 model),
 * all in one group of a user who is its ADMIN; the views saved through PUT /group/{id}/view.
 */
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_TABLE_SETTINGS, type ViewInput, type WidgetLayouts } from '@portal/core';
import { launchBrowser } from '../../e2e/src/browser';
import type { BenchResult } from './run';
import { median } from './stats';
import { makeFleet, signedInContext, startPortalWithWeb } from './home-map';
import { RecordSource, ingestHistory, progress, provisionDevices, round1, type BenchPortal } from './telemetry-kit';

const RUNS = 3;
const DAYS = 7;
const SERIES = 15;
const KEY = 'batt';
const TARGETS = { drawnMs: 2000, tabMs: 500 };

/** The page's globals used by the functions run in the page (this package has no DOM types). */
declare const document: {
  querySelector(selector: string): { getAttribute(name: string): string | null; textContent: string | null } | null;
  querySelectorAll(selector: string): { length: number };
};
declare const performance: { now(): number };

const at = (
  lg: [number, number, number, number],
  md: [number, number, number, number],
  sm: [number, number, number, number],
): WidgetLayouts => {
  const one = ([x, y, w, h]: [number, number, number, number]) => ({ x, y, w, h, minW: 2, minH: 4 });
  return { lg: one(lg), md: one(md), sm: one(sm) };
};

/** The dashboard: 4 tiles, the chart, the table and the map. */
function dashboardView(chartDevices: readonly string[]): ViewInput {
  const operators = ['avg', 'max', 'min', 'latest'] as const;
  const tiles = Object.fromEntries(
    operators.map((operator, i) => [
      `h${i + 1}`,
      {
        type: 'headline',
        settings: { key: KEY, operator, unit: 'V', dp: 2 },
        layouts: at([i * 3, 0, 3, 4], [(i % 2) * 3, Math.floor(i / 2) * 4, 3, 4], [0, i * 4, 4, 4]),
      },
    ]),
  );
  return {
    name: 'Dashboard',
    sortOrder: 1,
    timeRange: { type: 'day', amount: DAYS },
    widgets: {
      ...tiles,
      chart: {
        type: 'chart',
        settings: {
          name: 'Batteries',
          series: chartDevices.map((source) => ({ source, key: KEY, axisBind: 'ax1', lineWidth: 2 })),
        },
        layouts: at([0, 4, 12, 10], [0, 8, 6, 10], [0, 16, 4, 10]),
      },
      table: {
        type: 'table',
        settings: DEFAULT_TABLE_SETTINGS,
        layouts: at([0, 14, 12, 12], [0, 18, 6, 12], [0, 26, 4, 12]),
      },
      map: { type: 'map', settings: {}, layouts: at([0, 26, 12, 12], [0, 30, 6, 12], [0, 38, 4, 12]) },
    },
  } as ViewInput;
}

/** A second view to switch to: the table, the map and two tiles. */
function fleetView(): ViewInput {
  return {
    name: 'Fleet',
    sortOrder: 2,
    timeRange: { type: 'day', amount: DAYS },
    widgets: {
      h1: {
        type: 'headline',
        settings: { key: KEY, operator: 'avg', dp: 2 },
        layouts: at([0, 0, 6, 4], [0, 0, 3, 4], [0, 0, 4, 4]),
      },
      h2: {
        type: 'headline',
        settings: { key: KEY, operator: 'max', dp: 2 },
        layouts: at([6, 0, 6, 4], [3, 0, 3, 4], [0, 4, 4, 4]),
      },
      table: {
        type: 'table',
        settings: DEFAULT_TABLE_SETTINGS,
        layouts: at([0, 4, 12, 12], [0, 4, 6, 12], [0, 8, 4, 12]),
      },
      map: { type: 'map', settings: {}, layouts: at([0, 16, 12, 12], [0, 16, 6, 12], [0, 20, 4, 12]) },
    },
  } as ViewInput;
}

/** Saves a view as the user (a fresh sign-in), answers its id. */
async function saveView(
  bp: BenchPortal,
  groupid: string,
  user: { email: string; password: string },
  view: ViewInput,
): Promise<string> {
  const base = `http://127.0.0.1:${bp.portal.port}`;
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'portal' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (login.status !== 200) throw new Error(`bench sign-in failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const saved = await fetch(`${base}/api/group/${groupid}/view`, {
    method: 'PUT',
    headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'portal' },
    body: JSON.stringify({ view }),
  });
  const body = (await saved.json()) as { view?: { viewid: string } };
  if (saved.status !== 200 || !body.view)
    throw new Error(`view not saved: ${saved.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body.view.viewid;
}

/** performance.now() once every widget of the view has drawn: `tiles` headline values, and a chart when `chart`. */
async function widgetsDrawnAt(page: Page, tiles: number, chart: boolean): Promise<number> {
  const done = await page.waitForFunction(
    ([tileCount, withChart]) => {
      const rows = document.querySelectorAll('[data-testid="group-table"] tbody.p-datatable-tbody > tr.gt-row').length;
      const map = document.querySelector('.gm-map');
      const clusters = document.querySelectorAll('.gm-cluster').length;
      const values = document.querySelectorAll('.headline__value').length;
      const plotted = !withChart || document.querySelector('.group-chart[data-scale-x]') !== null;
      return rows > 0 && map?.getAttribute('aria-busy') === 'false' && clusters > 0 && values >= tileCount && plotted
        ? performance.now()
        : false;
    },
    [tiles, chart] as const,
    { timeout: 60_000, polling: 'raf' },
  );
  return (await done.jsonValue()) as number;
}

/** From a click on the tab named `name` until its view has drawn (ms). */
async function switchTo(page: Page, name: string, tiles: number, chart: boolean): Promise<number> {
  const start = await page.evaluate(() => performance.now());
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name, exact: true }).click();
  // The tab is current once the route has rendered the view: the widgets found after are its own.
  await page.waitForFunction(
    (tab) => document.querySelector('nav[aria-label="Views"] [aria-current="page"]')?.textContent?.trim() === tab,
    name,
    { timeout: 60_000 },
  );
  return (await widgetsDrawnAt(page, tiles, chart)) - start;
}

export async function dashboard(): Promise<BenchResult[]> {
  const bp = await startPortalWithWeb();
  let browser: Browser | null = null;
  const drawn: number[] = [];
  const tabs: number[] = [];
  try {
    const fleet = await makeFleet(bp);
    let t0 = performance.now();
    const chartDevices = await provisionDevices(bp, SERIES, 'C');
    const now = Math.floor(Date.now() / 1000) - 60;
    const stored = await ingestHistory(bp, chartDevices, {
      from: now - DAYS * 86_400,
      to: now,
      intervalS: 60,
      perMessage: 360,
      sources: new Map(chartDevices.map((d) => [d.id, new RecordSource(d.id)])),
    });
    await bp.portal.db.query(
      `INSERT INTO group_devices (groupid, device_id, created_at) SELECT $1, d, now() FROM unnest($2::text[]) AS d`,
      [fleet.groupid, chartDevices.map((d) => d.id)],
    );
    progress(`dashboard: ${SERIES} chart devices, ${stored} records in ${round1((performance.now() - t0) / 1000)} s`);
    const dashboardId = await saveView(bp, fleet.groupid, fleet, dashboardView(chartDevices.map((d) => d.id)));
    await saveView(bp, fleet.groupid, fleet, fleetView());

    browser = await launchBrowser();
    const base = `http://127.0.0.1:${bp.portal.port}`;
    for (let i = 0; i <= RUNS; i += 1) {
      const context = await signedInContext(browser, base, fleet);
      const page = await context.newPage();
      t0 = performance.now();
      await page.goto(`${base}/group/${fleet.groupid}/${dashboardId}`, { waitUntil: 'commit' });
      const ms = await widgetsDrawnAt(page, 4, true);
      const toFleet = await switchTo(page, 'Fleet', 2, false);
      const toDashboard = await switchTo(page, 'Dashboard', 4, true);
      if (i > 0) {
        drawn.push(ms);
        tabs.push(toFleet, toDashboard);
      }
      progress(
        `dashboard run ${i}${i === 0 ? ' (warm-up)' : ''}: drawn ${Math.round(ms)} ms; tab to Fleet ${Math.round(toFleet)} ms, back to Dashboard ${Math.round(toDashboard)} ms`,
      );
      await context.close();
    }
  } finally {
    await browser?.close();
    await bp.close();
  }
  return [
    {
      name: 'dashboard-10000dev-every-widget-drawn-ms',
      value: Math.round(median(drawn)),
      unit: 'ms',
      better: 'lower',
      target: TARGETS.drawnMs,
      runs: drawn.map(Math.round),
    },
    {
      name: 'dashboard-10000dev-tab-switch-ms',
      value: Math.round(median(tabs)),
      unit: 'ms',
      better: 'lower',
      target: TARGETS.tabMs,
      runs: tabs.map(Math.round),
    },
  ];
}
