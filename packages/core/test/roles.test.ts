import { describe, expect, it } from 'vitest';
import {
  CAPABILITIES,
  DEVICE_ROLES,
  ROLE_CAPABILITIES,
  can,
  canOpenStaffPage,
  canUseDistributorTools,
  effectiveRole,
  higherRole,
  homeRedirectFor,
  isDistributor,
  isProvisioning,
  isStaffAdmin,
  parseRole,
  permissionFlags,
  roleAtLeast,
  type Capability,
  type DeviceRole,
} from '../src/index';

// The table of spec 2 section 6, written out as the spec prints it.
const SPEC_TABLE: [Capability, boolean, boolean, boolean, boolean][] = [
  ['viewUsers', true, true, false, false],
  ['editUsers', true, false, false, false],
  ['editDisplaySettings', true, true, false, false],
  ['editDeviceSettings', true, true, false, false],
  ['editDeviceNotes', true, false, false, false],
  ['adminSettings', true, false, false, false],
  ['scripting', true, true, false, false],
  ['diagnostics', true, true, false, false],
  ['triggers', true, true, true, false],
  ['customSettings', true, true, true, false],
  ['serverLog', true, false, false, false],
];

describe('device roles', () => {
  it('are ADMIN, USER, OPERATOR, VIEW', () => expect(DEVICE_ROLES).toEqual(['ADMIN', 'USER', 'OPERATOR', 'VIEW']));

  it.each<[unknown, DeviceRole]>([
    ['ADMIN', 'ADMIN'],
    ['USER', 'USER'],
    ['OPERATOR', 'OPERATOR'],
    ['VIEW', 'VIEW'],
    ['admin', 'VIEW'],
    [' ADMIN', 'VIEW'],
    ['OWNER', 'VIEW'],
    ['', 'VIEW'],
    ['__proto__', 'VIEW'],
    ['constructor', 'VIEW'],
    ['toString', 'VIEW'],
    [null, 'VIEW'],
    [undefined, 'VIEW'],
    [3, 'VIEW'],
    [{ role: 'ADMIN' }, 'VIEW'],
    [['ADMIN'], 'VIEW'],
    ['A'.repeat(100_000), 'VIEW'],
  ])('parseRole(%j) -> %s', (input, role) => expect(parseRole(input)).toBe(role));
});

describe('capability table (spec 2 section 6)', () => {
  it('covers exactly the spec capabilities', () => {
    expect([...CAPABILITIES].sort()).toEqual(SPEC_TABLE.map((r) => r[0]).sort());
  });

  const cells = SPEC_TABLE.flatMap(([cap, ...allowed]) =>
    DEVICE_ROLES.map((role, i) => [role, cap, allowed[i]] as const),
  );
  it.each(cells)('can(%s, %s) -> %s', (role, cap, allowed) => {
    expect(can(role, cap)).toBe(allowed);
    expect(ROLE_CAPABILITIES[role][cap]).toBe(allowed);
  });

  it.each(['', '__proto__', null, 'admin', 'superuser'])('an unknown role %j has VIEW rights', (role) => {
    for (const cap of CAPABILITIES) expect(can(role, cap)).toBe(can('VIEW', cap));
  });

  it('an unknown capability is refused', () => {
    expect(can('ADMIN', '__proto__' as Capability)).toBe(false);
    expect(can('ADMIN', 'toString' as Capability)).toBe(false);
  });

  it('higher roles have every capability of lower roles', () => {
    for (let i = 1; i < DEVICE_ROLES.length; i += 1) {
      for (const cap of CAPABILITIES) {
        if (can(DEVICE_ROLES[i], cap)) expect(can(DEVICE_ROLES[i - 1], cap)).toBe(true);
      }
    }
  });
});

describe('permission flags', () => {
  it.each<[unknown, ReturnType<typeof permissionFlags>]>([
    [
      'ADMIN',
      {
        editDeviceNotes: true,
        editDisplaySettings: true,
        editDeviceSettings: true,
        accessTriggers: true,
        accessCustomSettings: true,
      },
    ],
    [
      'USER',
      {
        editDeviceNotes: false,
        editDisplaySettings: true,
        editDeviceSettings: true,
        accessTriggers: true,
        accessCustomSettings: true,
      },
    ],
    [
      'OPERATOR',
      {
        editDeviceNotes: false,
        editDisplaySettings: false,
        editDeviceSettings: false,
        accessTriggers: true,
        accessCustomSettings: true,
      },
    ],
    [
      'VIEW',
      {
        editDeviceNotes: false,
        editDisplaySettings: false,
        editDeviceSettings: false,
        accessTriggers: false,
        accessCustomSettings: false,
      },
    ],
    [
      'bogus',
      {
        editDeviceNotes: false,
        editDisplaySettings: false,
        editDeviceSettings: false,
        accessTriggers: false,
        accessCustomSettings: false,
      },
    ],
    [
      null,
      {
        editDeviceNotes: false,
        editDisplaySettings: false,
        editDeviceSettings: false,
        accessTriggers: false,
        accessCustomSettings: false,
      },
    ],
  ])('permissionFlags(%j)', (role, flags) => expect(permissionFlags(role)).toEqual(flags));
});

