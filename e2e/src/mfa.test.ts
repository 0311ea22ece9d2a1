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
    await expectText(page, 'You have no devices yet');
    await expectPath(page, '/');
    await context.close();
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

  it('offers MFA enrolment on the default brand and not on the tank brand', async () => {
    for (const [prefix, offered] of [
      ['', true],
      ['tank.', false],
    ] as const) {
      const { context, page } = await newPage(stack.browser);
      await page.goto(stack.url('/login', prefix));
      await signIn(page, DEMO.email, DEMO.password);
      await expectText(page, 'You have no devices yet');
      await page.goto(stack.url('/account', prefix));
      await page.getByRole('tab', { name: /profile/i }).waitFor();
      expect(await page.getByRole('tab', { name: /multi-factor|mfa/i }).count()).toBe(offered ? 1 : 0);
      await context.close();
    }
  });
});
