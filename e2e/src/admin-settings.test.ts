// The admin settings of the Settings page in Chromium against the real server (issue 14; spec 2
// sections 4, 6, 7; ledger SUB-04, SUB-27, SUB-28, SUB-29, API-26, API-27, API-34, API-37, API-43,
// API-49): a device's ADMIN sees them and a USER does not (and the server refuses the USER's
// calls); the setup password shown; a firmware update names a firmware of the configured list; a
// file over 8 MB is refused in the page with nothing uploaded, a small one uploaded; the config
// exported and imported back is unchanged, a malformed file sends nothing; delete data needs the
// setup password and the typed device id; axe-clean at 1280 and 390 px with no sideways scroll.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { DEVICE_CONFIG_MESSAGES, DEVICE_FILE_MAX_BYTES, mergeDeviceConfig } from '@portal/core';
import { chromiumAvailable, PHONE } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, seriousAxeViolations, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

type ConfigView = { config: Record<string, unknown>; pending: Record<string, unknown> | null };

describe.skipIf(!chromiumAvailable() && !required)('admin settings on the Settings page', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let device: { id: string; setupPassword: string; deviceKey: string };
  const contexts: BrowserContext[] = [];
  const user = { email: uniqueEmail('admin-user'), password: 'admin-user-password-1' };

  const heading = (page: Page) => page.getByRole('heading', { name: 'Admin settings', level: 2 });
  const card = (page: Page, title: string) =>
    page.locator('section.as-card').filter({ has: page.getByRole('heading', { name: title, level: 3 }) });
  /** Every call the page makes to one of the device's admin paths. */
  const callsTo = (page: Page, path: string) => {
    const seen: Request[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === `/api/device/${device.id}/${path}`) seen.push(r);
    });
    return seen;
  };
  const adminPage = async (viewport?: { width: number; height: number }) => {
    const page = await signedInPageOf(stack, contexts, DEMO, {
      ...(viewport ? { viewport } : {}),
      context: { acceptDownloads: true },
    });
    await page.goto(stack.url(`/config/${device.id}`));
    await heading(page).waitFor();
    await card(page, 'Firmware update').getByText('Installed firmware').waitFor();
    return page;
  };

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    device = await stack.provisionDevice(freshDeviceId('ADM'), 'ORB-C1', 'Admin Pump');
    expect((await demo('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword })).status).toBe(
      200,
    );
    await stack.createVerifiedUser(user.email, user.password);
    const grant = await demo('POST', `/api/device/${device.id}/user`, {
      targetEmail: user.email,
      targetPermission: 'USER',
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it("shows an ADMIN the admin settings and the device's setup password (SUB-04, API-43)", async () => {
    const page = await adminPage();
    for (const title of [
      'Device passwords',
      'Firmware update',
      'File upload',
      'Config import and export',
      'Delete data',
      'Transfer data',
    ])
      await card(page, title).waitFor();
    const passwords = callsTo(page, 'passwords');
    await card(page, 'Device passwords').getByRole('button', { name: 'Show setup password' }).click();
    await expect.poll(() => page.getByTestId('setup-password').textContent()).toBe(device.setupPassword);
    expect(passwords).toHaveLength(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('shows a USER none of it, and the server refuses their firmware, file, passwords and delete calls (SUB-04)', async () => {
    const page = await signedInPageOf(stack, contexts, user);
    const config = page.waitForResponse((r) => r.url().endsWith(`/api/device/${device.id}/config`));
    await page.goto(stack.url(`/config/${device.id}`));
    expect((await config).status()).toBe(200);
    await expect
      .poll(() => page.locator('nav[aria-label="Breadcrumb"] li[aria-current="page"]').innerText())
      .toBe('Settings');
    await page.waitForLoadState('networkidle');
    expect(await heading(page).count()).toBe(0);
    expect(await page.locator('.as-card').count()).toBe(0);

    const api = stack.apiClient();
    expect((await api('POST', '/api/auth/login', user)).status).toBe(200);
    const refused = [
      await api('POST', `/api/device/${device.id}/firmware`, { firmwareName: 'SFW003-1.2.3' }),
      await api('PUT', `/api/device/${device.id}/file`, { fileName: 'a.bin', fileDataBase64: 'AAAA' }),
      await api('POST', `/api/device/${device.id}/passwords`, {}),
      await api('POST', `/api/device/${device.id}/delete-data`, { setupPassword: device.setupPassword }),
    ];
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    for (const r of refused) expect(JSON.stringify(r.body)).not.toContain(device.setupPassword);
  });

  it('requests a firmware update naming a firmware of the configured list (SUB-29, API-34)', async () => {
    const known = await demo<{ firmware: string[] }>('GET', '/api/firmware');
    expect(known.status).toBe(200);
    const page = await adminPage();
    const firmware = card(page, 'Firmware update');
    await firmware.locator('.as-dropdown').click();
    const items = page.locator('.p-dropdown-panel .p-dropdown-item');
    expect((await items.allInnerTexts()).map((t) => t.replace(/ \(installed\)$/, ''))).toEqual(known.body.firmware);
    const chosen = known.body.firmware.at(-1)!;
    await items.filter({ hasText: chosen }).click();
    await firmware.getByRole('button', { name: 'Update firmware' }).click();
    const dialog = page.getByRole('dialog', { name: 'Update firmware' });
    await dialog.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith(`/api/device/${device.id}/firmware`) && r.method() === 'POST'),
      dialog.getByRole('button', { name: 'Update firmware' }).click(),
    ]);
    expect(request.postDataJSON()).toEqual({ firmwareName: chosen });
    expect((await request.response())?.status()).toBe(200);
    await firmware
      .getByRole('status')
      .filter({ hasText: `Firmware update to ${chosen} queued` })
      .waitFor();
    const rpc = await demo<{ commands: { method: string; args: unknown }[] }>('GET', `/api/device/${device.id}/rpc`);
    expect(rpc.body.commands[0]).toMatchObject({ method: 'Admin.Firmware', args: { firmwareName: chosen } });
  });

  it('refuses a file over 8 MB in the page without uploading it, and uploads a small one with its progress', async () => {
    const page = await adminPage();
    const uploads = callsTo(page, 'file');
    const file = card(page, 'File upload');
    await file.locator('#admin-file-input').setInputFiles({
      name: 'big.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(DEVICE_FILE_MAX_BYTES + 1, 7),
    });
    await file.getByRole('alert').filter({ hasText: DEVICE_CONFIG_MESSAGES.fileTooLarge }).waitFor();
    expect(await file.getByRole('button', { name: 'Upload' }).isDisabled()).toBe(true);
    expect(uploads).toHaveLength(0);

    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 13) % 256));
    await file.locator('#admin-file-input').setInputFiles({
      name: 'table.bin',
      mimeType: 'application/octet-stream',
      buffer: bytes,
    });
    expect(await file.getByRole('alert').count()).toBe(0);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith(`/api/device/${device.id}/file`)),
      file.getByRole('button', { name: 'Upload' }).click(),
    ]);
    expect(request.method()).toBe('PUT');
    expect(request.headers()['x-requested-with']).toBe('portal');
    expect(request.postDataJSON()).toEqual({ fileName: 'table.bin', fileDataBase64: bytes.toString('base64') });
    await file.getByRole('status').filter({ hasText: 'table.bin uploaded' }).waitFor();
    expect(uploads).toHaveLength(1);
  });

  it('exports the config and imports it back unchanged; a malformed file sends nothing (SUB-28)', async () => {
    const before = await demo<ConfigView>('GET', `/api/device/${device.id}/config`);
    const exported = await demo<{ config: Record<string, unknown> }>(
      'GET',
      `/api/device/${device.id}/export?format=config`,
    );
    expect(exported.body.config).toEqual(before.body.config);

    const page = await adminPage();
    const imports = callsTo(page, 'import');
    const section = card(page, 'Config import and export');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: 'Export config' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${device.id}-config-\\d{4}-\\d\\d-\\d\\d\\.json$`));
    const path = (await download.path())!;
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(exported.body);

    const input = section.locator('#admin-config-file-input');
    await input.setInputFiles({
      name: 'broken.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"config": '),
    });
    await section.getByRole('alert').filter({ hasText: 'The file is not a JSON file.' }).waitFor();
    await input.setInputFiles({
      name: 'bogus.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ config: { settings: { gps: { interval: 'often' } } } })),
    });
    await section
      .getByRole('alert')
      .filter({ hasText: "The file's config is not valid: settings.gps.interval" })
      .waitFor();
    expect(await section.getByRole('button', { name: 'Import', exact: true }).count()).toBe(0);
    expect(imports).toHaveLength(0);

    await input.setInputFiles(path);
    await section.getByText(/no change to the device's config$/).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith(`/api/device/${device.id}/import`)),
      section.getByRole('button', { name: 'Import', exact: true }).click(),
    ]);
    expect(request.postDataJSON()).toEqual(exported.body);
    expect((await request.response())?.status()).toBe(200);
    await section.getByRole('status').filter({ hasText: 'Config imported.' }).waitFor();

    const after = await demo<ConfigView>('GET', `/api/device/${device.id}/config`);
    expect(after.body.config).toEqual(before.body.config);
    expect(mergeDeviceConfig(after.body.config, after.body.pending ?? {})).toEqual(before.body.config);
    expect((await demo('GET', `/api/device/${device.id}/export?format=config`)).body).toEqual(exported.body);
  });

  it('deletes data only with the setup password and the typed device id, showing the counts (SUB-27, API-49)', async () => {
    const t0 = Math.floor(Date.now() / 1000) - 600;
    await stack.publish(
      device,
      Array.from({ length: 3 }, (_, i) => ({ ts: t0 + i * 60, vsys: 12 + i })),
    );
    await expect
      .poll(
        async () =>
          Object.keys(
            (await demo<{ data?: Record<string, unknown> }>('GET', `/api/device/${device.id}/data?dataPoints=10`)).body
              .data ?? {},
          ).length,
      )
      .toBeGreaterThan(0);
    const page = await adminPage();
    const deletes = callsTo(page, 'delete-data');
    const section = card(page, 'Delete data');
    const button = section.getByRole('button', { name: 'Delete data' });
    expect(await button.isDisabled()).toBe(true);
    await section.getByLabel('Setup password', { exact: true }).fill('WRONGPW1');
    expect(await button.isDisabled()).toBe(true);
    await section.getByLabel(`Type ${device.id} to confirm`).fill('DELETE');
    expect(await button.isDisabled()).toBe(true);
    await section.getByLabel(`Type ${device.id} to confirm`).fill(device.id.toLowerCase());
    expect(await button.isDisabled()).toBe(false);
    await button.click();
    await section.getByRole('alert').filter({ hasText: 'Invalid setup password.' }).waitFor();
    expect(deletes).toHaveLength(1);
    expect(deletes[0]!.postDataJSON()).toEqual({ setupPassword: 'WRONGPW1' });

    await section.getByLabel('Setup password', { exact: true }).fill(device.setupPassword);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith(`/api/device/${device.id}/delete-data`)),
      button.click(),
    ]);
    expect(request.postDataJSON()).toEqual({ setupPassword: device.setupPassword });
    await section
      .getByRole('status')
      .filter({ hasText: /Deleted 3 records, / })
      .waitFor();
    expect(await button.isDisabled()).toBe(true);
  });

  it('fits a phone: no sideways scroll, axe-clean', async () => {
    const page = await adminPage(PHONE);
    await card(page, 'Transfer data').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
