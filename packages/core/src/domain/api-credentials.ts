/**
 * API credentials (bearer keys) and virtual devices (DESIGN.md sections 4 and 5, ledger API-46 to
 * API-48, BRD-11, I-05): the rules both sides share, so the Account page's API tab and the server
 * word every limit and refusal alike.
 */

import { DEVICE_ID_ALPHABET, VIRTUAL_DEVICE_ID_PATTERN } from './ids';

/** What a key may do: every call of the API it reaches, or only reading (GET). */
export const API_ACCESS_LEVELS = ['read-only', 'read-write'] as const;
export type ApiAccess = (typeof API_ACCESS_LEVELS)[number];

/** The start of every key, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'ppk_';
/** Random bytes in a key (base64url after the prefix: 43 characters). */
export const API_KEY_BYTES = 32;
/** The shape of a key as issued; anything else is refused before any lookup. */
export const API_KEY_PATTERN = /^ppk_[A-Za-z0-9_-]{43}$/;

/** Credentials a user may hold at once. */
export const API_CREDENTIALS_MAX = 20;
export const API_CREDENTIAL_NAME_MAX_LENGTH = 40;
/** The furthest expiry a key may be given: 5 years (in seconds). */
export const API_KEY_MAX_LIFETIME_S = 5 * 365 * 86_400;
/** Requests per minute one key may make (the session's own limits are separate). */
export const API_KEY_REQUESTS_PER_MINUTE = 120;
/** The last-used time is written at most this often per key (milliseconds). */
export const API_KEY_TOUCH_MS = 60_000;

/** Virtual devices a user may create. */
export const VIRTUAL_DEVICES_MAX = 100;
/** Random characters after '0-' in a virtual device's id. */
export const VIRTUAL_DEVICE_RANDOM_LENGTH = 7;

export const API_CREDENTIAL_MESSAGES = {
  nameRequired: 'Give the key a name.',
  nameTooLong: `The name has at most ${API_CREDENTIAL_NAME_MAX_LENGTH} characters.`,
  expiryPast: 'The expiry must be in the future.',
  expiryTooFar: 'The expiry can be at most 5 years away.',
  tooMany: `You can hold at most ${API_CREDENTIALS_MAX} API keys. Delete one you no longer use first.`,
  notFound: 'API key not found',
  deleted: 'API key deleted.',
  /** Any brand but the default (BRD-11). */
  brandUnavailable: 'API access is available only on the main portal site.',
  /** A bearer request with an unknown, deleted or expired key. */
  invalidKey: 'Invalid or expired API key',
  readOnly: 'This API key is read-only: it can only read (GET).',
  /** The credential, password, MFA and session calls refuse bearer keys. */
  sessionOnly: 'This call needs a signed-in session: API keys cannot reach credential, password, MFA or session calls.',
  tooManyRequests: `Too many requests with this API key (at most ${API_KEY_REQUESTS_PER_MINUTE} a minute). Please wait a moment.`,
  tooManyVirtualDevices: `You can create at most ${VIRTUAL_DEVICES_MAX} virtual devices.`,
} as const;

/** A device's API refused by its plan (spec 1 section 9: Basic has none), in the words of the other plan refusals. */
export function apiUnavailableMessage(tierName: string): string {
  return `The API is unavailable on the ${tierName} Plan`;
}

/**
 * Calls a bearer key never reaches (DESIGN.md section 5): the credentials themselves, sign-in,
 * sessions, the password and multi-factor settings. Matched on the route's path.
 */
const SESSION_ONLY_PREFIXES = ['/api/auth/', '/api/api-credentials', '/api/account/password', '/api/account/mfa/'];

/** True when a route (its path as registered, e.g. /api/account/mfa/disable) refuses bearer keys. */
export function isSessionOnlyPath(path: string): boolean {
  const p = path.split('?', 1)[0] ?? '';
  return SESSION_ONLY_PREFIXES.some((prefix) =>
    prefix.endsWith('/') ? p.startsWith(prefix) : p === prefix || p.startsWith(`${prefix}/`),
  );
}

/** The key of an `Authorization: Bearer <key>` header: undefined without one, '' when malformed. */
export function bearerKeyOf(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer(?:\s+(\S*))?\s*$/i.exec(header.trim());
  if (!match) return undefined;
  return match[1] ?? '';
}

/** Whether a key with `access` may make a `method` request: read-only keys read only. */
export function accessAllows(access: ApiAccess, method: string): boolean {
  return access === 'read-write' || method === 'GET' || method === 'HEAD';
}

/**
 * A new virtual device id: '0-' and 7 characters of DEVICE_ID_ALPHABET from the random source.
 * Throws RangeError for a source that does not give the characters asked for.
 */
export function newVirtualDeviceId(randomChars: (n: number) => string): string {
  const suffix = randomChars(VIRTUAL_DEVICE_RANDOM_LENGTH);
  const id = `0-${typeof suffix === 'string' ? suffix : ''}`;
  if (
    typeof suffix !== 'string' ||
    ![...suffix].every((c) => DEVICE_ID_ALPHABET.includes(c)) ||
    !VIRTUAL_DEVICE_ID_PATTERN.test(id)
  ) {
    throw new RangeError(`newVirtualDeviceId needs ${VIRTUAL_DEVICE_RANDOM_LENGTH} characters of DEVICE_ID_ALPHABET`);
  }
  return id;
}

/** An example request for the docs and the API tab: read the caller's groups with a key. */
export function curlExample(origin: string, key = '$PORTAL_API_KEY'): string {
  return `curl -H "Authorization: Bearer ${key}" ${origin}/api/groups`;
}
