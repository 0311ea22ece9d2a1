import { describe, expect, it } from 'vitest';
import {
  DistributorBodySchema,
  DistributorDevicesBodySchema,
  STAFF_MESSAGES,
  StaffSearchQuerySchema,
  assignedMessage,
  canOpenStaffPage,
  canRunDistributorAction,
  countryName,
  isCountryCode,
  money,
  parseDeviceList,
  recentMonths,
  staffStatsCsv,
  unknownDevicesMessage,
} from '../src/index';

const firstMessage = (
  schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } },
  input: unknown,
) => {
  const result = schema.safeParse(input);
  return result.success ? null : result.error!.issues[0]!.message;
};

describe('staff: who may do what', () => {
  it('runs distributor actions for staff admins on any device, for distributors holding ADMIN', () => {
    expect(canRunDistributorAction(['senquip_admin'], null)).toBe(true);
    expect(canRunDistributorAction(['distributors'], 'ADMIN')).toBe(true);
    expect(canRunDistributorAction(['distributors'], 'USER')).toBe(false);
    expect(canRunDistributorAction([], 'ADMIN')).toBe(false);
    expect(canRunDistributorAction(['provisioning_account'], 'ADMIN')).toBe(false);
    expect(canRunDistributorAction(null, 'ADMIN')).toBe(false);
    expect(canRunDistributorAction(['__proto__'], 'ADMIN')).toBe(false);
  });

  it('opens /sqadmin, /sqtools and /sqstats to staff admins only', () => {
    for (const page of ['sqadmin', 'sqtools', 'sqstats']) {
      expect(canOpenStaffPage(['senquip_admin'], page)).toBe(true);
      expect(canOpenStaffPage(['distributors'], page)).toBe(false);
      expect(canOpenStaffPage(['provisioning_account'], page)).toBe(false);
      expect(canOpenStaffPage([], page)).toBe(false);
    }
  });
});

describe('staff: distributors', () => {
  const body = { id: 0, name: ' Acme ', contactEmail: 'Sales@Acme.example.com', country: 'au' };

  it('trims and normalises a distributor, notes default to empty', () => {
    expect(DistributorBodySchema.parse(body)).toEqual({
      id: 0,
      name: 'Acme',
      contactEmail: 'sales@acme.example.com',
      country: 'AU',
      notes: '',
    });
  });

  it('refuses bad fields with their messages', () => {
    expect(firstMessage(DistributorBodySchema, { ...body, name: '  ' })).toBe(STAFF_MESSAGES.nameRequired);
    expect(firstMessage(DistributorBodySchema, { ...body, name: 'n'.repeat(81) })).toBe(STAFF_MESSAGES.nameTooLong);
    expect(firstMessage(DistributorBodySchema, { ...body, country: 'XX' })).toBe(STAFF_MESSAGES.countryInvalid);
    expect(firstMessage(DistributorBodySchema, { ...body, notes: 'n'.repeat(1001) })).toBe(STAFF_MESSAGES.notesTooLong);
    expect(DistributorBodySchema.safeParse({ ...body, extra: 1 }).success).toBe(false);
    expect(DistributorBodySchema.safeParse({ ...body, id: -1 }).success).toBe(false);
    expect(DistributorBodySchema.safeParse({ ...body, id: '0' }).success).toBe(false);
  });

  it('knows country codes', () => {
    for (const code of ['AU', 'NZ', 'US', 'GB', 'DE']) expect(isCountryCode(code)).toBe(true);
    for (const code of ['XX', 'ZZ', 'AA', 'QM', 'au', 'AUS', '', null, '__proto__'])
      expect(isCountryCode(code)).toBe(false);
    expect(countryName('AU')).toBe('Australia');
  });

  it('reads pasted device lists: any separator, upper case, once each, the rest invalid', () => {
    expect(parseDeviceList(' abc123def, ABC123DEF\nXYZ987654;0-abcdefg  bad  ')).toEqual({
      ids: ['ABC123DEF', 'XYZ987654', '0-ABCDEFG'],
      invalid: ['BAD'],
    });
    expect(parseDeviceList('')).toEqual({ ids: [], invalid: [] });
  });

  it('checks an assignment body', () => {
    expect(DistributorDevicesBodySchema.parse({ distributorId: null, deviceList: [' abc123def '] })).toEqual({
      distributorId: null,
      deviceList: ['ABC123DEF'],
    });
    expect(firstMessage(DistributorDevicesBodySchema, { distributorId: 1, deviceList: [] })).toBe(
      STAFF_MESSAGES.deviceListEmpty,
    );
    expect(firstMessage(DistributorDevicesBodySchema, { distributorId: 1, deviceList: ['x'] })).toBe(
      STAFF_MESSAGES.deviceIdInvalid,
    );
  });

  it('words assignments', () => {
    expect(assignedMessage(1, 'Acme')).toBe('1 device assigned to Acme');
    expect(assignedMessage(3, null)).toBe('3 devices no longer assigned to a distributor');
    expect(unknownDevicesMessage(['A', 'B'])).toBe('Unknown devices: A, B');
  });
});

describe('staff: search and statistics', () => {
  it('needs 2 to 100 characters of search text', () => {
    expect(StaffSearchQuerySchema.parse({ q: ' ab ' })).toEqual({ q: 'ab' });
    expect(firstMessage(StaffSearchQuerySchema, { q: ' a ' })).toBe(STAFF_MESSAGES.searchTooShort);
    expect(firstMessage(StaffSearchQuerySchema, { q: 'x'.repeat(101) })).toBe(STAFF_MESSAGES.searchTooLong);
  });

  it('lists the last months in UTC, oldest first, across a year end', () => {
    expect(recentMonths(Date.UTC(2026, 1, 15), 4)).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(recentMonths(Date.UTC(2026, 0, 1, 0, 0, 0), 1)).toEqual(['2026-01']);
  });

  it('rounds money to cents', () => {
    expect(money(0.1 + 0.2)).toBe(0.3);
    expect(money(7.5 * 3)).toBe(22.5);
  });

  it('exports the statistics as CSV sections', () => {
    const csv = staffStatsCsv({
      generatedAt: Date.UTC(2026, 10, 27) / 1000,
      currency: 'USD',
      totalDevices: 3,
      activeLastDay: 1,
      devicesByPlan: { Hosted: 1, Trial: 1, Basic: 1 },
      devicesByModel: [{ model: 'ORB-C1', count: 3 }],
      devicesByDistributor: [
        { name: '=Acme, Ltd', count: 2 },
        { name: null, count: 1 },
      ],
      months: [{ month: '2026-11', subscriptions: 2, revenue: 15 }],
      ingest: { recordsLastHour: 120, perMinute: 2 },
    });
    const sections = csv.split('\r\n\r\n');
    expect(sections).toHaveLength(5);
    expect(sections[0]).toContain('Generated (UTC),2026-11-27T00:00:00.000Z');
    expect(sections[1]).toBe('Plan,Devices\r\nHosted,1\r\nTrial,1\r\nBasic,1');
    expect(sections[3]).toBe(`Distributor,Devices\r\n"'=Acme, Ltd",2\r\nNo distributor,1`);
    expect(sections[4]).toBe('Month,New subscriptions,Revenue (USD)\r\n2026-11,2,15.00\r\n');
  });
});
