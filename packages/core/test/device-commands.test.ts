/** Who may queue and cancel a device command (spec 2 sections 6 and 7; TRG-01, API-41). */
import { describe, expect, it } from 'vitest';
import { COMMAND_STATES, DEVICE_ROLES, TRIGGER_COMMAND, canCancelCommand, commandCapability } from '../src/index';

describe('commandCapability', () => {
  it('a trigger needs triggers; every other method, or no method, editDeviceSettings', () => {
    expect(commandCapability(TRIGGER_COMMAND)).toBe('triggers');
    for (const method of ['Admin.Reboot', 'admin.trigger', '', '__proto__', null, undefined, 7])
      expect(commandCapability(method)).toBe('editDeviceSettings');
  });
});

describe('canCancelCommand', () => {
  const expected = {
    [TRIGGER_COMMAND]: { ADMIN: true, USER: true, OPERATOR: true, VIEW: false },
    'Sys.Config': { ADMIN: true, USER: true, OPERATOR: false, VIEW: false },
  } as const;

  it('a queued command: by the capability table for its method', () => {
    for (const [method, roles] of Object.entries(expected))
      for (const role of DEVICE_ROLES)
        expect(canCancelCommand(role, { method, state: 'queued' }), `${role} ${method}`).toBe(roles[role]);
  });

  it('any other state, or an unknown role, never', () => {
    for (const state of [...COMMAND_STATES.filter((s) => s !== 'queued'), 'QUEUED', '', null, undefined])
      for (const role of DEVICE_ROLES) expect(canCancelCommand(role, { method: TRIGGER_COMMAND, state })).toBe(false);
    for (const role of ['admin', '', '__proto__', null, undefined])
      expect(canCancelCommand(role, { method: TRIGGER_COMMAND, state: 'queued' })).toBe(false);
  });
});
