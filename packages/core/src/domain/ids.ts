/** Identifiers, the path rules built on them and the navigation helper (spec 1 sections 1, 2, 9). */

/** Identifier lengths of spec 1 section 1; any other length is unknown. */
export const ID_LENGTHS = { device: 9, group: 11, view: 10, tag: 12 } as const;

export type KnownIdKind = keyof typeof ID_LENGTHS;
export type IdKind = KnownIdKind | 'unknown';

/** A device id as it appears in a path: 9 uppercase letters or digits. */
export const DEVICE_ID_PATTERN = /^[A-Z0-9]{9}$/;

/** The characters of a device id. */
export const DEVICE_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Longest fixed prefix of a batch of new device ids (the provisioning CLI's --prefix); the rest is random. */
export const DEVICE_ID_PREFIX_MAX_LENGTH = 6;

/** True when the text can start new device ids: at most 6 uppercase letters or digits ('' included). */
export function isDeviceIdPrefix(prefix: unknown): prefix is string {
  return (
    typeof prefix === 'string' &&
    prefix.length <= DEVICE_ID_PREFIX_MAX_LENGTH &&
    [...prefix].every((c) => DEVICE_ID_ALPHABET.includes(c))
  );
}

/**
 * A new device id: the prefix, then characters of DEVICE_ID_ALPHABET from the random source up to
 * 9 characters. Throws RangeError for a prefix isDeviceIdPrefix refuses or a source that does
 * not give the characters asked for.
 */
export function newDeviceId(prefix: string, randomChars: (n: number) => string): string {
  if (!isDeviceIdPrefix(prefix)) {
    throw new RangeError(`A device id prefix has at most ${DEVICE_ID_PREFIX_MAX_LENGTH} uppercase letters or digits`);
  }
  const n = ID_LENGTHS.device - prefix.length;
  const suffix = randomChars(n);
  const id = `${prefix}${typeof suffix === 'string' ? suffix : ''}`;
  if (typeof suffix !== 'string' || suffix.length !== n || !DEVICE_ID_PATTERN.test(id)) {
    throw new RangeError(`newDeviceId needs ${n} characters of DEVICE_ID_ALPHABET from its random source`);
  }
  return id;
}

/** A device id as typed or pasted: upper-cased, letters and digits only, at most 9 characters. */
export function normaliseDeviceIdInput(input: unknown): string {
  if (typeof input !== 'string') return '';
  return [...input.toUpperCase()]
    .filter((c) => DEVICE_ID_ALPHABET.includes(c))
    .join('')
    .slice(0, ID_LENGTHS.device);
}

/** The id of the view every group has when it has none of its own. */
export const DEFAULT_VIEW_ID = 'view1';

/** Number of random characters after 'v-' in a view id made in the dashboard. */
export const VIEW_ID_RANDOM_LENGTH = 8;

/** Characters used for random id suffixes. */
export const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

const KIND_BY_LENGTH: ReadonlyMap<number, KnownIdKind> = new Map(
  (Object.entries(ID_LENGTHS) as [KnownIdKind, number][]).map(([kind, length]) => [length, kind]),
);

/** Classifies an id by its length: device 9, view 10, group 11, tag 12, anything else unknown. */
export function classifyId(id: unknown): IdKind {
  if (typeof id !== 'string') return 'unknown';
  return KIND_BY_LENGTH.get(id.length) ?? 'unknown';
}

/** True when a path segment is a device id (9 uppercase letters or digits). */
export function isDevicePathId(segment: unknown): segment is string {
  return typeof segment === 'string' && DEVICE_ID_PATTERN.test(segment);
}

/** A virtual device's id (DESIGN.md section 5, ledger I-05): '0-' and 7 uppercase letters or digits, 9 characters. */
export const VIRTUAL_DEVICE_ID_PATTERN = /^0-[A-Z0-9]{7}$/;

/**
 * True when a path segment names a device in a route, the support link or the navigation
 * helper: a device id (isDevicePathId) or a virtual device's id ('0-' + 7).
 */
export function isDeviceRouteId(segment: unknown): segment is string {
  return isDevicePathId(segment) || (typeof segment === 'string' && VIRTUAL_DEVICE_ID_PATTERN.test(segment));
}

/** The first path segment that is a device id or a virtual device's id, or null (query and fragment are ignored). */
export function findDeviceIdInPath(pathname: unknown): string | null {
  if (typeof pathname !== 'string') return null;
  const path = pathname.split(/[?#]/, 1)[0] ?? '';
  return path.split('/').find(isDeviceRouteId) ?? null;
}

/** The Support link for the current path: '/support/{deviceid}' when the path names a device, else '/support' (BRD-22). */
export function supportLink(pathname: unknown): string {
  const id = findDeviceIdInPath(pathname);
  return id === null ? '/support' : `/support/${id}`;
}

export type RecentKind = 'device' | 'group';

export interface NavigationTarget {
  path: string;
  /** Which recent list the id belongs in, or null when nothing is recorded. */
  recent: RecentKind | null;
}

const HOME: NavigationTarget = Object.freeze({ path: '/', recent: null });

function segment(value: string): string {
  return encodeURIComponent(value);
}

/**
 * The navigation helper of spec 1 section 2: a 9-character id opens the device page, a
 * 10-character id (a view) opens that view of the given group or home without one, any
 * other id is a group, and no id goes home.
 */
export function navigationTarget(id?: string | null, groupid?: string | null): NavigationTarget {
  if (typeof id !== 'string' || id === '' || id === '.' || id === '..') return HOME;
  switch (id.length) {
    case ID_LENGTHS.device:
      return { path: `/data/${segment(id)}`, recent: 'device' };
    case ID_LENGTHS.view:
      if (typeof groupid !== 'string' || groupid === '' || groupid === '.' || groupid === '..') return HOME;
      return { path: `/group/${segment(groupid)}/${segment(id)}`, recent: null };
    default:
      return { path: `/group/${segment(id)}`, recent: 'group' };
  }
}

/** Maps random bytes onto the id alphabet, one character per byte. */
export function charsFromBytes(bytes: ArrayLike<number>, alphabet: string = ID_ALPHABET): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 1) {
    out += alphabet[(bytes[i] ?? 0) % alphabet.length];
  }
  return out;
}

/** A group id: 11 uppercase letters or digits (spec 1 section 1; the group picker upper-cases typed text). */
export const GROUP_ID_PATTERN = /^[A-Z0-9]{11}$/;

/**
 * A new group id: 11 characters of DEVICE_ID_ALPHABET from the random source, drawn again while
 * it would be a reserved first path segment (an 'SQ' start is a staff page). Throws RangeError
 * for a source that does not give the characters asked for.
 */
export function newGroupId(randomChars: (n: number) => string): string {
  for (;;) {
    const id = randomChars(ID_LENGTHS.group);
    if (typeof id !== 'string' || !GROUP_ID_PATTERN.test(id)) {
      throw new RangeError(
        `newGroupId needs ${ID_LENGTHS.group} characters of DEVICE_ID_ALPHABET from its random source`,
      );
    }
    if (!isReservedPathSegment(id)) return id;
  }
}

/** A new view id: 'v-' plus 8 characters from the given random source (10 characters in all). */
export function newViewId(randomChars: (n: number) => string): string {
  const suffix = randomChars(VIEW_ID_RANDOM_LENGTH);
  if (typeof suffix !== 'string' || suffix.length !== VIEW_ID_RANDOM_LENGTH || !/^[A-Za-z0-9]+$/.test(suffix)) {
    throw new RangeError(`newViewId needs ${VIEW_ID_RANDOM_LENGTH} letters or digits from its random source`);
  }
  return `v-${suffix}`;
}

/**
 * First path segments that belong to routes and so are never group ids (DESIGN.md section 5),
 * plus the server's own prefixes (api, docs, legal, brands, assets). Anything starting 'sq'
 * is reserved for staff pages too.
 */
export const RESERVED_PATH_SEGMENTS = [
  'account',
  'add',
  'data',
  'raw',
  'config',
  'users',
  'diag',
  'script',
  'serverlog',
  'widget',
  'chart',
  'plans',
  'subscriptions',
  'support',
  'group',
  'custom',
  'fcc',
  'login',
  'signup',
  'resetpassword',
  'verify',
  'api',
  'docs',
  'legal',
  'brands',
  'assets',
] as const;

const RESERVED = new Set<string>(RESERVED_PATH_SEGMENTS);

/** True when a first path segment is a route (or staff 'sq*' page) rather than a group id; case-insensitive like the router. */
export function isReservedPathSegment(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const lower = value.toLowerCase();
  return RESERVED.has(lower) || lower.startsWith('sq');
}
