// The device Data page in Chromium against the real server, with simulated devices publishing over MQTT to the
// stack's embedded broker (spec 2 sections 2-5 and 8; ledger HDR, CARD, TL and TRG rows).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import {
  RECORD_STRUCTURED_KEYS,
  measurementOf,
  type DeviceConfigResponse,
  type DeviceSettingsResponse,
} from '@portal/core';
import { startFleet, type Fleet } from '../../apps/simulator/src/index';
import { chromiumAvailable, newPage } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, closeSuccess, expectPath, signIn, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

/** Seconds between the simulated devices' records: short, so new data comes while a test watches. */
const SIM_INTERVAL_S = 3;

type Device = Awaited<ReturnType<Stack['provisionDevice']>>;
type Api = ReturnType<Stack['apiClient']>;
interface DataAnswer {
  data: Record<string, { v: unknown; ts: number }[]>;
}

describe.skipIf(!chromiumAvailable() && !required)('device Data page', () => {
  let stack: Stack;
  let demo: Api;
  let fleet: Fleet | undefined;
  /** Simulated, added through the page by the first test. */
  let added: Device;
  /** Simulated, added by the demo account through the API: live data, triggers, header. */
  let live: Device;
  /** Not simulated: records published here, one display type per key. */
  let shown: Device;
  /** Not simulated: three records published here for the timeline. */
  let history: Device;
  const LIVE_NAME = 'Yard Pump 9';

  async function addDevice(api: Api, device: Device): Promise<void> {
    const claim = await api('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword });
    if (claim.status !== 200) throw new Error(`adding ${device.id} failed: ${JSON.stringify(claim)}`);
  }

  /** Queues a config change as the demo account and waits until the simulated device has applied it. */
  async function configure(device: Device, settings: Record<string, unknown>): Promise<DeviceConfigResponse> {
    const put = await demo<DeviceConfigResponse>('PUT', `/api/device/${device.id}/config`, { config: { settings } });
    if (put.status !== 200) throw new Error(`config change failed: ${JSON.stringify(put)}`);
    return until(`${device.id} to apply its config`, async () => {
      const got = await demo<DeviceConfigResponse>('GET', `/api/device/${device.id}/config`);
      return got.status === 200 && got.body.pending === null ? got.body : null;
    });
  }

  /** A desktop page signed in (through the API) as the given account; map tiles from the internet are refused. */
  async function signedInPage(
    email = DEMO.email,
    password = DEMO.password,
  ): Promise<{ context: BrowserContext; page: Page }> {
    const { context, page } = await newPage(stack.browser);
    await stack.signInContext(context, email, password);
    return { context, page };
  }

  async function openData(page: Page, device: Device): Promise<void> {
    await page.goto(stack.url(`/data/${device.id}`));
    await page.locator('section.dp-reading').first().waitFor();
  }

  const card = (page: Page, key: string): Locator =>
    page.locator('section.dp-reading').filter({ has: page.locator(`h3.dp-card-title[title="${key}"]`) });
  const valueOf = async (page: Page, key: string) =>
    (await card(page, key).locator('.dp-value-text').innerText()).trim();
  const timeline = (page: Page) => page.getByRole('group', { name: 'Timeline' });
  const headingOf = async (page: Page) => (await timeline(page).locator('.dp-timeline-title').innerText()).trim();
  const timelineButton = (page: Page, name: string) => timeline(page).getByRole('button', { name, exact: true });

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    const login = await demo('POST', '/api/auth/login', DEMO);
    if (login.status !== 200) throw new Error(`demo sign-in failed: ${JSON.stringify(login)}`);

    added = await stack.provisionDevice(freshDeviceId('ADD'), 'ORB-C1', 'Added Pump');
    live = await stack.provisionDevice(freshDeviceId('LIV'), 'ORB-C1', LIVE_NAME);
    shown = await stack.provisionDevice(freshDeviceId('SHW'), 'ORB-C1', 'Display Types');
    history = await stack.provisionDevice(freshDeviceId('HIS'), 'ORB-C1', 'Timeline');
    for (const device of [live, shown, history]) await addDevice(demo, device);

    fleet = startFleet({
      devices: [added, live].map((d) => ({ id: d.id, key: d.deviceKey, model: 'ORB-C1' })),
      transport: 'mqtt',
      mqttUrl: stack.mqttUrl,
      httpUrl: stack.url(),
      baseInterval: SIM_INTERVAL_S,
      staggerMs: 500,
    });
    const sim = fleet;
    await until('the simulated devices to publish', async () => sim.devices.every((d) => d.stats.records >= 1));
    // The portal expects the device's records at the interval its config gives (the polling rule): the
    // simulated device runs at SIM_INTERVAL_S, so its config says so, applied by the device itself.
    await configure(live, { device: { base_interval: SIM_INTERVAL_S, transmit_interval: 1 } });
  });

  afterAll(async () => {
    await fleet?.stop();
    await stack?.close();
  });

  it('adds a device through /add?device=ID and fills its Data page with a card per simulated key', async () => {
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login'));
    await signIn(page, DEMO.email, DEMO.password);
    await expectPath(page, '/');
    await page.goto(stack.url(`/add?device=${added.id}`));
    await page.getByLabel('Setup password', { exact: true }).fill(added.setupPassword);
    await page.getByRole('button', { name: 'Add Device' }).click();
    await expectPath(page, `/data/${added.id}`);

    // The keys the simulated device has sent, as the data call gives them to its new ADMIN.
    const data = await demo<DataAnswer>('GET', `/api/device/${added.id}/data?dataPoints=5`);
    expect(data.status).toBe(200);
    const keys = Object.keys(data.body.data).filter((k) => !(RECORD_STRUCTURED_KEYS as readonly string[]).includes(k));
    expect(keys.length).toBeGreaterThan(20);

    await page.waitForFunction((n) => document.querySelectorAll('section.dp-reading').length >= n, keys.length);
    const titles = await page
      .locator('section.dp-reading h3.dp-card-title')
      .evaluateAll((els) => els.map((el) => ({ key: el.getAttribute('title') ?? '', name: el.textContent ?? '' })));
    expect(titles.map((t) => t.key).sort()).toEqual([...keys].sort());
    for (const t of titles) expect(t.name).toBe(measurementOf(t.key).name);
    // Every card shows a reading (none is missing: '???').
    const missing = await page.locator('section.dp-reading .dp-value--missing').count();
    expect(missing).toBe(0);
    await context.close();
  });

  it('shows a new record from the simulated device without a reload', async () => {
    const { context, page } = await signedInPage();
    await openData(page, live);
    expect(await headingOf(page)).toBe('Latest Data');
    const time = timeline(page).locator('.dp-timeline-time');
    const before = (await time.innerText()).trim();
    const cardTime = () => card(page, 'vsys').locator('time').getAttribute('datetime');
    const cardBefore = await cardTime();
    await page.evaluate(() => Object.assign(window, { e2eSameDocument: true }));

    await page.waitForFunction(
      (old) => document.querySelector('.dp-timeline-time')?.textContent?.trim() !== old,
      before,
      { timeout: 15_000 },
    );
    expect(await cardTime()).not.toBe(cardBefore);
    expect(await headingOf(page)).toBe('Latest Data');
    expect(await page.evaluate(() => (window as unknown as { e2eSameDocument?: boolean }).e2eSameDocument)).toBe(true);
    await context.close();
  });

  it('renders each display type as its display settings say', async () => {
    const ts = Date.now() / 1000;
    // One record as an object, as devices send one: a one-record array over MQTT is stored as the array itself
    // (apps/server/src/modules/telemetry/ingest-batch.ts), after which GET /data answers 500 for the device.
    await stack.publish(shown, {
      ts,
      vsys: 12,
      analog1: 15,
      analog2: 16,
      analog3: 10,
      analog4: 9,
      cp1: 5,
      digital1: 1,
      digital2: 0,
      digital3: 0.5,
      engine_hours: 1.5,
      hourmeter_hrs: 1234.0833,
      label: 'hi',
      blob: 'aGk=',
      note: 'a\tb',
    });
    const { context, page } = await signedInPage();
    await openData(page, shown);
    // Without settings: strings escaped, hour meters in hours and minutes, numbers with their decimals.
    expect(await valueOf(page, 'label')).toBe('hi');
    expect(await valueOf(page, 'note')).toBe('a\\x09b');
    expect(await valueOf(page, 'hourmeter_hrs')).toBe('1,234 h 05 min');
    expect(await valueOf(page, 'analog1')).toBe('15.00');

    const limits = { min: 0, max: 20, warnLow: 10, warnHigh: 15, alarmLow: 9, alarmHigh: 16 };
    const gauge = { displayType: 'gauge', gaugeSettings: limits };
    const put = await demo<DeviceSettingsResponse>('PUT', `/api/device/${shown.id}/settings`, {
      PORTAL_displaySettings: {
        vsys: gauge,
        analog1: gauge,
        analog2: gauge,
        analog3: gauge,
        analog4: gauge,
        cp1: { displayType: 'gauge', gaugeSettings: { ...limits, min: 5, max: 5 } },
        digital1: {
          displayType: 'digital',
          digitalSettings: { lowThreshold: 0.5, lowString: 'Stopped', highString: 'Running' },
        },
        digital2: {
          displayType: 'digital',
          digitalSettings: { lowThreshold: 0.5, lowString: 'Stopped', highString: 'Running' },
        },
        digital3: {
          displayType: 'digital',
          digitalSettings: { lowThreshold: 0.5, lowString: 'Stopped', highString: 'Running' },
        },
        engine_hours: { displayType: 'hours' },
        label: { displayType: 'hex' },
        blob: { displayType: 'base64' },
      },
    });
    expect(put.status).toBe(200);
    await page.reload();
    await page.locator('section.dp-reading').first().waitFor();

    // Gauges: the state class and the fill's colour (the state's token) at and beyond each limit.
    const stateColour = (name: string) =>
      page.evaluate((variable) => {
        const probe = document.body.appendChild(document.createElement('span'));
        probe.style.color = `var(${variable})`;
        const colour = getComputedStyle(probe).color;
        probe.remove();
        return colour;
      }, name);
    const colours = {
      normal: await stateColour('--sev-normal'),
      warning: await stateColour('--sev-warning'),
      alarm: await stateColour('--sev-alarm'),
    };
    expect(new Set(Object.values(colours)).size).toBe(3);
    const expected: [string, keyof typeof colours, string][] = [
      ['vsys', 'normal', '12.00 V'],
      ['analog1', 'warning', '15.00 V'],
      ['analog2', 'alarm', '16.00 V'],
      ['analog3', 'warning', '10.00 V'],
      ['analog4', 'alarm', '9.00 V'],
    ];
    for (const [key, state, label] of expected) {
      const svg = card(page, key).locator('svg.dd-gauge__svg');
      expect(await svg.getAttribute('class'), key).toContain(`dd-gauge__svg--${state}`);
      expect(await svg.getAttribute('aria-label'), key).toBe(label);
      const fill = await svg.locator('.dd-gauge__fill').evaluate((el) => getComputedStyle(el).stroke);
      expect(fill, key).toBe(colours[state]);
    }
    // min = max: the gauge error instead of a gauge.
    await expect(card(page, 'cp1').innerText()).resolves.toContain('Gauge Error: Invalid min/max range');
    expect(await card(page, 'cp1').locator('svg.dd-gauge__svg').count()).toBe(0);
    // Digital: highString at or above lowThreshold, lowString below.
    expect(await valueOf(page, 'digital1')).toBe('Running');
    expect(await valueOf(page, 'digital2')).toBe('Stopped');
    expect(await valueOf(page, 'digital3')).toBe('Running');
    // Hours & minutes.
    expect(await valueOf(page, 'engine_hours')).toBe('1 h 30 min');
    expect(await valueOf(page, 'hourmeter_hrs')).toBe('1,234 h 05 min');
    // A string key as hex (its UTF-8 bytes) and as base64 (decoded).
    expect(await valueOf(page, 'label')).toBe('68 69');
    expect(await valueOf(page, 'blob')).toBe('hi');
    await context.close();
  });

  it('steps through the timeline: Back 1, the heading back to the latest, disabled ends', async () => {
    const now = Math.floor(Date.now() / 1000);
    await stack.publish(history, [
      { ts: now - 30, vsys: 11.5 },
      { ts: now - 20, vsys: 12.5 },
      { ts: now - 10, vsys: 13.5 },
    ]);
    const { context, page } = await signedInPage();
    await openData(page, history);
    const disabled = async () =>
      Object.fromEntries(
        await Promise.all(
          ['Back 10', 'Back 1', 'Forward 1', 'Forward 10'].map(
            async (name) => [name, await timelineButton(page, name).isDisabled()] as const,
          ),
        ),
      );

    // Latest: forward buttons disabled.
    expect(await headingOf(page)).toBe('Latest Data');
    expect(await valueOf(page, 'vsys')).toBe('13.50');
    expect(await disabled()).toEqual({ 'Back 10': false, 'Back 1': false, 'Forward 1': true, 'Forward 10': true });

    await timelineButton(page, 'Back 1').click();
    await timeline(page).getByText('Historical Data').waitFor();
    expect(await valueOf(page, 'vsys')).toBe('12.50');
    expect(await disabled()).toEqual({ 'Back 10': false, 'Back 1': false, 'Forward 1': false, 'Forward 10': false });

    // The oldest record: back buttons disabled.
    await timelineButton(page, 'Back 1').click();
    await expect.poll(() => valueOf(page, 'vsys')).toBe('11.50');
    expect(await headingOf(page)).toBe('Historical Data');
    expect(await disabled()).toEqual({ 'Back 10': true, 'Back 1': true, 'Forward 1': false, 'Forward 10': false });

    // Clicking the heading goes back to the latest record.
    await timeline(page).locator('.dp-timeline-heading').click();
    await timeline(page).getByText('Latest Data').waitFor();
    expect(await valueOf(page, 'vsys')).toBe('13.50');
    expect(await disabled()).toEqual({ 'Back 10': false, 'Back 1': false, 'Forward 1': true, 'Forward 10': true });

    // Back 10 stops at the oldest record.
    await timelineButton(page, 'Back 10').click();
    await expect.poll(() => valueOf(page, 'vsys')).toBe('11.50');
    expect(await timelineButton(page, 'Back 1').isDisabled()).toBe(true);
    await context.close();
  });

  it('queues a trigger, says Successfully Queued, and shows the device answering in the events', async () => {
    const applied = await configure(live, {
      script: { triggers: [{ index: 1, name: 'Sound Horn', colour: '#0284c7' }] },
    });
    expect(JSON.stringify(applied.config)).toContain('Sound Horn');

    const { context, page } = await signedInPage();
    await openData(page, live);
    const rpc = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/device/${live.id}/rpc`));
    await page.getByRole('button', { name: 'Sound Horn' }).click();
    expect((await rpc).postDataJSON()).toEqual({ method: 'Admin.Trigger', args: { index: 1 } });
    const dialog = page.getByRole('dialog').filter({ hasText: 'Successfully Queued' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'OK' }).click();

    const events = page.locator('section.dd-card').filter({ has: page.getByRole('heading', { name: 'Events' }) });
    // The device names the trigger in its event (issue 32 item 17).
    await events.getByText('Sound Horn activated').first().waitFor({ timeout: 25_000 });

    // With confirmEnabled on the trigger's display settings, it asks first; Cancel sends nothing (TRG-06).
    const put = await demo('PUT', `/api/device/${live.id}/settings`, {
      PORTAL_displaySettings: { trigger1: { confirmEnabled: true, confirmText: 'Sound the horn now' } },
    });
    expect(put.status).toBe(200);
    await page.reload();
    let posted = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith(`/api/device/${live.id}/rpc`)) posted += 1;
    });
    await page.getByRole('button', { name: 'Sound Horn' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Sound the horn now' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.waitForTimeout(300);
    expect(posted).toBe(0);
    await page.getByRole('button', { name: 'Sound Horn' }).click();
    await confirm.getByRole('button', { name: 'Queue' }).click();
    await page.getByRole('dialog').filter({ hasText: 'Successfully Queued' }).waitFor();
    expect(posted).toBe(1);
    await context.close();
  });

  it('saves display settings from the dialog and shows them after a reload', async () => {
    const { context, page } = await signedInPage();
    await openData(page, live);
    await page.getByRole('button', { name: 'Display settings of State 1 Hours' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Display Settings: State 1 Hours' });
    await dialog.waitFor();
    await dialog.getByLabel('Name').fill('Pump Hours');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // ERR-06: the server's message in the 'Success' dialog.
    await closeSuccess(page, 'Display settings saved.');

    await page.reload();
    await page.locator('section.dp-reading').first().waitFor();
    expect((await card(page, 'state1_hrs').locator('h3').innerText()).trim()).toBe('Pump Hours');
    const stored = await demo<DeviceSettingsResponse>('GET', `/api/device/${live.id}/settings`);
    expect(stored.body.deviceSettings.PORTAL_displaySettings.state1_hrs).toMatchObject({ name: 'Pump Hours' });
    await context.close();
  });

  it('asset notes: over 300 kB or a gif is refused in the browser; a png is uploaded on Save, served by GET and shown after a reload', async () => {
    const { context, page } = await signedInPage();
    const imageCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/notes-image/')) imageCalls.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    await openData(page, live);
    const openNotes = async () => {
      await page.getByRole('button', { name: 'Asset Notes' }).click();
      const dialog = page.getByRole('dialog', { name: 'Asset Notes' });
      await dialog.waitFor();
      return dialog;
    };
    const file = (name: string, mimeType: string, buffer: Buffer) => ({ name, mimeType, buffer });
    const padded = (head: Buffer, bytes: number) => Buffer.concat([head, Buffer.alloc(bytes - head.length)]);
    /** A real 1 x 1 png. */
    const tinyPng = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    const assetPath = `/api/device/${live.id}/notes-image/asset_image`;

    let dialog = await openNotes();
    const input = dialog.locator('input[type="file"]').first();
    await input.setInputFiles(file('big.png', 'image/png', padded(tinyPng, 300 * 1024 + 1)));
    await dialog.getByText('Image too large. (300 kB limit)').waitFor();
    await input.setInputFiles(file('anim.gif', 'image/gif', padded(Buffer.from('GIF89a'), 100)));
    await dialog.getByText('Only png or jpeg images can be uploaded.').waitFor();
    expect(imageCalls).toEqual([]);

    // A chosen png is only previewed; Save sends the notes, then uploads it.
    const png = padded(tinyPng, 2000);
    await input.setInputFiles(file('asset.png', 'image/png', png));
    await dialog.getByText('asset.png: uploaded when you save').waitFor();
    expect(await dialog.getByRole('img', { name: 'Asset image' }).getAttribute('src')).toMatch(/^blob:/);
    expect(imageCalls).toEqual([]);
    await dialog.getByLabel('Make').fill('Acme');
    const settingsPut = page.waitForRequest(
      (r) => r.method() === 'PUT' && r.url().endsWith(`/api/device/${live.id}/settings`),
    );
    const uploadPut = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(assetPath));
    await dialog.getByRole('button', { name: 'Save' }).click();
    const notesBody = (await settingsPut).postDataJSON() as { PORTAL_deviceNotes: Record<string, unknown> };
    expect(notesBody.PORTAL_deviceNotes).toMatchObject({ make: 'Acme' });
    expect(notesBody.PORTAL_deviceNotes).not.toHaveProperty('images');
    expect((await uploadPut).postDataJSON()).toEqual({ contentType: 'image/png', dataBase64: png.toString('base64') });
    await dialog.waitFor({ state: 'hidden' });
    // ERR-06: the server's message in the 'Success' dialog, focus on its OK.
    await closeSuccess(page, 'Asset notes saved.');

    const stored = await demo<DeviceSettingsResponse>('GET', `/api/device/${live.id}/settings`);
    const notes = stored.body.deviceSettings.PORTAL_deviceNotes as { make?: string; images?: Record<string, string> };
    expect(notes.make).toBe('Acme');
    const address = notes.images?.asset_image ?? '';
    expect(address).toMatch(new RegExp(`^${assetPath}\\?v=\\d+$`));
    const served = await context.request.get(stack.url(address));
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toBe('image/png');
    expect(served.headers()['cache-control']).toBe('private, max-age=86400');
    expect((await served.body()).equals(png)).toBe(true);

    // After a reload the dialog shows the stored image from its GET address.
    await page.reload();
    await page.locator('section.dp-reading').first().waitFor();
    dialog = await openNotes();
    const img = dialog.getByRole('img', { name: 'Asset image' });
    expect(await img.getAttribute('src')).toBe(address);
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1);

    // The server checks too: png bytes sent as a jpeg are refused, shown in the Error dialog with its message.
    await dialog
      .locator('input[type="file"]')
      .nth(1)
      .setInputFiles(file('brand.jpg', 'image/jpeg', png));
    await dialog.getByRole('button', { name: 'Save' }).click();
    const error = page.getByRole('dialog').filter({ hasText: 'Error' });
    await error.getByText('Only png or jpeg images can be uploaded.').waitFor();
    await error.getByRole('button', { name: 'OK' }).click();
    expect(
      (
        await demo('PUT', assetPath, {
          contentType: 'image/png',
          dataBase64: padded(tinyPng, 300 * 1024 + 1).toString('base64'),
        })
      ).body,
    ).toMatchObject({ message: 'Image too large. (300 kB limit)' });

    // Remove deletes the stored image on Save.
    await dialog.getByRole('button', { name: 'Remove asset image' }).click();
    await dialog.getByRole('button', { name: 'Remove brand image' }).click();
    const deleted = page.waitForRequest((r) => r.method() === 'DELETE' && r.url().endsWith(assetPath));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await deleted;
    await dialog.waitFor({ state: 'hidden' });
    await closeSuccess(page, 'Asset notes saved.');
    const after = await demo<DeviceSettingsResponse>('GET', `/api/device/${live.id}/settings`);
    expect((after.body.deviceSettings.PORTAL_deviceNotes as { images?: unknown }).images).toEqual({
      asset_image: null,
    });
    expect((await context.request.get(stack.url(assetPath))).status()).toBe(404);
    await context.close();
  });

  it('gives a VIEW user no eye button, and 403 for display settings', async () => {
    const email = uniqueEmail('viewer');
    const password = 'viewer-password-1';
    await stack.createVerifiedUser(email, password);
    const grant = await demo<{ invited: boolean }>('POST', `/api/device/${live.id}/user`, {
      targetEmail: email,
      targetPermission: 'VIEW',
    });
    expect(grant.status).toBe(200);
    expect(grant.body.invited).toBe(false);

    const { context, page } = await signedInPage(email, password);
    await openData(page, live);
    expect(await page.locator('section.dp-reading').count()).toBeGreaterThan(10);
    expect(await page.locator('.dp-eye').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Display settings of/ }).count()).toBe(0);
    expect((await page.locator('.dp-permission').innerText()).trim()).toBe('VIEW');

    const viewer = stack.apiClient();
    expect((await viewer('POST', '/api/auth/login', { email, password })).status).toBe(200);
    const put = await viewer('PUT', `/api/device/${live.id}/settings`, {
      PORTAL_displaySettings: { vsys: { displayType: 'gauge' } },
    });
    expect(put.status).toBe(403);
    await context.close();
  });

  it('shows the header: breadcrumb, title, page links, permission and plan badge', async () => {
    const { context, page } = await signedInPage();
    await openData(page, live);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' }).locator('li');
    expect(await crumbs.count()).toBe(3);
    expect(await crumbs.nth(0).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect((await crumbs.nth(1).innerText()).trim()).toBe(LIVE_NAME);
    expect(await crumbs.nth(1).locator('a').count()).toBe(0);
    expect((await crumbs.nth(2).innerText()).trim()).toBe('Data');
    await expect.poll(() => page.title()).toBe(`Portal - ${LIVE_NAME}: Data`);

    const toolbar = page.getByRole('toolbar', { name: 'Device pages' });
    const links: [string, string][] = [
      ['Settings', `/config/${live.id}`],
      ['Raw Data', `/raw/${live.id}`],
      ['Scripting', `/script/${live.id}`],
      ['Diagnostics', `/diag/${live.id}`],
      ['Server Log', `/serverlog/${live.id}`],
      ['ADMIN', `/users/${live.id}`],
    ];
    for (const [name, href] of links) {
      expect(await toolbar.getByRole('link', { name, exact: true }).getAttribute('href'), name).toBe(href);
    }
    const plan = page.locator('a.dp-tier');
    expect(await plan.getAttribute('href')).toBe('/plans');
    expect((await plan.innerText()).trim()).not.toBe('');

    // The links navigate in the app.
    await toolbar.getByRole('link', { name: 'Server Log', exact: true }).click();
    await expectPath(page, `/serverlog/${live.id}`);
    await context.close();
  });
});
