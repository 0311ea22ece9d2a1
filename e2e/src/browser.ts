import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { existsSync } from 'node:fs';

/** Debian's Chromium, the browser people run: benchmarks (Lighthouse, page timings) and screenshots by hand. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Chromium's headless shell (Debian's chromium-headless-shell: the same Chromium release, its
 * Blink and V8, without the windowed browser; what Playwright runs for headless tests by
 * default). The browser tests run in it where it is installed: it draws a page for about half
 * the CPU of `chromium --headless` (measured on layout.test.ts: 15 core-seconds against 33).
 * `.ci/run` installs it; without it the tests run in Chromium itself.
 */
export const HEADLESS_SHELL_PATH = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';

/** The browser the tests drive: the headless shell where installed, else Chromium. */
export const TEST_BROWSER_PATH = existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH;

/** True when Debian's Chromium (or its headless shell) is installed; CI installs both and sets REQUIRE_SERVICES=1. */
export function chromiumAvailable(): boolean {
  return existsSync(TEST_BROWSER_PATH);
}

/**
 * How tests and benchmarks start Chromium: headless, no sandbox, nothing fetched from elsewhere.
 * Every host but the local stack's fails to resolve, in Chromium's own network stack (IP literals
 * too): a request to a map tile server, say, fails at once. Pages used to be kept local by a
 * Playwright route on every context instead, which sent each request of the page to the test
 * process and back (12-18% of home.test.ts's CPU).
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE *.localhost, EXCLUDE 127.0.0.1',
];

/**
 * What the browser tests add: V8 runs the page's scripts without its optimising compilers
 * (Maglev, TurboFan), whose work a test page, open for seconds, seldom earns back (home.test.ts
 * 86-87 to 79-81 core-seconds, accessibility.test.ts 185 to 170). Benchmarks time pages as people
 * get them, so they keep V8's defaults.
 */
export const TEST_FLAGS: readonly string[] = ['--js-flags=--max-opt=1'];

/** Starts Chromium (the benchmarks' browser); the browser tests' harness passes TEST_BROWSER_PATH and TEST_FLAGS. */
export async function launchBrowser(
  executablePath = CHROMIUM_PATH,
  extraFlags: readonly string[] = [],
): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [...CHROMIUM_FLAGS, ...extraFlags],
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** A fresh context (own cookies and storage) with one page. */
export async function newPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  return { context, page };
}
