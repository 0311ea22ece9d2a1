/** Validation rules of spec 1 section 5 and spec 2 section 5. */

import { COUNTRY_CALLING_CODES } from './country-codes';

export const PASSWORD_MIN_LENGTH = 8;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MAX_LENGTH = 256;
export const MFA_CODE_LENGTH = 6;
export const SANITISED_MAX_LENGTH = 20;

const EMAIL_PATTERN = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Lower-cases and trims an e-mail address, as the login rule requires. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Standard address pattern; addresses ending in .cm or .om are rejected (spec 2 section 5). */
export function isValidEmail(email: string): boolean {
  if (email.length === 0 || email.length > EMAIL_MAX_LENGTH) return false;
  if (!EMAIL_PATTERN.test(email)) return false;
  return !/\.(cm|om)$/i.test(email);
}

/** Login submit is enabled only with a non-empty e-mail and a password of at least 8 characters. */
export function canSubmitLogin(email: string, password: string): boolean {
  return email.trim().length > 0 && password.length >= PASSWORD_MIN_LENGTH;
}

/** International phone number: '+', a valid country calling code, at most 15 digits after the '+'. */
export function isValidPhone(phone: string): boolean {
  const match = /^\+([1-9]\d{1,14})$/.exec(phone);
  if (!match) return false;
  const digits = match[1] as string;
  for (let len = 1; len <= 3; len += 1) {
    if (COUNTRY_CALLING_CODES.has(digits.slice(0, len))) return digits.length > len;
  }
  return false;
}

/** Keeps only digits, at most six: typing and pasting into the MFA code both go through this. */
export function cleanMfaCode(input: string): string {
  return input.replace(/\D/g, '').slice(0, MFA_CODE_LENGTH);
}

/** An MFA code is exactly six digits. */
export function isValidMfaCode(code: string): boolean {
  return /^\d{6}$/.test(code);
}

export interface SanitiseOptions {
  /** Also remove commas. */
  disable_comma?: boolean;
  /** Maximum length; 20 by default. */
  maxLength?: number;
}

/** Removes ` ~ " ' ? < > (and the comma with disable_comma) and truncates, 20 characters by default. */
export function sanitise(text: string, options: SanitiseOptions = {}): string {
  const pattern = options.disable_comma ? /[`~"'?<>,]/g : /[`~"'?<>]/g;
  return Array.from(text.replace(pattern, ''))
    .slice(0, options.maxLength ?? SANITISED_MAX_LENGTH)
    .join('');
}
