// Every page of the web app, signed out and signed in, checked by axe-core in Chromium against the real server:
// no serious or critical WCAG 2 A/AA violation, in the default, tank and carbon brands (issue 11), and no
// aria-label or other ARIA attribute on an element that may not carry it (issue 32: axe reports those as
// incomplete, 'needs review', rather than as violations; here they fail as well).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { authenticator } from 'otplib';
import { BRANDS, PAGE_NOT_FOUND_TEXT, type BrandId, type DeviceConfigResponse } from '@portal/core';
import { startFleet, type Fleet } from '../../apps/simulator/src/index';
import { chromiumAvailable, DESKTOP, PHONE } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, signIn, until } from './helpers';
import { STAFF_USER } from '../../apps/server/src/seed';

const required = process.env.REQUIRE_SERVICES === '1';

/** axe-core's browser bundle, put into each page as a script. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0 and 2.1, levels A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING_IMPACTS: ReadonlySet<string> = new Set(['serious', 'critical']);
/**
 * Rules whose 'needs review' (incomplete) results fail too: an ARIA attribute on an element that
 * may not carry it (an aria-label on a div, span, pre, code or time without a role), which axe
 * leaves for a person to judge; screen readers ignore such a name.
 */
const FAILING_INCOMPLETE: ReadonlySet<string> = new Set(['aria-prohibited-attr', 'aria-allowed-attr']);

/**
 * Every page is checked in the default brand; the other two brands (their own palettes and flags)
 * on the pages that show what a brand changes: the shell, sign-in, home, account, the device page,
 * a chart and support. Editors and custom pages use the same components and colours as those.
 */
const CHECKED_BRANDS = ['default', 'tank', 'carbon'] as const satisfies readonly BrandId[];
type CheckedBrand = (typeof CHECKED_BRANDS)[number];

/** The demo account's group in this test: home shows it. */
const HOME_GROUP = 'North Yard';

/** Seconds between the simulated device's records. */
const SIM_INTERVAL_S = 3;

/** What the device's script offers (as the demo fleet's devices do): triggers in two severity colours, custom settings. */
const TRIGGERS = [
  { index: 1, name: 'Sound Horn', colour: '#0284c7' },
  { index: 2, name: 'Beacon On', colour: '#16a34a' },
];
const CUSTOM_SETTINGS = { numIdleMinutes: 10, strSiteName: 'North Yard' };
const DISPLAY_SETTINGS = {
  vsys: {
    displayType: 'gauge',
    gaugeSettings: { min: 0, max: 32, warnLow: 10, warnHigh: 15, alarmLow: 9, alarmHigh: 16 },
  },
  ambient_temp: { displayType: 'trendline' },
  digital1: {
    displayType: 'digital',
    digitalSettings: { lowThreshold: 0.5, lowString: 'Stopped', highString: 'Running' },
  },
  hourmeter_hrs: { displayType: 'hours' },
  // A widget card (issue 15): a level and a status indicator and a text reading a key and the config.
  widget1: {
    name: 'Yard tank',
    elements: [
      {
        id: 'e1',
        x: 20,
        y: 20,
        active: 'levelIndicator',
        settings: { dataElement: 'vsys', max: 20, width: 80, height: 160 },
      },
      { id: 'e2', x: 140, y: 70, active: 'statusIndicator', settings: { dataElement: 'ambient_temp' } },
    ],
    components: [
      { id: 't1', x: 140, y: 20, template: 'Supply {data.vsys} · {cfg.device.name}', settings: { bold: true } },
    ],
  },
};

