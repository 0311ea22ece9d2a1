/** Validation rules of spec 1 section 5 and spec 2 section 5. */

import { COUNTRY_CALLING_CODES } from './country-codes';
import { stripUnstorable } from './text';

export const PASSWORD_MIN_LENGTH = 8;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MAX_LENGTH = 256;
export const MFA_CODE_LENGTH = 6;
export const SANITISED_MAX_LENGTH = 20;

const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

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

/**
 * Removes ` ~ " ' ? < > (and the comma with disable_comma) and text the database cannot store
 * (stripUnstorable), and truncates, 20 characters by default.
 */
export function sanitise(text: string, options: SanitiseOptions = {}): string {
  const pattern = options.disable_comma ? /[`~"'?<>,]/g : /[`~"'?<>]/g;
  return Array.from(stripUnstorable(text.replace(pattern, '')))
    .slice(0, options.maxLength ?? SANITISED_MAX_LENGTH)
    .join('');
}

// ---- Form rules of spec 1 section 5 and spec 2 section 5 -------------------------------

/** The outcome of a rule that either accepts a (cleaned) value or names what is wrong. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; error: string };

export const GROUP_NAME_REQUIRED = 'Group name is required';

/** A group name: sanitised, and required (error 'Group name is required'). */
export function validateGroupName(name: unknown): ValidationResult<string> {
  const value = typeof name === 'string' ? sanitise(name).trim() : '';
  return value === '' ? { ok: false, error: GROUP_NAME_REQUIRED } : { ok: true, value };
}

/** The name a blank view name becomes: 'View {n+1}' for n existing views. */
export function defaultViewName(existingCount: number): string {
  const n = Number.isSafeInteger(existingCount) && existingCount > 0 ? existingCount : 0;
  return `View ${n + 1}`;
}

/** A view name as saved: sanitised, or 'View {n+1}' when blank. */
export function viewNameOrDefault(name: unknown, existingCount: number): string {
  const value = typeof name === 'string' ? sanitise(name).trim() : '';
  return value === '' ? defaultViewName(existingCount) : value;
}

export const SORT_ORDER_MIN = 1;
export const SORT_ORDER_MAX = 100;
/** A card's default display order (DESIGN.md section 5). */
export const DEFAULT_SORT_ORDER = 50;

/** A display order: an integer 1-100 (number or digits); anything else gives the fallback (50 by default). */
export function parseSortOrder(input: unknown, fallback: number = DEFAULT_SORT_ORDER): number {
  let n: number;
  if (typeof input === 'number') n = input;
  else if (typeof input === 'string' && /^\s*\d{1,3}\s*$/.test(input)) n = Number(input);
  else return fallback;
  return Number.isInteger(n) && n >= SORT_ORDER_MIN && n <= SORT_ORDER_MAX ? n : fallback;
}

/** A custom page name (notes field home_page) with non-word characters stripped. */
export function customPageName(name: unknown): string {
  return typeof name === 'string' ? name.replace(/\W/g, '') : '';
}

const DECIMAL_NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** True for a decimal number written as text (not blank, not hex, not Infinity). */
export function isNumericText(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && DECIMAL_NUMBER.test(value.trim()) && Number.isFinite(Number(value));
}

/** 'The value entered for {name} is not a number.' */
export function notANumberMessage(name: string): string {
  return `The value entered for ${name} is not a number.`;
}

/** A custom script setting: fields named num* must be numeric and not blank; returns the error or null. */
export function customSettingError(name: string, value: unknown): string | null {
  if (!name.startsWith('num')) return null;
  return isNumericText(value) ? null : notANumberMessage(name);
}

/** Display-setting text fields (name, units, low and high strings) hold at most 15 characters. */
export const DISPLAY_TEXT_MAX_LENGTH = 15;

/** A display-setting text field as saved: sanitised and cut to 15 characters. */
export function sanitiseDisplayText(text: unknown): string {
  return typeof text === 'string' ? sanitise(text, { maxLength: DISPLAY_TEXT_MAX_LENGTH }) : '';
}

/** Clamps a number to the integer range [min, max]; non-numbers give the fallback. */
export function clampInteger(value: unknown, min: number, max: number, fallback: number = min): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || Number.isNaN(n)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(n)));
}

