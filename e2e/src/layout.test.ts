// Layout in Chromium against the real server and the built web app: no layout shift while /login, the device
// page and home (the group dashboard) load, no content security policy violation on any page, and the map never
// drawn over the navigation bar or a dialog's backdrop (issues 11, 12).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { createDeviceModel } from '../../apps/simulator/src/index';
import { DEMO_CUSTOM_SETTINGS, DEMO_DISPLAY_SETTINGS, DEMO_TRIGGERS } from '../../scripts/demo-fleet';
import { DESKTOP, PHONE, chromiumAvailable, newPage } from './browser';
import { freshDeviceId, startStack, type Stack } from './harness';
import { DEMO } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

/** CLS the pages must stay under (Lighthouse's "good" is 0.1; issue 11 asks for 0.05). */
const CLS_LIMIT = 0.05;
/** Records of the device, one a minute: enough for sparklines and a full page of cards. */
const RECORDS = 30;

type Device = Awaited<ReturnType<Stack['provisionDevice']>>;
type Viewport = typeof DESKTOP;

interface Probe {
  shifts: { value: number; sources: string[] }[];
  violations: { directive: string; blocked: string; source: string }[];
}

/**
 * Installed before any of the page's scripts: collects layout shifts not caused by input (CLS's own rule) and
 * content security policy violations into window.__probe.
 */
function installProbe(): void {
  const probe: Probe = { shifts: [], violations: [] };
  (window as unknown as { __probe: Probe }).__probe = probe;
  const describe = (node: Node | null | undefined): string => {
    if (!(node instanceof Element)) return node ? node.nodeName : '(gone)';
    const classes =
      typeof node.className === 'string' && node.className ? `.${node.className.split(/\s+/).join('.')}` : '';
    return `${node.tagName.toLowerCase()}${classes}`;
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as unknown as {
      value: number;
      hadRecentInput: boolean;
      sources?: { node?: Node | null }[];
    }[]) {
      if (!entry.hadRecentInput)
        probe.shifts.push({ value: entry.value, sources: (entry.sources ?? []).map((s) => describe(s.node)) });
    }
  }).observe({ type: 'layout-shift', buffered: true });
  document.addEventListener('securitypolicyviolation', (event) => {
    probe.violations.push({
      directive: event.effectiveDirective,
      blocked: event.blockedURI,
      source: `${event.sourceFile}:${event.lineNumber}`,
    });
  });
}

const probeOf = (page: Page): Promise<Probe> => page.evaluate(() => (window as unknown as { __probe: Probe }).__probe);

/** Waits until the icon font and the other fonts are in, the network is quiet and two more frames are drawn. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await frames(page, 2);
}

/** Waits until the page has drawn `count` more frames. */
async function frames(page: Page, count: number): Promise<void> {
  await page.evaluate(async (n) => {
    for (let i = 0; i < n; i += 1) await new Promise((resolve) => requestAnimationFrame(resolve));
  }, count);
}

/** The page's cumulative layout shift so far (every shift not caused by input, summed), logged with its sources. */
async function layoutShift(page: Page): Promise<number> {
  const { shifts } = await probeOf(page);
  const total = shifts.reduce((sum, s) => sum + s.value, 0);
  if (total > 0) console.info(`layout shifts of ${new URL(page.url()).pathname}: ${JSON.stringify(shifts)}`);
  return total;
}

