/** Factories for tests (exported as '@portal/core/testing'; never used by application code). */

import type { UserInfo } from '../contracts/auth';
import type { ListEntry } from '../domain/lists';
import type { PlanStateInput, TierInput } from '../domain/plans';
import type { EventLike } from '../domain/severity';
import { sessionStateFromUser, type SessionState } from '../domain/session';

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
