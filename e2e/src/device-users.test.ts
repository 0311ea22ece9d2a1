// The device's Users and Permissions page in Chromium against the real server (issue 14; spec 2
// sections 2, 3, 6 and 7; ledger SUB-14..SUB-17 (SUB-16: targetEmail), API-19..API-23, HDR-13): an ADMIN adds a user by
// e-mail, changes their role and removes them (confirmed, each answered by the 'Success' dialog with
// the server's message (ERR-06), the server agreeing);
// a member of the device's group shows with the group's name and a link to its settings; the last
// ADMIN can be neither removed nor demoted; a USER reads the list without edit controls and the
// server refuses their POST; an OPERATOR and a VIEW are blocked (page text and the server's 403);
// the page asks with flattenGroups; axe-clean at 1280 and 390 px, no sideways scroll at 390.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { DEVICE_MESSAGES, type DevicePermissionsResponse } from '@portal/core';
import { chromiumAvailable, PHONE } from './browser';
import { startStack, uniqueEmail, type Stack } from './harness';
import {
  DEMO,
  closeSuccess,
  deviceInGroup,
  expectText,
  makeGroup,
  seriousAxeViolations,
  signedInPageOf,
} from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';
const PASSWORD = 'users-page-password-1';
const GROUP_NAME = 'Yard Crew';