describe.skipIf(!chromiumAvailable() && !required)('layout', () => {
  let stack: Stack;
  let device: Device;

  /** A page whose probe is installed before anything loads; map tiles from the internet are refused. */
  async function probedPage(viewport: Viewport, signedIn: boolean): Promise<{ context: BrowserContext; page: Page }> {
    const { context, page } = await newPage(stack.browser, viewport);
    await context.addInitScript(installProbe);
    if (signedIn) await stack.signInContext(context, DEMO.email, DEMO.password);
    return { context, page };
  }

  /**
   * Holds back the answers to requests whose URL matches until `release` is called, as a slow network does, so the
   * page is laid out before they arrive and the test sees whatever moves when they do (a fast local server would
   * hide it).
   */
  async function hold(page: Page, url: RegExp): Promise<{ release: () => void }> {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(url, async (route) => {
      await held;
      await route.continue();
    });
    return { release };
  }

  const ICON_FONT = /\/assets\/primeicons-[^/]*\.(woff2|woff|ttf|eot|svg)/;

  /** Opens the device page and waits for its cards and its map. */
  async function openDevicePage(page: Page): Promise<void> {
    await page.goto(stack.url(`/data/${device.id}`));
    await page.locator('section.dp-reading').first().waitFor();
    await page.locator('.leaflet-control-zoom-in').waitFor();
  }

  beforeAll(async () => {
    stack = await startStack();
    const demo = stack.apiClient();
    const login = await demo('POST', '/api/auth/login', DEMO);
    if (login.status !== 200) throw new Error(`demo sign-in failed: ${JSON.stringify(login)}`);
    device = await stack.provisionDevice(freshDeviceId('LAY'), 'ORB-C1', 'Layout Pump');
    // In a group of the demo account, so home is the group dashboard with the device in its table and on its map.
    const group = await demo<{ groupid: string }>('POST', '/api/group', { groupName: 'Layout Yard' });
    if (group.status !== 200) throw new Error(`creating a group failed: ${JSON.stringify(group)}`);
    const claim = await demo('POST', `/api/device/${device.id}/user`, {
      setupPassword: device.setupPassword,
      groupid: group.body.groupid,
    });
    if (claim.status !== 200) throw new Error(`adding ${device.id} failed: ${JSON.stringify(claim)}`);
    // Presented as the demo fleet presents its devices: trigger buttons, custom settings, display settings.
    for (const [path, body] of [
      [
        `/api/device/${device.id}/config`,
        { config: { settings: { script: { triggers: DEMO_TRIGGERS, ...DEMO_CUSTOM_SETTINGS } } } },
      ],
      [`/api/device/${device.id}/settings`, { PORTAL_displaySettings: DEMO_DISPLAY_SETTINGS }],
    ] as const) {
      const put = await demo('PUT', path, body);
      if (put.status !== 200) throw new Error(`PUT ${path} failed: ${JSON.stringify(put)}`);
    }
    // The simulator's own records (every key an ORB-C1 sends, with a GPS fix), the newest a minute ago.
    const model = createDeviceModel('ORB-C1', device.id);
    const now = Math.floor(Date.now() / 1000);
    await stack.publish(
      device,
      Array.from({ length: RECORDS }, (_, i) => model.sample(now - 60 * (RECORDS - i))),
    );
  });

  afterAll(async () => {
    await stack?.close();
  });

  describe.each([
    ['desktop', DESKTOP],
    // Lighthouse's desktop screen: taller, so a short loading page shows the footer that content then pushes.
    ['desktop 1350 x 940', { width: 1350, height: 940 }],
    ['phone', PHONE],
  ] as const)('layout shift (%s)', (_name, viewport) => {
    it(`/login loads with a cumulative layout shift under ${CLS_LIMIT}`, async () => {
      const { context, page } = await probedPage(viewport, false);
      const font = await hold(page, ICON_FONT);
      // Not until the load event: that waits for the preloaded font, held here.
      await page.goto(stack.url('/login'), { waitUntil: 'domcontentloaded' });
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      font.release();
      await settle(page);
      expect(await layoutShift(page)).toBeLessThan(CLS_LIMIT);
      await context.close();
    });

    it(`the device page loads with a cumulative layout shift under ${CLS_LIMIT}`, async () => {
      const { context, page } = await probedPage(viewport, true);
      // The device's config, the map's code and the icon font come last, in that order, each once the page has
      // drawn what came before it.
      const config = await hold(page, new RegExp(`/api/device/${device.id}/config$`));
      const mapCode = await hold(page, /\/assets\/map-card-[^/]*\.js$/);
      const font = await hold(page, ICON_FONT);
      const answered = (path: string) =>
        page.waitForResponse((r) => new URL(r.url()).pathname === `/api/device/${device.id}/${path}`);
      const firstAnswers = Promise.all([answered('settings'), answered('data')]);
      await page.goto(stack.url(`/data/${device.id}`), { waitUntil: 'domcontentloaded' });
      await firstAnswers;
      await frames(page, 3);
      config.release();
      await page.locator('section.dp-reading').first().waitFor();
      await frames(page, 3);
      mapCode.release();
      await page.locator('.leaflet-control-zoom-in').waitFor();
      await frames(page, 3);
      font.release();
      await settle(page);
      expect(await layoutShift(page)).toBeLessThan(CLS_LIMIT);
      await context.close();
    });

    it(`home (the group dashboard) loads with a cumulative layout shift under ${CLS_LIMIT}`, async () => {
      const { context, page } = await probedPage(viewport, true);
      // The group's data, the table's code, the map's code and the icon font come last, in that order.
      const data = await hold(page, /\/api\/group\/[^/]+\/data(\?|$)/);
      const tableCode = await hold(page, /\/assets\/group-table-widget-[^/]*\.js$/);
      const mapCode = await hold(page, /\/assets\/leaflet-group-map-[^/]*\.js$/);
      const font = await hold(page, ICON_FONT);
      await page.goto(stack.url('/'), { waitUntil: 'domcontentloaded' });
      await page.getByRole('heading', { level: 1, name: 'Layout Yard' }).waitFor();
      await frames(page, 3);
      data.release();
      await frames(page, 3);
      tableCode.release();
      await page.locator('.widget-card').first().getByText(device.id).first().waitFor();
      await frames(page, 3);
      mapCode.release();
      await page.locator('.leaflet-control-zoom-in').waitFor();
      await frames(page, 3);
      font.release();
      await settle(page);
      expect(await layoutShift(page)).toBeLessThan(CLS_LIMIT);
      await context.close();
    });
  });

  it('raises no content security policy violation on any page', async () => {
    const visit = async (signedIn: boolean, path: string, ready: (page: Page) => Promise<unknown>) => {
      const { context, page } = await probedPage(DESKTOP, signedIn);
      await page.goto(stack.url(path));
      await ready(page);
      await settle(page);
      const { violations } = await probeOf(page);
      await context.close();
      return { path, violations };
    };
    const seen = [
      await visit(false, '/login', (page) => page.getByRole('button', { name: 'Sign in' }).waitFor()),
      await visit(false, '/signup', (page) => page.getByRole('button', { name: 'Create account' }).waitFor()),
      await visit(true, '/account', (page) => page.getByRole('tab', { name: /profile/i }).waitFor()),
      await visit(true, '/', (page) => page.locator('.leaflet-control-zoom-in').waitFor()),
      await visit(true, '/add', (page) => page.getByLabel('Device ID').waitFor()),
      await visit(true, `/data/${device.id}`, openDevicePage),
    ];
    expect(seen).toEqual(seen.map(({ path }) => ({ path, violations: [] })));
  });

  describe.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('the map in the stacking order (%s)', (_name, viewport) => {
    it('stays under the navigation bar when the page scrolls', async () => {
      const { context, page } = await probedPage(viewport, true);
      await openDevicePage(page);
      // Scroll until the map's zoom-in button sits in the middle of the (sticky) navigation bar.
      const hit = await page.evaluate(() => {
        // Room to scroll the map up to the bar wherever it sits on the page (readings come first).
        document.body.style.paddingBottom = `${window.innerHeight}px`;
        const nav = document.querySelector('.nav-bar')!.getBoundingClientRect();
        const zoom = document.querySelector('.leaflet-control-zoom-in')!.getBoundingClientRect();
        window.scrollBy(0, zoom.top + zoom.height / 2 - (nav.top + nav.height / 2));
        const navNow = document.querySelector('.nav-bar')!.getBoundingClientRect();
        const zoomNow = document.querySelector('.leaflet-control-zoom-in')!.getBoundingClientRect();
        const x = zoomNow.left + zoomNow.width / 2;
        const y = zoomNow.top + zoomNow.height / 2;
        const top = document.elementFromPoint(x, y);
        return {
          zoomUnderNav: y > navNow.top && y < navNow.bottom,
          navOnTop: top !== null && top.closest('.nav-bar') !== null,
          top: top ? `${top.tagName.toLowerCase()}.${String(top.className)}` : null,
        };
      });
      expect(hit.zoomUnderNav).toBe(true);
      expect(hit, JSON.stringify(hit)).toMatchObject({ navOnTop: true });
      await context.close();
    });

    it("stays under a dialog's backdrop", async () => {
      const { context, page } = await probedPage(viewport, true);
      await openDevicePage(page);
      // On a phone the header's buttons are in the Device menu.
      if (viewport === PHONE) await page.getByRole('button', { name: 'Device menu' }).click();
      await page.getByRole('button', { name: 'Asset Notes' }).click();
      await page.getByRole('dialog').filter({ hasText: 'Asset Notes' }).waitFor();
      await page.locator('.p-dialog-mask').waitFor();
      // Bring the attribution into the middle of the screen, behind the open dialog's backdrop.
      const hit = await page.evaluate(() => {
        const attribution = document.querySelector('.leaflet-control-attribution')!;
        const box = attribution.getBoundingClientRect();
        window.scrollBy(0, box.top + box.height / 2 - window.innerHeight / 2);
        const now = attribution.getBoundingClientRect();
        const x = now.left + Math.min(now.width / 2, 10);
        const y = now.top + now.height / 2;
        const top = document.elementFromPoint(x, y);
        const mask = document.querySelector('.p-dialog-mask');
        return {
          inView: y > 0 && y < window.innerHeight,
          underMask: top !== null && mask !== null && mask.contains(top),
          top: top ? `${top.tagName.toLowerCase()}.${String(top.className)}` : null,
        };
      });
      expect(hit.inView).toBe(true);
      expect(hit, JSON.stringify(hit)).toMatchObject({ underMask: true });
      await context.close();
    });
  });

  it('lets the folded navigation menu open over the map on a phone', async () => {
    const { context, page } = await probedPage(PHONE, true);
    await openDevicePage(page);
    // The map's zoom-in button just under the navigation bar, then the menu folded out over it.
    await page.evaluate(() => {
      document.body.style.paddingBottom = `${window.innerHeight}px`;
      const nav = document.querySelector('.nav-bar')!.getBoundingClientRect();
      const zoom = document.querySelector('.leaflet-control-zoom-in')!.getBoundingClientRect();
      window.scrollBy(0, zoom.top - nav.bottom - 16);
    });
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Main' });
    await menu.waitFor();
    const hit = await page.evaluate(() => {
      const open = document.querySelector('.nav-bar__menu--open')!;
      const box = open.getBoundingClientRect();
      const zoom = document.querySelector('.leaflet-control-zoom-in')!.getBoundingClientRect();
      const x = zoom.left + zoom.width / 2;
      const y = zoom.top + zoom.height / 2;
      const top = document.elementFromPoint(x, y);
      return {
        zoomUnderMenu: y > box.top && y < box.bottom,
        menuOnTop: top !== null && open.contains(top),
        top: top ? `${top.tagName.toLowerCase()}.${String(top.className)}` : null,
      };
    });
    expect(hit.zoomUnderMenu).toBe(true);
    expect(hit, JSON.stringify(hit)).toMatchObject({ menuOnTop: true });
    await context.close();
  });
});
