// The dashboard map widget in Chromium against the real server, on home's group dashboard
// (/group/{groupid}), fed by devices that publish their position over MQTT (spec 1 sections 2-4,
// 8 and 9; ledger MAP-01, MAP-02, MAP-06 - MAP-12, MAP-14). Tiles from the internet are refused,
// as in an offline installation: the markers and clusters must show anyway.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page, Request } from 'playwright-core';
import {
  DISABLE_CLUSTERING,
  ENABLE_CLUSTERING,
  MAP_DEFAULTS,
  MAP_LOAD_ERROR,
  MAP_TILES_UNAVAILABLE,
  NO_DEVICES_IN_GROUP,
  SEVERITY_COLOURS,
  type MapSeverity,
} from '@portal/core';
import { DESKTOP, PHONE, chromiumAvailable } from './browser';
import { startStack, type Stack } from './harness';
import { DEMO, deviceInGroup, expectPath, makeGroup, seriousAxeViolations, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
/** Where the screenshots go (looked at by hand: 1280 and 390 px). */
const SHOTS = process.env.E2E_SHOTS ?? join(tmpdir(), 'group-map-shots');

type Device = Awaited<ReturnType<Stack['provisionDevice']>>;
type Api = ReturnType<Stack['apiClient']>;

/** Sydney, and 20 devices within a few hundred metres of it. */
const SYDNEY = { lat: -33.8688, lon: 151.2093 };
const CROWD = 20;
/** The dashboard's own refresh (every 30 s) plus the time to draw. */
const STALE_REFRESH_WAIT_MS = 45_000;

describe.skipIf(!chromiumAvailable() && !required)('dashboard map widget', () => {
  let stack: Stack;
  let demo: Api;
  let crowdGroup: string;
  let crowd: Device[];
  let emptyGroup: string;
  let singleGroup: string;
  let single: Device;
  const SINGLE_NAME = 'Lone Pump';
  const SINGLE_AT = { lat: -27.4698, lon: 153.0251 };
  let moverGroup: string;
  let mover: Device;

  const createGroup = (groupName: string) => makeGroup(demo, groupName);
  const deviceIn = (groupid: string, tag: string, name: string) => deviceInGroup(stack, demo, groupid, tag, name);

  const nowS = () => Math.floor(Date.now() / 1000);
  const at = (lat: number, lon: number) => ({ ts: nowS(), gps_lat: lat, gps_lon: lon, gps_hdop: 1 });

  /** A page signed in as the demo account; requests to any other host (map tiles) fail, and are noted. */
  async function signedInPage(
    viewport = DESKTOP,
    block?: string,
  ): Promise<{ context: BrowserContext; page: Page; requests: string[] }> {
    // bypassCSP: axe goes in as an inline script, which the portal's script-src 'self' would refuse.
    const context = await stack.browser.newContext({ viewport, bypassCSP: true });
    const requests: string[] = [];
    context.on('request', (r: Request) => requests.push(r.url()));
    if (block) await context.route(block, (route) => route.abort());
    await stack.signInContext(context, DEMO.email, DEMO.password);
    const page = await context.newPage();
    return { context, page, requests };
  }

  const mapOf = (page: Page): Locator => page.locator('.gm-map');

  async function openGroup(page: Page, groupid: string): Promise<Locator> {
    await page.goto(stack.url(`/group/${groupid}`));
    const map = mapOf(page);
    await map.waitFor();
    // The first answer is drawn: the map is no longer busy.
    await until('the map to get its data', async () => (await map.getAttribute('aria-busy')) === 'false');
    return map;
  }

  const zoomOf = async (map: Locator) => Number(await map.getAttribute('data-zoom'));
  const centreOf = async (map: Locator) => {
    const [lat, lng] = ((await map.getAttribute('data-centre')) ?? '').split(',').map(Number);
    return { lat: lat!, lng: lng! };
  };
  const drawn = async (map: Locator) => ({
    markers: Number(await map.getAttribute('data-markers')),
    clusters: Number(await map.getAttribute('data-clusters')),
  });

  /** Pixels of the map's canvas in exactly this colour (the inside of the dots). */
  async function canvasPixels(page: Page, hex: string): Promise<number> {
    return page.evaluate((colour) => {
      const want = [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16));
      let n = 0;
      for (const canvas of Array.from(document.querySelectorAll<HTMLCanvasElement>('.gm-map canvas'))) {
        const ctx = canvas.getContext('2d');
        if (!ctx || canvas.width === 0 || canvas.height === 0) continue;
        const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 0; i < data.length; i += 4) {
          if (data[i] === want[0] && data[i + 1] === want[1] && data[i + 2] === want[2] && data[i + 3] === 255) n += 1;
        }
      }
      return n;
    }, hex);
  }

  /** The cluster bubbles: their severity, count and painted background. */
  async function clusters(page: Page): Promise<{ severity: MapSeverity; count: number; background: string }[]> {
    return page.locator('.gm-cluster').evaluateAll((els) =>
      els.map((el) => ({
        severity: (el as HTMLElement).dataset.severity as MapSeverity,
        count: Number((el as HTMLElement).dataset.count),
        background: getComputedStyle(el).backgroundColor,
      })),
    );
  }

  const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    stack = await startStack();
    demo = stack.apiClient();
    const login = await demo('POST', '/api/auth/login', DEMO);
    if (login.status !== 200) throw new Error(`demo sign-in failed: ${JSON.stringify(login)}`);

    crowdGroup = await createGroup('Map Crowd');
    crowd = [];
    for (let i = 0; i < CROWD; i += 1) {
      const device = await deviceIn(crowdGroup, 'MAP', `Crowd ${i + 1}`);
      // A 5 x 4 block about 100 m apart.
      await stack.publish(device, at(SYDNEY.lat + (i % 5) * 0.001, SYDNEY.lon + Math.floor(i / 5) * 0.001));
      crowd.push(device);
    }
    // One device of the group never sent a position: not drawn, counted.
    const lost = await deviceIn(crowdGroup, 'MAP', 'No Fix');
    await stack.publish(lost, { ts: nowS(), vsys: 12 });

    emptyGroup = await createGroup('Map Empty');
    singleGroup = await createGroup('Map Single');
    single = await deviceIn(singleGroup, 'ONE', SINGLE_NAME);
    await stack.publish(single, at(SINGLE_AT.lat, SINGLE_AT.lon));
    moverGroup = await createGroup('Map Mover');
    mover = await deviceIn(moverGroup, 'MOV', 'Mover');
    await stack.publish(mover, at(-31.95, 115.86));
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('draws a marker per device with a position and clusters 20 nearby devices (MAP-01, MAP-14)', async () => {
    const { context, page, requests } = await signedInPage();
    try {
      const map = await openGroup(page, crowdGroup);
      await page.locator('.gm-cluster').first().waitFor();
      const bubbles = await clusters(page);
      const { markers } = await drawn(map);
      // Every device with a position is in a bubble or drawn as a dot of its own.
      expect(bubbles.reduce((sum, b) => sum + b.count, 0) + markers).toBe(CROWD);
      expect(bubbles.every((b) => b.severity === 'normal' && b.background === rgb(SEVERITY_COLOURS.normal))).toBe(true);
      await page.getByText('1 device without a position').waitFor();
      // Fitted to the crowd: centred on the block, closer than the default zoom.
      const centre = await centreOf(map);
      expect(Math.abs(centre.lat - (SYDNEY.lat + 0.002))).toBeLessThan(0.01);
      expect(Math.abs(centre.lng - (SYDNEY.lon + 0.0015))).toBeLessThan(0.01);
      expect(await zoomOf(map)).toBeGreaterThan(10);
      expect(await map.getAttribute('aria-label')).toBe('Map of 20 devices: 20 normal; 1 without a position');
      // The map's code came at run time, in a chunk of its own, and the tiles were asked of the configured server (MAP-12).
      expect(requests.some((u) => /\/assets\/leaflet-group-map-[\w-]+\.js$/.test(u))).toBe(true);
      expect(requests.some((u) => u.endsWith('/api/map-tiles'))).toBe(true);
      await until('tile requests', async () =>
        requests.some((u) => /tile\.openstreetmap\.org\/\d+\/\d+\/\d+\.png/.test(u)),
      );

      await page.screenshot({ path: join(SHOTS, 'crowd-1280.png'), fullPage: true });
      await map.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'crowd-map-1280.png') });
      expect(await seriousAxeViolations(page, '.gm-widget')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says the tiles are unavailable when they cannot load, keeps the markers, and logs one error per load (issue 32)', async () => {
    // Every tile request fails (the page may reach only the local stack), as offline or with a blocked tile server.
    const { context, page } = await signedInPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    try {
      const map = await openGroup(page, crowdGroup);
      await page.locator('.gm-cluster').first().waitFor();
      const notice = page.locator('.gm-frame').getByRole('status').filter({ hasText: MAP_TILES_UNAVAILABLE });
      await notice.waitFor();
      const { markers } = await drawn(map);
      const bubbles = await clusters(page);
      expect(bubbles.reduce((sum, b) => sum + b.count, 0) + markers).toBe(CROWD);
      // No tile layer is left asking for tiles: one failed request (the probe), one console line.
      expect(await page.locator('.gm-map .leaflet-tile').count()).toBe(0);
      expect(errors).toHaveLength(1);
      await map.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'no-tiles-1280.png') });

      // The device page's Map card, a new page load: the marker and the same notice, one error.
      errors.length = 0;
      await page.goto(stack.url(`/data/${single.id}`));
      const card = page.locator('.dd-map');
      await card.locator('.dd-map__marker').waitFor();
      await card.getByRole('status').filter({ hasText: MAP_TILES_UNAVAILABLE }).waitFor();
      expect(await card.locator('.leaflet-tile').count()).toBe(0);
      expect(errors).toHaveLength(1);
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'no-tiles-device-1280.png') });
    } finally {
      await context.close();
    }
  });

  it('clusters on a phone too, with the bubbles readable', async () => {
    const { context, page } = await signedInPage(PHONE);
    try {
      const map = await openGroup(page, crowdGroup);
      await page.locator('.gm-cluster').first().waitFor();
      await map.scrollIntoViewIfNeeded();
      const box = await map.boundingBox();
      expect(box!.width).toBeLessThanOrEqual(PHONE.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await page.screenshot({ path: join(SHOTS, 'crowd-map-390.png') });
    } finally {
      await context.close();
    }
  });

  it("toggles clustering with 'Disable Clustering' / 'Enable Clustering' (MAP-02)", async () => {
    const { context, page } = await signedInPage();
    try {
      const map = await openGroup(page, crowdGroup);
      await page.locator('.gm-cluster').first().waitFor();
      const toggle = page.getByRole('button', { name: DISABLE_CLUSTERING, exact: true });
      await toggle.hover();
      const tooltip = page.getByRole('tooltip');
      await expect(tooltip.innerText()).resolves.toBe(DISABLE_CLUSTERING);
      expect(await tooltip.isVisible()).toBe(true);
      await toggle.click();

      const enable = page.getByRole('button', { name: ENABLE_CLUSTERING, exact: true });
      await enable.waitFor();
      await enable.hover();
      await expect(tooltip.innerText()).resolves.toBe(ENABLE_CLUSTERING);
      expect(await tooltip.isVisible()).toBe(true);
      // Unclustered: every device is a dot of its own on the canvas, no bubble is left.
      expect(await page.locator('.gm-cluster').count()).toBe(0);
      expect(await drawn(map)).toEqual({ markers: CROWD, clusters: 0 });
      await until('the dots to be painted', async () => (await canvasPixels(page, SEVERITY_COLOURS.normal)) > 0);
      await page.screenshot({ path: join(SHOTS, 'unclustered-1280.png') });

      // From the keyboard as well: the tooltip shows on focus, Escape hides it.
      await page.mouse.move(2, 2);
      // A key press first, so the focus that follows counts as the keyboard's (:focus-visible).
      await page.keyboard.press('Shift');
      await enable.focus();
      await tooltip.waitFor();
      await page.keyboard.press('Escape');
      await tooltip.waitFor({ state: 'hidden' });
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: DISABLE_CLUSTERING, exact: true }).waitFor();
      await page.locator('.gm-cluster').first().waitFor();
    } finally {
      await context.close();
    }
  });

  it('zooms in on a cluster by click, and by Enter from the keyboard', async () => {
    const { context, page } = await signedInPage();
    try {
      const map = await openGroup(page, crowdGroup);
      const bubble = page.locator('.gm-cluster').first();
      await bubble.waitFor();
      await map.scrollIntoViewIfNeeded();
      const zoom = await zoomOf(map);
      await page
        .getByRole('button', { name: /devices, most severe normal; zoom in$/ })
        .first()
        .click();
      await until('a closer zoom', async () => (await zoomOf(map)) > zoom);
      // Out again with the map's own button, then in on a bubble from the keyboard.
      await page.locator('.leaflet-control-zoom-out').click();
      await until('the zoom back', async () => (await zoomOf(map)) === zoom);
      await page.locator('.gm-cluster').first().waitFor();
      await page.locator('.gm-cluster').first().focus();
      await page.keyboard.press('Enter');
      await until('a closer zoom', async () => (await zoomOf(map)) > zoom);
    } finally {
      await context.close();
    }
  });

  it('turns a cluster red when one of its devices raises an ALARM event (MAP-06)', async () => {
    const { context, page } = await signedInPage();
    try {
      await openGroup(page, crowdGroup);
      await page.locator('.gm-cluster').first().waitFor();
      // Zoomed out until the whole crowd is one green bubble (the pointer stays on the map, so no auto-fit undoes it).
      await mapOf(page).scrollIntoViewIfNeeded();
      await until('one bubble of the whole crowd', async () => {
        const now = await clusters(page);
        if (now.length === 1 && now[0]!.count === CROWD) return true;
        await page.locator('.leaflet-control-zoom-out').click();
        await page.waitForTimeout(500);
        return false;
      });
      expect((await clusters(page))[0]!.severity).toBe('normal');

      // One device of the crowd raises an ALARM.
      await stack.publish(crowd[0]!, { ts: nowS(), events: [{ msg: 'Overpressure', severity: 'ALARM' }] });
      // The dashboard refreshes its data every 30 s on its own; the map follows without a reload.
      await until(
        'a red cluster',
        async () => (await clusters(page)).some((b) => b.severity === 'alarm'),
        STALE_REFRESH_WAIT_MS,
      );
      const after = await clusters(page);
      const red = after.filter((b) => b.severity === 'alarm');
      expect(red).toHaveLength(1);
      expect(red[0]!.background).toBe(rgb(SEVERITY_COLOURS.alarm));
      await mapOf(page).scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'alarm-cluster-1280.png') });
    } finally {
      await context.close();
    }
  }, 90_000);

  it("opens a device's popup with its name, last contact and a Device Page link; one device shows at zoom 15 (MAP-09)", async () => {
    const { context, page } = await signedInPage();
    try {
      const map = await openGroup(page, singleGroup);
      await until('zoom 15', async () => (await zoomOf(map)) === MAP_DEFAULTS.singleMarkerZoom);
      const centre = await centreOf(map);
      expect(centre.lat).toBeCloseTo(SINGLE_AT.lat, 4);
      expect(centre.lng).toBeCloseTo(SINGLE_AT.lon, 4);
      expect(await drawn(map)).toEqual({ markers: 1, clusters: 0 });
      await until('the dot to be painted', async () => (await canvasPixels(page, SEVERITY_COLOURS.normal)) > 0);

      // The one marker is at the map's centre.
      await map.scrollIntoViewIfNeeded();
      const box = (await map.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      const popup = page.locator('.leaflet-popup');
      await popup.waitFor();
      expect(await popup.locator('.gm-popup__name').innerText()).toBe(SINGLE_NAME);
      expect(await popup.locator('.gm-popup__contact').innerText()).toMatch(/^Last contact: .*ago$/);
      await page.screenshot({ path: join(SHOTS, 'popup-1280.png') });

      // New data (the device made contact) does not close the popup.
      await stack.publish(single, at(SINGLE_AT.lat, SINGLE_AT.lon));
      const answered = page.waitForResponse((r) => r.url().includes(`/api/group/${singleGroup}/data`));
      await page.getByRole('button', { name: /^Refresh/ }).click();
      await answered;
      await page.waitForTimeout(500);
      expect(await popup.isVisible()).toBe(true);
      expect(await popup.locator('.gm-popup__name').innerText()).toBe(SINGLE_NAME);

      const link = popup.getByRole('link', { name: 'Device Page' });
      expect(await link.getAttribute('href')).toBe(`/data/${single.id}`);
      await link.click();
      await expectPath(page, `/data/${single.id}`);
    } finally {
      await context.close();
    }
  });

  it("shows an empty group's map at the default centre (26, -135) and zoom 2 (MAP-08)", async () => {
    const { context, page } = await signedInPage();
    try {
      const map = await openGroup(page, emptyGroup);
      expect(await zoomOf(map)).toBe(MAP_DEFAULTS.zoom);
      // Leaflet keeps its view in whole pixels: at zoom 2 a pixel is about 0.35 degrees.
      const centre = await centreOf(map);
      expect(Math.abs(centre.lat - MAP_DEFAULTS.centre.lat)).toBeLessThan(0.2);
      expect(Math.abs(centre.lng - MAP_DEFAULTS.centre.lng)).toBeLessThan(0.2);
      expect(await drawn(map)).toEqual({ markers: 0, clusters: 0 });
      await page.locator('.gm-widget').getByText(NO_DEVICES_IN_GROUP).waitFor();
      // The table says the same, not that filters match nothing (there are none).
      await page.locator('.p-datatable-emptymessage').getByText(NO_DEVICES_IN_GROUP).waitFor();
      await map.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'empty-1280.png') });
    } finally {
      await context.close();
    }
  });

  it('keeps the view for 5 s after the pointer leaves the map, then fits to the markers again (MAP-10)', async () => {
    const { context, page } = await signedInPage();
    try {
      const map = await openGroup(page, moverGroup);
      await until('zoom 15', async () => (await zoomOf(map)) === MAP_DEFAULTS.singleMarkerZoom);
      await map.scrollIntoViewIfNeeded();
      const box = (await map.boundingBox())!;
      // Pan by dragging (from beside the marker, which takes clicks), then take the pointer off the map.
      const from = { x: box.x + box.width / 2 + 120, y: box.y + box.height / 2 + 60 };
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(from.x - 150, from.y - 60, { steps: 8 });
      await page.mouse.up();
      // The view is noted when the move ends (after Leaflet's inertia).
      await until('the pan to end', async () => (await centreOf(map)).lng > 115.86 + 0.0005);
      await page.waitForTimeout(600);
      const panned = await centreOf(map);
      await page.mouse.move(2, 2);
      const left = Date.now();

      // The device moves; the data refreshes 3 s after the pointer left: the view is kept.
      await stack.publish(mover, at(-31.9, 115.9));
      const refresh = page.getByRole('button', { name: /^Refresh/ });
      await page.waitForTimeout(3000 - (Date.now() - left));
      await refresh.click();
      await until('the refreshed answer', async () => (await map.getAttribute('aria-busy')) === 'false');
      await page.waitForTimeout(800);
      expect(await centreOf(map)).toEqual(panned);

      // It moves again; a refresh after the 5 s fits the map to it.
      await stack.publish(mover, at(-31.8, 115.95));
      await page.waitForTimeout(Math.max(0, 8600 - (Date.now() - left)));
      await refresh.click();
      await until('the map to fit the moved device', async () => {
        const c = await centreOf(map);
        return Math.abs(c.lat - -31.8) < 1e-4 && Math.abs(c.lng - 115.95) < 1e-4;
      });
      expect(await zoomOf(map)).toBe(MAP_DEFAULTS.singleMarkerZoom);
    } finally {
      await context.close();
    }
  });

  it("says 'Map Load Error' when the map's code cannot load (MAP-11)", async () => {
    const { context, page } = await signedInPage(DESKTOP, '**/assets/leaflet-group-map-*.js');
    try {
      await page.goto(stack.url(`/group/${crowdGroup}`));
      const error = page.locator('.gm-widget').getByText(MAP_LOAD_ERROR, { exact: true });
      await error.waitFor();
      await page.locator('.gm-widget').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'load-error-1280.png') });
      // Retry once the code can be had again.
      await context.unroute('**/assets/leaflet-group-map-*.js');
      await page.locator('.gm-widget').getByRole('button', { name: 'Retry' }).click();
      await page.locator('.gm-cluster').first().waitFor();
    } finally {
      await context.close();
    }
  });
});
