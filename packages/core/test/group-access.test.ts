import { describe, expect, it } from 'vitest';
import { DEVICE_ROLES, GROUP_CAPABILITIES, groupCan, type DeviceRole, type GroupCapability } from '../src/index';

// DESIGN.md section 5, written out: ADMIN does everything; ADMIN and USER see e-mails and edit
// views; only ADMIN reads the log; every member may leave.
const TABLE: [GroupCapability, Record<DeviceRole, boolean>][] = [
  ['rename', { ADMIN: true, USER: false, OPERATOR: false, VIEW: false }],
  ['manageMembers', { ADMIN: true, USER: false, OPERATOR: false, VIEW: false }],
  ['seeMemberEmails', { ADMIN: true, USER: true, OPERATOR: false, VIEW: false }],
  ['manageDevices', { ADMIN: true, USER: false, OPERATOR: false, VIEW: false }],
  ['editViews', { ADMIN: true, USER: true, OPERATOR: false, VIEW: false }],
  ['serverLog', { ADMIN: true, USER: false, OPERATOR: false, VIEW: false }],
  ['deleteGroup', { ADMIN: true, USER: false, OPERATOR: false, VIEW: false }],
  ['leave', { ADMIN: true, USER: true, OPERATOR: true, VIEW: true }],
];

describe('groupCan', () => {
  it('covers every capability', () => {
    expect(TABLE.map(([c]) => c).sort()).toEqual([...GROUP_CAPABILITIES].sort());
  });

  it.each(TABLE)('%s', (capability, row) => {
    for (const level of DEVICE_ROLES) expect(groupCan(level, capability)).toBe(row[level]);
  });

  it('reads anything unknown as VIEW', () => {
    for (const level of ['', 'admin', '__proto__', null, undefined, 3, {}]) {
      expect(groupCan(level, 'rename')).toBe(false);
      expect(groupCan(level, 'leave')).toBe(true);
    }
  });

  it('refuses a capability that is not in the table', () => {
    expect(groupCan('ADMIN', 'toString' as GroupCapability)).toBe(false);
    expect(groupCan('ADMIN', '__proto__' as GroupCapability)).toBe(false);
  });
});
