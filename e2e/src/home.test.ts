// Home, the group dashboard, in Chromium against the real server (spec 1 section 2 'Home' and 'Group view';
// ledger HOME-01..09, GRP-02..04, GRP-09, GRP-13, VIEW-27): the group choice, heading and title, the search box, the
// favourites and recent dialog, Add Device / Add Group / Subscriptions, the group's plan link, devices not in a
// group (issue 32), the table fitted to its rows, the default view's widgets, phone width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { BRANDS, DEFAULT_VIEW, GROUP_ID_PATTERN, GROUP_NAME_REQUIRED, STORAGE_KEYS, type BrandId } from '@portal/core';
import { chromiumAvailable, newPage, PHONE } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, expectPath, signIn, until } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

interface GroupAnswer {
  groupid: string;
  groupName: string;
}

describe.skipIf(!chromiumAvailable() && !required)('home: the group dashboard', () => {
  let stack: Stack;
  let yard: GroupAnswer;
  let vehicles: GroupAnswer;
  /** The demo account's groups as GET /groups lists them. */
  let groups: GroupAnswer[];
  let pump: { id: string; name: string };
  const contexts: BrowserContext[] = [];

  /** A page signed in (through the brand's own sign-in page), nothing from outside localhost. */
  async function signedInPage(
    opts: { email?: string; password?: string; brand?: BrandId; viewport?: { width: number; height: number } } = {},
  ): Promise<Page> {
    const { context, page } = await newPage(stack.browser, opts.viewport);
    contexts.push(context);
    await page.goto(stack.url('/login', BRANDS[opts.brand ?? 'default'].hostPrefix));
    await signIn(page, opts.email ?? DEMO.email, opts.password ?? DEMO.password);
    await page.waitForURL((url) => url.pathname === '/');
    return page;
  }

  const heading = (page: Page) => page.getByRole('heading', { level: 1 });
  const expectHeading = async (page: Page, name: string) => {
    await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
  };
  /** The default view's table shows the group's device. */
  const expectTableRow = async (page: Page, text: string) => {
    await page.locator('.widget-card').first().getByText(text).first().waitFor();
  };

  beforeAll(async () => {
    stack = await startStack();
    const demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    const create = async (groupName: string) => {
      const made = await demo<GroupAnswer>('POST', '/api/group', { groupName });
      expect(made.status).toBe(200);
      return { groupid: made.body.groupid, groupName };
    };
    yard = await create('North Yard');
    vehicles = await create('Vehicles');
    const device = await stack.provisionDevice(freshDeviceId('HOM'), 'ORB-C1', 'Yard Pump 1');
    pump = { id: device.id, name: 'Yard Pump 1' };
    const claim = await demo('POST', `/api/device/${device.id}/user`, {
      setupPassword: device.setupPassword,
      groupid: yard.groupid,
    });
    expect(claim.status).toBe(200);
    await stack.publish(device, { ts: Math.floor(Date.now() / 1000), gps_lat: -33.86, gps_lon: 151.2, vsys: 12.4 });
    const listed = await demo<GroupAnswer[]>('GET', '/api/groups');
    expect(listed.status).toBe(200);
    groups = listed.body;
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('with no history shows the first group: its name as heading, the title, the default view with the table (HOME-03, HOME-09)', async () => {
    const page = await signedInPage();
    const first = groups[0] as GroupAnswer;
    await expectHeading(page, first.groupName);
    await until('the title', async () => (await page.title()) === `Portal - ${first.groupName}`);
    const tab = page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: DEFAULT_VIEW.name });
    expect(await tab.getAttribute('aria-current')).toBe('page');
    await page.getByRole('heading', { level: 2, name: 'Devices', exact: true }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Map' }).waitFor();
    if (first.groupid === yard.groupid) await expectTableRow(page, pump.id);
    // The visit is recorded in the recent list ({id, name, ts}).
    const recent = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.recent);
    expect(JSON.parse(recent ?? '[]')).toEqual([expect.objectContaining({ id: first.groupid, name: first.groupName })]);
  });

  it('picks the most recent group: visit B, open /, B is shown (HOME-02); an unknown view shows the default view (HOME-04)', async () => {
    const page = await signedInPage();
    const other = groups[1] as GroupAnswer;
    await page.goto(stack.url(`/group/${other.groupid}/v-unknown1`));
    await expectHeading(page, other.groupName);
    const tab = page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: DEFAULT_VIEW.name });
    expect(await tab.getAttribute('aria-current')).toBe('page');
    await page.goto(stack.url('/'));
    await expectHeading(page, other.groupName);
    expect(await page.title()).toBe(`Portal - ${other.groupName}`);
    await page.goto(stack.url(`/group/${yard.groupid}`));
    await expectHeading(page, yard.groupName);
    await expectTableRow(page, pump.id);
    await page.goto(stack.url('/'));
    await expectHeading(page, yard.groupName);
  });

  it('Add Device goes to /{groupid}/add, Group Settings to /group/{groupid}/settings (HOME-07, GRP-09)', async () => {
    const page = await signedInPage();
    await page.goto(stack.url(`/group/${vehicles.groupid}`));
    await expectHeading(page, vehicles.groupName);
    expect(await page.getByRole('link', { name: 'Add Device' }).getAttribute('href')).toBe(`/${vehicles.groupid}/add`);
    await page.getByRole('link', { name: 'Group Settings' }).click();
    await expectPath(page, `/group/${vehicles.groupid}/settings`);
  });

  it('the search box finds a device by part of its name and a group by its name (HOME-05)', async () => {
    const page = await signedInPage();
    await expectHeading(page, (groups[0] as GroupAnswer).groupName);
    const search = page.getByRole('combobox', { name: 'Search devices and groups' });
    await search.pressSequentially('pump 1', { delay: 30 });
    const deviceOption = page.getByRole('option', { name: new RegExp(`Yard Pump 1.*${pump.id}`) });
    await deviceOption.waitFor();
    // Keyboard: Down highlights the first suggestion (the device), Enter chooses it.
    await search.press('ArrowDown');
    await search.press('Enter');
    await expectPath(page, `/data/${pump.id}`);
    const recent = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.recent);
    expect(JSON.parse(recent ?? '[]')[0]).toMatchObject({ id: pump.id, name: 'Yard Pump 1' });

    await page.goto(stack.url('/'));
    await search.waitFor();
    await search.pressSequentially('vehic', { delay: 30 });
    await page.getByRole('option', { name: new RegExp(`Vehicles.*${vehicles.groupid}`) }).click();
    await expectPath(page, `/group/${vehicles.groupid}`);
    await expectHeading(page, vehicles.groupName);
  });

  it('the star keeps the group in the favourites; the dialog lists favourites and recent, groups and devices (HOME-06)', async () => {
    const page = await signedInPage();
    await page.goto(stack.url(`/group/${yard.groupid}`));
    await expectHeading(page, yard.groupName);
    await page.getByRole('button', { name: `Add ${yard.groupName} to favourites` }).click();
    await page.getByRole('button', { name: `Remove ${yard.groupName} from favourites` }).waitFor();
    await page.goto(stack.url(`/data/${pump.id}`));
    await page.locator('section.dp-reading').first().waitFor();
    await page.goto(stack.url('/'));
    await page.getByRole('button', { name: 'Favourites', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Favourites' });
    await dialog.waitFor();
    const favourites = dialog.getByRole('region', { name: /^Favourites/ });
    const recent = dialog.getByRole('region', { name: /^Recent/ });
    await favourites.getByRole('link', { name: new RegExp(yard.groupName) }).waitFor();
    await recent.getByRole('link', { name: /Yard Pump 1/ }).waitFor();
    await recent.getByRole('link', { name: new RegExp(yard.groupName) }).waitFor();
  });

  it('Add Group: one field; empty shows the message and sends nothing; a name creates the group and goes to /{groupid}/add (GRP-02..04)', async () => {
    const page = await signedInPage();
    await expectHeading(page, (groups[0] as GroupAnswer).groupName);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/group') posts.push(request.url());
    });
    await page.getByRole('button', { name: 'Add Group' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Group' });
    await dialog.waitFor();
    expect(await dialog.locator('input, select, textarea').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Create Group' }).click();
    await dialog.getByText(GROUP_NAME_REQUIRED).waitFor();
    expect(posts).toEqual([]);

    await dialog.getByLabel('Group name').fill('Test');
    await dialog.getByRole('button', { name: 'Create Group' }).click();
    await page.waitForURL((url) => /^\/[A-Z0-9]{11}\/add$/.test(url.pathname));
    const groupid = new URL(page.url()).pathname.split('/')[1] ?? '';
    expect(groupid).toMatch(GROUP_ID_PATTERN);
    expect(posts).toHaveLength(1);
    const demo = stack.apiClient();
    await demo('POST', '/api/auth/login', DEMO);
    const mine = await demo<GroupAnswer[]>('GET', '/api/groups');
    expect(mine.body).toContainEqual(expect.objectContaining({ groupid, groupName: 'Test' }));
  });

  it('Subscriptions shows on the default brand and not on a brand that hides plans (HOME-08)', async () => {
    const page = await signedInPage();
    await expectHeading(page, (groups[0] as GroupAnswer).groupName);
    expect(await page.getByRole('link', { name: 'Subscriptions' }).getAttribute('href')).toBe('/subscriptions');

    expect(BRANDS.carbon.hidePlans).toBe(true);
    const carbon = await signedInPage({ brand: 'carbon' });
    await expectHeading(carbon, (groups[0] as GroupAnswer).groupName);
    await carbon.getByRole('link', { name: 'Add Device' }).waitFor();
    expect(await carbon.getByRole('link', { name: 'Subscriptions' }).count()).toBe(0);
  });

  it('a user with no groups sees the welcome panel, and Add Device goes to /add (HOME-01, HOME-07)', async () => {
    const email = uniqueEmail('home-fresh');
    const password = 'home-fresh-password-1';
    await stack.createVerifiedUser(email, password);
    const page = await signedInPage({ email, password });
    await page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
    await page.getByText('ask a group admin to add you to their group by e-mail').waitFor();
    const addLinks = page.getByRole('link', { name: 'Add Device' });
    expect(await addLinks.count()).toBeGreaterThan(0);
    for (const href of await addLinks.evaluateAll((els) => els.map((el) => el.getAttribute('href')))) {
      expect(href).toBe('/add');
    }
  });

  it('a new user who adds one device sees it on home without searching, before and after making a group (issue 32, HOME-01, HOME-03)', async () => {
    const email = uniqueEmail('home-new');
    const password = 'home-new-password-1';
    await stack.createVerifiedUser(email, password);
    const device = await stack.provisionDevice(freshDeviceId('NEW'), 'ORB-C1', 'First Pump');
    const page = await signedInPage({ email, password });
    await page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
    // Adds it the way a new user does: Add Device, no group.
    await page.getByRole('link', { name: 'Add Device' }).first().click();
    await expectPath(page, '/add');
    await page.getByLabel('Device ID').fill(device.id);
    await page.getByLabel('Setup password', { exact: true }).fill(device.setupPassword);
    await page.getByRole('button', { name: 'Add Device' }).click();
    await expectPath(page, `/data/${device.id}`);

    // Home: still the welcome panel (HOME-01), and under it the device, one click away.
    await page.goto(stack.url('/'));
    await page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
    await page.getByText('You are not in a group yet').waitFor();
    expect(await page.title()).toBe('Portal - Welcome');
    const list = page.getByRole('region', { name: /^Devices not in a group/ });
    const link = list.getByRole('link', { name: 'First Pump' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/data/${device.id}`);
    await list.getByText(device.id, { exact: true }).waitFor();
    await link.click();
    await expectPath(page, `/data/${device.id}`);

    // With a group of their own, home opens it (HOME-03) and the device is still one step away.
    await page.goto(stack.url('/'));
    await page.getByRole('button', { name: 'Add Group' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Group' });
    await dialog.getByLabel('Group name').fill('My Yard');
    await dialog.getByRole('button', { name: 'Create Group' }).click();
    await page.waitForURL((url) => /^\/[A-Z0-9]{11}\/add$/.test(url.pathname));
    await page.goto(stack.url('/'));
    await expectHeading(page, 'My Yard');
    await page.getByRole('heading', { level: 2, name: 'Devices', exact: true }).waitFor();
    const jump = page.getByRole('link', { name: '1 device not in a group' });
    await jump.click();
    const below = page.getByRole('region', { name: /^Devices not in a group/ });
    await below.getByRole('link', { name: 'First Pump' }).waitFor();
    expect(await below.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  });

  it('the group view has its own plan link to /plans beside its device count; the toolbar has no second Plans (VIEW-27)', async () => {
    const page = await signedInPage();
    await page.goto(stack.url(`/group/${yard.groupid}`));
    await expectHeading(page, yard.groupName);
    const main = page.getByRole('main');
    const plans = main.getByRole('link', { name: 'Compare plans' });
    expect(await plans.getAttribute('href')).toBe('/plans');
    await main.getByText('1 device', { exact: true }).waitFor();
    // The navigation bar keeps its Plans; the group's toolbar does not repeat it.
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Plans' }).count()).toBe(1);
    expect(await main.getByRole('link', { name: 'Plans', exact: true }).count()).toBe(0);
    await plans.click();
    await expectPath(page, '/plans');

    const carbon = await signedInPage({ brand: 'carbon' });
    await carbon.goto(stack.url(`/group/${yard.groupid}`, BRANDS.carbon.hostPrefix));
    await expectHeading(carbon, yard.groupName);
    await carbon.getByRole('main').getByText('1 device', { exact: true }).waitFor();
    expect(await carbon.getByRole('main').getByRole('link', { name: 'Compare plans' }).count()).toBe(0);
  });

  it('at 1280 x 800 the table fits its rows and the map starts above the fold (issue 32)', async () => {
    const page = await signedInPage();
    await page.goto(stack.url(`/group/${yard.groupid}`));
    await expectTableRow(page, pump.id);
    const cards = page.locator('.widget-card');
    const table = await cards.first().boundingBox();
    const map = await page.locator('.widget-card', { has: page.getByRole('heading', { name: 'Map' }) }).boundingBox();
    // The saved height is 12 rows (12 x 30.8 px and 11 gaps of 16): one device needs far fewer.
    expect(table?.height ?? Infinity).toBeLessThan(12 * 30.8 + 11 * 16 - 100);
    expect(map?.y ?? Infinity).toBeLessThan(800 - 100);
    // Every row shows, none cut off: the table's body does not scroll.
    const scrolls = await cards
      .first()
      .locator('.widget-card__body')
      .evaluate((el) => el.scrollHeight > el.clientHeight);
    expect(scrolls).toBe(false);
  });

  it('a group that is not the user’s shows the not-found state; a failed load shows the server message, else Error Loading Data (GRP-13)', async () => {
    const page = await signedInPage();
    await page.goto(stack.url('/group/NOSUCHGROUP'));
    await page.getByRole('heading', { level: 1, name: 'Group not found' }).waitFor();

    await page.route(`**/api/group/${vehicles.groupid}`, (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto(stack.url(`/group/${vehicles.groupid}`));
    await page.getByRole('alert').getByText('Error Loading Data').waitFor();
    await page.unroute(`**/api/group/${vehicles.groupid}`);

    await page.route(`**/api/group/${vehicles.groupid}`, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'Try later' }) }),
    );
    await page.goto(stack.url(`/group/${vehicles.groupid}`));
    await page.getByRole('alert').getByText('Try later').waitFor();
  });

  it('at phone width (390 px) the page itself does not scroll sideways', async () => {
    const page = await signedInPage({ viewport: PHONE });
    await page.goto(stack.url(`/group/${yard.groupid}`));
    await expectHeading(page, yard.groupName);
    await expectTableRow(page, pump.id);
    await page.getByRole('heading', { level: 2, name: 'Map' }).waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await heading(page).count()).toBe(1);
  });
});
