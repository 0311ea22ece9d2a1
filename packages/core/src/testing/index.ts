/** Factories for tests (exported as '@portal/core/testing'; never used by application code). */

import type { UserInfo } from '../contracts/auth';
import type { GroupDataDevice } from '../contracts/group-data';
import type { ListEntry } from '../domain/lists';
import type { PlanStateInput, TierInput } from '../domain/plans';
import type { EventLike } from '../domain/severity';
import { sessionStateFromUser, type SessionState } from '../domain/session';

export { SIMULATOR_COMMON_KEYS } from './simulator-keys';

/** A signed-in user's info; override any field. */
export function makeUserInfo(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    userId: 'user-1',
    email: 'user@example.com',
    phone: '',
    emailVerified: true,
    marketingOptIn: false,
    mfa: 'NONE',
    userGroups: [],
    brandImageUrl: null,
    ...overrides,
  };
}

/** A signed-in session state for a user made by `makeUserInfo`. */
export function makeSessionState(overrides: Partial<UserInfo> = {}): SessionState {
  return sessionStateFromUser(makeUserInfo(overrides));
}

/** A favourites/recent entry. */
export function makeListEntry(overrides: Partial<ListEntry> = {}): ListEntry {
  return { id: 'AB12CD34E', name: 'Pump 1', ts: 1_700_000_000_000, ...overrides };
}

/** An event record. */
export function makeEvent(overrides: EventLike = {}): EventLike {
  return { topic: 'sys', msg: 'Event', lv: 5, ...overrides };
}

/** A tier as billing reports it (not PREMIUM by default). */
export function makeTier(overrides: Partial<TierInput> = {}): TierInput {
  return { name: 'BASIC', dataToPortal: true, ...overrides };
}

/** Plan-state input for a device added `daysAgo` days before `nowMs`. */
export function makePlanInput(nowMs: number, daysAgo: number, overrides: PlanStateInput = {}): PlanStateInput {
  return {
    tier: makeTier(),
    added_ts: Math.floor(nowMs / 1000) - daysAgo * 86_400,
    trial_reset_ts: null,
    ...overrides,
  };
}

/** A device as the group data call answers it (one alarm, one warning and one info message); override any field. */
export function makeGroupDataDevice(overrides: Partial<GroupDataDevice> = {}): GroupDataDevice {
  return {
    deviceid: 'ABC123XYZ',
    name: 'Pump 1',
    status: 'Active',
    type: 'Pump',
    fw: 'SFW003-1.2.3',
    machineMake: 'Acme',
    machineModel: 'P-100',
    ts: 1_700_000_000,
    values: { temp: { v: 21.456, ts: 1_700_000_000 }, label: { v: 'open', ts: 1_700_000_000 } },
    alarmCount: 2,
    warningCount: 1,
    alertCount: 0,
    infoCount: 4,
    messages: [
      { ts: 10, topic: null, msg: 'old', lv: 1, severity: 'INFO' },
      { ts: 30, topic: 'evt', msg: 'Pressure high', lv: 35, severity: 'ALARM' },
      { ts: 20, topic: null, msg: 'Door open', lv: 25, severity: null },
    ],
    lat: null,
    lon: null,
    hdop: null,
    severity: 'alarm',
    ...overrides,
  };
}
