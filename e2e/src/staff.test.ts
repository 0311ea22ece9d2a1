// The staff pages in Chromium against the real server (issue 16; spec 1 sections 1, 2 and 6, spec 2
// sections 6 and 7; ledger STAFF-01/03/04/06/11/12, RTE-31, API-61..67, DLG-30/31; DESIGN.md section
// 5 staff groups): a customer gets the not-found screen on every staff route, no Staff menu, and
// 403 on every staff call; a provisioning account lands on /sqprov from '/'; a staff admin finds a
// device from /sqadmin with the keyboard, changes its plan there (confirmed, with a reason) and
// sees it counted in /sqstats and its CSV; creates a distributor in /sqtools, assigns the device
// by pasting its id and sees the assignment on the device's page; and runs a distributor action
// ('Success' then a reload, 'Error' with the server's message).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { PAGE_NOT_FOUND_TEXT } from '@portal/core';
import { STAFF_USER } from '../../apps/server/src/seed';
import { chromiumAvailable } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, expectPath, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

describe.skipIf(!chromiumAvailable() && !required)('staff pages', () => {
  let stack: Stack;
  let deviceid: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stack = await startStack();
    const demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    const device = await stack.provisionDevice(freshDeviceId('STF'), 'QUAD-X2', 'Staff Pump');
    deviceid = device.id;
    expect((await demo('POST', `/api/device/${deviceid}/user`, { setupPassword: device.setupPassword })).status).toBe(
      200,
    );
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  /** The Hosted figure of /sqstats' 'Devices by plan' table. */
  async function hostedCount(page: Page): Promise<number> {
    const row = page.getByRole('region', { name: 'Devices by plan' }).getByRole('row').filter({ hasText: 'Hosted' });
    await row.waitFor();
    return Number((await row.getByRole('cell').nth(1).innerText()).trim());
  }

  it('a customer gets the not-found screen on every staff route and 403 on every staff call', async () => {
    const page = await signedInPageOf(stack, contexts);
    for (const path of [
      '/sqadmin',
      `/sqadmin/${deviceid}`,
      '/sqprov',
      `/sqprov/${deviceid}`,
      '/sqtools',
      '/sqstats',
      '/sqpacking',
    ]) {
      await page.goto(stack.url(path));
      await page.getByRole('heading', { name: PAGE_NOT_FOUND_TEXT }).waitFor();
      expect(await page.getByRole('button', { name: 'Staff' }).count(), path).toBe(0);
    }

    const demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    const id = deviceid;
    const deviceList = [id];
    const calls: [string, string, unknown?][] = [
      // provisioning
      ['POST', `/api/prov-portal-edit-device/${freshDeviceId('NOS')}`, { model: 'ORB-C1' }],
      ['GET', `/api/prov-portal-get-device/${id}`],
      ['GET', `/api/prov-portal-get-device-log/${id}`],
      ['POST', `/api/prov-portal-add-device-log/${id}`, { message: 'not staff' }],
      ['GET', `/api/prov-portal-get-device-label/${id}`],
      ['POST', `/api/prov-portal-run-test/${id}`, { method: 'selftest', fw: 'SFW003-1.0.0', provLockOverrideCode: '' }],
      ['POST', '/api/prov-portal-labels', { deviceList }],
      // billing staff calls and the packing slip
      ['POST', '/api/billing-update-plan', { deviceid: id, plan: 'Hosted' }],
      ['POST', '/api/billing-invoice-paid/1'],
      ['GET', `/api/billing-admin-device/${id}`],
      ['GET', '/api/billing-admin-stats'],
      ['POST', '/api/billing-packing-slip', { deviceList }],
      // distributors and staff administration
      ['GET', '/api/distributors'],
      ['POST', '/api/distributors', { id: 0, name: 'Nope', contactEmail: 'nope@example.com', country: 'AU' }],
      ['PUT', '/api/distributors', { id: 1, name: 'Nope', contactEmail: 'nope@example.com', country: 'AU' }],
      ['PUT', '/api/distributor-devices', { distributorId: 1, deviceList }],
      ['GET', '/api/staff/search?q=st'],
      ['GET', `/api/staff/device/${id}`],
      ['GET', '/api/staff/user/someone'],
      ['GET', '/api/outbox'],
    ];
    for (const [method, path, body] of calls) {
      const res = await demo<{ code?: string }>(method, path, body);
      expect({ call: `${method} ${path}`, status: res.status, code: res.body?.code }).toEqual({
        call: `${method} ${path}`,
        status: 403,
        code: 'FORBIDDEN',
      });
    }
  });

  it('a provisioning account lands on /sqprov from home', async () => {
    const prov = { email: uniqueEmail('staff-prov'), password: 'staff-prov-password-1' };
    await stack.createStaffUser(prov.email, prov.password, ['provisioning_account']);
    const page = await signedInPageOf(stack, contexts, prov);
    await page.goto(stack.url('/'));
    await page.waitForURL((url) => url.pathname === '/sqprov');
    await expectPath(page, '/sqprov');
  });

  it("staff change a device's plan in /sqadmin/{id} and see it counted in /sqstats and its CSV", async () => {
    const page = await signedInPageOf(stack, contexts, STAFF_USER, { context: { acceptDownloads: true } });
    await page.goto(stack.url('/sqstats'));
    const before = await hostedCount(page);

    // find the device with the keyboard: type, Arrow Down to the first result, Enter
    await page.getByRole('button', { name: 'Staff' }).click();
    await page.getByRole('link', { name: 'Admin' }).click();
    const search = page.getByLabel('Device or user');
    await search.fill(deviceid.toLowerCase());
    await page.locator('.staff-list__item', { hasText: deviceid }).waitFor();
    await search.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/sqadmin/${deviceid}`);
    await page.getByRole('heading', { level: 1, name: 'Staff Pump' }).waitFor();
    expect(await page.locator('.staff-header .staff-plan').innerText()).toBe('TRIAL');
    await page.getByRole('cell', { name: DEMO.email }).waitFor();

    await page.getByRole('button', { name: 'Change plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change plan' });
    await dialog.getByLabel('Hosted').check();
    await dialog.getByLabel(/Reason/).fill('Complimentary for the pilot');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm plan change' });
    expect(await confirm.innerText()).toContain(`Change ${deviceid} from Trial to Hosted?`);
    await confirm.getByRole('button', { name: 'Change to Hosted' }).click();
    const success = page.getByRole('dialog', { name: 'Success' });
    await success.getByText(`${deviceid} is now on the Hosted plan (was Trial).`).waitFor();
    await success.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => page.locator('.staff-header .staff-plan').innerText()).toBe('HOSTED');

    await page.getByRole('button', { name: 'Staff' }).click();
    await page.getByRole('link', { name: 'Statistics' }).click();
    await expect.poll(() => hostedCount(page)).toBe(before + 1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^portal-statistics-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv).toContain(`Hosted,${before + 1}\r\n`);
  });

  it('staff create a distributor, assign the device by pasting its id, and run distributor actions', async () => {
    const page = await signedInPageOf(stack, contexts, STAFF_USER);
    await page.goto(stack.url('/sqtools'));
    await page.getByRole('heading', { level: 1, name: 'Staff tools' }).waitFor();

    await page.getByRole('button', { name: 'New distributor' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New distributor' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByLabel('Name').fill('Red Centre Telemetry');
    await dialog.getByLabel('Contact e-mail').fill('sales@redcentre.example.com');
    await dialog.getByLabel('Country').fill('au');
    await dialog.getByText('Australia').waitFor();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('dialog', { name: 'Success' }).getByRole('button', { name: 'OK' }).click();
    await page.getByRole('cell', { name: 'Red Centre Telemetry', exact: true }).waitFor();

    await page.getByRole('region', { name: 'Assign devices' }).locator('.p-dropdown').click();
    await page.getByRole('option', { name: /Red Centre Telemetry/ }).click();
    await page.getByLabel('Device ids').fill(`${deviceid.toLowerCase()}\nnot-an-id`);
    await page.locator('.staff-hint--error', { hasText: 'NOT-AN-ID' }).waitFor();
    expect(await page.getByRole('button', { name: 'Assign' }).isDisabled()).toBe(true);
    await page.getByLabel('Device ids').fill(`${deviceid.toLowerCase()}\n`);
    await page.getByRole('button', { name: 'Assign' }).click();
    await page.getByText('1 device assigned to Red Centre Telemetry').waitFor();

    // a distributor action on an unknown device: 'Error' with the server's message (DLG-31)
    const actionId = page.getByLabel('Device id', { exact: true });
    await actionId.fill(freshDeviceId('NOP'));
    await page.getByRole('button', { name: 'Reset Trial' }).click();
    const error = page.getByRole('dialog', { name: 'Error' });
    await error.getByText('Device not found').waitFor();
    await error.getByRole('button', { name: 'OK' }).click();

    // on the device: 'Success' with the server's message, then the page reloads (DLG-30)
    await actionId.fill(deviceid);
    await page.getByRole('button', { name: 'Allow Add Without Password' }).click();
    const success = page.getByRole('dialog', { name: 'Success' });
    await success.waitFor();
    await Promise.all([page.waitForEvent('load'), success.getByRole('button', { name: 'OK' }).click()]);

    await page.goto(stack.url(`/sqadmin/${deviceid}`));
    const overview = page.getByRole('region', { name: 'Overview' });
    await overview.getByText('Red Centre Telemetry').waitFor();
    expect(await overview.innerText()).toContain(`assigned by ${STAFF_USER.email}`);
    await page
      .getByRole('region', { name: 'Distributor actions' })
      .getByText('Enabled: the next user added becomes Admin without the setup password.')
      .waitFor();
    await page
      .getByRole('region', { name: /^Server log/ })
      .getByText(/Assigned to distributor Red Centre Telemetry/)
      .waitFor();
  });
});
