import { describe, expect, it } from 'vitest';
import { dataPointsFor, deviceAccess } from '../src';

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
