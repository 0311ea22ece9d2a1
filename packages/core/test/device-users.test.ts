/** Adding a device with its setup password, add-without-password, and the last ADMIN (DESIGN.md section 5). */
import { describe, expect, it } from 'vitest';
import {
  DEVICE_ROLES,
  canUseDistributorTools,
  deviceAddOutcome,
  removesLastAdmin,
  type DeviceAddInput,
  type DeviceRole,
} from '../src/index';

const add = (overrides: Partial<DeviceAddInput> = {}) =>
  deviceAddOutcome({
    current: null,
    userCount: 0,
    addWithoutPassword: false,
    passwordOk: true,
    addedTs: null,
    trialResetActive: false,
    ...overrides,
  });

describe('removesLastAdmin', () => {
  it('an ADMIN leaving ADMIN (or removed) with no other ADMIN is refused', () => {
    for (const next of ['USER', 'OPERATOR', 'VIEW', null, undefined, '', 'admin', '__proto__'] as unknown[]) {
      expect(removesLastAdmin('ADMIN', next, 1)).toBe(true);
      expect(removesLastAdmin('ADMIN', next, 0)).toBe(true);
      expect(removesLastAdmin('ADMIN', next, 2)).toBe(false);
      expect(removesLastAdmin('ADMIN', next, 50)).toBe(false);
    }
  });

  it('an ADMIN staying ADMIN, or anyone else changing, never removes the last ADMIN', () => {
    expect(removesLastAdmin('ADMIN', 'ADMIN', 1)).toBe(false);
    for (const current of ['USER', 'OPERATOR', 'VIEW', null, '', 'admin', '__proto__'] as unknown[])
      for (const next of [...DEVICE_ROLES, null] as unknown[]) expect(removesLastAdmin(current, next, 1)).toBe(false);
  });

  it('a count that is not a number is treated as the last ADMIN (refused, the safe side)', () => {
    for (const count of [NaN, undefined, null, '5', -1] as never[])
      expect(removesLastAdmin('ADMIN', 'VIEW', count)).toBe(true);
  });
});

describe('deviceAddOutcome', () => {
  it('a wrong setup password is refused unless add-without-password is on', () => {
    expect(add({ passwordOk: false })).toEqual({ kind: 'refused' });
    expect(add({ passwordOk: false, current: 'VIEW', userCount: 3 })).toEqual({ kind: 'refused' });
    expect(add({ passwordOk: false, current: 'ADMIN', userCount: 3 })).toEqual({ kind: 'refused' });
    expect(add({ passwordOk: 'yes' as never })).toEqual({ kind: 'refused' });
    expect(add({ passwordOk: false, addWithoutPassword: true }).kind).toBe('granted');
  });

  it('the first user becomes ADMIN and starts the trial', () => {
    expect(add()).toEqual({ kind: 'granted', permission: 'ADMIN', usesAddWithoutPassword: false, startsTrial: true });
  });

  it('later users get VIEW; the trial does not restart', () => {
    expect(add({ userCount: 1, addedTs: 1_700_000_000 })).toEqual({
      kind: 'granted',
      permission: 'VIEW',
      usesAddWithoutPassword: false,
      startsTrial: false,
    });
  });

  it('a user count that is not exactly 0 never makes an ADMIN without add-without-password', () => {
    for (const userCount of [1, 2, NaN, -1, 0.5, undefined, null] as never[])
      expect(add({ userCount })).toMatchObject({ kind: 'granted', permission: 'VIEW' });
  });

  it('add-without-password makes the next user ADMIN, also one who holds a lower role, and is used up', () => {
    for (const current of [null, 'USER', 'OPERATOR', 'VIEW'] as (DeviceRole | null)[]) {
      expect(add({ current, userCount: 2, addWithoutPassword: true, passwordOk: false, addedTs: 1 })).toEqual({
        kind: 'granted',
        permission: 'ADMIN',
        usesAddWithoutPassword: true,
        startsTrial: false,
      });
    }
  });

  it('someone already on the device keeps their role (an ADMIN even with add-without-password)', () => {
    for (const current of DEVICE_ROLES)
      expect(add({ current, userCount: 1 })).toEqual({ kind: 'already', permission: current });
    expect(add({ current: 'ADMIN', addWithoutPassword: true })).toEqual({ kind: 'already', permission: 'ADMIN' });
  });

  it('a current role that is not one of the four counts as none', () => {
    for (const current of ['', 'admin', '__proto__', 'OWNER'] as never[])
      expect(add({ current, userCount: 1 })).toMatchObject({ kind: 'granted', permission: 'VIEW' });
  });

  it('the trial starts on the first add and restarts on the first add after a trial reset', () => {
    expect(add({ addedTs: null })).toMatchObject({ startsTrial: true });
    expect(add({ addedTs: NaN })).toMatchObject({ startsTrial: true });
    expect(add({ addedTs: 1_700_000_000, userCount: 1 })).toMatchObject({ startsTrial: false });
    expect(add({ addedTs: 1_700_000_000, userCount: 1, trialResetActive: true })).toMatchObject({ startsTrial: true });
    // An add that grants nothing new does not touch the trial.
    expect(add({ current: 'VIEW', addedTs: 1, trialResetActive: true })).toEqual({
      kind: 'already',
      permission: 'VIEW',
    });
  });
});

describe('distributor rule (spec 2 section 6: group distributors holding ADMIN)', () => {
  it('is the one gate of the Distributor Tools on both sides', () => {
    expect(canUseDistributorTools(['distributors'], 'ADMIN')).toBe(true);
    for (const role of ['USER', 'OPERATOR', 'VIEW', null, '', 'admin', '__proto__'])
      expect(canUseDistributorTools(['distributors'], role)).toBe(false);
    for (const groups of [
      [],
      ['senquip_admin'],
      ['Distributors'],
      ['distributor'],
      null,
      undefined,
      '__proto__' as never,
    ])
      expect(canUseDistributorTools(groups, 'ADMIN')).toBe(false);
  });
});