interface AxeNode {
  target: unknown[];
  any: { id: string; data?: Record<string, unknown> | null }[];
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/** One line per failing element: rule, impact, target, and for contrast the colours and ratio found. */
function describeViolations(violations: AxeViolation[], incomplete: AxeViolation[] = []): string[] {
  return [
    ...violations.filter((v) => FAILING_IMPACTS.has(v.impact ?? '')),
    ...incomplete
      .filter((v) => FAILING_INCOMPLETE.has(v.id))
      .map((v) => ({ ...v, impact: `needs review, ${v.impact}` })),
  ].flatMap((v) =>
    v.nodes.map((node) => {
      const contrast = node.any.find((check) => check.id === 'color-contrast')?.data;
      const figures = contrast
        ? ` ${String(contrast.fgColor)} on ${String(contrast.bgColor)} = ${String(contrast.contrastRatio)}` +
          ` (needs ${String(contrast.expectedContrastRatio)}, ${String(contrast.fontSize)} ${String(contrast.fontWeight)})`
        : '';
      return `${v.id} (${v.impact}) ${JSON.stringify(node.target)}${figures}: ${v.help}`;
    }),
  );
}

/** Waits until the page is still: no loading placeholders, fonts loaded, finite animations (dialogs opening) done. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .skeleton, .p-skeleton'));
  await page.evaluate(async () => {
    await document.fonts.ready;
    const finite = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/**
 * Runs axe on the page as it is and answers its serious and critical violations, and the ARIA
 * attributes it found where they may not be (FAILING_INCOMPLETE), one line each.
 */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const { violations, incomplete } = await page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: unknown; incomplete: unknown }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations', 'incomplete'],
    });
    return { violations: result.violations, incomplete: result.incomplete };
  }, WCAG_TAGS);
  return describeViolations(violations as AxeViolation[], incomplete as AxeViolation[]);
}

/** 'staff': the seeded staff account (senquip_admin), for the staff pages. */
type Session = 'signed out' | 'signed in' | 'staff';
interface PageCase {
  name: string;
  session: Session;
  /** The brands that have the page (all checked brands when absent). */
  brands?: readonly CheckedBrand[];
  /** The window's size (1280 x 800 when absent). */
  viewport?: { width: number; height: number };
  /** Opens the page and waits for what it shows. */
  open: (page: Page, brand: CheckedBrand) => Promise<void>;
}

