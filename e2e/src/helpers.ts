import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, vi } from 'vitest';
import type { BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import type { GroupResult } from '@portal/core';
import { DESKTOP } from './browser';
import { freshDeviceId, type Stack } from './harness';

export const DEMO = { email: 'demo@portal.local', password: 'demo-portal-2026' };

/** Fills the sign-in form and submits it. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Waits until the page shows the text. */
/**
 * Signs in through the API from the page itself, on `origin`'s host (a brand host such as
 * tank.localhost resolves in Chromium only), without the sign-in screen: the session cookie is
 * the page's.
 */
export async function signInFromPage(
  page: Page,
  origin: string,
  credentials: { email: string; password: string },
): Promise<void> {
  await page.goto(`${origin}/robots.txt`);
  const status = await page.evaluate(async (body) => {
    const answer = await fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'portal' },
      body: JSON.stringify(body),
    });
    return answer.status;
  }, credentials);
  if (status !== 200) throw new Error(`sign-in failed: ${status}`);
}

export async function expectText(page: Page, text: string | RegExp): Promise<void> {
  await page.getByText(text).first().waitFor({ state: 'visible' });
}

/**
 * A save's 'Success' dialog (ERR-06): it shows `message`, focus is on its OK button (also after a
 * dialog that closed as it opened handed focus back), and Escape closes it.
 */
export async function closeSuccess(page: Page, message: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Success' });
  await dialog.getByText(message, { exact: true }).waitFor();
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]')?.textContent ?? ''))
    .toContain(message);
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('OK');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
}

/** The path and query of the page's URL. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** Waits for the URL path (and query) to equal `expected`. */
export async function expectPath(page: Page, expected: string): Promise<void> {
  await page.waitForURL((url) => url.pathname + url.search === expected);
  expect(pathOf(page)).toBe(expected);
}

/** Waits until `check` answers something truthy, trying every 250 ms for at most `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Types a record key into a key field and closes its suggestions. They open 300 ms after typing,
 * over the field below; so this waits for them to list the key (typing again while the field's
 * known keys are still loading) and then closes them with Escape.
 */
export async function typeKey(page: Page, input: Locator, key: string): Promise<void> {
  const panel = page.locator('.p-autocomplete-panel');
  // The option is the key, or its name with the key in brackets.
  const k = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const option = panel.getByRole('option', { name: new RegExp(`^${k}$|\\(${k}\\)`) });
  await vi.waitFor(
    async () => {
      await input.fill(key);
      await option.first().waitFor({ timeout: 3_000 });
    },
    { timeout: 20_000, interval: 250 },
  );
  await input.press('Escape');
  await panel.waitFor({ state: 'hidden' });
}

/** axe-core's browser bundle, put into a page as a script. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical WCAG 2.1 A/AA violations on the page, or only within the element
 * `include` selects, one line each. The page's context needs bypassCSP: axe goes in as an inline script.
 */
export async function seriousAxeViolations(page: Page, include?: string): Promise<string[]> {
  // A dialog fading in has, for a moment, text fainter than it will be: axe looks once the page's
  // finite animations and transitions have ended (skeletons' endless shimmer aside); should some
  // never end, axe looks anyway and judges what is there.
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 5000 },
    )
    .catch(() => undefined);
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async (scope) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: unknown,
            opts: unknown,
          ) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(scope === null ? document : { include: [[scope]] }, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, include ?? null);
}

/** How {@link signedInPageOf} sets up its browser context. */
export interface SignedInPageOptions {
  viewport?: { width: number; height: number };
  /** More context options (time zone, downloads); viewport and bypassCSP are set already. */
  context?: BrowserContextOptions;
}

/**
 * A new page in its own browser context, signed in as `credentials`. The context goes into
 * `contexts` for the suite's afterAll to close. bypassCSP: axe goes in as an inline script,
 * which the portal's script-src 'self' would refuse.
 */
export async function signedInPageOf(
  stack: Stack,
  contexts: BrowserContext[],
  credentials: { email: string; password: string } = DEMO,
  { viewport = DESKTOP, context: options }: SignedInPageOptions = {},
): Promise<Page> {
  const context = await stack.browser.newContext({ ...options, viewport, bypassCSP: true });
  contexts.push(context);
  await stack.signInContext(context, credentials.email, credentials.password);
  return context.newPage();
}

type Api = ReturnType<Stack['apiClient']>;

/** Makes a group as the signed-in caller of `api` and answers its id. */
export async function makeGroup(api: Api, groupName: string): Promise<string> {
  const made = await api<GroupResult>('POST', '/api/group', { groupName });
  if (made.status !== 200) throw new Error(`group not made: ${JSON.stringify(made)}`);
  return made.body.groupid;
}

/** A new ORB-C1 device (id starting `tag`) added with its setup password into `groupid` by the caller of `api`. */
export async function deviceInGroup(
  stack: Stack,
  api: Api,
  groupid: string,
  tag: string,
  name: string,
): Promise<Awaited<ReturnType<Stack['provisionDevice']>>> {
  const device = await stack.provisionDevice(freshDeviceId(tag), 'ORB-C1', name);
  const claim = await api('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword, groupid });
  if (claim.status !== 200) throw new Error(`adding ${device.id} failed: ${JSON.stringify(claim)}`);
  return device;
}

/** RFC 4180: records of fields, quoted fields may hold commas, quotes (doubled) and line breaks. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || record.length > 0) throw new Error(`CSV does not end with CRLF: ${JSON.stringify(text)}`);
  return records;
}
