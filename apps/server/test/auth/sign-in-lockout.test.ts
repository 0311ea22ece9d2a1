/**
 * Failed sign-ins over real HTTP from several client addresses: they slow the account from the
 * address that made them (429 with Retry-After, growing), never the owner from another address,
 * until the account-wide ceiling. Runs on PGlite, and on PostgreSQL when reachable.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type DbKind,
  type TestPortal,
  findPostgres,
  makeUser,
  signedIn,
  startTestPortal,
  totpCode,
  uniqueEmail,
  wrongTotpCode,
} from '../helpers';
import { MINUTE, clientFrom, expectStatus, expectThrottled } from './auth-helpers';

/** Long first delay so no answer depends on how fast the machine is; a small ceiling to reach. */
const LIMITS = { freeFailuresPerClient: 3, firstDelayMs: MINUTE, failuresPerAccount: 20, windowMs: 60 * MINUTE };

function describeLockout(dbKind: DbKind): void {
  describe(`failed sign-ins (${dbKind})`, () => {
    let tp: TestPortal;

    beforeAll(async () => {
      tp = await startTestPortal({ db: dbKind, seed: false, authLimits: LIMITS });
    });
    afterAll(async () => {
      await tp?.close();
    });
    afterEach(() => tp.clock.reset());

    it("an address's failures make it wait, longer each time, until the window passes; the owner elsewhere signs in", async () => {
      const user = await makeUser(tp);
      const attacker = clientFrom(tp, '127.0.0.2');
      const owner = clientFrom(tp, '127.0.0.3');
      for (let i = 0; i < 3; i += 1)
        expectStatus(await attacker.login(user.email, `wrong-${i}`), 401, 'INVALID_CREDENTIALS');

      const first = expectThrottled(await attacker.login(user.email, 'wrong-3'));
      expect(first).toBeGreaterThan(50);
      expect(first).toBeLessThanOrEqual(60);
      // Refused before the password is looked at, right or wrong.
      expectThrottled(await attacker.login(user.email, user.password));
      expectStatus(await owner.login(user.email, user.password), 200);

      tp.clock.advance(60_000);
      expectStatus(await attacker.login(user.email, 'wrong-4'), 401, 'INVALID_CREDENTIALS');
      const second = expectThrottled(await attacker.login(user.email, 'wrong-5'));
      expect(second).toBeGreaterThan(110);
      expect(second).toBeLessThanOrEqual(120);

      tp.clock.advance(120_000);
      expectStatus(await attacker.login(user.email, 'wrong-6'), 401, 'INVALID_CREDENTIALS');
      const third = expectThrottled(await attacker.login(user.email, 'wrong-7'));
      expect(third).toBeGreaterThan(230);
      expect(third).toBeLessThanOrEqual(240);
      expectStatus(await owner.login(user.email, user.password), 200);

      // An hour after the last failure every one of them is forgotten.
      tp.clock.advance(60 * MINUTE + 1000);
      for (let i = 0; i < 3; i += 1)
        expectStatus(await attacker.login(user.email, `late-${i}`), 401, 'INVALID_CREDENTIALS');
      expectThrottled(await attacker.login(user.email, 'late-3'));
    });

    it('an address without an account is slowed the same way (the 429 reveals nothing)', async () => {
      const nobody = uniqueEmail('nobody');
      const client = clientFrom(tp, '127.0.0.4');
      for (let i = 0; i < 3; i += 1) expectStatus(await client.login(nobody, `wrong-${i}`), 401, 'INVALID_CREDENTIALS');
      expectThrottled(await client.login(nobody, 'wrong-3'));
    });

    it('signing in forgets the failures of that address only', async () => {
      const user = await makeUser(tp);
      const owner = clientFrom(tp, '127.0.0.5');
      const other = clientFrom(tp, '127.0.0.6');
      for (let i = 0; i < 2; i += 1) {
        expectStatus(await owner.login(user.email, `typo-${i}`), 401, 'INVALID_CREDENTIALS');
        expectStatus(await other.login(user.email, `guess-${i}`), 401, 'INVALID_CREDENTIALS');
      }
      expectStatus(await owner.login(user.email, user.password), 200);
      for (let i = 2; i < 5; i += 1)
        expectStatus(await owner.login(user.email, `typo-${i}`), 401, 'INVALID_CREDENTIALS');
      expectStatus(await other.login(user.email, 'guess-2'), 401, 'INVALID_CREDENTIALS');
      expectThrottled(await other.login(user.email, 'guess-3'));
    });

    it("failures from many addresses don't lock the owner out, until the account-wide ceiling locks every address", async () => {
      const user = await makeUser(tp);
      const owner = clientFrom(tp, '127.0.0.7');
      // 12 failures from 4 addresses: more than one address may make, fewer than the ceiling.
      const attackers = [1, 2, 3, 4].map((n) => clientFrom(tp, `127.0.1.${n}`));
      for (const attacker of attackers) {
        for (let i = 0; i < 3; i += 1)
          expectStatus(await attacker.login(user.email, `wrong-${i}`), 401, 'INVALID_CREDENTIALS');
      }
      expectStatus(await owner.login(user.email, user.password), 200);

      const more = [5, 6, 7, 8].map((n) => clientFrom(tp, `127.0.1.${n}`));
      for (const attacker of more) {
        for (let i = 0; i < 2; i += 1)
          expectStatus(await attacker.login(user.email, `wrong-${i}`), 401, 'INVALID_CREDENTIALS');
      }
      // 20 failures: every address waits until the oldest leaves the window (an hour).
      const ownerWait = expectThrottled(await owner.login(user.email, user.password));
      expect(ownerWait).toBeGreaterThan(55 * 60);
      expect(ownerWait).toBeLessThanOrEqual(60 * 60);
      expectThrottled(await clientFrom(tp, '127.0.1.9').login(user.email, 'fresh-guess'));

      tp.clock.advance(60 * MINUTE + 1000);
      expectStatus(await owner.login(user.email, user.password), 200);
    });

    it('parallel guesses from one address count against each other', async () => {
      const user = await makeUser(tp);
      const attacker = clientFrom(tp, '127.0.0.8');
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => attacker.login(user.email, `parallel-${i}`)),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
      for (const answer of answers.filter((a) => a.status === 429)) expectThrottled(answer);
    });

    it("wrong MFA codes count for the address they come from; the owner's right code still signs in", async () => {
      const user = await makeUser(tp);
      const session = await signedIn(tp, user);
      const { secret } = (await session.post('/api/account/mfa/totp/setup')).body as { secret: string };
      expect((await session.post('/api/account/mfa/totp/enable', { code: totpCode(secret, tp.clock) })).status).toBe(
        200,
      );
      tp.clock.advance(30_000);

      const attacker = clientFrom(tp, '127.0.0.9');
      expect((await attacker.login(user.email, user.password)).body).toEqual({
        status: 'MFA_REQUIRED',
        challenge: 'SOFTWARE_TOKEN_MFA',
      });
      for (let i = 0; i < 3; i += 1) {
        expectStatus(
          await attacker.post('/api/auth/mfa', { code: wrongTotpCode(secret, tp.clock) }),
          401,
          'MFA_INVALID',
        );
      }
      expectThrottled(await attacker.post('/api/auth/mfa', { code: wrongTotpCode(secret, tp.clock) }));
      expectThrottled(await attacker.login(user.email, user.password));

      const owner = clientFrom(tp, '127.0.0.10');
      expect((await owner.login(user.email, user.password)).status).toBe(200);
      expectStatus(await owner.post('/api/auth/mfa', { code: totpCode(secret, tp.clock) }), 200);
    });
  });
}

describeLockout('pglite');
if (await findPostgres()) describeLockout('postgres');
