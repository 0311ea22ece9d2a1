import { describe, expect, it } from 'vitest';
import {
  DEFAULT_VIEW_ID,
  DEVICE_ID_PATTERN,
  ID_LENGTHS,
  RESERVED_PATH_SEGMENTS,
  charsFromBytes,
  classifyId,
  findDeviceIdInPath,
  isDevicePathId,
  isReservedPathSegment,
  navigationTarget,
  newViewId,
  supportLink,
  type IdKind,
} from '../src/index';

const LONG = 'A'.repeat(100_000);

describe('id lengths', () => {
  it('are device 9, group 11, view 10, tag 12', () => {
    expect(ID_LENGTHS).toEqual({ device: 9, group: 11, view: 10, tag: 12 });
  });

  it.each<[unknown, IdKind]>([
    ['AB12CD34E', 'device'], // CONST-01 length
    ['G1234567890', 'group'], // CONST-02
    ['v-abcdefgh', 'view'], // CONST-03
    ['T12345678901', 'tag'], // CONST-04
    ['ABCDEFGH', 'unknown'], // CONST-05: 8
    ['ABCDEFGHIJKLM', 'unknown'], // CONST-05: 13
    ['', 'unknown'],
    ['__proto__', 'device'], // length rule only: 9 characters
    ['view1', 'unknown'],
    [null, 'unknown'],
    [undefined, 'unknown'],
    [123456789, 'unknown'],
    [LONG, 'unknown'],
  ])('classifyId(%j) -> %s', (id, kind) => expect(classifyId(id)).toBe(kind));
});

describe('CONST-01 device id pattern', () => {
  it.each([
    ['AB12CD34E', true],
    ['123456789', true],
    ['ab12cd34e', false],
    ['AB12CD34', false],
    ['AB12CD34EF', false],
    ['AB12-D34E', false],
    ['AB12CD34E\n', false],
    ['', false],
    ['__proto__', false],
  ])('%j -> %s', (id, ok) => {
    expect(DEVICE_ID_PATTERN.test(id)).toBe(ok);
    expect(isDevicePathId(id)).toBe(ok);
  });
  it('isDevicePathId refuses non-strings', () => {
    expect(isDevicePathId(null)).toBe(false);
    expect(isDevicePathId(123456789)).toBe(false);
  });
});

describe('device id in a path and the Support link (BRD-22)', () => {
  it.each<[unknown, string | null, string]>([
    ['/data/AB12CD34E', 'AB12CD34E', '/support/AB12CD34E'],
    ['/G1234567890/data/AB12CD34E', 'AB12CD34E', '/support/AB12CD34E'],
    ['/config/AB12CD34E/', 'AB12CD34E', '/support/AB12CD34E'],
    ['/widget/AB12CD34E/widget1', 'AB12CD34E', '/support/AB12CD34E'],
    ['/support/AB12CD34E', 'AB12CD34E', '/support/AB12CD34E'],
    ['/data/AB12CD34E?x=1#y', 'AB12CD34E', '/support/AB12CD34E'],
    ['/group/x', null, '/support'],
    // A virtual device's id ('0-' + 7: DESIGN.md section 5, ledger I-05).
    ['/data/0-ABC1234', '0-ABC1234', '/support/0-ABC1234'],
    ['/custom/securified/0-ABC1234', '0-ABC1234', '/support/0-ABC1234'],
    ['/data/0-abc1234', null, '/support'],
    ['/data/0-ABC12345', null, '/support'],
    ['/data/1-ABC1234', null, '/support'],
    ['/data/ab12cd34e', null, '/support'],
    ['/data/AB12CD34', null, '/support'],
    ['/data/AB12CD34EF', null, '/support'],
    ['/data/xAB12CD34E', null, '/support'],
    ['/?q=AB12CD34E', null, '/support'],
    ['/', null, '/support'],
    ['', null, '/support'],
    ['__proto__', null, '/support'],
    [null, null, '/support'],
    [undefined, null, '/support'],
    [`/${LONG}`, null, '/support'],
  ])('%j', (path, id, link) => {
    expect(findDeviceIdInPath(path)).toBe(id);
    expect(supportLink(path)).toBe(link);
  });
});

describe('navigation helper (HOME-10 to HOME-13)', () => {
  it.each<[string | null | undefined, string | null | undefined, string, 'device' | 'group' | null]>([
    ['AB12CD34E', undefined, '/data/AB12CD34E', 'device'], // HOME-10
    ['AB12CD34E', 'G1234567890', '/data/AB12CD34E', 'device'],
    ['v-abcdefgh', 'G1234567890', '/group/G1234567890/v-abcdefgh', null], // HOME-11
    ['v-abcdefgh', undefined, '/', null],
    ['v-abcdefgh', '', '/', null],
    ['G1234567890', undefined, '/group/G1234567890', 'group'], // HOME-12
    ['T12345678901', undefined, '/group/T12345678901', 'group'], // I-03: the helper treats tags as groups
    ['view1', 'G1234567890', '/group/view1', 'group'], // I-04: length rule kept
    [undefined, undefined, '/', null], // HOME-13
    [null, 'G1234567890', '/', null],
    ['', undefined, '/', null],
    ['..', undefined, '/', null],
    ['a/b?c#d', undefined, '/group/a%2Fb%3Fc%23d', 'group'],
    ['__proto__', undefined, '/data/__proto__', 'device'],
  ])('navigationTarget(%j, %j) -> %s', (id, groupid, path, recent) => {
    expect(navigationTarget(id, groupid)).toEqual({ path, recent });
  });
});

describe('view ids', () => {
  it('DEFAULT_VIEW_ID is view1', () => expect(DEFAULT_VIEW_ID).toBe('view1'));

  it('VIEW-07: v- plus 8 characters, unique across 1000 generations with a real random source', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i += 1) {
      const id = newViewId((n) => charsFromBytes(crypto.getRandomValues(new Uint8Array(n))));
      expect(id).toMatch(/^v-[a-z0-9]{8}$/);
      expect(classifyId(id)).toBe('view');
      seen.add(id);
    }
    expect(seen.size).toBe(1000);
  });

  it('asks the random source for exactly 8 characters', () => {
    const asked: number[] = [];
    expect(
      newViewId((n) => {
        asked.push(n);
        return 'ABCDefgh';
      }),
    ).toBe('v-ABCDefgh');
    expect(asked).toEqual([8]);
  });

  it.each(['abc', 'abcdefghi', 'abcd/fgh', '', '__proto'])('refuses a random source giving %j', (bad) => {
    expect(() => newViewId(() => bad)).toThrow(RangeError);
  });

  it('charsFromBytes maps bytes onto the alphabet', () => {
    expect(charsFromBytes([0, 1, 35, 36, 255])).toBe('ab9a' + 'abcdefghijklmnopqrstuvwxyz0123456789'[255 % 36]);
    expect(charsFromBytes([], 'xy')).toBe('');
  });
});

describe('reserved path segments', () => {
  it('holds the DESIGN.md list', () => {
    for (const s of [
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
    ]) {
      expect(RESERVED_PATH_SEGMENTS).toContain(s);
    }
  });

  it.each<[unknown, boolean]>([
    ['account', true],
    ['Account', true],
    ['sqadmin', true],
    ['sqprov', true],
    ['SQanything', true],
    ['api', true],
    ['G1234567890', false],
    ['accounts', false],
    ['', false],
    ['__proto__', false],
    ['constructor', false],
    [null, false],
    [LONG, false],
  ])('isReservedPathSegment(%j) -> %s', (s, out) => expect(isReservedPathSegment(s)).toBe(out));
});
