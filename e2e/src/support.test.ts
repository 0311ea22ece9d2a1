// The Support page in Chromium against the real server and its SMTP mailbox (issue 15; spec 1
// section 2, spec 2 section 7; ledger RTE-16, API-51, BRD-22; DESIGN.md section 5): from a device's
// page the navigation bar's Support opens /support/{deviceid}; an empty form is refused beside its
// fields and sends nothing; the request reaches the support address (SUPPORT_EMAIL's default) with
// the sender as Reply-To, the device's facts and, for its ADMIN, its recent server-log lines, and
// without the log for a USER of the device; the server refuses a bad body; /support without a device;
// on a brand that hides Plans the Basic plan's banner points to Support; axe-clean, no sideways
// scroll at 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { BRANDS, SUPPORT_MESSAGES, supportSentText } from '@portal/core';
import { DEFAULT_SUPPORT_EMAIL } from '../../apps/server/src/config';
import { chromiumAvailable, PHONE } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import type { ReceivedMail } from './mailbox';
import { DEMO, seriousAxeViolations, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
/** Records with a bad key: each writes a 'dropped' line in the device's server log. */
const DROPPED = 60;

describe.skipIf(!chromiumAvailable() && !required)('Support page', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let deviceid: string;
  const contexts: BrowserContext[] = [];
  const user = { email: uniqueEmail('support-user'), password: 'support-user-password-1' };

  /** The support address's mail whose subject line holds `subject`. */
  const supportMail = (subject: string) =>
    stack.mailbox.waitFor(DEFAULT_SUPPORT_EMAIL, (m) => m.raw.includes(`support] ${subject}`));
  const replyTo = (mail: ReceivedMail) => /^Reply-To: (.+)$/im.exec(mail.raw)?.[1]?.trim();
  const logLines = (mail: ReceivedMail) => mail.raw.split(/\r?\n/).filter((l) => / UTC {2}\[dropped\] {2}/.test(l));

  async function fillAndSend(page: Page, subject: string, message: string): Promise<void> {
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Message').fill(message);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('heading', { name: 'Request sent' }).waitFor();
  }

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    const device = await stack.provisionDevice(freshDeviceId('SUP'), 'ORB-C1', 'Support Pump');
    deviceid = device.id;
    expect((await demo('POST', `/api/device/${deviceid}/user`, { setupPassword: device.setupPassword })).status).toBe(
      200,
    );
    const t0 = Math.floor(Date.now() / 1000) - 3600;
    await stack.publish(
      device,
      Array.from({ length: DROPPED }, (_, i) => ({ ts: t0 + i * 60, vsys: 12.5, 'bad key!': i })),
    );
    await stack.createVerifiedUser(user.email, user.password);
    const grant = await demo('POST', `/api/device/${deviceid}/user`, {
      targetEmail: user.email,
      targetPermission: 'USER',
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it("an ADMIN's request from the device's page reaches the support address with its facts and server log", async () => {
    const page = await signedInPageOf(stack, contexts);
    await page.goto(stack.url(`/data/${deviceid}`));
    await page.locator('section.dp-reading').first().waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Support' }).click();
    await page.waitForURL(`**/support/${deviceid}`);
    await page.getByRole('heading', { level: 1, name: 'Support' }).waitFor();
    await expect.poll(() => page.title()).toBe('Portal - Support Pump: Support');
    const note = page.locator('.support__device');
    await expect.poll(() => note.innerText()).toMatch(/About Support Pump\s+SUP/);
    expect(await note.innerText()).toContain('its recent server log (the last 50 lines) is attached');

    // An empty form: both fields say what is missing, and nothing is sent.
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText(SUPPORT_MESSAGES.subjectRequired).waitFor();
    await page.getByText(SUPPORT_MESSAGES.messageRequired).waitFor();
    expect(await page.getByLabel('Subject').getAttribute('aria-invalid')).toBe('true');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await fillAndSend(page, 'Pump readings stopped', 'The pump stopped reporting at noon.\nPlease have a look.');
    await page.getByText(supportSentText(DEMO.email)).waitFor();
    expect(await page.locator('.support__sent').innerText()).toContain('recent server log (the last 50 lines)');
    expect(await seriousAxeViolations(page)).toEqual([]);

    const mail = await supportMail('Pump readings stopped');
    expect(mail.to).toEqual([DEFAULT_SUPPORT_EMAIL]);
    expect(replyTo(mail)).toBe(DEMO.email);
    expect(mail.raw).toContain(`[Portal support] Pump readings stopped (${deviceid})`);
    expect(mail.raw).toContain('The pump stopped reporting at noon.');
    for (const fact of [
      `Device ${deviceid}`,
      'Name: Support Pump',
      'Model: ORB-C1',
      'Firmware: SFW003-',
      'Plan: Trial',
      "Sender's role: ADMIN",
      'Recent server log (newest first, at most 50 lines):',
    ]) {
      expect(mail.raw).toContain(fact);
    }
    expect(mail.raw).toMatch(/Last contact: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    // The newest 50 of the 60 dropped records' lines (the device's other lines are newer still).
    expect(logLines(mail).length).toBeGreaterThan(0);
    expect(logLines(mail).length).toBeLessThanOrEqual(50);

    // Send another: a blank form again.
    await page.getByRole('button', { name: 'Send another request' }).click();
    expect(await page.getByLabel('Subject').inputValue()).toBe('');
  });

  it("a USER's request carries the device's facts without its server log", async () => {
    const page = await signedInPageOf(stack, contexts, user);
    await page.goto(stack.url(`/support/${deviceid.toLowerCase()}`));
    await page.waitForURL(`**/support/${deviceid}`);
    const note = page.locator('.support__device');
    await expect.poll(() => note.innerText()).toContain('Its server log is not attached');
    await fillAndSend(page, 'User question', 'Why is the pump slow?');
    const mail = await supportMail('User question');
    expect(replyTo(mail)).toBe(user.email);
    expect(mail.raw).toContain(`Device ${deviceid}`);
    expect(mail.raw).toContain("Sender's role: USER");
    expect(mail.raw).toContain('Server log: not attached');
    expect(mail.raw).not.toContain('Recent server log');
    expect(logLines(mail)).toEqual([]);
  });

  it('refuses bad bodies and devices that are not the sender’s, sending nothing', async () => {
    const before = stack.mailbox.mails.length;
    const blank = await demo<{ message: string }>('POST', '/api/support-request', { subject: ' ', message: 'x' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe(`subject: ${SUPPORT_MESSAGES.subjectRequired}`);
    const extra = await demo('POST', '/api/support-request', { subject: 'a', message: 'b', to: 'x@example.com' });
    expect(extra.status).toBe(400);
    const stranger = await demo<{ message: string }>('POST', '/api/support-request', {
      subject: 'a',
      message: 'b',
      deviceid: freshDeviceId('NONE'),
    });
    expect(stranger.status).toBe(404);
    expect(stranger.body.message).toBe('Device not found');
    expect((await demo('GET', '/api/groups')).status).toBe(200);
    expect(stack.mailbox.mails.length).toBe(before);

    // The page of a device that is not the user's says so, with the way to a request without it.
    const page = await signedInPageOf(stack, contexts, user);
    await page.goto(stack.url(`/support/${freshDeviceId('NONE')}`));
    await page.getByRole('heading', { name: 'Device not found' }).waitFor();
    await page.getByRole('link', { name: 'Contact support without a device' }).click();
    await page.waitForURL('**/support');
    await page.getByLabel('Subject').waitFor();
  });

  it('sends a request without a device from /support, and fits a phone', async () => {
    const page = await signedInPageOf(stack, contexts, user, { viewport: PHONE });
    await page.goto(stack.url('/support'));
    await page.getByRole('heading', { level: 1, name: 'Support' }).waitFor();
    expect(await page.locator('.support__device').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await fillAndSend(page, 'General question', 'How do I add a colleague?');
    const mail = await supportMail('General question');
    expect(mail.raw).toContain('No device named.');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  it("on a brand that hides Plans, a Basic device's banner points to Support", async () => {
    const basic = await stack.provisionDevice(freshDeviceId('SUPB'), 'ORB-C1', 'Basic Pump');
    expect((await demo('POST', `/api/device/${basic.id}/user`, { setupPassword: basic.setupPassword })).status).toBe(
      200,
    );
    await stack.ageDevice(basic.id, 91);
    const prefix = BRANDS['air-quality'].hostPrefix;
    expect(BRANDS['air-quality'].hidePlans).toBe(true);
    const context = await stack.browser.newContext({ bypassCSP: true });
    contexts.push(context);
    // Signed in on the brand's own host name (Chromium resolves *.localhost; the cookie is the host's).
    const page = await context.newPage();
    await page.goto(stack.url('/login', prefix));
    const login = await page.evaluate(
      async (credentials) =>
        (
          await fetch('/api/auth/login', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-requested-with': 'portal' },
            body: JSON.stringify(credentials),
          })
        ).status,
      DEMO,
    );
    expect(login).toBe(200);
    await page.goto(stack.url(`/data/${basic.id}`, prefix));
    const banner = page.locator('.dp-banner', { hasText: 'Basic plan' });
    const link = banner.getByRole('link', { name: 'Contact support' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/support/${basic.id}`);
    await link.click();
    await page.waitForURL(`**/support/${basic.id}`);
    // An ADMIN of a Basic device: Basic has no server log, so only the facts go.
    await expect.poll(() => page.locator('.support__device').innerText()).toContain('Its server log is not attached');
  });
});
