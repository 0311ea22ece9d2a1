// The provisioning and packing pages in Chromium against the real server (issue 16; spec 2 section
// 7; ledger STAFF-02, STAFF-05, STAFF-07..10, API-52..57, API-64; DESIGN.md section 5 'Device
// labels'): staff provision a batch of 3 devices in /sqprov's batch mode and download their labels
// (one PDF of 3 pages; a label PNG's QR code decodes to the add link); a customer opens that link
// and adds the device with its setup password; a provisioning test run from /sqprov/{id} shows in
// the device's log with an entry staff add; /sqpacking makes the packing slip of the batch.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { PUBLIC_ADDRESS_MESSAGES } from '@portal/core';
import { STAFF_USER } from '../../apps/server/src/seed';
import { PHONE, chromiumAvailable } from './browser';
import { freshDeviceId, startStack, type Stack } from './harness';
import { DEMO, expectPath, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
const run = promisify(execFile);

/** pdfinfo's page count and pdftotext's text of a PDF file (poppler-utils). */
async function readPdf(path: string): Promise<{ pages: number; text: string }> {
  const info = (await run('pdfinfo', [path])).stdout;
  const text = (await run('pdftotext', ['-layout', path, '-'])).stdout;
  return { pages: Number(/^Pages:\s*(\d+)/m.exec(info)?.[1]), text };
}

interface Made {
  id: string;
  setupPassword: string;
}

describe.skipIf(!chromiumAvailable() && !required)('provisioning and packing', () => {
  let stack: Stack;
  let staff: Page;
  let batch: Made[] = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stack = await startStack();
    staff = await signedInPageOf(stack, contexts, STAFF_USER, { context: { acceptDownloads: true } });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  /** Failed API answers (status 400 and up) and console errors of a page, from now on. */
  function failuresOf(page: Page): { answers: string[]; console: string[] } {
    const seen = { answers: [] as string[], console: [] as string[] };
    page.on('response', (r: Response) => {
      if (r.url().includes('/api/') && r.status() >= 400) seen.answers.push(`${r.status()} ${r.url()}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') seen.console.push(m.text());
    });
    return seen;
  }

  it('provisions a batch of 3 in /sqprov, downloads their labels as one 3-page PDF, and a label QR code opens the add link', async () => {
    const failures = failuresOf(staff);
    await staff.goto(stack.url('/sqprov'));
    await staff.getByRole('button', { name: 'Batch' }).click();
    await staff.getByLabel('Number of devices').fill('3');
    await staff.getByLabel('Id prefix (optional)').fill('E2EP');
    await staff.getByRole('button', { name: 'Provision batch' }).click();
    await staff.getByText('Done: 3 of 3 created.').waitFor();
    // This stack has no PUBLIC_URL: beside the label buttons, the page says the QR codes open localhost.
    await staff.getByText(PUBLIC_ADDRESS_MESSAGES.labelWithoutPublicUrl).waitFor();

    const rows = staff.locator('.prov-table tbody tr');
    expect(await rows.count()).toBe(3);
    batch = [];
    for (let i = 0; i < 3; i += 1) {
      const cells = await rows.nth(i).locator('td').allInnerTexts();
      batch.push({ id: cells[1]!.trim(), setupPassword: cells[2]!.trim() });
    }
    for (const d of batch) expect(d.id).toMatch(/^E2EP[A-Z0-9]{5}$/);
    // Each new id was checked with a question that answers 200 (issue 32): no 404, no console error.
    expect(failures).toEqual({ answers: [], console: [] });

    const [pdf] = await Promise.all([
      staff.waitForEvent('download'),
      staff.getByRole('button', { name: 'Labels PDF' }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe(`labels-3-${batch[0]!.id}.pdf`);
    const labels = await readPdf((await pdf.path())!);
    expect(labels.pages).toBe(3);
    for (const d of batch) {
      expect(labels.text).toContain(d.id);
      expect(labels.text).toContain(d.setupPassword);
    }

    // the PNG label of the first device, fetched with the staff session as the page does
    const png = await staff.request.get(stack.url(`/api/prov-portal-get-device-label/${batch[0]!.id}?format=png`));
    expect(png.headers()['content-type']).toBe('image/png');
    const image = PNG.sync.read(await png.body());
    const qr = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
    expect(qr?.data).toBe(stack.url(`/add?device=${batch[0]!.id}`));

    // a customer opens the link the QR code holds and adds the device with the setup password
    const customer = await signedInPageOf(stack, contexts, DEMO);
    await customer.goto(qr!.data);
    await customer.getByRole('heading', { name: 'Add Device' }).waitFor();
    expect(await customer.getByLabel('Device ID').inputValue()).toBe(batch[0]!.id);
    await customer.getByLabel('Setup password', { exact: true }).fill(batch[0]!.setupPassword);
    await customer.getByRole('button', { name: 'Add Device' }).click();
    await expectPath(customer, `/data/${batch[0]!.id}`);
  });

  it('runs a provisioning test from /sqprov/{id} and sees it in the log, with an entry staff add', async () => {
    const id = batch[1]!.id;
    await staff.goto(stack.url('/sqprov'));
    const find = staff.getByRole('search', { name: 'Find a device' });
    await find.getByLabel('Device ID').fill(id.toLowerCase());
    await find.getByRole('button', { name: 'Open' }).click();
    await expectPath(staff, `/sqprov/${id}`);
    const log = staff.getByRole('list', { name: 'Provisioning log entries' });
    await log.getByText('Label downloaded').waitFor();

    await staff.getByLabel('Test', { exact: true }).fill('SelfTest');
    await staff.getByRole('button', { name: 'Run test' }).click();
    await staff.getByTestId('prov-test-queued').getByText('Prov.RunTest').waitFor();
    await log.getByText(/^Test requested: SelfTest on SFW003-1\.0\.0 \(command \d+\)$/).waitFor();

    await staff.getByLabel('New entry').fill('Packed in carton 7');
    await staff.getByRole('button', { name: 'Add entry' }).click();
    await log.getByText('Packed in carton 7').waitFor();
    expect(await log.locator('.prov-log__message').first().innerText()).toBe('Packed in carton 7');
  });

  it('creates one device: its 9-character id shows whole in the field at 1280 and 390 px, and the existence check answers 200 (issue 32)', async () => {
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      const page = await signedInPageOf(stack, contexts, STAFF_USER, { viewport });
      const failures = failuresOf(page);
      const checks: number[] = [];
      page.on('response', (r: Response) => {
        if (r.url().includes('/api/prov-portal-device-exists/')) checks.push(r.status());
      });
      await page.goto(stack.url('/sqprov'));
      const form = page.getByRole('form', { name: 'Create a device' });
      const field = form.getByLabel('Device ID');
      const id = freshDeviceId('WID');
      await field.fill(id);
      // All nine characters are in view: the text is no wider than the field's inside.
      const fits = await field.evaluate((input: HTMLInputElement) => input.scrollWidth <= input.clientWidth);
      expect(fits, `the id field at ${viewport.width} px`).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await form.getByRole('button', { name: 'Create device' }).click();
      await page.getByRole('heading', { name: `Device ${id} created` }).waitFor();
      expect(checks).toEqual([200]);
      expect(failures).toEqual({ answers: [], console: [] });

      // The same id again: the check answers 200 with exists true, and the form says so.
      await page.getByRole('button', { name: /another/i }).click();
      await form.getByLabel('Device ID').fill(id);
      await form.getByRole('button', { name: 'Create device' }).click();
      await page.getByText(`A device with the id ${id} exists already.`).waitFor();
      expect(checks).toEqual([200, 200]);
      expect(failures).toEqual({ answers: [], console: [] });
    }
  });

  it('STAFF-08: remounting /sqprov/{id} shows the cached provisioning log, with no automatic refetch', async () => {
    const id = batch[2]!.id;
    const logCalls: string[] = [];
    staff.on('request', (r) => {
      if (r.url().includes(`/api/prov-portal-get-device-log/${id}`)) logCalls.push(r.url());
    });
    await staff.goto(stack.url(`/sqprov/${id}`));
    const log = staff.getByRole('list', { name: 'Provisioning log entries' });
    await log.locator('.prov-log__entry').first().waitFor();
    expect(logCalls).toHaveLength(1);

    // Away to /sqprov and back, inside the app: the page mounts anew.
    await staff.locator('.prov-back').click();
    await staff.getByRole('heading', { level: 1, name: 'Provisioning' }).waitFor();
    const find = staff.getByRole('search', { name: 'Find a device' });
    await find.getByLabel('Device ID').fill(id);
    // The device record (never cached for long) is asked again on the same mount the log would be.
    const record = staff.waitForResponse((r) => r.url().endsWith(`/api/prov-portal-get-device/${id}`));
    await find.getByRole('button', { name: 'Open' }).click();
    await expectPath(staff, `/sqprov/${id}`);
    expect((await record).status()).toBe(200);
    await log.locator('.prov-log__entry').first().waitFor();
    expect(logCalls).toHaveLength(1);
    // Focus and going online again (react-query's other refetch triggers) do not refetch it either.
    await staff.evaluate(() => {
      document.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('focus'));
      window.dispatchEvent(new Event('online'));
    });

    // Refresh reads it again, on request: the one call after the first.
    const refreshed = staff.waitForResponse((r) => r.url().includes(`/api/prov-portal-get-device-log/${id}`));
    await staff.getByRole('button', { name: 'Refresh' }).click();
    expect((await refreshed).status()).toBe(200);
    expect(logCalls).toHaveLength(2);
  });

  it('makes the packing slip of the batch in /sqpacking', async () => {
    await staff.goto(stack.url('/sqpacking'));
    await staff.getByLabel('Device IDs').fill(batch.map((d) => d.id.toLowerCase()).join(',\n'));
    await staff.getByText('3 devices').waitFor();
    await staff.getByLabel('Reference (optional)').fill('PO-E2E-16');
    await staff.getByLabel('Ship to (optional)').fill('Acme Mining\n12 Quarry Road');
    const [slip] = await Promise.all([
      staff.waitForEvent('download'),
      staff.getByRole('button', { name: 'Generate packing slip' }).click(),
    ]);
    expect(slip.suggestedFilename()).toMatch(/^packing-slip-\d{4}-\d\d-\d\d\.pdf$/);
    const { pages, text } = await readPdf((await slip.path())!);
    expect(pages).toBe(1);
    for (const d of batch) expect(text).toMatch(new RegExp(`${d.id}\\s+ORB-C1\\s+SFW003-1\\.0\\.0`));
    expect(text).toContain('PO-E2E-16');
    expect(text).toContain('Total: 3 devices');
  });
});
