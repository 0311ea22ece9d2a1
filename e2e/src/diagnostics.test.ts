// The device's Diagnostics page in Chromium against the real server and a simulated device (issue
// 14; spec 2 sections 2, 6 and 7, 'Reference tables'; ledger SUB-18, SUB-19, REF-03, REF-04): a
// QUAD-C2 on the embedded MQTT broker whose engine reports a fault (SPN 100, FMI 1) in its DM1;
// the page, reached from the header, asks for 600 points and shows the fault's code with the
// parameter's name and the failure mode's text, the lamps, the newest diagnostics message and
// the bus message groups with their names; a USER reads it, an OPERATOR and a VIEW are refused
// (the page says so, the server answers 403); axe-clean, and no sideways scroll at 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { DiagnosticsResponse } from '@portal/core';
import { createDeviceModel, startFleet, type Fleet } from '../../apps/simulator/src/index';
import { chromiumAvailable, PHONE } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, seriousAxeViolations, signedInPageOf, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

/** A seed whose simulated QUAD-C2 starts with its engine running (a stopped engine sends no CAN frames). */
function runningSeed(): string {
  for (let i = 0; i < 200; i++) {
    const seed = `diag-${i}`;
    if (createDeviceModel('QUAD-C2', seed).sample(Date.now() / 1000).can1) return seed;
  }
  throw new Error('no seed starts with the engine running');
}

describe.skipIf(!chromiumAvailable() && !required)('device Diagnostics page', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let fleet: Fleet | undefined;
  let deviceid: string;
  const contexts: BrowserContext[] = [];
  const roles = {
    USER: { email: uniqueEmail('diag-user'), password: 'diag-user-password-1' },
    OPERATOR: { email: uniqueEmail('diag-operator'), password: 'diag-operator-password-1' },
    VIEW: { email: uniqueEmail('diag-view'), password: 'diag-view-password-1' },
  };

  const faultRows = (page: Page) => page.locator('.dg-faults tbody tr');

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    const device = await stack.provisionDevice(freshDeviceId('DIA'), 'QUAD-C2', 'Diag Loader');
    deviceid = device.id;
    expect((await demo('POST', `/api/device/${deviceid}/user`, { setupPassword: device.setupPassword })).status).toBe(
      200,
    );
    for (const [role, user] of Object.entries(roles)) {
      await stack.createVerifiedUser(user.email, user.password);
      const grant = await demo('POST', `/api/device/${deviceid}/user`, {
        targetEmail: user.email,
        targetPermission: role,
      });
      expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    }
    fleet = startFleet({
      devices: [{ id: device.id, key: device.deviceKey, model: 'QUAD-C2', seed: runningSeed() }],
      transport: 'mqtt',
      mqttUrl: stack.mqttUrl,
      httpUrl: stack.url(),
      baseInterval: 2,
      staggerMs: 0,
      diagEvery: 1,
    });
    // The engine's oil pressure sender fails: the engine controller reports SPN 100 FMI 1.
    fleet.devices[0]!.model.reportFault(100, 1);
    await until('the fault to reach the portal', async () => {
      const answer = await demo<DiagnosticsResponse>('GET', `/api/device/${deviceid}/diagnostics`);
      return answer.body.faults.some((f) => f.code === '100:1') && answer.body.diagnostics.length > 0;
    });
  });

  afterAll(async () => {
    await fleet?.stop();
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it("shows the engine's fault with its parameter's name and failure mode, from the header button, asking for 600 points", async () => {
    const page = await signedInPageOf(stack, contexts);
    await page.goto(stack.url(`/data/${deviceid}`));
    const request = page.waitForRequest((r) => r.url().includes(`/api/device/${deviceid}/diagnostics`));
    await page.getByRole('toolbar', { name: 'Device pages' }).getByRole('link', { name: 'Diagnostics' }).click();
    await page.waitForURL(`**/diag/${deviceid}`);
    expect(new URL((await request).url()).searchParams.get('dataPoints')).toBe('600');
    await expect.poll(() => page.title()).toBe('Portal - Diag Loader: Diagnostics');

    const row = faultRows(page).filter({ hasText: '100:1' });
    await row.waitFor();
    expect(await row.locator('td').allInnerTexts()).toEqual([
      '100:1',
      'Engine Oil Pressure',
      'Below normal (most severe)',
      'CAN 1, 0 (0x00)',
      expect.stringMatching(/^\d+$/),
      expect.any(String),
    ]);
    expect(await row.locator('time').getAttribute('title')).toMatch(/GMT|UTC/);
    // The bus message groups with their names: the engine's EEC1 (below the lookup's range) and DM1.
    const groups = page.locator('.dg-bus tbody tr');
    await groups.filter({ hasText: 'Electronic Engine Controller 1 (EEC1)' }).first().waitFor();
    expect(await groups.filter({ hasText: 'Active Diagnostic Trouble Codes (DM1)' }).count()).toBeGreaterThan(0);
    // The newest diagnostics message: the firmware the device reports, and its log lines.
    await page.locator('.dg-latest dt', { hasText: /^fw$/ }).waitFor();
    expect(await page.locator('.dg-latest .dg-log li').first().innerText()).toMatch(/^Modem registered/);
    expect(await page.locator('.dg-history tbody tr').count()).toBeGreaterThan(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('a fault that clears leaves the active list at the next report', async () => {
    fleet!.devices[0]!.model.clearFault(100, 1);
    await until('the fault to clear', async () => {
      const answer = await demo<DiagnosticsResponse>('GET', `/api/device/${deviceid}/diagnostics`);
      return !answer.body.faults.some((f) => f.code === '100:1');
    });
    const page = await signedInPageOf(stack, contexts);
    await page.goto(stack.url(`/diag/${deviceid}`));
    await page.locator('.dg-bus tbody tr').first().waitFor();
    expect(await faultRows(page).filter({ hasText: '100:1' }).count()).toBe(0);
  });

  it('fits a phone: no sideways scroll, axe-clean', async () => {
    const page = await signedInPageOf(stack, contexts, roles.USER, { viewport: PHONE });
    await page.goto(stack.url(`/diag/${deviceid}`));
    await page.locator('.dg-bus tbody tr').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it.each(['OPERATOR', 'VIEW'] as const)(
    'refuses an %s: the page says why and the server answers 403',
    async (role) => {
      const page = await signedInPageOf(stack, contexts, roles[role]);
      const answer = page.waitForResponse((r) => r.url().includes(`/api/device/${deviceid}/diagnostics`));
      await page.goto(stack.url(`/diag/${deviceid}`));
      expect((await answer).status()).toBe(403);
      const refusal = page.getByRole('alert').filter({ hasText: 'You do not have permission to do this.' });
      await refusal.waitFor();
      expect(await refusal.innerText()).toContain("Diagnostics are open to the device's administrators and users.");
      expect(await page.locator('.dg-faults').count()).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
    },
  );
});
