// The device Data page in Chromium against the real server and the built app: the gzip size (kB = 1000 bytes) of
// the JavaScript and CSS it loads (signed in, cold cache, the lazy map chunk included), and the time from the start
// of navigation until every card of a 40-key device is rendered (median of 3 runs after a warm-up).
import type { BrowserContext } from 'playwright-core';
import { freshDeviceId, startStack, type Stack } from '../../e2e/src/harness';
import { newPage } from '../../e2e/src/browser';
import type { BenchResult } from './run';
import { median } from './stats';
import { countLoadedBytes } from './page-bytes';

const DEMO = { email: 'demo@portal.local', password: 'demo-portal-2026' };
const KEYS = 40;
const RUNS = 3;
/** The page's document, as far as the functions run in the page use it (this package has no DOM types). */
declare const document: { querySelectorAll(selector: string): { length: number } };

/** One record of KEYS keys: catalogue keys (a position, numbers of several kinds) and custom ones, some text. */
function fortyKeyRecord(ts: number): Record<string, number | string> {
  // A position, so the map card draws its map (the lazy Leaflet chunk).
  const record: Record<string, number | string> = { ts, gps_lat: 53.4926, gps_lon: -2.2113, gps_hdop: 1.2 };
  const catalogue = ['vsys', 'batt', 'ambient_temp', 'ambient_hum', 'engine_speed', 'coolant_temp', 'fuel_level'];
  catalogue.forEach((key, i) => (record[key] = 10 + i * 1.25));
  for (let i = 1; i <= 5; i += 1) record[`analog${i}`] = i * 0.5;
  for (let i = 1; i <= 5; i += 1) record[`digital${i}`] = i % 2;
  for (let i = 1; i <= 6; i += 1) record[`state${i}_hrs`] = 100 + i * 12.5;
  for (let i = 1; i <= 10; i += 1) record[`cp${i}`] = i * 3.75;
  const missing = KEYS + 1 - Object.keys(record).length;
  for (let i = 1; i <= missing; i += 1) record[`text${i}`] = `value ${i}`;
  return record;
}

/** A signed-in context (cold cache) whose requests to anything but the portal are refused (map tiles). */
async function signedInContext(stack: Stack): Promise<BrowserContext> {
  const { context } = await newPage(stack.browser);
  await context.route(
    (url) => url.hostname !== 'localhost',
    (route) => route.abort(),
  );
  await stack.signInContext(context, DEMO.email, DEMO.password);
  return context;
}

export async function devicePage(): Promise<BenchResult[]> {
  const stack = await startStack();
  const js: number[] = [];
  const css: number[] = [];
  const rendered: number[] = [];
  try {
    const device = await stack.provisionDevice(freshDeviceId('BEN'), 'ORB-C1', 'Forty Keys');
    const demo = stack.apiClient();
    if ((await demo('POST', '/api/auth/login', DEMO)).status !== 200) throw new Error('demo sign-in failed');
    const claim = await demo('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword });
    if (claim.status !== 200) throw new Error(`adding the device failed: ${JSON.stringify(claim)}`);
    const record = fortyKeyRecord(Date.now() / 1000);
    if (Object.keys(record).length !== KEYS + 1) throw new Error('the record does not have 40 keys');
    const ingest = await fetch(stack.url(`/api/ingest/${device.id}`), {
      method: 'POST',
      headers: { authorization: `Device ${device.deviceKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(record),
    });
    if (ingest.status !== 200) throw new Error(`ingest failed: ${ingest.status} ${await ingest.text()}`);
    const path = `/data/${device.id}`;

    // Bytes: every script and stylesheet of the page, cold cache, until the map has drawn (its chunk loaded).
    for (let i = 0; i < RUNS; i += 1) {
      const context = await signedInContext(stack);
      const page = await context.newPage();
      const loaded = countLoadedBytes(page);
      await page.goto(stack.url(path), { waitUntil: 'networkidle' });
      await page.locator('.leaflet-container').waitFor();
      await page.waitForFunction((n) => document.querySelectorAll('.dp-reading').length === n, KEYS);
      await page.waitForLoadState('networkidle');
      const sizes = await loaded.total();
      js.push(sizes.js);
      css.push(sizes.css);
      await context.close();
    }

    // Time: navigation start (the page's time origin) until the 40th card is in the page. A warm-up run first.
    for (let i = 0; i <= RUNS; i += 1) {
      const context = await signedInContext(stack);
      const page = await context.newPage();
      await page.goto(stack.url(path), { waitUntil: 'commit' });
      const done = await page.waitForFunction(
        (n) => (document.querySelectorAll('.dp-reading').length === n ? performance.now() : false),
        KEYS,
        { timeout: 30_000 },
      );
      const ms = (await done.jsonValue()) as number;
      if (i > 0) rendered.push(ms);
      await context.close();
    }
  } finally {
    await stack.close();
  }
  const round = (n: number) => Math.round(n * 10) / 10;
  return [
    {
      name: 'device-page-js-gzip',
      value: round(median(js)),
      unit: 'kB',
      better: 'lower',
      ceiling: 300,
      runs: js.map(round),
    },
    { name: 'device-page-css-gzip', value: round(median(css)), unit: 'kB', better: 'lower', runs: css.map(round) },
    {
      name: 'device-page-cards-rendered-ms',
      value: Math.round(median(rendered)),
      unit: 'ms',
      better: 'lower',
      target: 1000,
      runs: rendered.map(Math.round),
    },
  ];
}
