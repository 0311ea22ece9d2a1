// The group table widget in Chromium against the real server, on home's group dashboard
// (/group/{groupid}) with its default view (Asset Type, Device ID, Last Contact, Event Messages),
// fed by devices that publish records and events over MQTT (spec 1 sections 2, 3 and 5; spec 2
// sections 2-4, 8 and 9; ledger TBL-04, TBL-06 - TBL-18).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { NO_ASSETS_MATCH, REFRESH_COOLDOWN_S } from '@portal/core';
import { DESKTOP, PHONE, chromiumAvailable } from './browser';
import { startStack, type Stack } from './harness';
import { DEMO, deviceInGroup, expectPath, makeGroup, seriousAxeViolations, signInFromPage, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
/** Where the screenshots go (looked at by hand: 1280 and 390 px, two brands). */
const SHOTS = process.env.E2E_SHOTS ?? join(tmpdir(), 'group-table-shots');

type Device = Awaited<ReturnType<Stack['provisionDevice']>>;
type Api = ReturnType<Stack['apiClient']>;

const DAY_S = 86_400;

describe.skipIf(!chromiumAvailable() && !required)('group table widget', () => {
  let stack: Stack;
  let demo: Api;
  let groupid: string;
  /** Six devices whose ids start TBA, first to make contact, one ALARM event each. */
  let older: Device[];
  /** Four devices whose ids start TBZ, making contact a few seconds after `boundaryS`, one WARN 'Door open' event each. */
  let recent: Device[];
  /** Two devices (TBZ) that never made contact. */
  let silent: Device[];
  let all: Device[];
  /** A second between the older devices' contact and the recent ones'. */
  let boundaryS: number;
  const nowS = () => Math.floor(Date.now() / 1000);

  const deviceIn = (tag: string, name: string) => deviceInGroup(stack, demo, groupid, tag, name);

  async function signedInPage(viewport = DESKTOP, hostPrefix = ''): Promise<{ context: BrowserContext; page: Page }> {
    // bypassCSP: axe goes in as an inline script, which the portal's script-src 'self' would refuse.
    const context = await stack.browser.newContext({ viewport, bypassCSP: true });
    await context.route(
      (url) => !url.hostname.endsWith('localhost') && url.hostname !== '127.0.0.1',
      (route) => route.abort(),
    );
    // Signed in from the page itself: its brand host (tank.localhost) resolves in Chromium only.
    const page = await context.newPage();
    await signInFromPage(page, stack.url('', hostPrefix), DEMO);
    return { context, page };
  }

  const table = (page: Page): Locator => page.getByTestId('group-table');
  const bodyRows = (page: Page): Locator => table(page).locator('tbody.p-datatable-tbody > tr.gt-row');
  const headerCell = (page: Page, name: string): Locator =>
    table(page)
      .locator('thead th')
      .filter({ has: page.locator('.p-column-title', { hasText: name }) });

  async function openGroup(page: Page, hostPrefix = ''): Promise<void> {
    await page.goto(stack.url(`/group/${groupid}`, hostPrefix));
    await bodyRows(page).first().waitFor();
  }

  async function headers(page: Page): Promise<string[]> {
    return table(page)
      .locator('thead th.gt-col .p-column-title')
      .evaluateAll((els) => els.map((el) => (el.textContent ?? '').trim()));
  }

  /** The Device ID cells of the rows shown. */
  async function shownIds(page: Page): Promise<string[]> {
    const index = (await headers(page)).indexOf('Device ID');
    return bodyRows(page).evaluateAll(
      (rows, i) =>
        rows.map((r) => (r.querySelectorAll('td')[i + 1]?.querySelector('.gt-device__id')?.textContent ?? '').trim()),
      index,
    );
  }

  async function pageReport(page: Page): Promise<string> {
    return (await table(page).locator('.p-paginator-current').innerText()).trim();
  }

  /** Opens a column's filter menu; returns the overlay. */
  async function openFilter(page: Page, column: string): Promise<Locator> {
    await headerCell(page, column).locator('.p-column-filter-menu-button').click();
    const overlay = page.locator('.p-column-filter-overlay');
    await overlay.waitFor();
    return overlay;
  }

  /** The match mode choices a column's filter menu offers. */
  async function matchModes(page: Page, overlay: Locator): Promise<string[]> {
    await overlay.locator('.p-column-filter-matchmode-dropdown').click();
    const items = page.locator('.p-dropdown-panel .p-dropdown-item');
    await items.first().waitFor();
    const labels = await items.evaluateAll((els) => els.map((el) => (el.textContent ?? '').trim()));
    await page.keyboard.press('Escape');
    return labels;
  }

  async function chooseMode(page: Page, overlay: Locator, label: string): Promise<void> {
    await overlay.locator('.p-column-filter-matchmode-dropdown').click();
    await page.locator('.p-dropdown-panel .p-dropdown-item', { hasText: new RegExp(`^${label}$`) }).click();
  }

  /** Applies a filter through the column's menu and waits for the rows to follow. */
  async function applyFilter(page: Page, column: string, mode: string, values: string[]): Promise<void> {
    const overlay = await openFilter(page, column);
    await chooseMode(page, overlay, mode);
    const inputs = overlay.locator('input.gt-filter__input');
    await until(`${values.length} filter inputs`, async () => ((await inputs.count()) === values.length ? true : null));
    for (const [i, v] of values.entries()) await inputs.nth(i).fill(v);
    await overlay.getByRole('button', { name: 'Apply' }).click();
    await overlay.waitFor({ state: 'hidden' });
    // The table applies a filter after its filterDelay (300 ms).
    await page.waitForTimeout(600);
  }

  async function clearFilter(page: Page, column: string): Promise<void> {
    const overlay = await openFilter(page, column);
    await overlay.getByRole('button', { name: 'Clear' }).click();
    await page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'hidden' }).catch(() => undefined);
  }

  /** 'YYYY-MM-DDTHH:mm:ss' in the browser's zone, as a datetime-local input takes it. */
  async function localInput(page: Page, epochS: number): Promise<string> {
    return page.evaluate((s) => {
      const d = new Date(s * 1000);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    }, epochS);
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    stack = await startStack();
    demo = stack.apiClient();
    const login = await demo('POST', '/api/auth/login', DEMO);
    if (login.status !== 200) throw new Error(`demo sign-in failed: ${JSON.stringify(login)}`);
    groupid = await makeGroup(demo, 'Table Fleet');

    older = [];
    for (let i = 0; i < 6; i += 1) older.push(await deviceIn('TBA', `Older ${i + 1}`));
    recent = [];
    for (let i = 0; i < 4; i += 1) recent.push(await deviceIn('TBZ', `Recent ${i + 1}`));
    silent = [];
    for (let i = 0; i < 2; i += 1) silent.push(await deviceIn('TBZ', `Silent ${i + 1}`));
    all = [...older, ...recent, ...silent];

    // Asset types from the devices' notes (the group summary's type).
    for (const [devices, assetType] of [
      [older, 'Pump'],
      [recent, 'Compressor'],
    ] as const) {
      for (const d of devices) {
        const put = await demo('PUT', `/api/device/${d.id}/settings`, {
          PORTAL_deviceNotes: { asset_type: assetType },
        });
        if (put.status !== 200) throw new Error(`notes of ${d.id} not saved: ${JSON.stringify(put)}`);
      }
    }
    // Last contact is when the portal hears a device: the older ones first, the recent ones after a pause.
    for (const d of older) {
      await stack.publish(d, { ts: nowS(), temp: 20, events: [{ msg: 'Overpressure', severity: 'ALARM' }] });
    }
    await new Promise((r) => setTimeout(r, 1500));
    boundaryS = nowS();
    await new Promise((r) => setTimeout(r, 1500));
    for (const d of recent) {
      await stack.publish(d, { ts: nowS(), temp: 30, events: [{ msg: 'Door open', severity: 'WARN' }] });
    }
    // The group data call answers what ingest has stored.
    await until('the group data to hold every record', async () => {
      const got = await demo<{ devices: { ts: number | null; messages: unknown[] }[] }>(
        'GET',
        `/api/group/${groupid}/data`,
      );
      const contacted = got.body.devices.filter((d) => d.ts !== null && d.messages.length > 0);
      return got.status === 200 && contacted.length === older.length + recent.length ? true : null;
    });
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('shows the default view columns, pages 10 at a time and offers 10/25/50 (TBL-04, TBL-10, TBL-11)', async () => {
    const { context, page } = await signedInPage();
    await openGroup(page);
    expect(await headers(page)).toEqual(['Asset Type', 'Device ID', 'Last Contact', 'Event Messages']);
    expect(await bodyRows(page).count()).toBe(10);
    expect(await pageReport(page)).toBe('1–10 of 12');
    await expect(table(page).locator('.gt-toolbar__count').innerText()).resolves.toBe('12 assets');

    // The newest message shows in its severity colour; a device without contact reads 'Never'.
    const alarmRow = bodyRows(page).filter({ hasText: older[0]!.id });
    await expect(alarmRow.locator('.gt-message.gt-sev--danger').innerText()).resolves.toContain('Overpressure');
    await table(page).locator('.p-paginator-next').click();
    await until('the second page', async () => ((await pageReport(page)) === '11–12 of 12' ? true : null));
    expect(await bodyRows(page).count()).toBe(2);
    await table(page).locator('.p-paginator-prev').click();

    await table(page).locator('.p-paginator .p-dropdown').click();
    const options = page.locator('.p-dropdown-panel .p-dropdown-item');
    await options.first().waitFor();
    expect(await options.evaluateAll((els) => els.map((el) => (el.textContent ?? '').trim()))).toEqual([
      '10',
      '25',
      '50',
    ]);
    await options.filter({ hasText: /^25$/ }).click();
    await until('25 rows a page', async () => ((await bodyRows(page).count()) === 12 ? true : null));
    expect(await pageReport(page)).toBe('1–12 of 12');
    await context.close();
  });

  it('filters text columns with exactly the four text operators (TBL-06, TBL-08, TBL-18)', async () => {
    const { context, page } = await signedInPage();
    await openGroup(page);
    const overlay = await openFilter(page, 'Device ID');
    expect(await matchModes(page, overlay)).toEqual(['Starts with', 'Contains', 'Does not contain', 'Ends with']);
    await page.keyboard.press('Escape');

    await applyFilter(page, 'Device ID', 'Starts with', ['tba']);
    expect((await shownIds(page)).sort()).toEqual(older.map((d) => d.id).sort());
    expect(await table(page).locator('.gt-toolbar__count').innerText()).toBe('6 of 12 assets');

    await applyFilter(page, 'Device ID', 'Does not contain', ['TBA']);
    expect((await shownIds(page)).sort()).toEqual([...recent, ...silent].map((d) => d.id).sort());

    const one = recent[1]!.id;
    await applyFilter(page, 'Device ID', 'Ends with', [one.slice(3)]);
    expect(await shownIds(page)).toEqual([one]);

    await applyFilter(page, 'Device ID', 'Contains', [one.slice(2, 7)]);
    expect(await shownIds(page)).toContain(one);

    await applyFilter(page, 'Device ID', 'Contains', ['no such device']);
    await expect(table(page).locator('.p-datatable-emptymessage').innerText()).resolves.toBe(NO_ASSETS_MATCH);
    expect(await table(page).locator('.p-paginator').count()).toBe(0);
    await clearFilter(page, 'Device ID');
    // No rows, no paginator; the rows and the paginator come back with the filter cleared.
    await until('every row back', async () =>
      (await pageReport(page).catch(() => '')) === '1–10 of 12' ? true : null,
    );

    await applyFilter(page, 'Asset Type', 'Starts with', ['comp']);
    expect((await shownIds(page)).sort()).toEqual(recent.map((d) => d.id).sort());
    await clearFilter(page, 'Asset Type');

    await applyFilter(page, 'Event Messages', 'Contains', ['door']);
    expect((await shownIds(page)).sort()).toEqual(recent.map((d) => d.id).sort());
    await context.close();
  });

  it('filters other columns with exactly the seven operators, between taking two bounds (TBL-07, TBL-08)', async () => {
    const { context, page } = await signedInPage();
    await openGroup(page);
    const overlay = await openFilter(page, 'Last Contact');
    expect(await matchModes(page, overlay)).toEqual([
      'Less than',
      'Less than or equal to',
      'Greater than',
      'Greater than or equal to',
      'Equals',
      'Not equals',
      'Between',
    ]);
    await page.keyboard.press('Escape');

    const boundary = await localInput(page, boundaryS);
    await applyFilter(page, 'Last Contact', 'Less than', [boundary]);
    expect((await shownIds(page)).sort()).toEqual(older.map((d) => d.id).sort());

    await applyFilter(page, 'Last Contact', 'Greater than or equal to', [boundary]);
    expect((await shownIds(page)).sort()).toEqual(recent.map((d) => d.id).sort());

    await applyFilter(page, 'Last Contact', 'Between', [await localInput(page, boundaryS - 600), boundary]);
    expect((await shownIds(page)).sort()).toEqual(older.map((d) => d.id).sort());

    // Never-contacted devices have no last contact to equal the bound: every device passes.
    await applyFilter(page, 'Last Contact', 'Not equals', [boundary]);
    expect(await table(page).locator('.gt-toolbar__count').innerText()).toBe('12 assets');

    await applyFilter(page, 'Last Contact', 'Greater than', [await localInput(page, nowS() + DAY_S)]);
    await expect(table(page).locator('.p-datatable-emptymessage').innerText()).resolves.toBe(NO_ASSETS_MATCH);
    await context.close();
  });

  it('sorts on a header click, ascending then descending (TBL-09)', async () => {
    const { context, page } = await signedInPage();
    await openGroup(page);
    await table(page).locator('.p-paginator .p-dropdown').click();
    await page.locator('.p-dropdown-panel .p-dropdown-item').filter({ hasText: /^25$/ }).click();
    await until('every row', async () => ((await bodyRows(page).count()) === 12 ? true : null));

    const ids = all.map((d) => d.id);
    const asc = [...ids].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    await headerCell(page, 'Device ID').click();
    await until('ascending', async () => ((await shownIds(page)).join() === asc.join() ? true : null));
    expect(await headerCell(page, 'Device ID').getAttribute('aria-sort')).toBe('ascending');
    await headerCell(page, 'Device ID').click();
    await until('descending', async () => ((await shownIds(page)).join() === [...asc].reverse().join() ? true : null));
    expect(await headerCell(page, 'Device ID').getAttribute('aria-sort')).toBe('descending');

    // Last Contact: the never-contacted come last, the older before the recent ascending.
    await headerCell(page, 'Last Contact').click();
    const byContact = await shownIds(page);
    expect(byContact.slice(0, 6).sort()).toEqual(older.map((d) => d.id).sort());
    expect(byContact.slice(10).sort()).toEqual(silent.map((d) => d.id).sort());
    await context.close();
  });

  it('resizes and reorders columns (TBL-12, TBL-13)', async () => {
    const { context, page } = await signedInPage();
    await openGroup(page);
    const th = headerCell(page, 'Device ID');
    const before = (await th.boundingBox())!;
    const resizer = th.locator('.p-column-resizer');
    const grip = (await resizer.boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + 80, grip.y + grip.height / 2, { steps: 8 });
    await page.mouse.up();
    const after = (await th.boundingBox())!;
    expect(after.width).toBeGreaterThan(before.width + 40);

    // Drag 'Event Messages' onto 'Device ID': it moves before it.
    const from = (await headerCell(page, 'Event Messages').boundingBox())!;
    const to = (await headerCell(page, 'Device ID').boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + 10, to.y + to.height / 2, { steps: 10 });
    await page.mouse.up();
    await until('the new order', async () =>
      (await headers(page)).join() === ['Asset Type', 'Event Messages', 'Device ID', 'Last Contact'].join()
        ? true
        : null,
    );
    await context.close();
  });

  it('goes to /data/{deviceid} on a row click and from the Device Page link by keyboard (TBL-14)', async () => {
    const { context, page } = await signedInPage();
    await openGroup(page);
    const target = older[2]!;
    await applyFilter(page, 'Device ID', 'Starts with', [target.id]);
    await bodyRows(page).filter({ hasText: target.id }).locator('td').nth(2).click();
    await expectPath(page, `/data/${target.id}`);

    await openGroup(page);
    const other = recent[0]!;
    // The server's order may put it on the second page: filter down to it.
    await applyFilter(page, 'Device ID', 'Starts with', [other.id]);
    const link = bodyRows(page)
      .filter({ hasText: other.id })
      .getByRole('link', { name: /Device Page/ });
    await link.focus();
    await page.keyboard.press('Enter');
    await expectPath(page, `/data/${other.id}`);
    await context.close();
  });

  it('counts down to the next refresh; a refresh disables the button for its cool-down (TBL-15 - TBL-17)', async () => {
    const { context, page } = await signedInPage();
    await openGroup(page);
    const button = table(page).getByRole('button', { name: /Refresh/ });
    const countdown = table(page).getByTestId('refresh-countdown');
    const seconds = async () => Number(/(\d+) s/.exec(await countdown.innerText())?.[1] ?? Number.NaN);
    const first = await seconds();
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(30);
    await until('the countdown to move', async () => ((await seconds()) < first ? true : null));
    await expect(button.isEnabled()).resolves.toBe(true);

    // Slow the group data call, so the fetch can be seen.
    let slow = true;
    await page.route(`**/api/group/${groupid}/data**`, async (route) => {
      if (slow) await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    const clickedAt = Date.now();
    await button.click();
    await expect(button.isDisabled()).resolves.toBe(true);
    await until('the fetch', async () => ((await countdown.innerText()) === 'Refreshing…' ? true : null));
    slow = false;
    await until('the fetch to end', async () => ((await countdown.innerText()) !== 'Refreshing…' ? true : null));
    // Still cooling down until REFRESH_COOLDOWN_S after the click, then enabled.
    if (Date.now() - clickedAt < REFRESH_COOLDOWN_S * 1000 - 600) {
      await expect(button.isDisabled()).resolves.toBe(true);
    }
    await until('the cool-down to end', async () => ((await button.isEnabled()) ? true : null), 8000);
    expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(REFRESH_COOLDOWN_S * 1000 - 300);
    // The countdown starts again from the new data.
    expect(await seconds()).toBeGreaterThan(20);
    await context.close();
  });

  it('has no serious axe violations and looks right at 1280 and 390 px in two brands (phone: scrolls in its card, first column pinned)', async () => {
    for (const [brand, prefix] of [
      ['default', ''],
      ['tank', 'tank.'],
    ] as const) {
      const desktop = await signedInPage(DESKTOP, prefix);
      await openGroup(desktop.page, prefix);
      expect(await seriousAxeViolations(desktop.page, '[data-testid="group-table"]')).toEqual([]);
      await desktop.page.screenshot({ path: join(SHOTS, `table-${brand}-1280.png`), fullPage: true });
      await desktop.context.close();

      const phone = await signedInPage(PHONE, prefix);
      await openGroup(phone.page, prefix);
      const page = phone.page;
      // No sideways scrolling of the page itself; the table scrolls inside its card.
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        view: window.innerWidth,
      }));
      expect(widths.page).toBeLessThanOrEqual(widths.view);
      const wrapper = table(page).locator('.p-datatable-wrapper');
      const scroll = await wrapper.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(scroll.scroll).toBeGreaterThan(scroll.client);
      const firstCell = bodyRows(page).first().locator('td:nth-child(2)');
      const x0 = (await firstCell.boundingBox())!.x;
      await wrapper.evaluate((el) => el.scrollBy({ left: 300 }));
      await page.waitForTimeout(100);
      expect((await firstCell.boundingBox())!.x).toBeCloseTo(x0, 0);
      expect(await seriousAxeViolations(page, '[data-testid="group-table"]')).toEqual([]);
      await page.locator('[data-testid="group-table"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, `table-${brand}-390.png`), fullPage: false });
      await phone.context.close();
    }
  });
});
