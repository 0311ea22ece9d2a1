/**
 * One-time recovery codes of multi-factor authentication over real HTTP: issued once when MFA is
 * turned on (TOTP or SMS), stored only hashed, each signing in once at the code step (also when
 * two requests race with it), renewed with the password, deleted when MFA is turned off; a wrong
 * one is a failed sign-in under the per-address delays. On PGlite, and on PostgreSQL when reachable.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiClient,
  type ApiResponse,
  type DbKind,
  type MadeUser,
  type TestPortal,
  describeWhenPostgres,
  lastSmsCode,
  makeUser,
  signedIn,
  startTestPortal,
  totpCode,
} from '../helpers';
import { MINUTE, clientFrom, expectStatus, expectThrottled } from './auth-helpers';

/** Long first delay so no answer depends on how fast the machine is. */
const LIMITS = { freeFailuresPerClient: 3, firstDelayMs: MINUTE, failuresPerAccount: 20, windowMs: 60 * MINUTE };

const CODE_PATTERN = /^[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}$/;
const TOTP_ON =
  'Multi-factor authentication is on. From your next sign-in you will be asked for a code from your authenticator app.';
const RECOVERY_INVALID = 'This recovery code is not valid or has already been used.';

interface Enabled {
  message: string;
  user: { mfa: string };
  recoveryCodes: string[];
}

function expectError(res: ApiResponse, status: number, code: string, message?: string): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: { code, message: message ?? expect.any(String) },
  });
}