export const DECIMAL_PLACES_MAX = 8;
export const HEADLINE_DECIMAL_PLACES_MAX = 5;

/** Display-settings decimal places, clamped 0-8. */
export function clampDecimalPlaces(dp: unknown, fallback = 0): number {
  return clampInteger(dp, 0, DECIMAL_PLACES_MAX, fallback);
}

/** Headline decimal places, clamped 0-5. */
export function clampHeadlineDecimalPlaces(dp: unknown, fallback = 0): number {
  return clampInteger(dp, 0, HEADLINE_DECIMAL_PLACES_MAX, fallback);
}

/** The device name is editable only for ids starting '0-' (virtual devices). */
export function isDeviceNameEditable(deviceid: unknown): boolean {
  return typeof deviceid === 'string' && deviceid.startsWith('0-');
}

/** Image upload limit: 300 kB, counted as 300 x 1024 bytes. */
export const IMAGE_MAX_BYTES = 300 * 1024;
export const IMAGE_TOO_LARGE_MESSAGE = 'Image too large. (300 kB limit)';
export const IMAGE_TYPE_MESSAGE = 'Only png or jpeg images can be uploaded.';
export const IMAGE_NOT_BASE64_MESSAGE = 'The image data is not valid base64.';
export const IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** Checks an asset or brand image: png or jpeg, at most 300 kB; returns the error or null. */
export function imageError(file: { size: number; type: string }): string | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return IMAGE_TYPE_MESSAGE;
  if (!Number.isFinite(file.size) || file.size < 0 || file.size > IMAGE_MAX_BYTES) return IMAGE_TOO_LARGE_MESSAGE;
  return null;
}

/** Base64 length of an image of IMAGE_MAX_BYTES (an upload's dataBase64 is at most this long). */
export const IMAGE_MAX_BASE64 = 4 * Math.ceil(IMAGE_MAX_BYTES / 3);
const BASE64_TEXT = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The first bytes of each type: PNG's 8-byte signature, JPEG's start-of-image marker and the next marker's FF. */
const IMAGE_MAGIC: Record<ImageType, readonly number[]> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff],
};

/** The first `count` bytes that valid base64 text decodes to (fewer when it is shorter). */
export function base64Head(text: string, count: number): number[] {
  const bytes: number[] = [];
  let bits = 0;
  let buffer = 0;
  for (const char of text) {
    const value = BASE64_ALPHABET.indexOf(char);
    if (value < 0 || bytes.length >= count) break;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return bytes;
}

/**
 * Checks an uploaded asset or brand image: `contentType` png or jpeg, `dataBase64` valid base64
 * of at most 300 kB whose first bytes really are that type; returns the error or null.
 */
export function imageUploadError(contentType: string, dataBase64: string): string | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(contentType)) return IMAGE_TYPE_MESSAGE;
  if (dataBase64.length > IMAGE_MAX_BASE64) return IMAGE_TOO_LARGE_MESSAGE;
  if (dataBase64.length % 4 !== 0 || !BASE64_TEXT.test(dataBase64)) return IMAGE_NOT_BASE64_MESSAGE;
  const magic = IMAGE_MAGIC[contentType as ImageType];
  const head = base64Head(dataBase64, magic.length);
  return magic.every((byte, i) => head[i] === byte) ? null : IMAGE_TYPE_MESSAGE;
}

export const INVALID_DATE_RANGE = 'Invalid date range';

/** A view range: From must be before To, else 'Invalid date range' (Apply disabled). */
export function dateRangeError(
  from: number | Date | null | undefined,
  to: number | Date | null | undefined,
): string | null {
  const f = from instanceof Date ? from.getTime() : from;
  const t = to instanceof Date ? to.getTime() : to;
  if (typeof f !== 'number' || typeof t !== 'number' || Number.isNaN(f) || Number.isNaN(t)) return INVALID_DATE_RANGE;
  return f < t ? null : INVALID_DATE_RANGE;
}
