import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticator } from 'otplib';
import { chromiumAvailable, newPage } from './browser';
import { startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, expectPath, expectText, signIn } from './helpers';

const required = process.env.REQUIRE_SERVICES === '1';

/** The authenticator code of the previous 30-second step, so the sign-in code that follows is a new one. */
function previousStepCode(secret: string): string {
  const previous = authenticator.clone({ epoch: Date.now() - 30_000 });
  return previous.generate(secret);
}

describe.skipIf(!chromiumAvailable() && !required)('multi-factor authentication', () => {
  let stack: Stack;
  let email: string;
  let secret: string;
  const password = 'mfa-password-1';

  beforeAll(async () => {
    stack = await startStack();
    email = uniqueEmail('mfa');
    await stack.createVerifiedUser(email, password);
    const api = stack.apiClient();
    expect((await api('POST', '/api/auth/login', { email, password })).status).toBe(200);
    const setup = await api<{ secret: string }>('POST', '/api/account/mfa/totp/setup');
    expect(setup.status).toBe(200);
    secret = setup.body.secret;
    const enable = await api('POST', '/api/account/mfa/totp/enable', { code: previousStepCode(secret) });
    expect(enable.status).toBe(200);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('asks for the code after the password and signs in with a TOTP code typed digit by digit', async () => {
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login'));
    await signIn(page, email, password);
    const code = page.getByLabel('Code', { exact: true });
    await code.waitFor();
    await code.pressSequentially(`a${authenticator.generate(secret)}`);
    await expectText(page, 'You are not in a group yet');
    await expectPath(page, '/');
    await context.close();
  });

  it('AUTH-07: the code submits by itself at the sixth digit, with no click, and a spinner shows while the request runs', async () => {
    // An account of its own: a TOTP code signs in once, and the first test may have used this step's.
    const own = uniqueEmail('mfa-auto');
    await stack.createVerifiedUser(own, password);
    const api = stack.apiClient();
    expect((await api('POST', '/api/auth/login', { email: own, password })).status).toBe(200);
    const ownSecret = (await api<{ secret: string }>('POST', '/api/account/mfa/totp/setup')).body.secret;
    expect((await api('POST', '/api/account/mfa/totp/enable', { code: previousStepCode(ownSecret) })).status).toBe(200);

    const { context, page } = await newPage(stack.browser);
    try {
      await page.goto(stack.url('/login'));
      await signIn(page, own, password);
      const code = page.getByLabel('Code', { exact: true });
      await code.waitFor();
      // The code's request is held in the browser until the spinner has been seen, then sent on to the server.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const sent: string[] = [];
      await page.route('**/api/auth/mfa', async (route) => {
        sent.push(route.request().postData() ?? '');
        await held;
        await route.continue();
      });
      const digits = authenticator.generate(ownSecret);
      await code.pressSequentially(digits.slice(0, 5));
      const spinner = page.getByRole('status', { name: 'Checking the code' });
      expect(await spinner.count()).toBe(0);
      expect(sent).toEqual([]);
      // The sixth digit, and nothing else: no button is clicked, no key other than the digit pressed.
      await code.press(digits.slice(5));
      await spinner.waitFor();
      await expect.poll(() => sent.length).toBe(1);
      expect(JSON.parse(sent[0]!)).toMatchObject({ code: digits });
      expect(await code.isDisabled()).toBe(true);
      release();
      await expectText(page, 'You are not in a group yet');
      await expectPath(page, '/');
      expect(await spinner.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('keeps digits only when a code is pasted, and shows the error after 2 s with the code cleared', async () => {
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login'));
    await signIn(page, email, password);
    const code = page.getByLabel('Code', { exact: true });
    await code.waitFor();
    await code.pressSequentially('12-3');
    expect(await code.inputValue()).toBe('123');
    await code.fill('');
    const wrong = authenticator.generate(secret) === '000000' ? '111111' : '000000';
    const submittedAt = Date.now();
    await code.pressSequentially(wrong);
    const alert = page.locator('.p-inline-message-error');
    await alert.waitFor();
    expect(Date.now() - submittedAt).toBeGreaterThanOrEqual(2000);
    expect(await alert.textContent()).toContain('Invalid code received for user');
    expect(await code.inputValue()).toBe('');
    await context.close();
  });

  it('turning MFA on says what changed and shows recovery codes once; the enabling code is refused as used; a recovery code signs in once', async () => {
    const owner = uniqueEmail('mfa-recovery');
    await stack.createVerifiedUser(owner, password);
    const { context, page } = await newPage(stack.browser);
    await page.goto(stack.url('/login'));
    await signIn(page, owner, password);
    await expectText(page, 'You are not in a group yet');
    await page.goto(stack.url('/account/mfa'));
    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    await page.getByRole('button', { name: 'Show QR code' }).click();
    const key = ((await page.locator('.mfa-secret__value code').textContent()) ?? '').replace(/\s/g, '');
    // The next step's code (inside the drift window): it stays 'used' for a minute and more.
    const enablingCode = authenticator.clone({ epoch: Date.now() + 30_000 }).generate(key);
    await page.getByLabel('Enter the 6-digit code the app shows.').fill(enablingCode);
    await page.getByRole('button', { name: 'Turn on' }).click();

    const dialog = page.getByRole('dialog', { name: 'Success' });
    await dialog.waitFor();
    const text = (await dialog.textContent()) ?? '';
    expect(text).toContain(
      'Multi-factor authentication is on. From your next sign-in you will be asked for a code from your authenticator app.',
    );
    expect(text).toContain('Store these codes somewhere safe. Each can be used once.');
    const codes = await dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}$/);
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download .txt' }).click(),
    ]);
    expect(file.suggestedFilename()).toBe('default-recovery-codes.txt');
    const saved = readFileSync((await file.path())!, 'utf8');
    for (const code of codes) expect(saved).toContain(`\n${code}\n`);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expectText(page, '10 recovery codes left.');

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await signIn(page, owner, password);
    const code = page.getByLabel('Code', { exact: true });
    await code.waitFor();
    await code.pressSequentially(enablingCode);
    const alert = page.locator('.p-inline-message-error');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'This code has already been used. Wait for the next code from your authenticator app.',
    );

    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    const recovery = page.getByLabel('Recovery code', { exact: true });
    await recovery.fill(codes[0]!.toUpperCase());
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectText(page, 'You are not in a group yet');
    await expectPath(page, '/');
    await page.goto(stack.url('/account/mfa'));
    await expectText(page, '9 recovery codes left.');

    // Used once: the same code is refused at the next sign-in.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await signIn(page, owner, password);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code', { exact: true }).fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await alert.waitFor();
    expect(await alert.textContent()).toContain('This recovery code is not valid or has already been used.');
    await context.close();
  });

  it('offers MFA enrolment on the default brand and not on the tank brand', async () => {
    for (const [prefix, offered] of [
      ['', true],
      ['tank.', false],
    ] as const) {
      const { context, page } = await newPage(stack.browser);
      await page.goto(stack.url('/login', prefix));
      await signIn(page, DEMO.email, DEMO.password);
      await expectText(page, 'You are not in a group yet');
      await page.goto(stack.url('/account', prefix));
      await page.getByRole('tab', { name: /profile/i }).waitFor();
      expect(await page.getByRole('tab', { name: /multi-factor|mfa/i }).count()).toBe(offered ? 1 : 0);
      await context.close();
    }
  });
});
