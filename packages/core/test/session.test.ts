import { describe, expect, it } from 'vitest';
import {
  LOGIN_REDIRECT_PARAM,
  SIGNED_OUT_STATE,
  isPublicPath,
  isSignedOutOnlyPath,
  loginRedirectPath,
  parseUserGroups,
  safeRedirectTarget,
  sessionStateFromUser,
} from '../src/index';
import { makeSessionState, makeUserInfo } from '../src/testing';

describe('session state (AUTH-17, AUTH-18)', () => {
  it('AUTH-18: the state has exactly the spec fields', () => {
    expect(Object.keys(SIGNED_OUT_STATE).sort()).toEqual([
      'brandImageUrl',
      'isAuthenticated',
      'userGroups',
      'userGroupsLoaded',
      'userInfo',
    ]);
    expect(Object.keys(makeSessionState()).sort()).toEqual(Object.keys(SIGNED_OUT_STATE).sort());
  });

  it('AUTH-17: the claims [distributors] give userGroups [distributors], loaded', () => {
    const s = sessionStateFromUser(makeUserInfo({ userGroups: ['distributors'] }));
    expect(s.userGroups).toEqual(['distributors']);
    expect(s.userGroupsLoaded).toBe(true);
    expect(s.isAuthenticated).toBe(true);
  });

  it('carries the user and the sub-brand logo', () => {
    const user = makeUserInfo({ brandImageUrl: '/api/files/logo.png' });
    const s = sessionStateFromUser(user);
    expect(s.userInfo).toBe(user);
    expect(s.brandImageUrl).toBe('/api/files/logo.png');
    expect(sessionStateFromUser(makeUserInfo({ brandImageUrl: '' })).brandImageUrl).toBeNull();
  });

  it.each([null, undefined])('%j gives the signed-out state', (user) => {
    expect(sessionStateFromUser(user)).toEqual(SIGNED_OUT_STATE);
    expect(SIGNED_OUT_STATE).toEqual({
      isAuthenticated: false,
      userGroups: [],
      userGroupsLoaded: false,
      userInfo: null,
      brandImageUrl: null,
    });
  });

  it('the signed-out state cannot be changed by a caller', () => {
    expect(Object.isFrozen(SIGNED_OUT_STATE)).toBe(true);
    sessionStateFromUser(null).userGroups.push('senquip_admin');
    expect(SIGNED_OUT_STATE.userGroups).toEqual([]);
  });

  it.each<[unknown, string[]]>([
    [['distributors'], ['distributors']],
    [
      ['senquip_admin', 'distributors', 'senquip_admin'],
      ['senquip_admin', 'distributors'],
    ],
    [['admins', '', '__proto__', 'SENQUIP_ADMIN', 3, null], []],
    [['provisioning_account', 'other'], ['provisioning_account']],
    [null, []],
    ['distributors', []],
    [{ 0: 'distributors', length: 1 }, []],
  ])('parseUserGroups(%j) -> %j', (claims, groups) => expect(parseUserGroups(claims)).toEqual(groups));
});

describe('login redirect', () => {
  it('the parameter is redirect', () => expect(LOGIN_REDIRECT_PARAM).toBe('redirect'));

  it.each([
    ['/data/AB12CD34E', '', '/login?redirect=%2Fdata%2FAB12CD34E'],
    [
      '/group/G1234567890/v-abcdefgh',
      '?x=1&y=2',
      '/login?redirect=%2Fgroup%2FG1234567890%2Fv-abcdefgh%3Fx%3D1%26y%3D2',
    ],
    ['/plans', 'a=b', '/login?redirect=%2Fplans%3Fa%3Db'],
    ['/', '', '/login?redirect=%2F'],
  ])('loginRedirectPath(%s, %s) -> %s', (path, search, out) => {
    expect(loginRedirectPath(path, search)).toBe(out);
    expect(new URLSearchParams(out.split('?')[1]).get('redirect')).toBe(
      path + (search && !search.startsWith('?') ? `?${search}` : search),
    );
  });

  it.each<[string | null | undefined, string]>([
    ['/data/AB12CD34E', '/data/AB12CD34E'],
    ['/group/G1?x=1#h', '/group/G1?x=1#h'],
    ['/', '/'],
    [null, '/'],
    [undefined, '/'],
    ['', '/'],
    ['data', '/'],
    ['https://evil.example', '/'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['/\t/evil.example', '/'],
    ['/\n/evil.example', '/'],
    ['/ok path', '/'],
    ['javascript:alert(1)', '/'],
    ['/login', '/'],
    ['/login?redirect=%2Fx', '/'],
    ['/LOGIN', '/'],
    ['/signup', '/'],
    ['/verify/abc', '/'],
    ['/resetpassword/abc', '/'],
    ['/__proto__', '/__proto__'],
    [`/${'a'.repeat(5000)}`, '/'],
  ])('safeRedirectTarget(%j) -> %s', (param, out) => expect(safeRedirectTarget(param)).toBe(out));

  it('every accepted target resolves to the same origin', () => {
    for (const t of ['/a', '/a/b?c=d', '/%2F%2Fevil.example', '/.%2e/x']) {
      const target = safeRedirectTarget(t);
      expect(new URL(target, 'https://portal.example').origin).toBe('https://portal.example');
    }
  });

  it.each([
    ['/login', true, true],
    ['/signup', true, true],
    ['/resetpassword', true, true],
    ['/resetpassword/code', true, true],
    ['/verify/code', true, true],
    ['/fcc', false, true],
    ['/', false, false],
    ['/account', false, false],
    ['/loginx', false, false],
  ])('%s: signed-out only %s, public %s', (path, signedOutOnly, open) => {
    expect(isSignedOutOnlyPath(path)).toBe(signedOutOnly);
    expect(isPublicPath(path)).toBe(open);
  });
});
