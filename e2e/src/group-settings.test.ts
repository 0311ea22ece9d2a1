// Group settings and Add Device with a group, in Chromium against the real server and a real SMTP
// server (issue 12): a group gets a device through /{groupid}/add, is shared by e-mail (an
// invitation applied at sign-up, and an existing account's access mail), the member sees it with
// the right role, is demoted, and leaves (REMOVED_SELF); rename, devices moved, copied and
// removed, the server log only for ADMIN, delete, the load states, axe-core and phone width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  ERROR_LOADING_DATA,
  GROUP_MESSAGES,
  GROUP_NAME_REQUIRED,
  STORAGE_KEYS,
  type GroupResponse,
  type GroupSummary,
} from '@portal/core';
import { chromiumAvailable, DESKTOP, PHONE } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { closeSuccess, expectPath, expectText, makeGroup, seriousAxeViolations, signIn, until } from './helpers';
import { linkIn } from './mailbox';

const required = process.env.REQUIRE_SERVICES === '1';
const PASSWORD = 'group-settings-2026';

/** Waits until no skeleton or busy region is left. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .skeleton'));
}

describe.skipIf(!chromiumAvailable() && !required)('group settings', () => {
  let stack: Stack;
  const owner = { email: '', api: null as unknown as ReturnType<Stack['apiClient']> };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stack = await startStack();
    owner.email = uniqueEmail('group-owner');
    await stack.createVerifiedUser(owner.email, PASSWORD);
    owner.api = stack.apiClient();
    expect((await owner.api('POST', '/api/auth/login', { email: owner.email, password: PASSWORD })).status).toBe(200);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await stack?.close();
  });

  async function signedIn(email: string, viewport = DESKTOP, hostPrefix = ''): Promise<Page> {
    // bypassCSP: axe-core goes in as an inline script, which the portal's script-src 'self' refuses.
    const context = await stack.browser.newContext({ viewport, bypassCSP: true });
    contexts.push(context);
    const page = await context.newPage();
    if (hostPrefix === '') {
      const answer = await context.request.post(stack.url('/api/auth/login'), {
        headers: { 'x-requested-with': 'portal' },
        data: { email, password: PASSWORD },
      });
      expect(answer.status()).toBe(200);
      return page;
    }
    // A brand host (tank.localhost) only Chromium resolves: sign in on its own page, where its cookie belongs.
    await page.goto(stack.url('/login', hostPrefix));
    await signIn(page, email, PASSWORD);
    await page.waitForURL((url) => url.pathname === '/');
    return page;
  }

  /** Signs up and verifies through the API; the verification mail is found among the others (the invitation came first). */
  async function signUp(email: string): Promise<void> {
    const api = stack.apiClient();
    expect((await api('POST', '/api/auth/signup', { email, password: PASSWORD })).status).toBe(201);
    const mail = await stack.mailbox.waitFor(email, (m) => m.raw.includes('/verify/'));
    const code = new URL(linkIn(mail, '/verify/')).pathname.split('/').pop() ?? '';
    expect((await api('POST', `/api/auth/verify/${code}`)).status).toBe(200);
  }

  const createGroup = (groupName: string) => makeGroup(owner.api, groupName);

  const groupOf = async (groupid: string) =>
    (await owner.api<GroupResponse>('GET', `/api/group/${groupid}`)).body.deviceSummaries;

  /** The Dropdown of the row whose text holds `text`. */
  const levelIn = (page: Page, rowText: string) =>
    page.locator('tr', { hasText: rowText }).locator('.p-dropdown').first();

  async function chooseLevel(page: Page, rowText: string, level: string): Promise<void> {
    await levelIn(page, rowText).click();
    await pickOption(page, level);
  }

  /** Clicks an item of the open dropdown list (not PrimeReact's hidden native select). */
  async function pickOption(page: Page, text: string): Promise<void> {
    await page.locator('li[role="option"]', { hasText: new RegExp(`^${text}$`) }).click();
  }

  it('adds a device into a group through /{groupid}/add, shares the group by e-mail, and a member is demoted and leaves', async () => {
    const device = await stack.provisionDevice(freshDeviceId('GS'), 'ORB-C1', 'Pump 7');
    const page = await signedIn(owner.email);

    // The group is made with home's Add Group, which goes on to /{groupid}/add.
    await page.goto(stack.url('/'));
    await page.getByRole('button', { name: 'Add Group' }).click();
    await page.getByRole('dialog').getByLabel('Group name').fill('North Yard');
    await page.getByRole('button', { name: 'Create Group' }).click();
    await page.waitForURL((url) => /^\/[A-Z0-9]{11}\/add$/.test(url.pathname));
    const groupid = new URL(page.url()).pathname.split('/')[1] ?? '';

    // GRP-14: /{groupid}/add preselects the group; the device goes in (the owner becomes its ADMIN).
    await page.goto(stack.url(`/${groupid}/add`));
    await page.getByRole('heading', { name: 'Add Device' }).waitFor();
    await page.locator('.add-device__group input.p-dropdown-label').waitFor();
    await until('the group preselected', async () =>
      (await page.locator('.add-device__group input.p-dropdown-label').inputValue()) === 'North Yard' ? true : null,
    );
    await page.getByLabel('Device ID').fill(device.id);
    await page.getByLabel('Setup password', { exact: true }).fill(device.setupPassword);
    await page.getByRole('button', { name: 'Add Device' }).click();
    await expectPath(page, `/${groupid}/data/${device.id}`);
    expect(Object.keys(await groupOf(groupid))).toEqual([device.id]);

    // Members tab (tab index 1): share with an address that has no account (an invitation) ...
    await page.goto(stack.url(`/group/${groupid}/settings/1`));
    await page.getByRole('heading', { name: 'Share the group' }).waitFor();
    await settled(page);
    const invitee = uniqueEmail('group-invitee');
    await page.getByLabel('Email', { exact: true }).fill('someone@example.cm');
    await page.getByRole('button', { name: 'Share' }).click();
    await expectText(page, 'Please enter a valid e-mail address');
    await page.getByLabel('Email', { exact: true }).fill(invitee);
    await page.locator('.email-add__role .p-dropdown').click();
    await pickOption(page, 'USER');
    await page.getByRole('button', { name: 'Share' }).click();
    await closeSuccess(page, GROUP_MESSAGES.invited);
    await page.locator('tr', { hasText: invitee }).getByText('Invited').waitFor();
    const invitation = await stack.mailbox.waitFor(invitee);
    expect(invitation.raw).toContain('North Yard');
    expect(invitation.raw).toContain('/signup');

    // ... and with an existing account (the access mail links to the group).
    const operator = uniqueEmail('group-operator');
    await stack.createVerifiedUser(operator, PASSWORD);
    await page.getByLabel('Email', { exact: true }).fill(operator);
    await page.locator('.email-add__role .p-dropdown').click();
    await pickOption(page, 'OPERATOR');
    await page.getByRole('button', { name: 'Share' }).click();
    await closeSuccess(page, GROUP_MESSAGES.userAdded);
    const access = await stack.mailbox.waitFor(operator, (m) => m.raw.includes(`/group/${groupid}`));
    expect(access.raw).toContain('OPERATOR access');

    // GRP-06: each member row shows email, userID and permission.
    const ownerRow = page.locator('tr', { hasText: owner.email });
    await ownerRow.getByText('You').waitFor();
    expect(await page.locator('tr', { hasText: operator }).locator('td').nth(1).innerText()).toMatch(/\S+/);
    expect(await levelIn(page, operator).innerText()).toContain('OPERATOR');

    // The invitee signs up: the invitation is applied; they see the group and the device as USER.
    await signUp(invitee);
    const member = await signedIn(invitee);
    await member.goto(stack.url(`/group/${groupid}/settings/1`));
    await member.locator('tr', { hasText: invitee }).getByText('You').waitFor();
    expect(await member.locator('.gs-level-badge').innerText()).toBe('USER');
    // USER sees the members' e-mails but may not change them, and has no Server Log tab.
    await member.locator('tr', { hasText: operator }).waitFor();
    expect(await member.locator('.p-dropdown').count()).toBe(0);
    expect(await member.getByRole('tab', { name: 'Server Log' }).count()).toBe(0);
    await member.goto(stack.url(`/data/${device.id}`));
    await until('the device role USER', async () =>
      (await member.locator('.dp-permission').first().textContent())?.includes('USER') ? true : null,
    );

    // The owner demotes the member to VIEW.
    await page.reload();
    await settled(page);
    await chooseLevel(page, invitee, 'VIEW');
    await closeSuccess(page, GROUP_MESSAGES.userUpdated);
    await member.goto(stack.url(`/data/${device.id}`));
    await until('the device role VIEW', async () =>
      (await member.locator('.dp-permission').first().textContent())?.includes('VIEW') ? true : null,
    );

    // GRP-07: the member opens the group on home (it goes into recent), then Group Settings, and leaves.
    await member.goto(stack.url(`/group/${groupid}`));
    await member.getByRole('link', { name: 'Group Settings' }).click();
    await expectPath(member, `/group/${groupid}/settings`);
    const recentBefore = await member.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.recent);
    expect(JSON.parse(recentBefore ?? '[]')).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: groupid })]),
    );
    await member.getByRole('tab', { name: 'Members' }).click();
    expect(await member.locator('.gs-level-badge').innerText()).toBe('VIEW');
    let groupsAfterLeaving = 0;
    let left = false;
    member.on('request', (request) => {
      if (request.method() === 'DELETE' && request.url().endsWith(`/api/group/${groupid}/user`)) left = true;
      if (left && request.method() === 'GET' && request.url().endsWith('/api/groups')) groupsAfterLeaving += 1;
    });
    await member.getByRole('button', { name: 'Leave group' }).click();
    await member.getByRole('dialog').getByRole('button', { name: 'Leave group' }).click();
    await expectPath(member, '/');
    await until('GET /groups after leaving', async () => groupsAfterLeaving > 0);
    // Home shows the user without groups, never the group just left.
    await member.getByRole('heading', { name: 'Welcome' }).waitFor();
    expect(await member.getByText(GROUP_MESSAGES.notFound).count()).toBe(0);
    const recent = await member.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.recent);
    expect((JSON.parse(recent ?? '[]') as { id: string }[]).map((entry) => entry.id)).not.toContain(groupid);
    const memberGroups = await member.request.get(stack.url('/api/groups'));
    expect(((await memberGroups.json()) as GroupSummary[]).map((g) => g.groupid)).not.toContain(groupid);
  });

  it('renames, moves, copies and removes devices, shows the log only to ADMIN, and deletes the group', async () => {
    const first = await createGroup('Site A');
    const second = await createGroup('Site B');
    const one = await stack.provisionDevice(freshDeviceId('GS'), 'ORB-C1', 'Tank 1');
    const two = await stack.provisionDevice(freshDeviceId('GS'), 'ORB-C1', 'Tank 2');
    for (const d of [one, two]) {
      const added = await owner.api('POST', `/api/device/${d.id}/user`, {
        setupPassword: d.setupPassword,
        groupid: first,
      });
      expect(added.status).toBe(200);
    }
    const page = await signedIn(owner.email);

    // Name tab: the name rule of core, and no call for an empty name (GRP-03's rule).
    let puts = 0;
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().endsWith(`/api/group/${first}`)) puts += 1;
    });
    await page.goto(stack.url(`/group/${first}/settings`));
    await page.getByLabel('Group name').fill('  ');
    await page.getByRole('button', { name: 'Rename' }).click();
    await expectText(page, GROUP_NAME_REQUIRED);
    expect(puts).toBe(0);
    await page.getByLabel('Group name').fill('Site "A" North');
    await page.getByRole('button', { name: 'Rename' }).click();
    await closeSuccess(page, GROUP_MESSAGES.renamed);
    await page.locator('.page-subtitle', { hasText: 'Site A North' }).waitFor();
    expect(await page.title()).toContain('Site A North');

    // The server refuses what the rules forbid, and its message is shown: the last ADMIN stays.
    await page.getByRole('tab', { name: 'Members' }).click();
    await settled(page);
    await chooseLevel(page, owner.email, 'USER');
    await page.getByRole('dialog', { name: 'Error' }).getByText(GROUP_MESSAGES.lastAdmin).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Error' }).waitFor({ state: 'hidden' });
    await until('the level back at ADMIN', async () =>
      (await levelIn(page, owner.email).innerText()).includes('ADMIN') ? true : null,
    );

    // Devices tab: copy one to the second group, then move both there.
    await page.getByRole('tab', { name: 'Devices' }).click();
    await expectPath(page, `/group/${first}/settings/2`);
    await page.getByRole('checkbox', { name: 'Select Tank 1' }).check();
    await page.locator('.gs-target').click();
    await pickOption(page, 'Site B');
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await closeSuccess(page, GROUP_MESSAGES.devicesCopied);
    expect(Object.keys(await groupOf(second))).toEqual([one.id]);
    await page.getByRole('checkbox', { name: 'Select every device' }).check();
    expect(await page.locator('.gs-bulk__count').innerText()).toBe('2 selected');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await closeSuccess(page, GROUP_MESSAGES.devicesMoved);
    await expectText(page, 'This group has no devices yet.');
    expect(Object.keys(await groupOf(first))).toEqual([]);
    expect(Object.keys(await groupOf(second)).sort()).toEqual([one.id, two.id].sort());

    // In the second group: remove one, after a confirmation (Cancel changes nothing).
    await page.goto(stack.url(`/group/${second}/settings/2`));
    await page.getByRole('checkbox', { name: 'Select Tank 2' }).check();
    await page.getByRole('button', { name: 'Remove from group' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect(Object.keys(await groupOf(second))).toHaveLength(2);
    await page.getByRole('button', { name: 'Remove from group' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove from group' }).click();
    await closeSuccess(page, GROUP_MESSAGES.devicesRemoved);
    expect(Object.keys(await groupOf(second))).toEqual([one.id]);

    // Server Log (tab 3): every change and who made it.
    await page.goto(stack.url(`/group/${first}/settings/3`));
    await expectText(page, 'Renamed from Site A to Site A North');
    expect(await page.locator('.gs-table--log tr', { hasText: owner.email }).count()).toBeGreaterThan(0);

    // A VIEW member: no Server Log tab (tab 3 opens the first), nothing to change, and the server refuses the log.
    const viewer = uniqueEmail('group-viewer');
    await stack.createVerifiedUser(viewer, PASSWORD);
    expect(
      (await owner.api('POST', `/api/group/${first}/user`, { targetEmail: viewer, targetPermission: 'VIEW' })).status,
    ).toBe(200);
    const viewerPage = await signedIn(viewer);
    await viewerPage.goto(stack.url(`/group/${first}/settings/3`));
    await expectText(viewerPage, 'Only a group ADMIN can rename the group.');
    expect(await viewerPage.getByRole('tab', { name: 'Server Log' }).count()).toBe(0);
    expect(await viewerPage.getByRole('button', { name: 'Delete group' }).count()).toBe(0);
    expect((await viewerPage.request.get(stack.url(`/api/group/${first}/serverlog`))).status()).toBe(403);
    await viewerPage.getByRole('tab', { name: 'Members' }).click();
    await viewerPage.locator('tr', { hasText: viewer }).waitFor();
    expect(await viewerPage.getByRole('button', { name: 'Share' }).count()).toBe(0);
    expect(await viewerPage.getByText(owner.email).count()).toBe(0);

    // Delete the second group (its devices stay), then home.
    await page.goto(stack.url(`/group/${second}/settings`));
    await page.getByRole('button', { name: 'Delete group' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete group' }).click();
    await closeSuccess(page, GROUP_MESSAGES.deleted);
    await expectPath(page, '/');
    const groups = (await owner.api<GroupSummary[]>('GET', '/api/groups')).body.map((g) => g.groupid);
    expect(groups).toContain(first);
    expect(groups).not.toContain(second);
    expect((await owner.api('GET', `/api/device/${one.id}/settings`)).status).toBe(200);
  });

  it('says so when a device added with a group does not go in, and checks the group picker', async () => {
    // The owner holds the device; someone else with the label's password gets VIEW only, not the group.
    const device = await stack.provisionDevice(freshDeviceId('GS'), 'ORB-C1', 'Shared label');
    expect(
      (await owner.api('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword })).status,
    ).toBe(200);
    const other = uniqueEmail('group-other');
    await stack.createVerifiedUser(other, PASSWORD);
    const otherApi = stack.apiClient();
    await otherApi('POST', '/api/auth/login', { email: other, password: PASSWORD });
    const own = (await otherApi<{ groupid: string }>('POST', '/api/group', { groupName: 'Mine' })).body.groupid;

    const page = await signedIn(other);
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    // GRP-11: an unknown group id clears the selection with a warning.
    await page.goto(stack.url('/GZZZZZZZZZZ/add'));
    await until('the unknown-group warning', async () => warnings.some((w) => w.includes('GZZZZZZZZZZ')));
    expect(await page.locator('.add-device__group input.p-dropdown-label').inputValue()).toBe('');

    // GRP-10: typed text is upper-cased.
    await page.goto(stack.url('/add'));
    const picker = page.locator('.add-device__group input.p-dropdown-label');
    await picker.waitFor();
    await picker.pressSequentially('abc');
    expect(await picker.inputValue()).toBe('ABC');
    await page.getByLabel('Device ID').click();
    await until('the unknown text cleared', async () => ((await picker.inputValue()) === '' ? true : null));
    expect(warnings.some((w) => w.includes('ABC'))).toBe(true);

    await page.goto(stack.url(`/${own}/add`));
    await page.getByLabel('Device ID').fill(device.id);
    await page.getByLabel('Setup password', { exact: true }).fill(device.setupPassword);
    await page.getByRole('button', { name: 'Add Device' }).click();
    await expectPath(page, `/data/${device.id}`);
    await expectText(page, 'not to Mine: only a device ADMIN can put a device into a group');
    expect(Object.keys((await otherApi<GroupResponse>('GET', `/api/group/${own}`)).body.deviceSummaries)).toEqual([]);
  });

  it('shows the not-found and load-error states, passes axe-core, and fits a phone', async () => {
    const groupid = await createGroup('Checks');
    const device = await stack.provisionDevice(freshDeviceId('GS'), 'ORB-C1', 'Check device');
    await owner.api('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword, groupid });
    await owner.api('POST', `/api/group/${groupid}/user`, {
      targetEmail: uniqueEmail('pending'),
      targetPermission: 'USER',
    });

    for (const [viewport, hostPrefix] of [
      [DESKTOP, ''],
      [PHONE, 'tank.'],
    ] as const) {
      const page = await signedIn(owner.email, viewport, hostPrefix);
      for (const tab of ['', '/1', '/2', '/3']) {
        await page.goto(stack.url(`/group/${groupid}/settings${tab}`, hostPrefix));
        await page.locator('.p-tabview-panel').first().waitFor();
        await settled(page);
        expect(await seriousAxeViolations(page), `axe ${tab} at ${viewport.width}`).toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `overflow ${tab} at ${viewport.width}`).toBeLessThanOrEqual(0);
      }
      // The confirmation dialog too.
      await page.goto(stack.url(`/group/${groupid}/settings`, hostPrefix));
      await page.getByRole('button', { name: 'Delete group' }).click();
      await page.getByRole('dialog').waitFor();
      await page.waitForTimeout(400);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
    }

    const page = await signedIn(owner.email);
    await page.goto(stack.url('/group/GNOTAGROUP1/settings'));
    await expectText(page, GROUP_MESSAGES.notFound);
    // GRP-13: a failure without a message shows 'Error Loading Data'.
    await page.route(`**/api/group/${groupid}`, (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto(stack.url(`/group/${groupid}/settings`));
    await page.locator('.gs-load-error', { hasText: ERROR_LOADING_DATA }).waitFor({ timeout: 20_000 });
    // ... and the server's message when it sends one, once (in place, no toast on top).
    await page.unroute(`**/api/group/${groupid}`);
    await page.route(`**/api/group/${groupid}`, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Groups are resting"}' }),
    );
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.locator('.gs-load-error', { hasText: 'Groups are resting' }).waitFor({ timeout: 20_000 });
    expect(await page.getByText('Groups are resting').count()).toBe(1);
  });
});