describe.skipIf(!chromiumAvailable() && !required)('device Users and Permissions page', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let deviceid: string;
  let groupid: string;
  const contexts: BrowserContext[] = [];
  const people = {
    target: uniqueEmail('users-target'),
    user: uniqueEmail('users-user'),
    operator: uniqueEmail('users-operator'),
    viewer: uniqueEmail('users-viewer'),
    member: uniqueEmail('users-member'),
  };

  const rows = (page: Page) => page.locator('table.du-table').first().locator('tbody tr');
  const rowOf = (page: Page, email: string) => rows(page).filter({ hasText: email });
  const listed = async () =>
    (await demo<DevicePermissionsResponse>('GET', `/api/device/${deviceid}/permissions?flattenGroups=true`)).body.users;
  const as = async (email: string) => {
    const client = stack.apiClient();
    expect((await client('POST', '/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
    return client;
  };
  /** Clicks an item of the open dropdown list (not PrimeReact's hidden native select). */
  const pickOption = (page: Page, text: string) =>
    page.locator('li[role="option"]', { hasText: new RegExp(`^${text}$`) }).click();

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    groupid = await makeGroup(demo, GROUP_NAME);
    deviceid = (await deviceInGroup(stack, demo, groupid, 'USR', 'Users Pump')).id;
    for (const email of Object.values(people)) await stack.createVerifiedUser(email, PASSWORD);
    for (const [email, targetPermission] of [
      [people.user, 'USER'],
      [people.operator, 'OPERATOR'],
      [people.viewer, 'VIEW'],
    ] as const) {
      const grant = await demo('POST', `/api/device/${deviceid}/user`, { targetEmail: email, targetPermission });
      expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    }
    const shared = await demo('POST', `/api/group/${groupid}/user`, {
      targetEmail: people.member,
      targetPermission: 'USER',
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('an ADMIN adds a user by e-mail as USER, changes them to OPERATOR and removes them', async () => {
    const page = await signedInPageOf(stack, contexts);
    // SUB-17: the page asks for the list with flattenGroups.
    const asked = page.waitForRequest((r) => r.url().includes(`/api/device/${deviceid}/permissions`));
    await page.goto(stack.url(`/users/${deviceid}`));
    expect(new URL((await asked).url()).searchParams.get('flattenGroups')).toBe('true');
    await expect
      .poll(() => page.locator('nav[aria-label="Breadcrumb"] li[aria-current="page"]').innerText())
      .toBe('Users and Permissions');
    await expect.poll(() => page.title()).toBe('Portal - Users Pump: Users and Permissions');
    // HDR-13: no permission button on the Users page.
    expect(await page.locator('.dp-permission').count()).toBe(0);
    await expect.poll(() => rows(page).count()).toBe(5);
    // SUB-16: the list names each user's e-mail targetEmail; a row shows the e-mail and the role.
    expect((await listed()).every((u) => typeof u.targetEmail === 'string' && !('email' in u))).toBe(true);
    expect(await rowOf(page, people.viewer).innerText()).toContain(people.viewer);
    expect(await rowOf(page, people.viewer).locator('.p-dropdown').innerText()).toContain('VIEW');

    // Core's e-mail rule: a '.cm' address is refused before anything is sent.
    let posts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes(`/api/device/${deviceid}/user`)) posts += 1;
    });
    await page.getByLabel('Email', { exact: true }).fill('someone@example.cm');
    await page.getByRole('button', { name: 'Add user' }).click();
    await expectText(page, 'Please enter a valid e-mail address');
    expect(posts).toBe(0);

    await page.getByLabel('Email', { exact: true }).fill(people.target);
    await page.locator('.email-add__role .p-dropdown').click();
    await pickOption(page, 'USER');
    await page.getByRole('button', { name: 'Add user' }).click();
    await closeSuccess(page, DEVICE_MESSAGES.userAdded);
    await rowOf(page, people.target).waitFor();
    expect(await rowOf(page, people.target).locator('.p-dropdown').innerText()).toContain('USER');
    expect(await rowOf(page, people.target).locator('td[data-label="Access"]').innerText()).toBe('Direct');
    expect((await listed()).find((u) => u.targetEmail === people.target)?.permission).toBe('USER');

    await rowOf(page, people.target).locator('.p-dropdown').click();
    await pickOption(page, 'OPERATOR');
    await closeSuccess(page, DEVICE_MESSAGES.userUpdated);
    await expect
      .poll(async () => (await listed()).find((u) => u.targetEmail === people.target)?.permission)
      .toBe('OPERATOR');
    await expect.poll(() => rowOf(page, people.target).locator('.p-dropdown').innerText()).toContain('OPERATOR');

    // Removing asks first; Cancel changes nothing.
    await rowOf(page, people.target)
      .getByRole('button', { name: `Remove ${people.target}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Remove user' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(`Remove ${people.target} from Users Pump?`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await listed()).some((u) => u.targetEmail === people.target)).toBe(true);
    await rowOf(page, people.target)
      .getByRole('button', { name: `Remove ${people.target}` })
      .click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await closeSuccess(page, DEVICE_MESSAGES.userRemoved);
    await expect.poll(() => rowOf(page, people.target).count()).toBe(0);
    expect((await listed()).some((u) => u.targetEmail === people.target)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it("shows a group member with the group's name, linking to the group's settings, and both sources for the ADMIN", async () => {
    const page = await signedInPageOf(stack, contexts);
    await page.goto(stack.url(`/users/${deviceid}`));
    const member = rowOf(page, people.member);
    await member.waitFor();
    expect(await member.locator('td[data-label="Permission"]').innerText()).toBe('USER');
    // A level through a group is changed in the group's settings, not here.
    expect(await member.locator('.p-dropdown').count()).toBe(0);
    expect(await member.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    const link = member.getByRole('link', { name: GROUP_NAME });
    expect(await link.getAttribute('href')).toBe(`/group/${groupid}/settings`);
    expect(await member.innerText()).toContain("Changed in the group's settings");
    // The demo account holds the device directly (its claim) and through the group: both show.
    const access = await rowOf(page, DEMO.email).locator('td[data-label="Access"]').innerText();
    expect(access).toContain('Direct');
    expect(access).toContain(GROUP_NAME);
    await link.click();
    await page.waitForURL(`**/group/${groupid}/settings`);
  });

  it('protects the last ADMIN: neither removed nor demoted, and the server refuses too', async () => {
    const page = await signedInPageOf(stack, contexts);
    await page.goto(stack.url(`/users/${deviceid}`));
    const me = rowOf(page, DEMO.email);
    await me.waitFor();
    expect(await me.getByText('You', { exact: true }).count()).toBe(1);
    expect(await me.getByRole('button', { name: `Remove ${DEMO.email}` }).isDisabled()).toBe(true);
    expect(await me.locator('.p-dropdown').getAttribute('class')).toContain('p-disabled');
    expect(await me.innerText()).toContain(DEVICE_MESSAGES.lastAdmin);
    const demoId = (await listed()).find((u) => u.targetEmail === DEMO.email)?.userid;
    const removal = await demo('DELETE', `/api/device/${deviceid}/user`, { userid: demoId });
    expect(removal.status).toBe(409);
    const demotion = await demo('PUT', `/api/device/${deviceid}/user`, { userid: demoId, permission: 'USER' });
    expect(demotion.status).toBe(409);
    expect((demotion.body as { message: string }).message).toBe(DEVICE_MESSAGES.lastAdmin);
  });

  it('a USER sees the list without edit controls, and the server refuses their POST', async () => {
    const page = await signedInPageOf(stack, contexts, { email: people.user, password: PASSWORD });
    await page.goto(stack.url(`/users/${deviceid}`));
    await expect.poll(() => rows(page).count()).toBe(5);
    expect(await rowOf(page, people.operator).locator('td[data-label="Permission"]').innerText()).toBe('OPERATOR');
    expect(await page.getByRole('heading', { name: 'Add a user' }).count()).toBe(0);
    expect(await page.locator('.du-panel .p-dropdown').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    const client = await as(people.user);
    const refused = await client('POST', `/api/device/${deviceid}/user`, {
      targetEmail: people.target,
      targetPermission: 'VIEW',
    });
    expect(refused.status).toBe(403);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('an OPERATOR and a VIEW are blocked: the page says so and the server answers 403', async () => {
    for (const email of [people.operator, people.viewer]) {
      const page = await signedInPageOf(stack, contexts, { email, password: PASSWORD });
      const answer = page.waitForResponse((r) => r.url().includes(`/api/device/${deviceid}/permissions`));
      await page.goto(stack.url(`/users/${deviceid}`));
      expect((await answer).status(), email).toBe(403);
      const refusal = page.getByRole('alert').filter({ hasText: 'You do not have permission to do this.' });
      await refusal.waitFor();
      expect(await refusal.innerText()).toContain("Only the device's ADMIN and USER users see who has access to it.");
      expect(await page.locator('table.du-table').count()).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
      const client = await as(email);
      expect((await client('GET', `/api/device/${deviceid}/permissions?flattenGroups=true`)).status).toBe(403);
    }
  });

  it('fits a phone: no sideways scroll, axe-clean', async () => {
    const page = await signedInPageOf(stack, contexts, DEMO, { viewport: PHONE });
    await page.goto(stack.url(`/users/${deviceid}`));
    await expect.poll(() => rows(page).count()).toBe(5);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
