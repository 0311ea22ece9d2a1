/**
 * Sign-ups with an address that has an account: the owner is mailed at most 3 times per 15
 * minutes (so sign-up cannot flood a mailbox), while every answer stays the one a new address
 * gets. Mail goes after the answer; closing the portal waits for it, so the count is exact.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  type MailCatcher,
  type TestPortal,
  makeUser,
  startMailCatcher,
  startTestPortal,
  uniqueEmail,
} from '../helpers';
import { MINUTE } from './auth-helpers';

describe('mail to the owner of a taken address', () => {
  let tp: TestPortal | undefined;
  let mail: MailCatcher | undefined;
  afterAll(async () => {
    await tp?.close();
    await mail?.close();
  });

  it('goes at most 3 times per 15 minutes; every answer is the one a new address gets', async () => {
    mail = await startMailCatcher();
    tp = await startTestPortal({ db: 'pglite', seed: false, smtpUrl: mail.url });
    const user = await makeUser(tp);
    const signup = async (email: string) => {
      const res = await tp!.client().post('/api/auth/signup', { email, password: 'password-1' });
      return { status: res.status, body: res.body };
    };
    const fresh = await signup(uniqueEmail('fresh'));
    expect(fresh.status).toBe(201);
    for (let i = 0; i < 4; i += 1) expect(await signup(user.email)).toEqual(fresh);
    tp.clock.advance(15 * MINUTE + 1000);
    expect(await signup(user.email)).toEqual(fresh);

    await tp.close();
    const warnings = mail.to(user.email);
    expect(warnings.map((m) => m.subject)).toEqual(
      Array<string>(4).fill('Someone tried to create a Portal account with your address'),
    );
  });
});
