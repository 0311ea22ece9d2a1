/** The one plan rule of a device (devicePlan, deviceTrialDays) and its agreement with planState. */
import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  PLAN_NAMES,
  PREMIUM_TIER_NAME,
  TRIAL_DAYS,
  dataPlan,
  devicePlan,
  deviceTrialDays,
  planState,
  type PlanName,
} from '../src/index';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const NOW_S = NOW / 1000;
const DAY_S = DAY_MS / 1000;
const addedDaysAgo = (days: number) => NOW_S - days * DAY_S;

describe('devicePlan (PLAN-02 to PLAN-07)', () => {
  it('PLAN-02: tier PREMIUM is Hosted whatever added_ts says', () => {
    for (const added_ts of [null, undefined, addedDaysAgo(0), addedDaysAgo(91), addedDaysAgo(10_000), NaN]) {
      expect(devicePlan({ tier: PREMIUM_TIER_NAME, added_ts }, NOW)).toBe('Hosted');
    }
  });

  it('PLAN-03, PLAN-04, PLAN-06: Trial for 90 days from added_ts (0 days left included), then Basic', () => {
    const cases: [number, PlanName][] = [
      [0, 'Trial'],
      [10, 'Trial'],
      [TRIAL_DAYS - 1, 'Trial'],
      [TRIAL_DAYS, 'Trial'], // exactly 0 days left
      [TRIAL_DAYS + 0.5, 'Basic'], // -0.5 days floors to -1
      [TRIAL_DAYS + 1, 'Basic'],
      [10_000, 'Basic'],
      [-5, 'Trial'], // added_ts in the future: more than 90 days left
    ];
    for (const [days, plan] of cases)
      expect(devicePlan({ tier: 'TRIAL', added_ts: addedDaysAgo(days) }, NOW)).toBe(plan);
  });

  it('PLAN-07: no added_ts (nobody has added the device yet) is Basic', () => {
    for (const added_ts of [null, undefined, NaN, Infinity, -Infinity]) {
      expect(devicePlan({ tier: 'TRIAL', added_ts }, NOW)).toBe('Basic');
    }
    expect(devicePlan({ tier: 'TRIAL' } as never, NOW)).toBe('Basic');
  });

  it('hostile tier names are not PREMIUM: only the exact name makes Hosted', () => {
    for (const tier of ['', 'premium', 'PREMIUM ', ' PREMIUM', '__proto__', 'constructor', 'Hosted', null, undefined]) {
      expect(devicePlan({ tier, added_ts: addedDaysAgo(10) }, NOW)).toBe('Trial');
      expect(devicePlan({ tier, added_ts: null }, NOW)).toBe('Basic');
      expect(devicePlan({ tier, added_ts: addedDaysAgo(100) }, NOW)).toBe('Basic');
    }
  });

  it('a clock that is not a number gives no trial days: Basic unless PREMIUM', () => {
    for (const now of [NaN, Infinity, -Infinity]) {
      expect(devicePlan({ tier: 'TRIAL', added_ts: addedDaysAgo(1) }, now)).toBe('Basic');
      expect(devicePlan({ tier: PREMIUM_TIER_NAME, added_ts: addedDaysAgo(1) }, now)).toBe('Hosted');
    }
  });

  it('always answers one of the plan names', () => {
    for (const tier of ['TRIAL', PREMIUM_TIER_NAME, '', '__proto__', null])
      for (const added_ts of [null, addedDaysAgo(0), addedDaysAgo(90), addedDaysAgo(91)])
        expect(PLAN_NAMES).toContain(devicePlan({ tier, added_ts }, NOW));
  });
});

describe('deviceTrialDays', () => {
  it('floor((added_ts + 90 days - now) / 1 day), null when nobody has added the device', () => {
    expect(deviceTrialDays({ added_ts: addedDaysAgo(10) }, NOW)).toBe(80);
    expect(deviceTrialDays({ added_ts: addedDaysAgo(90) }, NOW)).toBe(0);
    expect(deviceTrialDays({ added_ts: addedDaysAgo(91) }, NOW)).toBe(-1);
    expect(deviceTrialDays({ added_ts: addedDaysAgo(10) + 1 }, NOW)).toBe(80);
    expect(deviceTrialDays({ added_ts: addedDaysAgo(10) - 1 }, NOW)).toBe(79);
    for (const added_ts of [null, undefined, NaN, Infinity]) expect(deviceTrialDays({ added_ts }, NOW)).toBeNull();
    expect(deviceTrialDays({ added_ts: addedDaysAgo(1) }, NaN)).toBeNull();
  });
});

describe("the web's plan from the settings record equals the server's", () => {
  // The server sends tier {name, trialDaysRemaining: deviceTrialDays(row)}; the web runs planState on it.
  it('for every tier and age, planState of the sent tier gives devicePlan', () => {
    for (const tier of ['TRIAL', 'BASIC', PREMIUM_TIER_NAME, '', '__proto__'])
      for (const added_ts of [
        null,
        addedDaysAgo(0),
        addedDaysAgo(45),
        addedDaysAgo(90),
        addedDaysAgo(90.5),
        addedDaysAgo(400),
      ]) {
        const row = { tier, added_ts };
        const sent = { name: tier, trialDaysRemaining: deviceTrialDays(row, NOW) };
        expect(planState({ tier: sent }, NOW).plan).toBe(devicePlan(row, NOW));
        // And planState given the row's own added_ts agrees too.
        expect(planState({ tier: { name: tier }, added_ts }, NOW).plan).toBe(devicePlan(row, NOW));
      }
  });

  it('PLAN-07 in planState too: no added_ts and no server figure is Basic with the trial reset active', () => {
    const state = planState({ tier: { name: 'TRIAL' }, added_ts: null }, NOW);
    expect(state.plan).toBe('Basic');
    expect(state.trialResetActive).toBe(true);
  });
});

describe('dataPlan: the plan whose data rules apply', () => {
  it('a device nobody has added keeps its data as a trial device (its trial has not started)', () => {
    for (const added_ts of [null, undefined]) {
      expect(dataPlan({ tier: 'TRIAL', added_ts }, NOW)).toBe('Trial');
      expect(devicePlan({ tier: 'TRIAL', added_ts }, NOW)).toBe('Basic');
    }
    expect(dataPlan({ tier: PREMIUM_TIER_NAME, added_ts: null }, NOW)).toBe('Hosted');
  });

  it('an added device follows its plan exactly', () => {
    for (const tier of [PREMIUM_TIER_NAME, 'TRIAL', '', '__proto__'])
      for (const days of [0, 45, 90, 91, 400]) {
        const row = { tier, added_ts: addedDaysAgo(days) };
        expect(dataPlan(row, NOW)).toBe(devicePlan(row, NOW));
      }
  });
});
