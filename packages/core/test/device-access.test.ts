import { describe, expect, it } from 'vitest';
import { canEditCustomSetting, clockDifferenceText, dataPointsFor, deviceAccess, triggerConfirmation } from '../src';

const settings = (myPermission: unknown, dataToPortal = true, dataStorageDays = 1) => ({
  myPermission,
  deviceSettings: { tier: { dataToPortal }, dataStorageDays },
});

describe('deviceAccess', () => {
  it.each([
    ['ADMIN', true, true, true, true],
    ['USER', true, false, true, true],
    ['OPERATOR', false, false, false, false],
    ['VIEW', false, false, false, false],
    ['FOO', false, false, false, false],
  ] as const)('%s: viewUsers %s, notes %s, display %s, device settings %s', (role, viewUsers, notes, display, dev) => {
    const access = deviceAccess({ settings: settings(role), userGroups: [] });
    expect(access.role).toBe(role === 'FOO' ? 'VIEW' : role);
    expect([access.viewUsers, access.editDeviceNotes, access.editDisplaySettings, access.editDeviceSettings]).toEqual([
      viewUsers,
      notes,
      display,
      dev,
    ]);
    expect(access.error).toBe(false);
    expect(access.dataRestricted).toBe(false);
  });

  it('a failed settings call is VIEW with data restricted and the error flag (HDR-17)', () => {
    const access = deviceAccess({ settings: null, userGroups: ['distributors'] });
    expect(access).toMatchObject({ role: 'VIEW', dataRestricted: true, error: true, distributorTools: false });
    expect(access.accessTriggers).toBe(false);
    expect(dataPointsFor(access)).toBe(1);
  });

  it('a plan without data to the portal restricts data, except for staff admins (HDR-18, HDR-19)', () => {
    expect(deviceAccess({ settings: settings('ADMIN', false), userGroups: [] }).dataRestricted).toBe(true);
    expect(deviceAccess({ settings: settings('ADMIN', false), userGroups: ['senquip_admin'] }).dataRestricted).toBe(
      false,
    );
    expect(dataPointsFor({ dataRestricted: false })).toBe(600);
  });

  it('staff admins get 730 storage days, others the plan figure (HDR-20)', () => {
    expect(deviceAccess({ settings: settings('VIEW', true, 1), userGroups: ['senquip_admin'] }).dataStorageDays).toBe(
      730,
    );
    expect(deviceAccess({ settings: settings('VIEW', true, 1), userGroups: [] }).dataStorageDays).toBe(1);
  });

  it('Distributor Tools: distributors holding ADMIN only (HDR-05)', () => {
    expect(deviceAccess({ settings: settings('ADMIN'), userGroups: ['distributors'] }).distributorTools).toBe(true);
    expect(deviceAccess({ settings: settings('USER'), userGroups: ['distributors'] }).distributorTools).toBe(false);
    expect(deviceAccess({ settings: settings('ADMIN'), userGroups: [] }).distributorTools).toBe(false);
  });
});

describe('custom settings, trigger confirmations and cards', () => {
  it('ADMIN and USER change any custom setting, an OPERATOR only operatorEditable ones, VIEW none (CARD-31, CARD-35)', () => {
    const marked = { operatorEditable: true };
    expect(['ADMIN', 'USER', 'OPERATOR', 'VIEW', 'FOO'].map((r) => canEditCustomSetting(r, undefined))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(canEditCustomSetting('OPERATOR', marked)).toBe(true);
    expect(canEditCustomSetting('VIEW', marked)).toBe(false);
    expect(canEditCustomSetting('OPERATOR', { operatorEditable: 'yes' })).toBe(false);
  });

  it('a trigger asks first when trigger{index} has confirmEnabled (TRG-06)', () => {
    const t = { index: 2, name: 'Horn' };
    expect(triggerConfirmation(t, {})).toBeNull();
    expect(triggerConfirmation(t, { trigger2: { confirmEnabled: true, confirmText: 'Sure' } })).toBe('Sure');
    expect(triggerConfirmation(t, { trigger2: { confirmEnabled: true } })).toBe("Queue 'Horn'?");
    expect(triggerConfirmation(t, { trigger1: { confirmEnabled: true } })).toBeNull();
  });

  it('trigger and custom-settings cards need a plan that sends data to the portal', () => {
    expect(deviceAccess({ settings: settings('OPERATOR'), userGroups: [] })).toMatchObject({
      triggerCard: true,
      customSettingsCard: true,
    });
    expect(deviceAccess({ settings: settings('ADMIN', false), userGroups: [] })).toMatchObject({
      triggerCard: false,
      customSettingsCard: false,
    });
    expect(deviceAccess({ settings: settings('VIEW'), userGroups: [] }).triggerCard).toBe(false);
  });

  it('words the clock difference (HDR-21)', () => {
    expect(clockDifferenceText(30)).toBe('behind by 30 s');
    expect(clockDifferenceText(-125)).toBe('ahead by 2 min 5 s');
  });
});
