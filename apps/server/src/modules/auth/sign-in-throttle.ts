/**
 * How failed sign-ins slow the next attempt (OWASP authentication guidance: progressive delay,
 * no lock-out an attacker can trigger). Pure: the service reads the failures and asks here.
 *
 * Three counts, each over the window: one account from one client address (free, then a growing
 * delay), one account from every address (a ceiling), and one address for every account (a
 * ceiling far above the first count, so that one person's mistakes slow only their own account
 * from an address shared with others: an office, a mobile carrier's NAT).
 */
import { isIP } from 'node:net';

export interface SignInThrottlePolicy {
  /** Failures of one account from one client address that cost nothing. */
  freeFailuresPerClient: number;
  /** The wait after the first failure past the free ones; it doubles with each further one, up to windowMs. */
  firstDelayMs: number;
  /** Failures of one account from every address together; at this many, every address waits. */
  failuresPerAccount: number;
  /** Failures of every account together from one client address; at this many, that address waits for every account. */
  failuresPerClient: number;
  /** Failures older than this are forgotten. */
  windowMs: number;
}

/** The failures of an account inside the window, before the attempt being judged. */
export interface SignInFailures {
  /** From the client address of the attempt. */
  client: number;
  clientLatest: Date | null;
  /** From every address, the client's included. */
  account: number;
  accountOldest: Date | null;
  /** From the client address of the attempt, for every account (this one included). */
  clientAllAccounts: number;
  clientAllAccountsOldest: Date | null;
}

/** Milliseconds the attempt must wait (0: it may go now). */
export function signInWaitMs(failures: SignInFailures, policy: SignInThrottlePolicy, now: Date): number {
  let allowedAt = 0;
  if (failures.client >= policy.freeFailuresPerClient && failures.clientLatest) {
    const doublings = failures.client - policy.freeFailuresPerClient;
    const delay = Math.min(policy.firstDelayMs * 2 ** doublings, policy.windowMs);
    allowedAt = failures.clientLatest.getTime() + delay;
  }
  // A ceiling lifts when the oldest failure it counts leaves the window.
  if (failures.account >= policy.failuresPerAccount && failures.accountOldest) {
    allowedAt = Math.max(allowedAt, failures.accountOldest.getTime() + policy.windowMs);
  }
  if (failures.clientAllAccounts >= policy.failuresPerClient && failures.clientAllAccountsOldest) {
    allowedAt = Math.max(allowedAt, failures.clientAllAccountsOldest.getTime() + policy.windowMs);
  }
  return Math.max(0, allowedAt - now.getTime());
}

/** The Retry-After header's value: whole seconds, rounded up, at least 1. */
export function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}

/**
 * The client a failure is counted for: an IPv4 address (also when IPv4-mapped), or the /64 of
 * an IPv6 address, which one subscriber holds whole (rotating inside it gains nothing).
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  const bare = address.split('%')[0]!;
  if (isIP(bare) !== 6) return address;
  const [left = '', right] = bare.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  // An embedded IPv4 tail holds two groups.
  const width = (part: string[]) => part.reduce((n, group) => n + (group.includes('.') ? 2 : 1), 0);
  const head = groups(left);
  const tail = groups(right);
  const full =
    right === undefined ? head : [...head, ...Array<string>(8 - width(head) - width(tail)).fill('0'), ...tail];
  const prefix = full.slice(0, 4).map((group) => parseInt(group, 16).toString(16));
  return `${prefix.join(':')}::/64`;
}