function describeRecovery(dbKind: DbKind): void {
  describe(`MFA recovery codes (${dbKind})`, () => {
    let tp: TestPortal;

    beforeAll(async () => {
      tp = await startTestPortal({ db: dbKind, seed: false, authLimits: LIMITS });
    });
    afterAll(async () => {
      await tp?.close();
    });
    afterEach(() => tp.clock.reset());

    const storedHashes = async (userId: string) =>
      (
        await tp.portal.db.query<{ code_hash: string }>(
          'SELECT code_hash FROM mfa_recovery_codes WHERE user_id = $1 ORDER BY code_hash',
          [userId],
        )
      ).map((row) => row.code_hash);
    const remaining = async (client: ApiClient) =>
      ((await client.get('/api/account/mfa/recovery-codes')).body as { remaining: number }).remaining;
    const failedSignIns = async (email: string) =>
      (
        await tp.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sign_in_failures WHERE email = $1', [
          email,
        ])
      )[0]!.n;

    /** Turns TOTP on for `user` (signed in as `client`); the enable answer. */
    async function enableTotp(client: ApiClient): Promise<Enabled & { secret: string }> {
      const { secret } = (await client.post('/api/account/mfa/totp/setup')).body as { secret: string };
      const enabled = await client.post('/api/account/mfa/totp/enable', { code: totpCode(secret, tp.clock) });
      expect(enabled.status).toBe(200);
      return { ...(enabled.body as Enabled), secret };
    }

    /** A client that passed the password step of `user` and is at the code step. */
    async function atCodeStep(user: MadeUser, challenge = 'SOFTWARE_TOKEN_MFA'): Promise<ApiClient> {
      const client = tp.client();
      const login = await client.post('/api/auth/login', { email: user.email, password: user.password });
      expect(login.body).toEqual({ status: 'MFA_REQUIRED', challenge });
      return client;
    }

    it('turning TOTP on answers 10 distinct codes once; only their hashes are stored', async () => {
      const user = await makeUser(tp);
      const client = await signedIn(tp, user);
      expect(await remaining(client)).toBe(0);
      const enabled = await enableTotp(client);
      expect(enabled.message).toBe(TOTP_ON);
      expect(enabled.user.mfa).toBe('TOTP');
      expect(enabled.recoveryCodes).toHaveLength(10);
      expect(new Set(enabled.recoveryCodes).size).toBe(10);
      for (const code of enabled.recoveryCodes) expect(code).toMatch(CODE_PATTERN);

      const hashes = await storedHashes(user.id);
      const expected = enabled.recoveryCodes.map((code) =>
        createHash('sha256').update(`${user.id}:${code}`).digest('hex'),
      );
      expect(hashes).toEqual([...expected].sort());
      const dump = JSON.stringify(
        await tp.portal.db.query('SELECT * FROM mfa_recovery_codes WHERE user_id = $1', [user.id]),
      );
      for (const code of enabled.recoveryCodes) {
        expect(dump).not.toContain(code);
        expect(dump).not.toContain(code.replace('-', ''));
      }
      // Shown once: afterwards only the count can be read.
      const status = await client.get('/api/account/mfa/recovery-codes');
      expect(status.body).toEqual({ remaining: 10 });
    });

    it('a recovery code signs in once in place of the 6-digit code; used again it is refused', async () => {
      const user = await makeUser(tp);
      const session = await signedIn(tp, user);
      const { recoveryCodes } = await enableTotp(session);
      const [code] = recoveryCodes as [string];

      const first = await atCodeStep(user);
      // Typed as a person might copy it: upper case, with a space instead of the hyphen.
      const ok = await first.post('/api/auth/mfa/recovery', {
        recoveryCode: ` ${code.toUpperCase().replace('-', ' ')} `,
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ status: 'SIGNED_IN', user: { email: user.email, mfa: 'TOTP' } });
      expect(first.jar.has('portal_session')).toBe(true);
      expect(first.jar.has('portal_mfa')).toBe(false);
      expect(await remaining(first)).toBe(9);
      expect(await failedSignIns(user.email)).toBe(0);

      const second = await atCodeStep(user);
      expectError(
        await second.post('/api/auth/mfa/recovery', { recoveryCode: code }),
        401,
        'MFA_INVALID',
        RECOVERY_INVALID,
      );
      expect(await failedSignIns(user.email)).toBe(1);
      expect((await second.get('/api/auth/session')).body).toEqual({ isAuthenticated: false, user: null });
      // Another unused code still works on the same challenge.
      expect((await second.post('/api/auth/mfa/recovery', { recoveryCode: recoveryCodes[1] })).status).toBe(200);
      expect(await remaining(second)).toBe(8);

      // Without a challenge there is nothing to answer; a malformed code is a 400 naming the field.
      expectError(
        await tp.client().post('/api/auth/mfa/recovery', { recoveryCode: recoveryCodes[2] }),
        401,
        'UNAUTHENTICATED',
        'Your sign-in has expired. Please sign in again.',
      );
      expectError(
        await tp.client().post('/api/auth/mfa/recovery', { recoveryCode: 'abcd-efgu' }),
        400,
        'BAD_REQUEST',
        'recoveryCode: Enter a recovery code of 8 letters and digits, such as 7kq2-m9xd',
      );
      expect(await remaining(session)).toBe(8);
    });

    it('one code sent twice at once on one sign-in: exactly one request succeeds', async () => {
      const user = await makeUser(tp);
      const { recoveryCodes } = await enableTotp(await signedIn(tp, user));
      const client = await atCodeStep(user);
      const answers = await Promise.all(
        [1, 2, 3].map(() => client.post('/api/auth/mfa/recovery', { recoveryCode: recoveryCodes[0] })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401]);
      expect(await storedHashes(user.id)).toHaveLength(9);
    });

    it('one code racing on two live sign-ins: exactly one succeeds, the other is told the code is not valid', async () => {
      const user = await makeUser(tp);
      const { recoveryCodes } = await enableTotp(await signedIn(tp, user));
      const first = await atCodeStep(user);
      // A second live challenge, as two sign-ins whose password steps interleave leave behind.
      const token = randomBytes(32).toString('base64url');
      const now = tp.clock.now();
      await tp.portal.db.query(
        `INSERT INTO auth_challenges (token_hash, user_id, kind, code_hash, attempts, created_at, expires_at)
         VALUES ($1, $2, 'SOFTWARE_TOKEN_MFA', NULL, 0, $3, $4)`,
        [createHash('sha256').update(token).digest('hex'), user.id, now, new Date(now.getTime() + 5 * MINUTE)],
      );
      const second = tp.client();
      second.jar.set('portal_mfa', token);
      const answers = await Promise.all(
        [first, second].map((client) => client.post('/api/auth/mfa/recovery', { recoveryCode: recoveryCodes[0] })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
      expectError(
        answers.find((a) => a.status === 401)!,
        401,
        'MFA_INVALID',
        RECOVERY_INVALID,
      );
      expect(await storedHashes(user.id)).toHaveLength(9);
    });

    it('a new set (password required) replaces the old one; with MFA off there is none to renew', async () => {
      const user = await makeUser(tp);
      const session = await signedIn(tp, user);
      const { recoveryCodes: old } = await enableTotp(session);
      const before = await storedHashes(user.id);

      expectError(
        await session.post('/api/account/mfa/recovery-codes', { password: 'not-my-password' }),
        401,
        'INVALID_CREDENTIALS',
        'Incorrect password.',
      );
      expect(await storedHashes(user.id)).toEqual(before);

      const renewed = await session.post('/api/account/mfa/recovery-codes', { password: user.password });
      expect(renewed.status).toBe(200);
      const { message, recoveryCodes } = renewed.body as { message: string; recoveryCodes: string[] };
      expect(message).toBe('You have new recovery codes. The old ones no longer work.');
      expect(recoveryCodes).toHaveLength(10);
      for (const code of recoveryCodes) expect(old).not.toContain(code);
      const after = await storedHashes(user.id);
      expect(after).toHaveLength(10);
      for (const hash of after) expect(before).not.toContain(hash);

      const client = await atCodeStep(user);
      expectError(await client.post('/api/auth/mfa/recovery', { recoveryCode: old[0] }), 401, 'MFA_INVALID');
      expect((await client.post('/api/auth/mfa/recovery', { recoveryCode: recoveryCodes[0] })).status).toBe(200);

      const plain = await signedIn(tp, await makeUser(tp));
      expectError(
        await plain.post('/api/account/mfa/recovery-codes', { password: 'wrong' }),
        401,
        'INVALID_CREDENTIALS',
      );
      const noMfa = await makeUser(tp);
      expectError(
        await (await signedIn(tp, noMfa)).post('/api/account/mfa/recovery-codes', { password: noMfa.password }),
        409,
        'CONFLICT',
        'Turn on multi-factor authentication first.',
      );
      expect(await storedHashes(noMfa.id)).toEqual([]);
    });

    it('turning MFA off deletes the codes: none is left to sign in with', async () => {
      const user = await makeUser(tp);
      const session = await signedIn(tp, user);
      const { recoveryCodes } = await enableTotp(session);
      const pending = await atCodeStep(user);
      const off = await session.post('/api/account/mfa/disable', { password: user.password });
      expect(off.status).toBe(200);
      expect(await storedHashes(user.id)).toEqual([]);
      expect(await remaining(session)).toBe(0);
      // A sign-in that reached the code step before still cannot use one.
      expectError(await pending.post('/api/auth/mfa/recovery', { recoveryCode: recoveryCodes[0] }), 401, 'MFA_INVALID');
    });

    it('SMS: turning it on issues codes too, and one answers the texted-code step', async () => {
      const user = await makeUser(tp);
      const phone = '+61412000333';
      const session = await signedIn(tp, user);
      expect((await session.post('/api/account/mfa/sms/setup', { phone })).status).toBe(200);
      const enabled = await session.post('/api/account/mfa/sms/enable', { code: await lastSmsCode(tp, phone) });
      expect(enabled.status).toBe(200);
      const { recoveryCodes } = enabled.body as Enabled;
      expect(recoveryCodes).toHaveLength(10);
      const client = await atCodeStep(user, 'SMS_MFA');
      const ok = await client.post('/api/auth/mfa/recovery', { recoveryCode: recoveryCodes[3] });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ status: 'SIGNED_IN', user: { mfa: 'SMS', phone } });
    });

    it("wrong recovery codes are failed sign-ins of their address; the owner's code still signs in elsewhere", async () => {
      const user = await makeUser(tp);
      const { recoveryCodes } = await enableTotp(await signedIn(tp, user));
      const attacker = clientFrom(tp, '127.0.2.1');
      expect((await attacker.login(user.email, user.password)).body).toEqual({
        status: 'MFA_REQUIRED',
        challenge: 'SOFTWARE_TOKEN_MFA',
      });
      const guesses = ['2222-2222', '3333-3333', '4444-4444'];
      for (const guess of guesses)
        expectStatus(await attacker.post('/api/auth/mfa/recovery', { recoveryCode: guess }), 401, 'MFA_INVALID');
      // The address now waits, whatever it sends: a right code is not even looked at.
      expectThrottled(await attacker.post('/api/auth/mfa/recovery', { recoveryCode: recoveryCodes[0] }));
      expect((await storedHashes(user.id)).length).toBe(10);

      const owner = clientFrom(tp, '127.0.2.2');
      expect((await owner.login(user.email, user.password)).status).toBe(200);
      expectStatus(await owner.post('/api/auth/mfa/recovery', { recoveryCode: recoveryCodes[0] }), 200);
    });
  });
}

describeRecovery('pglite');
await describeWhenPostgres('MFA recovery codes (postgres)', () => describeRecovery('postgres'));
