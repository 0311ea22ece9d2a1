// The custom device pages in Chromium against the real server and the real simulator (issue 15;
// spec 1 sections 1, 2 and 5; ledger BRD-29, RTE-27, RTE-28, RTE-29, DLG-20; DESIGN.md section 5;
// docs/decisions.md 'Custom pages'): without navigation bar or footer, the vibracorder shows the
// simulator's accelerometer readings and follows them as new records arrive; the kiosk shows its
// readings as the API answers them; the device notes' home_page (word characters only) puts a
// Custom Page link on the Data page that opens the page it names, and an unknown name shows
// 'Page not found!'; the kiosk without a device lists the user's devices; axe-clean, and no
// sideways scroll at 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { PAGE_NOT_FOUND_TEXT, formatNumber, type DataResponse, type DeviceConfigResponse } from '@portal/core';
import { startFleet, type Fleet } from '../../apps/simulator/src/index';
import { chromiumAvailable, PHONE } from './browser';
import { freshDeviceId, startStack, type Stack } from './harness';
import { DEMO, deviceInGroup, makeGroup, seriousAxeViolations, signedInPageOf, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
/** Seconds between the simulated device's records. */
const SIM_INTERVAL_S = 2;

describe.skipIf(!chromiumAvailable() && !required)('custom device pages', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let fleet: Fleet | undefined;
  let deviceid: string;
  const contexts: BrowserContext[] = [];

  /** The bare shell: no navigation bar, no footer, no Logout. */
  async function expectBare(page: Page): Promise<void> {
    expect(await page.locator('.nav-bar').count()).toBe(0);
    expect(await page.locator('.app-footer').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Logout' }).count()).toBe(0);
  }

  /** The newest record time (epoch s) the page's bar shows. */
  const shownLastTs = async (page: Page) =>
    Date.parse((await page.locator('.cp-age time').getAttribute('datetime')) ?? '') / 1000;

  /** The device's points of `key` as GET /data answers them, newest first. */
  async function pointsOf(key: string): Promise<{ ts: number; v: unknown }[]> {
    const data = await demo<DataResponse>('GET', `/api/device/${deviceid}/data?dataPoints=600`);
    return data.body.data[key] ?? [];
  }

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    const device = await stack.provisionDevice(freshDeviceId('CUS'), 'ORB-C1', 'Kiosk Pump');
    deviceid = device.id;
    expect((await demo('POST', `/api/device/${deviceid}/user`, { setupPassword: device.setupPassword })).status).toBe(
      200,
    );
    fleet = startFleet({
      devices: [{ id: device.id, key: device.deviceKey, model: 'ORB-C1' }],
      transport: 'mqtt',
      mqttUrl: stack.mqttUrl,
      httpUrl: stack.url(),
      baseInterval: SIM_INTERVAL_S,
      staggerMs: 0,
    });
    // The device's config says how often it reports, so the pages poll on its rhythm.
    const put = await demo('PUT', `/api/device/${deviceid}/config`, {
      config: { settings: { device: { base_interval: SIM_INTERVAL_S, transmit_interval: 1 } } },
    });
    expect(put.status).toBe(200);
    await until(`${deviceid} to apply its config and report`, async () => {
      const config = await demo<DeviceConfigResponse>('GET', `/api/device/${deviceid}/config`);
      return config.body.pending === null && (await pointsOf('accel_x')).length >= 2;
    });
  });

  afterAll(async () => {
    await fleet?.stop();
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it("the vibracorder shows the simulator's accelerometer readings, live, without navigation bar or footer", async () => {
    const page = await signedInPageOf(stack, contexts);
    await page.goto(stack.url(`/custom/vibracorder/${deviceid}`));
    await page.getByRole('heading', { level: 1, name: 'Kiosk Pump' }).waitFor();
    await expectBare(page);
    await expect.poll(() => page.title()).toBe('Portal - Kiosk Pump: Vibracorder');
    for (const name of ['Vibration (RMS)', 'Accel X', 'Accel Y', 'Accel Z']) {
      await page.getByRole('heading', { name, exact: true }).waitFor();
    }
    // Its contact status (core contactStatus) shows in the bar.
    expect(await page.locator('.cp-status').innerText()).toMatch(/^(Online|No Recent Contact|Offline)$/);

    // Live: the page moves on to a newer record than the one it first showed.
    const first = await shownLastTs(page);
    await expect.poll(() => shownLastTs(page), { timeout: 30_000 }).toBeGreaterThan(first);
    // Each axis shows the value the API answers for the record the page shows.
    for (const key of ['accel_x', 'accel_y', 'accel_z']) {
      await expect
        .poll(async () => {
          const ts = await shownLastTs(page);
          const point = (await pointsOf(key)).find((p) => p.ts === ts);
          const shown = await page.locator(`.cp-value[data-key="${key}"] .cp-value__text`).innerText();
          return point !== undefined && shown === formatNumber(point.v, 3);
        })
        .toBe(true);
    }
    // Its trend has a text equivalent: the axis, the readings and their range.
    expect(await page.getByRole('img', { name: /^Accel X, last \d+ readings, from / }).count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('the kiosk shows the readings in display order as the API answers them; fits a phone', async () => {
    const page = await signedInPageOf(stack, contexts, DEMO, { viewport: PHONE });
    await page.goto(stack.url(`/custom/securified/${deviceid}`));
    await page.getByRole('heading', { level: 1, name: 'Kiosk Pump' }).waitFor();
    await expectBare(page);
    await page.getByRole('heading', { name: 'Supply Voltage' }).waitFor();
    await expect
      .poll(async () => {
        const ts = await shownLastTs(page);
        const point = (await pointsOf('vsys')).find((p) => p.ts === ts);
        const shown = await page.locator('.cp-value[data-key="vsys"] .cp-value__text').innerText();
        const units = await page.locator('.cp-value[data-key="vsys"] .cp-value__units').innerText();
        return point !== undefined && shown === formatNumber(point.v, 2) && units === 'V';
      })
      .toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it("the notes' home_page names the Data page's Custom Page; an unknown name shows 'Page not found!'", async () => {
    const notes = async (home_page: string) =>
      (await demo('PUT', `/api/device/${deviceid}/settings`, { PORTAL_deviceNotes: { home_page } })).status;
    expect(await notes('secur-ified!')).toBe(200);
    const page = await signedInPageOf(stack, contexts);
    await page.goto(stack.url(`/data/${deviceid}`));
    const link = page.getByRole('link', { name: 'Custom Page' });
    await link.waitFor();
    // Word characters only (spec 1 section 5).
    expect(await link.getAttribute('href')).toBe(`/custom/securified/${deviceid}`);
    await link.click();
    await page.waitForURL(`**/custom/securified/${deviceid}`);
    await page.getByRole('heading', { name: 'Supply Voltage' }).waitFor();
    await expectBare(page);

    expect(await notes('foo-bar')).toBe(200);
    await page.goto(stack.url(`/data/${deviceid}`));
    await page.getByRole('link', { name: 'Custom Page' }).click();
    await page.waitForURL(`**/custom/foobar/${deviceid}`);
    await page.getByRole('heading', { level: 1, name: PAGE_NOT_FOUND_TEXT }).waitFor();
    await expectBare(page);
    // The generic form opens a known page by its name too.
    await page.goto(stack.url(`/custom/vibracorder/${deviceid.toLowerCase()}`));
    await page.waitForURL(`**/custom/vibracorder/${deviceid}`);
    await page.getByRole('heading', { name: 'Accel X', exact: true }).waitFor();
    // A device that is not the user's.
    await page.goto(stack.url(`/custom/securified/${freshDeviceId('NONE')}`));
    await page.getByRole('heading', { name: 'Device not found' }).waitFor();
    await expectBare(page);
  });

  it("the kiosk without a device lists the user's devices to choose", async () => {
    const groupid = await makeGroup(demo, 'Kiosk Yard');
    await deviceInGroup(stack, demo, groupid, 'CUSG', 'Gate Pump');
    const page = await signedInPageOf(stack, contexts);
    await page.goto(stack.url('/custom/securified'));
    await page.getByRole('heading', { level: 1, name: 'Kiosk' }).waitFor();
    await expectBare(page);
    // The devices of the user's groups, with the group's name.
    const gate = page.getByRole('link', { name: /Gate Pump/ });
    await gate.waitFor();
    expect(await gate.innerText()).toContain('Kiosk Yard');
    // A device in no group is listed once this browser has opened it (a recent device).
    expect(await page.getByRole('link', { name: /Kiosk Pump/ }).count()).toBe(0);
    await page.goto(stack.url(`/data/${deviceid}`));
    await page.locator('section.dp-reading').first().waitFor();
    await page.goto(stack.url('/custom/securified'));
    await page.getByRole('link', { name: /Kiosk Pump/ }).click();
    await page.waitForURL(`**/custom/securified/${deviceid}`);
    await page.getByRole('heading', { name: 'Supply Voltage' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
