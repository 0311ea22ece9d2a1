// The customer sub-brand logo in Chromium against the real server (spec 1 sections 1 and 3; ledger
// BRD-13; docs/decisions.md I-12: default and remote-monitoring allow a sub-brand): a staff admin
// opens a customer from /sqadmin and uploads their brand image there (a file refused in the browser
// by its size or its bytes sends nothing; a png is saved with the 'Success' dialog); the customer's
// navigation bar then shows it beside the brand's logo on the default and remote-monitoring brands,
// and not on tank; staff remove it and it is gone. The server's limits and guard: the server's
// test (apps/server/test/staff/user-brand-image.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { BRANDS, BRAND_IMAGE_MESSAGES, IMAGE_MAX_BYTES, type BrandId } from '@portal/core';
import { STAFF_USER } from '../../apps/server/src/seed';
import { chromiumAvailable, DESKTOP, PHONE } from './browser';
import { startStack, uniqueEmail, type Stack } from './harness';
import { closeSuccess, seriousAxeViolations, signInFromPage, signedInPageOf } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

/** A real 8 x 8 png (a blue square). */
const LOGO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGOQ9buBFTEMLQkAXtlQwTWdBQcAAAAASUVORK5CYII=',
  'base64',
);

describe.skipIf(!chromiumAvailable() && !required)('customer sub-brand logo (BRD-13)', () => {
  let stack: Stack;
  const contexts: BrowserContext[] = [];
  const customer = { email: uniqueEmail('sub-brand'), password: 'sub-brand-password-1' };

  beforeAll(async () => {
    stack = await startStack();
    await stack.createVerifiedUser(customer.email, customer.password);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  /** The customer signed in on `brand`'s host, at home. */
  async function customerOn(brand: BrandId, viewport = DESKTOP): Promise<Page> {
    const context = await stack.browser.newContext({ viewport, bypassCSP: true });
    contexts.push(context);
    const prefix = BRANDS[brand].hostPrefix;
    const page = await context.newPage();
    // A brand host such as tank.localhost resolves in Chromium only: signed in from the page.
    await signInFromPage(page, stack.url('', prefix), customer);
    await page.goto(stack.url('/', prefix));
    await page.locator('.nav-bar__brand').waitFor();
    await page
      .getByRole('button', { name: 'Logout' })
      .or(page.getByRole('button', { name: 'Open menu' }))
      .first()
      .waitFor();
    return page;
  }

  /** Staff's dialog of the customer, opened from /sqadmin's search. */
  async function customerDialog(page: Page) {
    await page.goto(stack.url(`/sqadmin?q=${encodeURIComponent(customer.email)}`));
    await page.getByRole('button', { name: new RegExp(customer.email.replace(/[.+]/g, '\\$&')) }).click();
    const dialog = page.getByRole('dialog', { name: customer.email });
    await dialog.getByRole('heading', { name: 'Brand image' }).waitFor();
    return dialog;
  }

  const subBrand = (page: Page) => page.locator('.nav-bar__brand img.nav-bar__sub-brand');

  it('staff upload it on the user page; files refused by size or bytes send nothing', async () => {
    const page = await signedInPageOf(stack, contexts, STAFF_USER);
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/brand-image')) puts.push(r.url());
    });
    const dialog = await customerDialog(page);
    expect(await dialog.getByText('No brand image').isVisible()).toBe(true);
    const file = dialog.locator('input[type="file"]');

    // Named .png, but an SVG by its bytes; a png over 300 kB.
    await file.setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    await dialog.getByRole('alert').getByText(BRAND_IMAGE_MESSAGES.type).waitFor();
    const big = Buffer.concat([LOGO_PNG, Buffer.alloc(IMAGE_MAX_BYTES + 1 - LOGO_PNG.length)]);
    await file.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big });
    await dialog.getByRole('alert').getByText(BRAND_IMAGE_MESSAGES.tooLarge).waitFor();
    expect(puts).toEqual([]);

    await file.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO_PNG });
    await closeSuccess(page, BRAND_IMAGE_MESSAGES.saved);
    expect(puts).toHaveLength(1);
    const preview = dialog.getByRole('img', { name: `Brand image of ${customer.email}` });
    await preview.waitFor();
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(8);
    expect(await dialog.getByRole('alert').count()).toBe(0);
    expect(await seriousAxeViolations(page, '.staff-dialog')).toEqual([]);
  });

  it.each([
    ['default', DESKTOP],
    ['remote-monitoring', PHONE],
  ] as const)('shows it in the navigation bar on %s (a brand with allowSubBrand)', async (brand, viewport) => {
    expect(BRANDS[brand].allowSubBrand).toBe(true);
    const page = await customerOn(brand, viewport);
    const logo = subBrand(page);
    await logo.waitFor();
    expect(await logo.getAttribute('src')).toMatch(/^\/api\/user\/[^/]+\/brand-image\?v=\d+$/);
    expect(await logo.getAttribute('alt')).toBe('Customer logo');
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(8);
    // Beside the brand's own logo, inside the bar, no sideways scroll.
    const bar = (await page.locator('.nav-bar').boundingBox())!;
    const box = (await logo.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(bar.y);
    expect(box.y + box.height).toBeLessThanOrEqual(bar.y + bar.height);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  it('does not show it on tank (a brand without allowSubBrand), though the session carries it', async () => {
    expect(BRANDS.tank.allowSubBrand).toBe(false);
    const page = await customerOn('tank');
    const session = await page.evaluate(async () => {
      const res = await fetch('/api/auth/session');
      return (await res.json()) as { user: { brandImageUrl: string | null } };
    });
    expect(session.user.brandImageUrl).toMatch(/brand-image\?v=\d+$/);
    await page.getByRole('img', { name: 'Tank', exact: true }).first().waitFor();
    expect(await subBrand(page).count()).toBe(0);
  });

  it('staff remove it: the customer no longer sees it', async () => {
    const page = await signedInPageOf(stack, contexts, STAFF_USER);
    const dialog = await customerDialog(page);
    await dialog.getByRole('button', { name: `Remove the brand image of ${customer.email}` }).click();
    await closeSuccess(page, BRAND_IMAGE_MESSAGES.removed);
    await dialog.getByText('No brand image').waitFor();
    const home = await customerOn('default');
    await home.getByRole('img', { name: BRANDS.default.name, exact: true }).first().waitFor();
    expect(await subBrand(home).count()).toBe(0);
  });
});
