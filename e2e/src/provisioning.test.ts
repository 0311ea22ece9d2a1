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
import type { BrowserContext, Page } from 'playwright-core';
import { PUBLIC_ADDRESS_MESSAGES } from '@portal/core';
import { STAFF_USER } from '../../apps/server/src/seed';
import { chromiumAvailable } from './browser';
import { startStack, type Stack } from './harness';
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

  it('provisions a batch of 3 in /sqprov, downloads their labels as one 3-page PDF, and a label QR code opens the add link', async () => {
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
