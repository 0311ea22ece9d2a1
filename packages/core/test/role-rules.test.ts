/**
 * The rules that look like role checks, named in core so no server module compares a role name
 * by hand (issue 33): add-without-password's stored mode, the claim's group placement, the
 * last-ADMIN count, custom settings key by key, and who changes a subscription. Every role, and
 * hostile inputs, for each.
 */
import { describe, expect, it } from 'vitest';
import {
  DEVICE_ROLES,
  adminCount,
  canChangeSubscription,
  canEditCustomSetting,
  claimPlacesInGroup,
  editsCustomSettingsPerKey,
  noPassActive,
  noPassModeFor,
  removesLastAdmin,
} from '../src/index';

const HOSTILE: unknown[] = ['', '__proto__', 'constructor', 'admin', ' ADMIN', null, undefined, 3, {}, ['ADMIN']];

describe('add-without-password (Distributor Tools no-pass)', () => {
  it.each<[unknown, boolean]>([
    ['ADMIN', true],
    ['INACTIVE', false],
    ...HOSTILE.map((v): [unknown, boolean] => [v, false]),
  ])('noPassActive(%j) -> %s', (mode, on) => expect(noPassActive(mode)).toBe(on));

  it.each<[unknown, string]>([
    ['ADMIN', 'ADMIN'],
    ['DISABLE', 'INACTIVE'],
    ...HOSTILE.map((v): [unknown, string] => [v, 'INACTIVE']),
  ])('noPassModeFor(%j) -> %s', (asked, mode) => expect(noPassModeFor(asked)).toBe(mode));

  it('a mode asked for reads back as asked', () => {
    expect(noPassActive(noPassModeFor('ADMIN'))).toBe(true);
    expect(noPassActive(noPassModeFor('DISABLE'))).toBe(false);
  });
});

describe('rules by role', () => {
  const EXPECTED = {
    ADMIN: { placed: true, perKey: false, subscription: true },
    USER: { placed: false, perKey: false, subscription: false },
    OPERATOR: { placed: false, perKey: true, subscription: false },
    VIEW: { placed: false, perKey: false, subscription: false },
  } as const;

  it.each(DEVICE_ROLES.map((role) => [role, EXPECTED[role]] as const))('%s: %j', (role, expected) => {
    expect(claimPlacesInGroup(role)).toBe(expected.placed);
    expect(editsCustomSettingsPerKey(role)).toBe(expected.perKey);
    expect(canChangeSubscription(role)).toBe(expected.subscription);
  });

  it.each(HOSTILE)('%j is no role: no placement, no subscription change', (value) => {
    expect(claimPlacesInGroup(value)).toBe(false);
    expect(canChangeSubscription(value)).toBe(false);
  });

  it('editsCustomSettingsPerKey agrees with canEditCustomSetting for every role', () => {
    const locked = { operatorEditable: false };
    for (const role of DEVICE_ROLES) {
      if (editsCustomSettingsPerKey(role)) expect(canEditCustomSetting(role, locked)).toBe(false);
    }
    expect(canEditCustomSetting('OPERATOR', { operatorEditable: true })).toBe(true);
  });
});

describe('adminCount (the last-ADMIN rule)', () => {
  it.each<[unknown[], number]>([
    [[], 0],
    [['ADMIN'], 1],
    [['ADMIN', 'USER', 'ADMIN', 'VIEW', 'OPERATOR'], 2],
    [HOSTILE, 0],
  ])('adminCount(%j) -> %d', (roles, n) => expect(adminCount(roles)).toBe(n));

  it('a lone ADMIN leaving or stepping down removes the last ADMIN; one of two does not', () => {
    expect(removesLastAdmin('ADMIN', null, adminCount(['ADMIN', 'USER']))).toBe(true);
    expect(removesLastAdmin('ADMIN', 'USER', adminCount(['ADMIN', 'ADMIN']))).toBe(false);
  });
});
