/** Session state of the web app and the login redirect rules (spec 1 sections 2-4). */

import { USER_GROUPS, type UserGroup, type UserInfo } from '../contracts/auth';

/** The session state of spec 1 section 3. */
export interface SessionState {
  isAuthenticated: boolean;
  userGroups: UserGroup[];
  userGroupsLoaded: boolean;
  userInfo: UserInfo | null;
  /** Optional customer (sub-brand) logo. */
  brandImageUrl: string | null;
}

/** The state when nobody is signed in. */
export const SIGNED_OUT_STATE: Readonly<SessionState> = Object.freeze({
  isAuthenticated: false,
  userGroups: [],
  userGroupsLoaded: false,
  userInfo: null,
  brandImageUrl: null,
});

/** The known user groups in a claim list, each once, in the list's order; anything else is dropped. */
export function parseUserGroups(claims: unknown): UserGroup[] {
  if (!Array.isArray(claims)) return [];
  const out: UserGroup[] = [];
  for (const claim of claims) {
    if (
      typeof claim === 'string' &&
      (USER_GROUPS as readonly string[]).includes(claim) &&
      !out.includes(claim as UserGroup)
    ) {
      out.push(claim as UserGroup);
    }
  }
  return out;
}

/** The session state for a signed-in user, or the signed-out state for null. */
export function sessionStateFromUser(user: UserInfo | null | undefined): SessionState {
  if (user === null || user === undefined) return { ...SIGNED_OUT_STATE, userGroups: [] };
  return {
    isAuthenticated: true,
    userGroups: parseUserGroups(user.userGroups),
    userGroupsLoaded: true,
    userInfo: user,
    brandImageUrl: typeof user.brandImageUrl === 'string' && user.brandImageUrl !== '' ? user.brandImageUrl : null,
  };
}

/** The query parameter that carries the path to return to after sign-in. */
export const LOGIN_REDIRECT_PARAM = 'redirect';
/** Longest redirect target accepted. */
export const REDIRECT_MAX_LENGTH = 2048;

/** Routes only for signed-out users; a signed-in user who opens one goes to '/'. */
export const SIGNED_OUT_ONLY_SEGMENTS = ['login', 'signup', 'resetpassword', 'verify'] as const;
/** Routes open to anyone. */
export const OPEN_SEGMENTS = ['fcc'] as const;

function firstSegment(pathname: string): string {
  return (pathname.split(/[?#]/, 1)[0] ?? '').split('/')[1]?.toLowerCase() ?? '';
}

/** True for /login, /signup, /resetpassword(/code) and /verify/code. */
export function isSignedOutOnlyPath(pathname: string): boolean {
  return (SIGNED_OUT_ONLY_SEGMENTS as readonly string[]).includes(firstSegment(pathname));
}

/** True for paths a signed-out user may open (signed-out-only routes and /fcc). */
export function isPublicPath(pathname: string): boolean {
  return isSignedOutOnlyPath(pathname) || (OPEN_SEGMENTS as readonly string[]).includes(firstSegment(pathname));
}

/** Where an unauthenticated visit to a protected path goes: '/login?redirect=' + the encoded path and query. */
export function loginRedirectPath(pathname: string, search = ''): string {
  const query = search === '' || search.startsWith('?') ? search : `?${search}`;
  return `/login?${LOGIN_REDIRECT_PARAM}=${encodeURIComponent(pathname + query)}`;
}

/**
 * A safe place to go after sign-in: the redirect parameter when it is a same-site path, else '/'.
 * Refused: missing, not starting with '/', protocol-relative ('//x', '/\x'), control characters
 * or white space (browsers drop tabs and newlines, making '/\t/x' into '//x'), over-long values,
 * and the signed-out-only routes (which would loop).
 */
export function safeRedirectTarget(param: string | null | undefined): string {
  if (typeof param !== 'string' || param === '' || param.length > REDIRECT_MAX_LENGTH) return '/';
  if (!param.startsWith('/') || param.startsWith('//') || param.startsWith('/\\')) return '/';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u009f\u2028\u2029\\]/.test(param)) return '/';
  if (isSignedOutOnlyPath(param)) return '/';
  return param;
}
