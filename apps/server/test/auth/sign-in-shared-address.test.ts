/**
 * Sign-in from an address many people share (an office, a mobile carrier's NAT), with the limits
 * of production (DEFAULT_AUTH_LIMITS, RATE_LIMIT_PER_MINUTE 20) but a first delay of a minute, so
 * that no answer depends on how fast the machine is: one person's wrong passwords slow only their
 * own account from there; every account waits only at the address's ceiling (100 failures in 15
 * minutes). Runs on PGlite, and on PostgreSQL when reachable.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_LIMITS } from '../../src/modules/auth/auth.service';
import { SIGN_IN_REQUESTS_PER_MINUTE } from '../../src/modules/auth/auth.routes';
import { type DbKind, type TestPortal, findPostgres, makeUser, startTestPortal, uniqueEmail } from '../helpers';
import { MINUTE, clientFrom, expectStatus, expectThrottled } from './auth-helpers';

const { freeFailuresPerClient, failuresPerClient, windowMs } = DEFAULT_AUTH_LIMITS;

function describeSharedAddress(dbKind: DbKind): void {
  describe(`sign-in from a shared address (${dbKind})`, () => {
    let tp: TestPortal;

    beforeAll(async () => {
      tp = await startTestPortal({
        db: dbKind,
        seed: false,
        rateLimitPerMinute: 20,
        authLimits: { firstDelayMs: MINUTE },
      });
    });
    afterAll(async () => {
      await tp?.close();
    });
    afterEach(() => tp.clock.reset());

    it('ten wrong passwords on one account, and retries, leave a neighbour able to sign in', async () => {
      expect(freeFailuresPerClient).toBe(10);
      const [mine, theirs] = [await makeUser(tp), await makeUser(tp)];
      const office = clientFrom(tp, '127.0.2.1');
      for (let i = 0; i < freeFailuresPerClient; i += 1)
        expectStatus(await office.login(mine.email, `typo-${i}`), 401, 'INVALID_CREDENTIALS');
      // Ten more tries of the same account, each refused at once: 20 requests from the address in
      // this minute, RATE_LIMIT_PER_MINUTE, which used to refuse every account from it.
      for (let i = 0; i < 10; i += 1) expectThrottled(await office.login(mine.email, mine.password));
      expectStatus(await office.login(theirs.email, theirs.password), 200);
    });

    it('the 11th attempt on an account from an address is 429 with Retry-After, the right password included', async () => {
      const user = await makeUser(tp);
      const office = clientFrom(tp, '127.0.2.2');
      for (let i = 0; i < freeFailuresPerClient; i += 1)
        expectStatus(await office.login(user.email, `typo-${i}`), 401, 'INVALID_CREDENTIALS');
      const wait = expectThrottled(await office.login(user.email, user.password));
      expect(wait).toBeGreaterThan(50);
      expect(wait).toBeLessThanOrEqual(60);
      // From another address the owner signs in; from this one, after the wait.
      expectStatus(await clientFrom(tp, '127.0.2.3').login(user.email, user.password), 200);
      tp.clock.advance(MINUTE);
      expectStatus(await office.login(user.email, user.password), 200);
    });

    it("failures of many accounts from one address stop every account there at the address's ceiling, not elsewhere", async () => {
      expect(failuresPerClient).toBe(100);
      const office = clientFrom(tp, '127.0.2.4');
      const colleague = await makeUser(tp);
      // 100 failures of 20 accounts (5 each, below each account's 10 free ones), none of them an
      // account's ceiling: accounts without a user are counted the same way.
      const accounts = Array.from({ length: 20 }, () => uniqueEmail('shared'));
      for (let i = 0; i < failuresPerClient; i += 1) {
        const email = accounts[i % accounts.length]!;
        if (i === failuresPerClient - 1) {
          // The colleague signs in at the last moment below the ceiling.
          expectStatus(await office.login(colleague.email, colleague.password), 200);
        }
        expectStatus(await office.login(email, `guess-${i}`), 401, 'INVALID_CREDENTIALS');
      }
      const wait = expectThrottled(await office.login(colleague.email, colleague.password));
      expect(wait).toBeGreaterThan(windowMs / 1000 - 60);
      expect(wait).toBeLessThanOrEqual(windowMs / 1000);
      expectThrottled(await office.login(uniqueEmail('fresh'), 'guess'));
      // The accounts themselves are not locked: from another address they sign in.
      expectStatus(await clientFrom(tp, '127.0.2.5').login(colleague.email, colleague.password), 200);

      // Once the failures leave the window the address signs in again.
      tp.clock.advance(windowMs + 1000);
      expectStatus(await office.login(colleague.email, colleague.password), 200);
    });

    it(`the sign-in calls keep a flood limit per address: ${SIGN_IN_REQUESTS_PER_MINUTE} requests a minute`, async () => {
      const office = clientFrom(tp, '127.0.2.6');
      const [mine, theirs] = [await makeUser(tp), await makeUser(tp)];
      // Attempts past the free failures are refused by the throttle at once (no password hashed).
      for (let i = 0; i < SIGN_IN_REQUESTS_PER_MINUTE; i += 1) {
        const res = await office.login(mine.email, `typo-${i}`);
        expect(res.status, `attempt ${i + 1}`).toBe(i < freeFailuresPerClient ? 401 : 429);
      }
      // Refused by the request limit, not by a failure count: another account's right password.
      const wait = expectThrottled(await office.login(theirs.email, theirs.password));
      expect(wait).toBeLessThanOrEqual(60);
      expectStatus(await clientFrom(tp, '127.0.2.7').login(theirs.email, theirs.password), 200);
    });
  });
}

describeSharedAddress('pglite');
if (await findPostgres()) describeSharedAddress('postgres');
