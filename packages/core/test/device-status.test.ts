import { describe, expect, it } from 'vitest';
import {
  CONTACT_STATUSES,
  CONTACT_STATUS_DISPLAY,
  NO_RECENT_CONTACT,
  contactStatus,
  showsLastKnownValues,
  type ContactStatus,
  type ContactStatusInput,
} from '../src/index';

const NOW_MS = 1_800_000_000_000;
const NOW_S = NOW_MS / 1000;
/** The status of a device whose newest record is `ageS` seconds old. */
const at = (ageS: number | null, intervalS: number | null, extra: Partial<ContactStatusInput> = {}) =>
  contactStatus({ lastRecordS: ageS === null ? null : NOW_S - ageS, intervalS, ...extra }, NOW_MS);

describe('contactStatus: one status per device (TL-15, TL-16)', () => {
  it.each<[number, number, ContactStatus]>([
    // interval 60: No Recent Contact after 60 s, offline after max(60 + 60, 360) = 360 s (TL-16: not 120).
    [0, 60, 'online'],
    [60, 60, 'online'], // exactly at the interval: not older than it
    [61, 60, 'noRecentContact'],
    [120, 60, 'noRecentContact'], // the issue: 2 minutes after the only record
    [360, 60, 'noRecentContact'], // exactly at max(interval + 60, 360)
    [361, 60, 'offline'],
    // interval 600: offline after interval + 60 = 660 s, which is above 360.
    [600, 600, 'online'],
    [601, 600, 'noRecentContact'],
    [660, 600, 'noRecentContact'],
    [661, 600, 'offline'],
    // interval 300: interval + 60 = 360 = the floor; interval 301: 361.
    [360, 300, 'noRecentContact'],
    [361, 300, 'offline'],
    [361, 301, 'noRecentContact'],
    [362, 301, 'offline'],
    // a short interval still waits 360 s before offline.
    [6, 5, 'noRecentContact'],
    [359, 5, 'noRecentContact'],
    [361, 5, 'offline'],
  ])('a record %i s old with interval %i s: %s', (ageS, intervalS, status) => {
    expect(at(ageS, intervalS)).toBe(status);
  });

  it.each([null, undefined, 0, -5, Number.NaN, Number.POSITIVE_INFINITY])(
    'an unknown interval (%s) counts as the default config 60 x 1',
    (intervalS) => {
      const status = (ageS: number) =>
        contactStatus({ lastRecordS: NOW_S - ageS, intervalS: intervalS as number | null }, NOW_MS);
      expect([status(60), status(61), status(360), status(361)]).toEqual([
        'online',
        'noRecentContact',
        'noRecentContact',
        'offline',
      ]);
    },
  );

  it('no record and no contact: offline', () => {
    expect(at(null, 60)).toBe('offline');
    expect(contactStatus({ lastRecordS: undefined, intervalS: 60 }, NOW_MS)).toBe('offline');
    expect(contactStatus({ lastRecordS: Number.NaN, lastContactS: null, intervalS: 60 }, NOW_MS)).toBe('offline');
  });

  it('no record but a recent contact: No Recent Contact (no data to show)', () => {
    expect(at(null, 60, { lastContactS: NOW_S - 10 })).toBe('noRecentContact');
    expect(at(null, 60, { lastContactS: NOW_S - 361 })).toBe('offline');
  });

  it('offline counts from the later of the last contact and the newest record', () => {
    // Records stopped 10 minutes ago, but the device was in touch 30 s ago.
    expect(at(600, 60, { lastContactS: NOW_S - 30 })).toBe('noRecentContact');
    // An older last contact does not hide a newer record.
    expect(at(30, 60, { lastContactS: NOW_S - 3600 })).toBe('online');
  });

  it('a record ahead of now (a device clock running fast) is online', () => {
    expect(at(-30, 60)).toBe('online');
  });

  it('hostile inputs give a status, never throw', () => {
    const hostile = [null, undefined, '', '__proto__', {}, [], 'abc', Number.NaN] as unknown as number[];
    for (const v of hostile) {
      expect(CONTACT_STATUSES).toContain(contactStatus({ lastRecordS: v, lastContactS: v, intervalS: v }, NOW_MS));
    }
    expect(contactStatus({ lastRecordS: '1' as unknown as number, intervalS: 60 }, NOW_MS)).toBe('offline');
  });
});

describe('what each status shows', () => {
  it('Online green, No Recent Contact amber, Offline grey (UI.md state colours)', () => {
    expect(CONTACT_STATUS_DISPLAY).toEqual({
      online: { label: 'Online', colour: 'normal' },
      noRecentContact: { label: NO_RECENT_CONTACT, colour: 'warning' },
      offline: { label: 'Offline', colour: 'muted' },
    });
    expect(NO_RECENT_CONTACT).toBe('No Recent Contact');
  });

  it('values are last known ones unless the device is online', () => {
    expect(CONTACT_STATUSES.map(showsLastKnownValues)).toEqual([false, true, true]);
  });
});