describe('effectiveRole', () => {
  it.each<[(DeviceRole | null | undefined)[], DeviceRole | null]>([
    [[], null],
    [[null, undefined], null],
    [['VIEW'], 'VIEW'],
    [['VIEW', 'ADMIN', 'OPERATOR'], 'ADMIN'],
    [['OPERATOR', 'USER'], 'USER'],
    [['__proto__' as DeviceRole, 'VIEW'], 'VIEW'],
    [['' as DeviceRole], null],
  ])('effectiveRole(%j) -> %j', (roles, out) => expect(effectiveRole(roles)).toBe(out));
});

describe('higherRole', () => {
  const pairs = DEVICE_ROLES.flatMap((a, i) =>
    DEVICE_ROLES.map((b, j) => [a, b, DEVICE_ROLES[Math.min(i, j)]] as const),
  );
  it.each(pairs)('higherRole(%s, %s) -> %s', (a, b, out) => expect(higherRole(a, b)).toBe(out));

  it.each<[DeviceRole | null | undefined, DeviceRole | null | undefined, DeviceRole | null]>([
    [null, 'VIEW', 'VIEW'],
    ['USER', undefined, 'USER'],
    [null, null, null],
    [undefined, undefined, null],
    ['bogus' as DeviceRole, 'OPERATOR', 'OPERATOR'],
  ])('with a missing role: higherRole(%j, %j) -> %j', (a, b, out) => expect(higherRole(a, b)).toBe(out));

  it.each<[unknown, DeviceRole, boolean]>([
    ['ADMIN', 'USER', true],
    ['USER', 'USER', true],
    ['OPERATOR', 'USER', false],
    ['bogus', 'VIEW', true],
    ['bogus', 'OPERATOR', false],
  ])('roleAtLeast(%j, %s) -> %s', (role, min, out) => expect(roleAtLeast(role, min)).toBe(out));
});

describe('user groups', () => {
  it.each<[readonly string[] | null | undefined, boolean, boolean, boolean, '/sqprov' | null]>([
    [['senquip_admin'], true, false, false, null],
    [['distributors'], false, true, false, null],
    [['provisioning_account'], false, false, true, '/sqprov'],
    [['senquip_admin', 'distributors', 'provisioning_account'], true, true, true, '/sqprov'],
    [[], false, false, false, null],
    [['SENQUIP_ADMIN', ' distributors', '__proto__', ''], false, false, false, null],
    [null, false, false, false, null],
    [undefined, false, false, false, null],
  ])('%j', (groups, staff, distributor, provisioning, home) => {
    expect(isStaffAdmin(groups)).toBe(staff);
    expect(isDistributor(groups)).toBe(distributor);
    expect(isProvisioning(groups)).toBe(provisioning);
    expect(homeRedirectFor(groups)).toBe(home);
  });

  it('a non-array is never a member', () => {
    expect(isStaffAdmin('senquip_admin' as unknown as string[])).toBe(false);
  });

  it.each<[string[], unknown, boolean]>([
    [['distributors'], 'ADMIN', true],
    [['distributors'], 'USER', false],
    [['senquip_admin'], 'ADMIN', false],
    [[], 'ADMIN', false],
    [['distributors'], 'admin', false],
  ])('HDR-05 canUseDistributorTools(%j, %j) -> %s', (groups, role, ok) =>
    expect(canUseDistributorTools(groups, role)).toBe(ok),
  );

  it.each<[string[], string, boolean]>([
    [['senquip_admin'], 'sqadmin', true],
    [['senquip_admin'], 'sqtools', true],
    [['senquip_admin'], 'sqstats', true],
    [['senquip_admin'], 'sqpacking', true],
    [['senquip_admin'], 'sqprov', true],
    [['distributors'], 'sqprov', false],
    [['provisioning_account'], 'sqprov', true],
    [['provisioning_account'], 'sqadmin', false],
    [['distributors'], 'sqadmin', false],
    [['senquip_admin'], '__proto__', false],
    [['senquip_admin'], 'toString', false],
    [['senquip_admin'], '', false],
  ])('canOpenStaffPage(%j, %s) -> %s', (groups, page, ok) => expect(canOpenStaffPage(groups, page)).toBe(ok));
});
