/** Passwords, tokens and codes: node:crypto only. Secrets are stored as hashes, never as given. */
import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt's work factors: `standard` for every real account; `test`, 16 times cheaper, only for the
 * test suite's throwaway accounts (PASSWORD_HASH_COST=test, which the portal refuses unless
 * NODE_ENV=test). A stored hash names its own factors, so either kind verifies anywhere.
 */
export const PASSWORD_HASH_COSTS = {
  standard: { N: 16384, r: 8, p: 1 },
  test: { N: 1024, r: 8, p: 1 },
} as const;
export type PasswordHashCost = keyof typeof PASSWORD_HASH_COSTS;
const KEY_LENGTH = 32;

function scryptAsync(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Hashes a password with scrypt and a random salt: `scrypt$N$r$p$salt$key` (base64url). */
export async function hashPassword(password: string, cost: PasswordHashCost = 'standard'): Promise<string> {
  const { N, r, p } = PASSWORD_HASH_COSTS[cost];
  const salt = randomBytes(16);
  const key = await scryptAsync(password.normalize('NFC'), salt, KEY_LENGTH, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Checks a password against a stored hash in constant time; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltText, keyText] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(keyText, 'base64url');
  if (expected.length === 0) return false;
  const key = await scryptAsync(password.normalize('NFC'), Buffer.from(saltText, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(key, expected);
}

/** A hash to compare against when the account does not exist, so both paths cost the same. */
const dummyHashes = new Map<PasswordHashCost, Promise<string>>();
export function dummyPasswordHash(cost: PasswordHashCost = 'standard'): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (!hash) dummyHashes.set(cost, (hash = hashPassword(randomToken(), cost)));
  return hash;
}

/** 32 random bytes, base64url: session ids, challenge tokens, link codes. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A random id for a database row. */
export function randomId(): string {
  return randomBytes(12).toString('base64url');
}

/** A random numeric code of `length` digits (SMS codes). */
export function randomDigits(length = 6): string {
  let code = '';
  for (let i = 0; i < length; i += 1) code += String(randomInt(10));
  return code;
}

/** `length` characters drawn uniformly from `alphabet` (recovery codes). */
export function randomChars(alphabet: string, length: number): string {
  let text = '';
  for (let i = 0; i < length; i += 1) text += alphabet[randomInt(alphabet.length)];
  return text;
}

/** sha256 hex digest: how tokens and codes are stored and looked up. */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
