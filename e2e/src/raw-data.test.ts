// The device's Raw Data page in Chromium against the real server (issue 14; spec 2 sections 2 and 7;
// ledger SUB-01, API-26, API-27, API-36): a fresh device with a week of records published through
// the embedded MQTT broker; the table shows what GET /data answers, newest first, 100 a page with
// older pages by time; a record's raw JSON; serial capture decoded; the week exported as CSV through
// the page and imported through the page into another device of the same user, which then holds
// the same records; a malformed file shows its message and sends nothing; a VIEW user has no
// import; axe-clean at 1280 and 390 px, and no sideways scroll of the page at 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import {
  RAW_DATA_PAGE,
  formatDateTime,
  formatDateTimeWithOffset,
  rawDataPage,
  rawRecordJson,
  rawValueText,
  type DataResponse,
} from '@portal/core';
import { chromiumAvailable, PHONE } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, parseCsv, seriousAxeViolations, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
/** A record every 30 minutes for a week (less an hour, so none is over 7 days old when imported). */
const RECORDS = 7 * 48 - 2;
const STEP = 1800;
const SERIAL_TEXT = '$GPGGA,1*4F\r\n';
const SERIAL = Buffer.from(SERIAL_TEXT).toString('base64');

describe.skipIf(!chromiumAvailable() && !required)('device Raw Data page', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let source: string;
  let target: string;
  const contexts: BrowserContext[] = [];
  const viewer = { email: uniqueEmail('raw-view'), password: 'raw-view-password-1' };

  const rows = (page: Page) => page.locator('.rd-table tbody tr.rd-row');

  async function claimed(tag: string, name: string): Promise<{ id: string; setupPassword: string; deviceKey: string }> {
    const device = await stack.provisionDevice(freshDeviceId(tag), 'ORB-C1', name);
    const claim = await demo('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword });
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);
    return device;
  }

  async function data(deviceid: string, query: string): Promise<DataResponse> {
    const answer = await demo<DataResponse>('GET', `/api/device/${deviceid}/data?${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  }

  /** What the table shows: its headers and, per row, the time's datetime and each cell's text. */
  async function shown(page: Page) {
    const headers = await page.locator('.rd-table thead th').allInnerTexts();
    const cells = await rows(page).evaluateAll((trs) =>
      trs.map((tr) =>
        Array.from(tr.querySelectorAll('td')).map((td, i) =>
          i === 0 ? (td.querySelector('time')?.getAttribute('datetime') ?? '') : (td.textContent ?? ''),
        ),
      ),
    );
    return { headers: headers.map((h) => h.trim()), cells };
  }

  /** The same from an API answer, by core's rules. */
  function expected(response: DataResponse, before: number | null) {
    const page = rawDataPage(response, RAW_DATA_PAGE, before);
    const events = page.rows.some((r) => r.events.length > 0);
    return {
      page,
      headers: ['Time', ...page.keys, ...(events ? ['Events'] : [])],
      cells: page.rows.map((r) => [
        new Date(r.ts * 1000).toISOString(),
        ...page.keys.map((k) => rawValueText(k, r.values[k]).text),
        ...(events ? [r.events.map((e) => e.msg).join(' · ')] : []),
      ]),
    };
  }

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    const device = await claimed('RAW', 'Raw Pump');
    source = device.id;
    target = (await claimed('RAI', 'Raw Target')).id;
    const newest = Math.floor(Date.now() / 1000) - 60;
    const records = Array.from({ length: RECORDS }, (_, i) => {
      const ts = newest - (RECORDS - 1 - i) * STEP;
      return {
        ts,
        vsys: Math.round((11.5 + (i % 20) * 0.1) * 100) / 100,
        state: i % 3 === 0 ? 'idle' : 'running',
        ign: i % 2 === 0,
        ...(i % 4 === 0 ? { serial1: SERIAL } : {}),
        ...(i % 10 === 0 ? { events: [{ topic: 'engine', msg: `Engine check ${i}`, lv: 12 }] } : {}),
      };
    });
    // Two messages, each well under the 64 kB a message may carry.
    const half = Math.ceil(RECORDS / 2);
    await stack.publish(device, records.slice(0, half));
    await stack.publish(device, records.slice(half));
    await stack.createVerifiedUser(viewer.email, viewer.password);
    const grant = await demo('POST', `/api/device/${source}/user`, {
      targetEmail: viewer.email,
      targetPermission: 'VIEW',
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it("writes a time one way, in the viewer's locale and zone with the zone, on Raw Data and the Data page alike (issue 32)", async () => {
    const style = { locale: 'en-GB', timeZone: 'Asia/Kolkata' };
    const page = await signedInPageOf(stack, contexts, DEMO, {
      context: { locale: style.locale, timezoneId: style.timeZone },
    });
    await page.goto(stack.url(`/raw/${source}`));
    const time = rows(page).first().locator('time');
    await time.waitFor();
    const ts = Date.parse((await time.getAttribute('datetime'))!);
    // In full with its zone; the long date and the UTC offset on hover (core formatDateTime, formatDateTimeWithOffset).
    const text = await time.innerText();
    expect(text).toBe(formatDateTime(ts, style));
    expect(text).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d:\d\d \S+$/);
    expect(await time.getAttribute('title')).toBe(formatDateTimeWithOffset(ts, style));
    expect(await time.getAttribute('title')).toContain('(GMT+05:30)');

    // The Data page writes the newest record's time the same way.
    await page.goto(stack.url(`/data/${source}`));
    const heading = page.locator('.dp-timeline-time');
    await heading.waitFor();
    expect(await heading.innerText()).toBe(text);
  });

  it('shows what GET /data answers, newest first, a page at a time, from the header button', async () => {
    const page = await signedInPageOf(stack, contexts);
    await page.goto(stack.url(`/data/${source}`));
    await page.getByRole('toolbar', { name: 'Device pages' }).getByRole('link', { name: 'Raw Data' }).click();
    await page.waitForURL(`**/raw/${source}`);
    await expect.poll(() => page.title()).toBe('Portal - Raw Pump: Raw Data');

    const first = expected(await data(source, `dataPoints=${RAW_DATA_PAGE}`), null);
    expect(first.page.rows.length).toBeGreaterThanOrEqual(RAW_DATA_PAGE);
    expect(first.page.olderThan).not.toBeNull();
    await expect.poll(() => rows(page).count()).toBe(first.page.rows.length);
    expect(await shown(page)).toEqual({ headers: first.headers, cells: first.cells });
    // Times in the viewer's zone with the UTC offset on hover; serial capture decoded, its base64 on hover.
    expect(await rows(page).first().locator('time').getAttribute('title')).toMatch(/GMT|UTC/);
    const serial = page.locator('.rd-value--serial').first();
    expect(await serial.innerText()).toBe('$GPGGA,1*4F\\x0D\\x0A');
    expect(await serial.getAttribute('title')).toBe(`base64: ${SERIAL}`);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The next older page: up to (not including) the oldest row shown.
    await page.getByRole('button', { name: /^Older/ }).click();
    const before = first.page.olderThan!;
    const second = expected(await data(source, `dataPoints=${RAW_DATA_PAGE}&toTime=${before}`), before);
    await expect.poll(async () => (await shown(page)).cells[0]?.[0]).toBe(second.cells[0]?.[0]);
    expect(await shown(page)).toEqual({ headers: second.headers, cells: second.cells });
    await page.getByRole('button', { name: 'Newer' }).click();
    await expect.poll(async () => (await shown(page)).cells).toEqual(first.cells);
  });

  it("opens a record's raw JSON from a click or from its time with Enter, and copies it", async () => {
    const page = await signedInPageOf(stack, contexts, DEMO, {
      context: { permissions: ['clipboard-read', 'clipboard-write'] },
    });
    await page.goto(stack.url(`/raw/${source}`));
    const first = expected(await data(source, `dataPoints=${RAW_DATA_PAGE}`), null);
    await expect.poll(() => rows(page).count()).toBe(first.page.rows.length);
    // A row with an event and serial capture.
    const index = first.page.rows.findIndex((r) => r.events.length > 0 && r.values.serial1 !== undefined);
    expect(index).toBeGreaterThanOrEqual(0);
    const row = first.page.rows[index]!;
    await rows(page).nth(index).locator('td').nth(1).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const json = JSON.parse(await dialog.locator('pre').innerText()) as unknown;
    expect(json).toEqual(JSON.parse(JSON.stringify(rawRecordJson(row))));
    expect((json as { serial1: string }).serial1).toBe(SERIAL);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByText('Copied.').waitFor();
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(json);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await rows(page).nth(1).getByRole('button').focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    expect(JSON.parse(await dialog.locator('pre').innerText())).toEqual(
      JSON.parse(JSON.stringify(rawRecordJson(first.page.rows[1]!))),
    );
  });

  it('exports the week as CSV through the page and imports it into another device through the page', async () => {
    const page = await signedInPageOf(stack, contexts, DEMO, { context: { acceptDownloads: true } });
    await page.goto(stack.url(`/raw/${source}`));
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
    await page.locator('.rd-range__preset .p-dropdown').click();
    await page
      .locator('.p-dropdown-panel .p-dropdown-item')
      .filter({ hasText: /^Last week$/ })
      .click();
    await page.getByRole('button', { name: 'Export' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export raw data' });
    await dialog.waitFor();
    expect(await dialog.getByLabel(/^CSV/).isChecked()).toBe(true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Raw Pump - raw data - \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d\.csv$/);
    await dialog.getByText(`(${RECORDS} records).`).waitFor();
    const file = (await download.path())!;
    const csv = parseCsv(readFileSync(file, 'utf8'));
    expect(csv[0]).toEqual(['ts', 'ign', 'serial1', 'state', 'vsys']);
    expect(csv).toHaveLength(RECORDS + 1);
    await dialog.locator('.rd-dialog__footer').getByRole('button', { name: 'Close' }).click();

    await page.goto(stack.url(`/raw/${target}`));
    await page.getByText('No Data Available').waitFor();
    await page.getByRole('button', { name: 'Import' }).click();
    const importing = page.getByRole('dialog', { name: 'Import records' });
    await importing.waitFor();
    await importing.getByLabel('File (CSV or JSON, as the export writes it)').setInputFiles(file);
    const preview = importing.getByRole('region', { name: 'Preview' });
    await preview.waitFor();
    expect(await preview.innerText()).toContain(`${RECORDS} records from`);
    expect(await preview.innerText()).toContain('4 keys: ign, serial1, state, vsys');
    expect(await preview.locator('tbody tr').count()).toBe(5);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await importing.getByRole('button', { name: `Import ${RECORDS} records` }).click();
    await importing.getByText(`Taken: ${RECORDS} records. Refused: 0 records.`).waitFor();
    await importing.locator('.rd-dialog__footer').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => rows(page).count()).toBe(RAW_DATA_PAGE);

    // The other device now holds the same records: every key's points, times and values, each
    // point saying it came by import (CARD-28), received when the import ran.
    const all = `dataPoints=1000&fromTime=0`;
    const [from, to] = [await data(source, all), await data(target, all)];
    expect(Object.values(to.data).flat()).toHaveLength(Object.values(from.data).flat().length);
    const valuesAndTimes = (series: DataResponse['data']) =>
      Object.fromEntries(Object.entries(series).map(([key, points]) => [key, points.map(({ v, ts }) => ({ v, ts }))]));
    expect(valuesAndTimes(to.data)).toEqual(valuesAndTimes(from.data));
    expect(new Set(Object.values(to.data).flatMap((points) => points.map((point) => point.source)))).toEqual(
      new Set(['import']),
    );
  });

  it('says what is wrong with a malformed file and imports nothing', async () => {
    const empty = (await claimed('RAB', 'Raw Empty')).id;
    const page = await signedInPageOf(stack, contexts);
    const imports: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/import')) imports.push(r.url());
    });
    await page.goto(stack.url(`/raw/${empty}`));
    await page.getByText('No Data Available').waitFor();
    await page.getByRole('button', { name: 'Import' }).click();
    const importing = page.getByRole('dialog', { name: 'Import records' });
    const input = importing.getByLabel('File (CSV or JSON, as the export writes it)');
    const ts = Math.floor(Date.now() / 1000);
    await input.setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`ts,level\r\n${ts},1\r\n${ts + 1},2,3\r\n`),
    });
    const problem = importing.getByRole('alert');
    await problem.waitFor();
    expect(await problem.innerText()).toBe('bad.csv: Row 3 has 3 fields; the header has 2. Nothing was imported.');
    expect(await importing.getByRole('button', { name: /^Import \d/ }).count()).toBe(0);
    await input.setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"records": [') });
    await importing.getByText('bad.json: The file is not valid JSON. Nothing was imported.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(imports).toEqual([]);
    expect((await data(empty, 'dataPoints=10')).data).toEqual({});
  });

  it('fits a phone: the table scrolls inside its wrapper, not the page; axe-clean', async () => {
    const page = await signedInPageOf(stack, contexts, DEMO, { viewport: PHONE });
    await page.goto(stack.url(`/raw/${source}`));
    await expect.poll(() => rows(page).count()).toBe(RAW_DATA_PAGE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const wrapper = page.locator('.rd-table .p-datatable-wrapper');
    expect(await wrapper.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('shows a VIEW user the records but no import (the server refuses it too)', async () => {
    const page = await signedInPageOf(stack, contexts, viewer);
    await page.goto(stack.url(`/raw/${source}`));
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: 'Export' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Import' }).count()).toBe(0);
    const refused = await page.evaluate(async (id) => {
      const answer = await fetch(`/api/device/${id}/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-requested-with': 'portal' },
        body: JSON.stringify({ records: [{ ts: Math.floor(Date.now() / 1000), vsys: 1 }] }),
      });
      return answer.status;
    }, source);
    expect(refused).toBe(403);
  });
});
