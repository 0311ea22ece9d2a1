/**
 * One-time recovery codes of multi-factor authentication: a set is issued when MFA is turned on,
 * and each code signs in once in place of the 6-digit code. A code is 8 characters of Crockford's
 * base32 alphabet (no i, l, o or u, so none is mistaken for another), shown as `xxxx-xxxx`.
 */

/** Codes in a set. */
export const RECOVERY_CODE_COUNT = 10;
/** Characters a code is made of (lower case; 32 of them, so each carries 5 bits). */
export const RECOVERY_CODE_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** Characters in a code, without the hyphen: 40 random bits. */
export const RECOVERY_CODE_LENGTH = 8;
/** The longest text read as a recovery code (spaces and hyphens are allowed around the characters). */
export const RECOVERY_CODE_INPUT_MAX_LENGTH = 32;
export const RECOVERY_CODE_FORMAT_MESSAGE = 'Enter a recovery code of 8 letters and digits, such as 7kq2-m9xd';

/** A code as shown and stored: `xxxx-xxxx`. `chars` are RECOVERY_CODE_LENGTH alphabet characters. */
export function formatRecoveryCode(chars: string): string {
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
}

/**
 * A typed recovery code in its `xxxx-xxxx` form, or null when it is not one: case, spaces and
 * hyphens are ignored, and o, i and l are read as 0, 1 and 1 (Crockford), as a person may copy them.
 */
export function normaliseRecoveryCode(input: string): string | null {
  if (input.length > RECOVERY_CODE_INPUT_MAX_LENGTH) return null;
  const chars = input.toLowerCase().replace(/[\s-]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');
  if (chars.length !== RECOVERY_CODE_LENGTH) return null;
  for (const char of chars) if (!RECOVERY_CODE_ALPHABET.includes(char)) return null;
  return formatRecoveryCode(chars);
}

/** True when `input` reads as a recovery code (normaliseRecoveryCode). */
export function isValidRecoveryCode(input: string): boolean {
  return normaliseRecoveryCode(input) !== null;
}
