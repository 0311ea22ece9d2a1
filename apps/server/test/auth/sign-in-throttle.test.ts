/** The pure rules of failed sign-ins: how long an attempt waits, the Retry-After value, the client key. */
import { describe, expect, it } from 'vitest';
import {
  clientKey,
  retryAfterSeconds,
  signInWaitMs,
  type SignInFailures,
  type SignInThrottlePolicy,
} from '../../src/modules/auth/sign-in-throttle';

const POLICY: SignInThrottlePolicy = {
  freeFailuresPerClient: 5,
  firstDelayMs: 1000,
  failuresPerAccount: 100,
  failuresPerClient: 100,
  windowMs: 15 * 60_000,
};
const NOW = new Date('2026-11-22T10:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const none: SignInFailures = {
  client: 0,
  clientLatest: null,
  account: 0,
  accountOldest: null,
  clientAllAccounts: 0,
  clientAllAccountsOldest: null,
};
const fromClient = (count: number, latestAgoMs = 0): SignInFailures => ({
  client: count,
  clientLatest: ago(latestAgoMs),
  account: count,
  accountOldest: ago(latestAgoMs + 1000),
  clientAllAccounts: count,
  clientAllAccountsOldest: ago(latestAgoMs + 1000),
});
/** `account` failures of the account from other addresses, none from this one. */
const fromElsewhere = (account: number, oldestAgoMs: number): SignInFailures => ({
  ...none,
  account,
  accountOldest: ago(oldestAgoMs),
});
/** `count` failures of other accounts from this address, none of this account. */
const otherAccounts = (count: number, oldestAgoMs: number): SignInFailures => ({
  ...none,
  clientAllAccounts: count,
  clientAllAccountsOldest: ago(oldestAgoMs),
});

describe('signInWaitMs', () => {
  it('lets the free failures of a client through at once', () => {
    expect(signInWaitMs(none, POLICY, NOW)).toBe(0);
    for (let n = 1; n < 5; n += 1) expect(signInWaitMs(fromClient(n), POLICY, NOW)).toBe(0);
  });

  it('then waits from the latest failure, doubling with each one, up to the window', () => {
    expect([5, 6, 7, 8, 9].map((n) => signInWaitMs(fromClient(n), POLICY, NOW))).toEqual([
      1000, 2000, 4000, 8000, 16000,
    ]);
    expect(signInWaitMs(fromClient(15), POLICY, NOW)).toBe(POLICY.windowMs);
    expect(signInWaitMs(fromClient(1_000_000), POLICY, NOW)).toBe(POLICY.windowMs);
    expect(signInWaitMs(fromClient(6, 500), POLICY, NOW)).toBe(1500);
    expect(signInWaitMs(fromClient(6, 2000), POLICY, NOW)).toBe(0);
    expect(signInWaitMs(fromClient(6, 60_000), POLICY, NOW)).toBe(0);
  });

  it("other clients' failures never delay a client, below the account's ceiling", () => {
    expect(signInWaitMs(fromElsewhere(99, 1000), POLICY, NOW)).toBe(0);
    expect(signInWaitMs({ ...fromElsewhere(99, 1000), client: 2, clientLatest: ago(0) }, POLICY, NOW)).toBe(0);
  });

  it("at the account's ceiling every client waits until the oldest failure leaves the window", () => {
    const full = fromElsewhere(100, 60_000);
    expect(signInWaitMs(full, POLICY, NOW)).toBe(POLICY.windowMs - 60_000);
    expect(signInWaitMs({ ...full, account: 150 }, POLICY, NOW)).toBe(POLICY.windowMs - 60_000);
    expect(signInWaitMs({ ...full, accountOldest: ago(POLICY.windowMs) }, POLICY, NOW)).toBe(0);
    // The longer of the two waits.
    expect(signInWaitMs({ ...full, client: 20, clientLatest: ago(0) }, POLICY, NOW)).toBe(POLICY.windowMs);
  });

  it("other accounts' failures from the same address never delay an account, below the address's ceiling", () => {
    expect(signInWaitMs(otherAccounts(5, 1000), POLICY, NOW)).toBe(0);
    expect(signInWaitMs(otherAccounts(99, 1000), POLICY, NOW)).toBe(0);
    // Its own free failures from this address still cost nothing.
    expect(signInWaitMs({ ...otherAccounts(99, 1000), client: 4, clientLatest: ago(0) }, POLICY, NOW)).toBe(0);
  });

  it("at the address's ceiling every account waits from that address until its oldest failure leaves the window", () => {
    const full = otherAccounts(100, 60_000);
    expect(signInWaitMs(full, POLICY, NOW)).toBe(POLICY.windowMs - 60_000);
    expect(signInWaitMs({ ...full, clientAllAccounts: 5000 }, POLICY, NOW)).toBe(POLICY.windowMs - 60_000);
    expect(signInWaitMs({ ...full, clientAllAccountsOldest: ago(POLICY.windowMs) }, POLICY, NOW)).toBe(0);
    // The longest of the waits.
    expect(signInWaitMs({ ...full, account: 100, accountOldest: ago(120_000) }, POLICY, NOW)).toBe(
      POLICY.windowMs - 60_000,
    );
    expect(signInWaitMs({ ...full, client: 20, clientLatest: ago(0) }, POLICY, NOW)).toBe(POLICY.windowMs);
  });
});

describe('retryAfterSeconds', () => {
  it('rounds up to whole seconds, never below 1', () => {
    expect([1, 999, 1000, 1001, 59_999, 900_000].map(retryAfterSeconds)).toEqual([1, 1, 1, 2, 60, 900]);
  });
});

describe('clientKey', () => {
  it('keeps an IPv4 address, also when IPv4-mapped', () => {
    expect(clientKey('203.0.113.5')).toBe('203.0.113.5');
    expect(clientKey('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(clientKey('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('takes the /64 of an IPv6 address, however it is written', () => {
    const key = '2001:db8:1:2::/64';
    for (const address of ['2001:db8:1:2:3:4:5:6', '2001:0DB8:0001:0002::7', '2001:db8:1:2:ffff::', '2001:db8:1:2::']) {
      expect(clientKey(address)).toBe(key);
    }
    expect(clientKey('2001:db8:1:3::1')).not.toBe(key);
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('1:2:3::4:5:6:7')).toBe('1:2:3:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves anything else as it is', () => {
    for (const odd of ['', 'not-an-address', '__proto__', 'constructor', '1.2.3', ':::'])
      expect(clientKey(odd)).toBe(odd);
  });
});