describe.skipIf(!chromiumAvailable() && !required)('accessibility (axe-core, WCAG 2 A/AA)', () => {
  let stack: Stack;
  let fleet: Fleet | undefined;
  let deviceId: string;
  let mfa: { email: string; password: string; secret: string };
  /** A browser context per brand and session, made once and reused by the brand's pages. */
  const contexts = new Map<string, BrowserContext>();

  const hostPrefix = (brand: CheckedBrand) => BRANDS[brand].hostPrefix;
  const go = (page: Page, brand: CheckedBrand, path: string) => page.goto(stack.url(path, hostPrefix(brand)));
  const heading = (page: Page, name: string | RegExp) =>
    page.getByRole('heading', { level: 1, name }).first().waitFor();

  async function newContext(browser: Browser): Promise<BrowserContext> {
    // bypassCSP: axe goes in as an inline script, which the portal's script-src 'self' would refuse.
    return browser.newContext({ viewport: DESKTOP, bypassCSP: true });
  }

  async function contextFor(brand: CheckedBrand, session: Session): Promise<BrowserContext> {
    const key = `${brand}/${session}`;
    const known = contexts.get(key);
    if (known) return known;
    const context = await newContext(stack.browser);
    if (session !== 'signed out') {
      // Through the brand's own sign-in page: the session cookie belongs to the brand's host name.
      const page = await context.newPage();
      const who = session === 'staff' ? STAFF_USER : DEMO;
      await go(page, brand, '/login');
      await signIn(page, who.email, who.password);
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('button', { name: 'Logout' }).waitFor();
      await page.close();
    }
    contexts.set(key, context);
    return context;
  }

  /**
   * The brand and session's one tab, which each of its pages opens in turn (a new tab is a new
   * renderer process: twice the CPU of opening the next page in the same tab, and axe compiled again).
   */
  const pages = new Map<string, Page>();
  async function pageFor(brand: CheckedBrand, session: Session): Promise<Page> {
    const key = `${brand}/${session}`;
    const known = pages.get(key);
    if (known && !known.isClosed()) return known;
    const page = await (await contextFor(brand, session)).newPage();
    pages.set(key, page);
    return page;
  }

  const openData = async (page: Page, brand: CheckedBrand) => {
    await go(page, brand, `/data/${deviceId}`);
    await page.locator('section.dp-reading').first().waitFor();
    await page.getByRole('button', { name: TRIGGERS[0]!.name }).waitFor();
  };

  const PAGES: PageCase[] = [
    {
      name: '/login',
      session: 'signed out',
      open: async (page, brand) => {
        await go(page, brand, '/login');
        await heading(page, 'Sign in');
      },
    },
    {
      name: '/login, wrong password (the error shown)',
      session: 'signed out',
      open: async (page, brand) => {
        await go(page, brand, '/login');
        await signIn(page, DEMO.email, 'not-the-password');
        await page.getByRole('dialog').first().waitFor();
      },
    },
    {
      name: '/signup',
      session: 'signed out',
      open: async (page, brand) => {
        await go(page, brand, '/signup');
        await heading(page, 'Create an account');
      },
    },
    {
      name: '/resetpassword',
      session: 'signed out',
      open: async (page, brand) => {
        await go(page, brand, '/resetpassword');
        await heading(page, 'Reset your password');
      },
    },
    {
      name: '/resetpassword/{code}',
      session: 'signed out',
      open: async (page, brand) => {
        await go(page, brand, '/resetpassword/not-a-real-code');
        await heading(page, 'Choose a new password');
      },
    },
    {
      name: '/verify/{bad code}',
      session: 'signed out',
      open: async (page, brand) => {
        await go(page, brand, '/verify/not-a-real-code');
        await heading(page, 'Verification failed');
      },
    },
    {
      name: '/fcc',
      session: 'signed out',
      open: async (page, brand) => {
        await go(page, brand, '/fcc');
        await page.getByRole('heading', { level: 1 }).first().waitFor();
      },
    },
    {
      name: 'not found (signed out)',
      session: 'signed out',
      open: async (page, brand) => {
        await go(page, brand, '/no-such-page');
        await heading(page, PAGE_NOT_FOUND_TEXT);
      },
    },
    ...['/legal/terms.html', '/legal/privacy.html', '/docs/'].map((path): PageCase => ({
      name: `${path} (static page)`,
      session: 'signed out',
      brands: ['default'],
      open: async (page, brand) => {
        const answer = await go(page, brand, path);
        expect(answer?.status()).toBe(200);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
      },
    })),
    {
      // Last of the signed-out pages: it leaves the context half-way through a sign-in.
      name: '/login, MFA code step',
      session: 'signed out',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, '/login');
        await signIn(page, mfa.email, mfa.password);
        await heading(page, 'Verification code');
      },
    },
    {
      name: '/ (home, the group dashboard)',
      session: 'signed in',
      open: async (page, brand) => {
        await go(page, brand, '/');
        await heading(page, HOME_GROUP);
        await page.getByRole('heading', { level: 2, name: 'Devices', exact: true }).waitFor();
        await page.getByRole('heading', { level: 2, name: 'Map' }).waitFor();
        await page
          .getByRole('region', { name: /^Devices not in a group/ })
          .getByRole('link')
          .first()
          .waitFor();
      },
    },
    {
      name: '/ (home without groups: the welcome panel and a device not in a group)',
      session: 'staff',
      open: async (page, brand) => {
        await go(page, brand, '/');
        await heading(page, 'Welcome');
        await page
          .getByRole('region', { name: /^Devices not in a group/ })
          .getByRole('link')
          .first()
          .waitFor();
      },
    },
    {
      name: '/ (home) with the search list open',
      session: 'signed in',
      open: async (page, brand) => {
        await go(page, brand, '/');
        await heading(page, HOME_GROUP);
        await page.getByRole('combobox', { name: 'Search devices and groups' }).pressSequentially('yard');
        await page.getByRole('option', { name: new RegExp(HOME_GROUP) }).waitFor();
      },
    },
    {
      name: '/ (home) with the Add Group dialog open',
      session: 'signed in',
      open: async (page, brand) => {
        await go(page, brand, '/');
        await heading(page, HOME_GROUP);
        await page.getByRole('button', { name: 'Add Group' }).click();
        await page.getByRole('dialog', { name: 'Add Group' }).waitFor();
      },
    },
    {
      name: '/account',
      session: 'signed in',
      open: async (page, brand) => {
        await go(page, brand, '/account');
        await page.locator('.page-subtitle').waitFor();
        await page.getByLabel('Email').first().waitFor();
      },
    },
    {
      name: '/account/password',
      session: 'signed in',
      open: async (page, brand) => {
        await go(page, brand, '/account/password');
        await page.getByRole('tab', { name: /password/i, selected: true }).waitFor();
      },
    },
    {
      name: '/account/mfa',
      session: 'signed in',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, '/account/mfa');
        await page.getByRole('tab', { name: /multi-factor|mfa/i, selected: true }).waitFor();
      },
    },
    {
      name: '/account/api',
      session: 'signed in',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, '/account/api');
        await page.getByRole('tab', { name: 'API', selected: true }).waitFor();
        await page.getByRole('heading', { name: /Your keys/ }).waitFor();
      },
    },
    {
      name: '/add',
      session: 'signed in',
      open: async (page, brand) => {
        await go(page, brand, '/add');
        await heading(page, 'Add Device');
      },
    },
    {
      name: '/data/{device}',
      session: 'signed in',
      open: openData,
    },
    {
      name: '/data/{device} with the display settings dialog open',
      session: 'signed in',
      open: async (page, brand) => {
        await openData(page, brand);
        await page
          .getByRole('button', { name: /^Display settings of / })
          .first()
          .click();
        await page.getByRole('dialog').first().waitFor();
      },
    },
    {
      name: '/raw/{device} (Raw Data)',
      session: 'signed in',
      open: async (page, brand) => {
        await go(page, brand, `/raw/${deviceId}`);
        await page.getByRole('table', { name: 'Records' }).waitFor();
        await page.locator('.rd-table tbody tr.rd-row').first().waitFor();
      },
    },
    {
      name: '/script/{device}',
      session: 'signed in',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, `/script/${deviceId}`);
        await page.locator('.sc-editor .cm-content').waitFor();
      },
    },
    {
      name: '/widget/{device}/widget1 (the widget card editor)',
      session: 'signed in',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, `/widget/${deviceId}/widget1`);
        await page.locator('.wc-canvas .wc-indicator--level').waitFor();
      },
    },
    {
      name: '/widget/{device}/widget1 with an indicator selected',
      session: 'signed in',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, `/widget/${deviceId}/widget1`);
        await page.locator('.wc-canvas .wc-indicator--level').click();
        await page.getByRole('tabpanel', { name: 'Selected item' }).getByLabel('Data key').waitFor();
      },
    },
    {
      name: '/chart/{device}/chart1 (a custom chart)',
      session: 'signed in',
      open: async (page, brand) => {
        await go(page, brand, `/chart/${deviceId}/chart1`);
        await page.locator('.chart-plot__legend .u-series').first().waitFor();
      },
    },
    {
      name: '/chart/{device}/chart1 with its editor open',
      session: 'signed in',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, `/chart/${deviceId}/chart1`);
        await page.locator('.chart-plot__legend .u-series').first().waitFor();
        await page.getByRole('button', { name: 'Edit' }).click();
        await page.locator('#field-dc-series-0-key').waitFor();
      },
    },
    {
      name: '/data/{unknown device}',
      session: 'signed in',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, `/data/${freshDeviceId('NONE')}`);
        await page
          .getByText(/not found/i)
          .first()
          .waitFor();
      },
    },
    {
      name: '/support/{device}',
      session: 'signed in',
      open: async (page, brand) => {
        await go(page, brand, `/support/${deviceId}`);
        await page.locator('.support__device').waitFor();
      },
    },
    {
      name: '/plans',
      session: 'signed in',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, '/plans');
        await heading(page, 'Plans');
        await page.locator('.billing-table tbody tr').first().waitFor();
      },
    },
    {
      name: '/subscriptions',
      session: 'signed in',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, '/subscriptions');
        await heading(page, 'Subscriptions');
        await page.locator('.billing-datatable tbody tr').first().waitFor();
      },
    },
    {
      name: '/support, the empty form refused',
      session: 'signed in',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, '/support');
        await heading(page, 'Support');
        await page.getByRole('button', { name: 'Send' }).click();
        await page.locator('.form-field__error').first().waitFor();
      },
    },
    {
      name: '/custom/vibracorder/{device}',
      session: 'signed in',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, `/custom/vibracorder/${deviceId}`);
        await page.locator('.cp-trend__svg').first().waitFor();
      },
    },
    {
      name: '/custom/securified/{device}',
      session: 'signed in',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, `/custom/securified/${deviceId}`);
        await page.locator('.cp-tile').first().waitFor();
      },
    },
    {
      name: '/custom/securified (the device picker)',
      session: 'signed in',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, '/custom/securified');
        await page.locator('.cp-picker__item').first().waitFor();
      },
    },
    {
      name: '/custom/{unknown home_page}/{device}',
      session: 'signed in',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, `/custom/nosuchpage/${deviceId}`);
        await heading(page, PAGE_NOT_FOUND_TEXT);
      },
    },
    {
      name: '/sqadmin (search results)',
      session: 'staff',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, '/sqadmin?q=axe');
        await page.locator('.staff-list__item').first().waitFor();
      },
    },
    {
      name: '/sqadmin/{device}',
      session: 'staff',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, `/sqadmin/${deviceId}`);
        await page.getByRole('heading', { name: 'Server log' }).waitFor();
      },
    },
    {
      // At phone width the device's users table scrolls sideways: it takes keyboard focus (issue 32).
      name: '/sqadmin/{device} at 390 px',
      session: 'staff',
      viewport: PHONE,
      open: async (page, brand) => {
        await go(page, brand, `/sqadmin/${deviceId}`);
        await page.getByRole('heading', { name: 'Server log' }).waitFor();
        await page.getByRole('table', { name: 'Users of the device' }).waitFor();
      },
    },
    {
      name: '/sqtools',
      session: 'staff',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, '/sqtools');
        await heading(page, 'Staff tools');
        await page.getByRole('heading', { name: 'Distributors' }).waitFor();
      },
    },
    {
      name: '/sqstats',
      session: 'staff',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, '/sqstats');
        await page.getByRole('heading', { name: 'Devices by plan' }).waitFor();
      },
    },
    {
      name: '/sqprov',
      session: 'staff',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, '/sqprov');
        await heading(page, 'Provisioning');
        await page.getByRole('button', { name: 'Create device' }).waitFor();
      },
    },
    {
      name: '/sqprov (batch mode)',
      session: 'staff',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, '/sqprov?mode=batch');
        await page.getByRole('button', { name: 'Provision batch' }).waitFor();
      },
    },
    {
      name: '/sqprov/{device}',
      session: 'staff',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, `/sqprov/${deviceId}`);
        await page.locator('.prov-log__entry').first().waitFor();
      },
    },
    {
      name: '/sqpacking',
      session: 'staff',
      brands: ['default'],
      open: async (page, brand) => {
        await go(page, brand, '/sqpacking');
        await heading(page, 'Packing');
      },
    },
    {
      name: 'not found (signed in)',
      session: 'signed in',
      open: async (page, brand) => {
        await go(page, brand, '/no-such-page');
        await heading(page, PAGE_NOT_FOUND_TEXT);
      },
    },
  ];

  beforeAll(async () => {
    stack = await startStack();
    const demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);

    // A device of the demo account, simulated, with records, triggers, custom settings and display settings.
    const device = await stack.provisionDevice(freshDeviceId('AXE'), 'ORB-C1', 'Yard Pump 1');
    deviceId = device.id;
    // In a group of the demo account, so home shows the group dashboard with its table and map.
    const group = await demo<{ groupid: string }>('POST', '/api/group', { groupName: HOME_GROUP });
    expect(group.status).toBe(200);
    const claim = await demo('POST', `/api/device/${device.id}/user`, {
      setupPassword: device.setupPassword,
      groupid: group.body.groupid,
    });
    expect(claim.status).toBe(200);
    // And one in no group (issue 32): home lists it under the dashboard, with the link down to it.
    const spare = await stack.provisionDevice(freshDeviceId('AXS'), 'ORB-C1', 'Spare Pump');
    expect((await demo('POST', `/api/device/${spare.id}/user`, { setupPassword: spare.setupPassword })).status).toBe(
      200,
    );
    // Shared with the staff account, which has no group: its home is the welcome panel with the device under it.
    const shared = await demo('POST', `/api/device/${spare.id}/user`, {
      targetEmail: STAFF_USER.email,
      targetPermission: 'VIEW',
    });
    expect(shared.status).toBe(200);
    fleet = startFleet({
      devices: [{ id: device.id, key: device.deviceKey, model: 'ORB-C1' }],
      transport: 'mqtt',
      mqttUrl: stack.mqttUrl,
      httpUrl: stack.url(),
      baseInterval: SIM_INTERVAL_S,
      staggerMs: 0,
    });
    const put = await demo('PUT', `/api/device/${device.id}/config`, {
      config: {
        settings: {
          device: { base_interval: SIM_INTERVAL_S, transmit_interval: 1 },
          script: { triggers: TRIGGERS, ...CUSTOM_SETTINGS },
        },
      },
    });
    expect(put.status).toBe(200);
    expect(
      (await demo('PUT', `/api/device/${device.id}/settings`, { PORTAL_displaySettings: DISPLAY_SETTINGS })).status,
    ).toBe(200);
    // A custom chart (issue 15): the supply voltage on the left axis, the temperature on the right one.
    const chart1 = {
      name: 'Supply and temperature',
      series: [
        { source: device.id, key: 'vsys' },
        { source: device.id, key: 'ambient_temp', axisBind: 'ax2' },
      ],
    };
    expect(
      (await demo('PUT', `/api/device/${device.id}/settings`, { PORTAL_displaySettings: { chart1 } })).status,
    ).toBe(200);
    await until(`${device.id} to apply its config`, async () => {
      const got = await demo<DeviceConfigResponse>('GET', `/api/device/${device.id}/config`);
      return got.status === 200 && got.body.pending === null;
    });

    // An account with an authenticator, for the code step of the sign-in.
    mfa = { email: uniqueEmail('axe-mfa'), password: 'axe-mfa-password-1', secret: '' };
    await stack.createVerifiedUser(mfa.email, mfa.password);
    const own = stack.apiClient();
    expect((await own('POST', '/api/auth/login', { email: mfa.email, password: mfa.password })).status).toBe(200);
    const setup = await own<{ secret: string }>('POST', '/api/account/mfa/totp/setup');
    mfa.secret = setup.body.secret;
    const previousStep = authenticator.clone({ epoch: Date.now() - 30_000 }).generate(mfa.secret);
    expect((await own('POST', '/api/account/mfa/totp/enable', { code: previousStep })).status).toBe(200);
  });

  afterAll(async () => {
    for (const context of contexts.values()) await context.close();
    await fleet?.stop();
    await stack?.close();
  });

  describe.each(CHECKED_BRANDS)('%s brand', (brand) => {
    const cases = PAGES.filter((c) => !c.brands || c.brands.includes(brand));
    it.each(cases.map((c) => [c.name, c] as const))('%s: no serious or critical violation', async (_name, c) => {
      const page = await pageFor(brand, c.session);
      await page.setViewportSize(c.viewport ?? DESKTOP);
      await c.open(page, brand);
      await settle(page);
      expect(await axeViolations(page), `${c.name} in the ${brand} brand`).toEqual([]);
    });
  });
});
