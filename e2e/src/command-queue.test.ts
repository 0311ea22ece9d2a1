// The command queue on the device Data page in Chromium against the real server (issue 14; spec 2
// section 7; ledger TRG-08, API-40, API-41, API-42): a trigger queued for an offline device shows
// queued in the panel, is cancelled there (confirmed), shows cancelled and the server lists it
// cancelled; the queue is not asked for again within 15 s of the last answer and is after that
// (the page's clock moved forward, no waiting); a VIEW user reads the queue without Cancel and the
// server refuses their cancel; axe-clean at 1280 and 390 px, no sideways scroll at 390.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  STALE_TIMES_MS,
  TRIGGER_COMMAND,
  commandCancelledMessage,
  type CommandView,
  type RpcListResponse,
} from '@portal/core';
import { chromiumAvailable, PHONE } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, closeSuccess, seriousAxeViolations, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
const PASSWORD = 'queue-viewer-password-1';

describe.skipIf(!chromiumAvailable() && !required)('device command queue', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let deviceid: string;
  const contexts: BrowserContext[] = [];
  const viewer = uniqueEmail('queue-viewer');

  const rowOf = (page: Page, commandID: number) => page.locator(`table.cq-table tr[data-command-id="${commandID}"]`);
  const queue = async () => (await demo<RpcListResponse>('GET', `/api/device/${deviceid}/rpc`)).body.commands;
  /** Queues a trigger through the API, as the trigger card does; the device has never connected, so it waits. */
  const queueTrigger = async (index: number) => {
    const queued = await demo<CommandView>('POST', `/api/device/${deviceid}/rpc`, {
      method: TRIGGER_COMMAND,
      args: { index },
    });
    expect(queued.status, JSON.stringify(queued.body)).toBe(200);
    expect(queued.body.state).toBe('queued');
    return queued.body.commandID;
  };
  const openQueue = async (page: Page) => {
    const toggle = page.getByRole('button', { name: 'Command queue' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
  };

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    const device = await stack.provisionDevice(freshDeviceId('CQ'), 'ORB-C1', 'Queue Pump');
    deviceid = device.id;
    expect((await demo('POST', `/api/device/${deviceid}/user`, { setupPassword: device.setupPassword })).status).toBe(
      200,
    );
    await stack.createVerifiedUser(viewer, PASSWORD);
    const grant = await demo('POST', `/api/device/${deviceid}/user`, { targetEmail: viewer, targetPermission: 'VIEW' });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('shows a queued trigger, cancels it after asking, and shows it cancelled as the server lists it', async () => {
    const commandID = await queueTrigger(0);
    const page = await signedInPageOf(stack, contexts);
    let asked = 0;
    page.on('request', (r) => {
      if (r.method() === 'GET' && r.url().includes(`/api/device/${deviceid}/rpc`)) asked += 1;
    });
    await page.goto(stack.url(`/data/${deviceid}`));
    const toggle = page.getByRole('button', { name: 'Command queue' });
    await toggle.waitFor();
    // Folded at first: the queue is not asked for until the card is opened.
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(asked).toBe(0);
    await openQueue(page);
    const row = rowOf(page, commandID);
    await row.waitFor();
    expect(await row.locator('td[data-label="Command"]').innerText()).toContain(TRIGGER_COMMAND);
    expect(await row.locator('td[data-label="Command"]').innerText()).toContain('{"index":0}');
    expect(await row.locator('td[data-label="State"]').innerText()).toBe('Queued');
    // Times in the viewer's zone with the UTC offset on hover; not sent, not delivered yet.
    expect(await row.locator('td[data-label="Queued"] time').getAttribute('title')).toMatch(/GMT|UTC/);
    expect(await row.locator('td[data-label="Sent"] time').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // API-41: Cancel asks first, then sends DELETE with the commandID.
    await row.getByRole('button', { name: `Cancel command ${commandID} ${TRIGGER_COMMAND}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel command' });
    await dialog.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    const sent = page.waitForRequest((r) => r.method() === 'DELETE' && r.url().includes(`/api/device/${deviceid}/rpc`));
    await dialog.getByRole('button', { name: 'Cancel command' }).click();
    expect((await sent).postDataJSON()).toEqual({ commandID });
    await closeSuccess(page, commandCancelledMessage(commandID));
    await expect.poll(() => row.locator('td[data-label="State"]').innerText()).toBe('Cancelled');
    expect(await row.getByRole('button', { name: /^Cancel command/ }).count()).toBe(0);
    expect((await queue()).find((c) => c.commandID === commandID)?.state).toBe('cancelled');
  });

  it('TRG-08: the queue is not asked for again within 15 s of the last answer, and is after that', async () => {
    const commandID = await queueTrigger(1);
    const page = await signedInPageOf(stack, contexts);
    let asked = 0;
    page.on('request', (r) => {
      if (r.method() === 'GET' && r.url().includes(`/api/device/${deviceid}/rpc`)) asked += 1;
    });
    await page.clock.install();
    await page.goto(stack.url(`/data/${deviceid}`));
    await openQueue(page);
    await rowOf(page, commandID).waitFor();
    expect(asked).toBe(1);

    // 14 s later: still fresh, so neither waiting nor folding and opening the card asks again.
    await page.clock.fastForward(STALE_TIMES_MS.rpcQueue - 1_000);
    expect(asked).toBe(1);
    const toggle = page.getByRole('button', { name: 'Command queue' });
    await toggle.click();
    await toggle.click();
    await rowOf(page, commandID).waitFor();
    expect(asked).toBe(1);

    // 15 s on from the card's opening, with a command still queued: asked again.
    await page.clock.fastForward(STALE_TIMES_MS.rpcQueue + 1_000);
    await expect.poll(() => asked).toBe(2);
    // The device is told nothing meanwhile: the command stays queued.
    expect((await queue()).find((c) => c.commandID === commandID)?.state).toBe('queued');
  });

  it('a VIEW user reads the queue without Cancel, and the server refuses their cancel', async () => {
    const commandID = (await queue()).find((c) => c.state === 'queued')?.commandID ?? (await queueTrigger(2));
    const page = await signedInPageOf(stack, contexts, { email: viewer, password: PASSWORD }, { viewport: PHONE });
    await page.goto(stack.url(`/data/${deviceid}`));
    await openQueue(page);
    const row = rowOf(page, commandID);
    await row.waitFor();
    expect(await row.locator('td[data-label="State"]').innerText()).toContain('Queued');
    expect(await page.getByRole('button', { name: /^Cancel command/ }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);

    const client = stack.apiClient();
    expect((await client('POST', '/api/auth/login', { email: viewer, password: PASSWORD })).status).toBe(200);
    const refused = await client('DELETE', `/api/device/${deviceid}/rpc`, { commandID });
    expect(refused.status).toBe(403);
    expect((await queue()).find((c) => c.commandID === commandID)?.state).toBe('queued');
  });
});
