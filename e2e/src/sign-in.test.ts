import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, newPage, TEST_BROWSER_PATH } from './browser';
import { startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, expectPath, expectText, signIn } from './helpers';
import { linkIn } from './mailbox';

const required = process.env.REQUIRE_SERVICES === '1';
if (!chromiumAvailable() && !required)
  console.log(`Chromium is not installed (${TEST_BROWSER_PATH}): browser tests skipped.`);

describe.skipIf(!chromiumAvailable() && !required)('sign-up, verification, sign-in, reset', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('signs up, receives the verification mail over SMTP, verifies and signs in', async () => {
    const email = uniqueEmail('signup');
    const password = 'correct-horse-1';
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/signup'));
    await page.getByLabel('Email').fill(email.toUpperCase());
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectText(page, 'Check your e-mail');

    const mail = await stack.mailbox.waitFor(email);
    const link = linkIn(mail, '/verify/');
    expect(new URL(link).host).toBe(`localhost:${stack.port}`);
    await page.goto(link);
    await expectText(page, 'E-mail verified');

    await page.goto(stack.url('/login'));
    await signIn(page, email, password);
    await expectText(page, 'You are not in a group yet');
    await expectPath(page, '/');
    await context.close();
  });

  it('keeps the sign-in button disabled until an e-mail and 8 password characters are typed', async () => {
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login'));
    const submit = page.getByRole('button', { name: 'Sign in' });
    await page.getByLabel('Password', { exact: true }).fill('12345678');
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Email').fill('someone@example.com');
    await page.getByLabel('Password', { exact: true }).fill('1234567');
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Password', { exact: true }).fill('12345678');
    expect(await submit.isDisabled()).toBe(false);
    await context.close();
  });

  it('shows the server message in an error dialog and clears the password on a failed sign-in', async () => {
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login'));
    await signIn(page, DEMO.email, 'not-the-password');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Incorrect username or password.').waitFor();
    expect(await dialog.getByText('Error', { exact: true }).count()).toBeGreaterThan(0);
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');
    await context.close();
  });

  it('sends a signed-out visitor of a protected path to /login?redirect= and back after sign-in', async () => {
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/account/password?from=mail'));
    await expectPath(page, `/login?redirect=${encodeURIComponent('/account/password?from=mail')}`);
    await signIn(page, DEMO.email, DEMO.password);
    await expectPath(page, '/account/password?from=mail');

    // signed in, /login goes to its redirect parameter, or home without one
    await page.goto(stack.url('/login?redirect=%2Ffcc'));
    await expectPath(page, '/fcc');
    await page.goto(stack.url('/login?redirect=https%3A%2F%2Fevil.example'));
    await expectPath(page, '/');
    await context.close();
  });

  it("shows 'Page not found!' on an unknown path", async () => {
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login'));
    await signIn(page, DEMO.email, DEMO.password);
    await expectText(page, 'You are not in a group yet');
    await page.goto(stack.url('/no/such/route/x/y'));
    await expectText(page, 'Page not found!');
    await context.close();
  });

  it('opens /fcc signed out, with both regulatory parts', async () => {
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/fcc'));
    await expectText(page, 'ORB-C1');
    await expectText(page, 'QUAD-C2');
    await expectPath(page, '/fcc');
    await context.close();
  });

  it('logs out to / with the signed-out navigation, and a verify link signs the session out first', async () => {
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login'));
    await signIn(page, DEMO.email, DEMO.password);
    await expectText(page, 'You are not in a group yet');
    await page.getByRole('button', { name: 'Logout' }).click();
    await expectPath(page, '/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).waitFor();

    await signIn(page, DEMO.email, DEMO.password);
    await expectText(page, 'You are not in a group yet');
    await page.goto(stack.url('/verify/not-a-real-code'));
    await expectText(page, 'Verification failed');
    await page.goto(stack.url('/account'));
    await page.waitForURL((url) => url.pathname === '/login');
    await context.close();
  });

  it('resets a forgotten password through the e-mailed link', async () => {
    const email = uniqueEmail('reset');
    await stack.createVerifiedUser(email, 'first-password-1');
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login'));
    await page.getByRole('link', { name: /forgot/i }).click();
    await expectPath(page, '/resetpassword');
    // the route's code loads on demand: wait for its screen, not only for the URL
    await expectText(page, 'Reset your password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expectText(page, 'Check your e-mail');

    const mail = await stack.mailbox.waitFor(email, (m) => m.raw.includes('/resetpassword/'));
    await page.goto(linkIn(mail, '/resetpassword/'));
    await page.getByLabel('New password', { exact: true }).fill('second-password-2');
    await page.getByLabel('Confirm new password').fill('second-password-2');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expectText(page, 'Password reset');

    await page.goto(stack.url('/login'));
    await signIn(page, email, 'second-password-2');
    await expectText(page, 'You are not in a group yet');
    await context.close();
  });

  it('sends a provisioning_account member from home to /sqprov, and nobody else', async () => {
    const email = uniqueEmail('prov');
    await stack.createStaffUser(email, 'provisioning-1', ['provisioning_account']);
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login'));
    await signIn(page, email, 'provisioning-1');
    await page.waitForURL((url) => url.pathname === '/sqprov');
    await context.close();

    const demo = await newPage(stack.browser);
    await demo.page.goto(stack.url('/login'));
    await signIn(demo.page, DEMO.email, DEMO.password);
    await expectText(demo.page, 'You are not in a group yet');
    expect(new URL(demo.page.url()).pathname).toBe('/');
    await demo.context.close();
  });
});
