import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRANDS, BRAND_IDS } from '@portal/core';
import { chromiumAvailable, newPage, PHONE } from './browser';
import { startStack, type Stack } from './harness';
import { DEMO, expectText, signIn } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

/** The host prefix that opens a brand in the browser ('' for the default brand on localhost). */
const prefixOf = (id: (typeof BRAND_IDS)[number]) => BRANDS[id].hostPrefix;

describe.skipIf(!chromiumAvailable() && !required)('brands by host name', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it.each(BRAND_IDS)('%s: logo, style sheet, favicon and title come from the brand', async (id) => {
    const brand = BRANDS[id];
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login', prefixOf(id)));
    const logo = page.getByRole('img', { name: brand.name, exact: true }).first();
    await logo.waitFor();
    expect(await logo.getAttribute('src')).toBe(brand.mainBrandImg);
    const box = await logo.boundingBox();
    expect(Math.round(box?.height ?? 0)).toBe(brand.mainBrandHeight);
    expect(await page.locator(`link[rel="stylesheet"][href="${brand.style}"]`).count()).toBe(1);
    expect(await page.locator('link[rel~="icon"]').first().getAttribute('href')).toContain(brand.faviconPrefix);
    expect(await page.title()).toBe('Portal');
    await context.close();
  });

  it('paints the primary button in each brand colour', async () => {
    const colours = new Set<string>();
    for (const id of ['default', 'tank', 'carbon'] as const) {
      const { context, page } = await newPage(stack.browser);
      await page.goto(stack.url('/login', prefixOf(id)));
      const button = page.getByRole('button', { name: 'Sign in' });
      await button.waitFor();
      colours.add(await button.evaluate((el) => getComputedStyle(el).backgroundColor));
      await context.close();
    }
    expect(colours.size).toBe(3);
  });

  it("titles the development host 'Dev Portal'", async () => {
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login', 'dev.'));
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.title()).toBe('Dev Portal');
    await context.close();
  });

  it('shows the default footer with Terms of Service, hides it on a phone and on carbon, and shows tank its own text', async () => {
    const desktop = await newPage(stack.browser);
    await desktop.page.goto(stack.url('/login'));
    const terms = desktop.page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' });
    await terms.waitFor();
    expect(await terms.getAttribute('href')).toBe(BRANDS.default.termsOfServiceURL);
    expect(await desktop.page.getByRole('contentinfo').textContent()).toContain('©');
    await desktop.page.emulateMedia({ media: 'print' });
    expect(await desktop.page.getByRole('contentinfo').isVisible()).toBe(false);
    await desktop.context.close();

    const phone = await newPage(stack.browser, PHONE);
    await phone.page.goto(stack.url('/login'));
    await phone.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await phone.page.getByRole('contentinfo').isVisible()).toBe(false);
    await phone.context.close();

    const carbon = await newPage(stack.browser);
    await carbon.page.goto(stack.url('/login', 'carbon.'));
    await carbon.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await carbon.page.getByRole('contentinfo').count()).toBe(0);
    await carbon.context.close();

    const tank = await newPage(stack.browser);
    await tank.page.goto(stack.url('/login', 'tank.'));
    await expectText(tank.page, BRANDS.tank.footerText);
    await tank.context.close();
  });

  it.each([
    ['default', ['Plans', 'Support', 'Docs', 'Account', 'Logout']],
    ['tank', ['Plans', 'Support', 'Account', 'Logout']],
    ['carbon', ['Docs', 'Account', 'Logout']],
  ] as const)('%s: the signed-in navigation shows %j', async (id, expected) => {
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login', prefixOf(id)));
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect((await nav.getByRole('listitem').allInnerTexts()).map((t) => t.trim())).toEqual(['Signup', 'Login']);
    await signIn(page, DEMO.email, DEMO.password);
    await nav.getByRole('button', { name: 'Logout' }).waitFor();
    const items = (await nav.getByRole('listitem').allInnerTexts()).map((t) =>
      t.replace('(opens in a new tab)', '').trim(),
    );
    expect(items).toEqual(expected);
    if (id === 'default') {
      const docs = nav.getByRole('link', { name: /Docs/ });
      expect(await docs.getAttribute('target')).toBe('_blank');
    }
    await context.close();
  });

  it('offers no marketing e-mail opt-in on signup where the brand hides it', async () => {
    for (const [id, shown] of [
      ['default', 1],
      ['tank', 0],
    ] as const) {
      const { context, page } = await newPage(stack.browser);
      await page.goto(stack.url('/signup', prefixOf(id)));
      await page.getByRole('button', { name: 'Create account' }).waitFor();
      expect(await page.getByRole('checkbox').count()).toBe(shown);
      await context.close();
    }
  });
});
