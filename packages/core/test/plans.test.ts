import { describe, expect, it } from 'vitest';
import {
  BASIC_BANNER_TEXT,
  DATA_STORAGE_DAYS_STAFF,
  NO_TIER_TOOLTIP,
  PLANS,
  PLAN_NAMES,
  TRIAL_BANNER_DAYS,
  TRIAL_DANGER_DAYS,
  TRIAL_DAYS,
  TierInfoSchema,
  deviceTier,
  effectiveDataStorageDays,
  planState,
  trialColour,
  trialDaysRemaining,
  unavailableFeatureMessage,
} from '../src/index';
import { makePlanInput, makeTier } from '../src/testing';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const NOW_S = NOW / 1000;
const DAY_S = 86_400;

describe('plan table (spec 1 section 9)', () => {
  it('PLAN-01: the plans are Hosted, Trial and Basic', () =>
    expect([...PLAN_NAMES].sort()).toEqual(['Basic', 'Hosted', 'Trial']));

  it('PLAN-17 to PLAN-20: Hosted', () => {
    expect(PLANS.Hosted).toEqual({
      minUpdateRate: 5,
      dataStorageDays: 730,
      emails: 300,
      sms: 100,
      dataToPortal: true,
      api: true,
      serverLog: true,
      monthlyCost: 7.5,
      yearlyCost: 75,
      lifetimeCost: 700,
    });
  });

  it('PLAN-21 to PLAN-24: Basic', () => {
    expect(PLANS.Basic).toEqual({
      minUpdateRate: 5,
      dataStorageDays: 1,
      emails: 0,
      sms: 0,
      dataToPortal: false,
      api: false,
      serverLog: false,
      monthlyCost: 0,
      yearlyCost: 0,
      lifetimeCost: 0,
    });
  });

  it("Trial has Hosted's quotas", () => {
    const { monthlyCost: _m, yearlyCost: _y, lifetimeCost: _l, ...trial } = PLANS.Trial;
    const { monthlyCost: _hm, yearlyCost: _hy, lifetimeCost: _hl, ...hosted } = PLANS.Hosted;
    expect(trial).toEqual(hosted);
  });

  it('constants', () => {
    expect(TRIAL_DAYS).toBe(90);
    expect(TRIAL_DANGER_DAYS).toBe(30);
    expect(TRIAL_BANNER_DAYS).toBe(45);
    expect(DATA_STORAGE_DAYS_STAFF).toBe(730);
    expect(BASIC_BANNER_TEXT).toBe('update rate limited to 5 minutes and data stored for 1 day');
    expect(NO_TIER_TOOLTIP).toBe('Network request error.');
  });
});

describe('trial days', () => {
  it.each([
    [0, 90],
    [10, 80], // PLAN-03 ledger
    [89, 1],
    [90, 0],
    [91, -1],
    [365, -275],
  ])('added %i days ago -> %i days left', (ago, left) =>
    expect(trialDaysRemaining(NOW_S - ago * DAY_S, NOW)).toBe(left),
  );

  it('floors partial days', () => {
    expect(trialDaysRemaining(NOW_S - 10 * DAY_S - 1, NOW)).toBe(79);
    expect(trialDaysRemaining(NOW_S - 10 * DAY_S + 1, NOW)).toBe(80);
    expect(trialDaysRemaining(NOW_S + DAY_S, NOW)).toBe(91);
  });

  it.each([
    [30, 'danger'],
    [31, 'warning'],
    [0, 'danger'],
    [90, 'warning'],
  ])('PLAN-05 trialColour(%i) -> %s', (days, colour) => expect(trialColour(days)).toBe(colour));
});

describe('planState', () => {
  it('PLAN-02: tier PREMIUM gives Hosted', () => {
    const s = planState(makePlanInput(NOW, 200, { tier: makeTier({ name: 'PREMIUM' }) }), NOW);
    expect(s.plan).toBe('Hosted');
    expect(s.label).toBe('Hosted');
    expect(s.showBasicBanner).toBe(false);
    expect(s.showTrialBanner).toBe(false);
  });

  it.each([
    [10, 'Trial', 80, 'warning', false],
    [45, 'Trial', 45, 'warning', true], // PLAN-11: 45 days shows the banner
    [44, 'Trial', 46, 'warning', false], // 46 does not
    [59, 'Trial', 31, 'warning', true],
    [60, 'Trial', 30, 'danger', true],
    [90, 'Trial', 0, 'danger', true], // PLAN-04: 0 days left is Trial
    [91, 'Basic', -1, 'secondary', false], // PLAN-04, PLAN-06
  ])('added %i days ago -> %s with %i days (%s, banner %s)', (ago, plan, days, colour, banner) => {
    const s = planState(makePlanInput(NOW, ago), NOW);
    expect(s.plan).toBe(plan);
    expect(s.trialDaysRemaining).toBe(days);
    expect(s.colour).toBe(colour);
    expect(s.showTrialBanner).toBe(banner);
    expect(s.showBasicBanner).toBe(plan === 'Basic');
  });

  it('PLAN-07: no added_ts gives Basic with the trial reset active', () => {
    for (const added_ts of [undefined, null]) {
      const s = planState({ tier: makeTier(), added_ts }, NOW);
      expect(s.plan).toBe('Basic');
      expect(s.trialResetActive).toBe(true);
      expect(s.trialResetAvailable).toBe(false);
      expect(s.trialDaysRemaining).toBeNull();
      expect(s.showBasicBanner).toBe(true);
    }
  });

  it('PLAN-08: the trial reset is available when days remain and no trial_reset_ts exists', () => {
    expect(planState(makePlanInput(NOW, 80), NOW).trialResetAvailable).toBe(true); // 10 days, no ts
    expect(planState(makePlanInput(NOW, 80, { trial_reset_ts: NOW_S - DAY_S }), NOW).trialResetAvailable).toBe(false);
    expect(planState(makePlanInput(NOW, 91), NOW).trialResetAvailable).toBe(false);
    expect(planState(makePlanInput(NOW, 80), NOW).trialResetActive).toBe(false);
  });

  it("PLAN-09: no tier data gives '---' with 'Network request error.'", () => {
    for (const tier of [null, undefined, {} as never, { name: 42 } as never]) {
      const s = planState({ tier, added_ts: NOW_S }, NOW);
      expect(s.plan).toBeNull();
      expect(s.label).toBe('---');
      expect(s.tooltip).toBe('Network request error.');
      expect(s.showBasicBanner).toBe(false);
      expect(s.showTrialBanner).toBe(false);
    }
  });

  it("uses the server's trialDaysRemaining when added_ts is not given", () => {
    const s = planState({ tier: makeTier({ trialDaysRemaining: 12 }) }, NOW);
    expect(s.plan).toBe('Trial');
    expect(s.trialDaysRemaining).toBe(12);
    expect(s.colour).toBe('danger');
    expect(planState({ tier: makeTier({ trialDaysRemaining: -3 }) }, NOW).plan).toBe('Basic');
  });

  it('added_ts wins over the tier figure', () => {
    expect(planState({ tier: makeTier({ trialDaysRemaining: 5 }), added_ts: NOW_S }, NOW).trialDaysRemaining).toBe(90);
  });

  it('dataToPortal comes from the tier, else from the plan', () => {
    expect(planState(makePlanInput(NOW, 10, { tier: { name: 'BASIC' } }), NOW).dataToPortal).toBe(true);
    expect(planState(makePlanInput(NOW, 100, { tier: { name: 'BASIC' } }), NOW).dataToPortal).toBe(false);
    expect(planState(makePlanInput(NOW, 100, { tier: { name: 'BASIC', dataToPortal: true } }), NOW).dataToPortal).toBe(
      true,
    );
    expect(
      planState(makePlanInput(NOW, 10, { tier: { name: 'PREMIUM', dataToPortal: false } }), NOW).dataToPortal,
    ).toBe(false);
  });

  it('hostile tier names are not PREMIUM', () => {
    for (const name of ['', '__proto__', 'premium', 'PREMIUM '.repeat(10_000)]) {
      expect(planState(makePlanInput(NOW, 100, { tier: { name } }), NOW).plan).toBe('Basic');
    }
  });

  it('non-finite timestamps are treated as missing', () => {
    expect(planState({ tier: makeTier(), added_ts: Number.NaN }, NOW).trialResetActive).toBe(true);
  });
});

describe('deviceTier: the tier object of the settings record (PLAN-25)', () => {
  it('has name, color, outline, tooltip, dataToPortal and trialDaysRemaining, and nothing else', () => {
    const tier = deviceTier({ tier: 'TRIAL', added_ts: NOW_S - 10 * DAY_S }, NOW);
    expect(tier).toEqual({
      name: 'TRIAL',
      color: 'warning',
      outline: true,
      tooltip: '80 days remaining in trial',
      dataToPortal: true,
      trialDaysRemaining: 80,
    });
    expect(Object.keys(tier).sort()).toEqual(
      ['color', 'dataToPortal', 'name', 'outline', 'tooltip', 'trialDaysRemaining'].sort(),
    );
    // The contract the server answers with keeps exactly these fields.
    expect(TierInfoSchema.parse({ ...tier, extra: 1 })).toEqual(tier);
  });

  it.each([
    // [tier, added days ago, color, outline, tooltip, dataToPortal, trialDaysRemaining]
    ['PREMIUM', 200, 'success', false, 'Hosted plan', true, -110],
    ['TRIAL', 70, 'danger', true, '20 days remaining in trial', true, 20],
    ['TRIAL', 91, 'secondary', true, `Basic plan: ${BASIC_BANNER_TEXT}`, false, -1],
    ['BASIC_ONLY', 5, 'secondary', true, `Basic plan: ${BASIC_BANNER_TEXT}`, false, 85],
  ] as const)('%s added %i days ago: %s, outline %s', (name, ago, color, outline, tooltip, dataToPortal, days) => {
    const tier = deviceTier({ tier: name, added_ts: NOW_S - ago * DAY_S }, NOW);
    expect(tier).toEqual({ name, color, outline, tooltip, dataToPortal, trialDaysRemaining: days });
    // The web's badge (planState over the same tier) reads the same colour, outline and tooltip.
    const badge = planState({ tier: { name, dataToPortal, trialDaysRemaining: days } }, NOW);
    expect([badge.colour, badge.outline, badge.tooltip]).toEqual([color, outline, tooltip]);
  });

  it('a device nobody has added yet: no trial days, Basic', () => {
    expect(deviceTier({ tier: 'TRIAL', added_ts: null }, NOW)).toMatchObject({
      color: 'secondary',
      outline: true,
      dataToPortal: false,
      trialDaysRemaining: null,
    });
  });
});

describe('feature messages and storage days', () => {
  it('PLAN-13/PLAN-14', () => {
    expect(unavailableFeatureMessage('Widgets', 'Basic')).toBe('Widgets are unavailable on the Basic Plan');
    expect(unavailableFeatureMessage('Custom charts', 'Basic')).toBe('Custom charts are unavailable on the Basic Plan');
  });

  it.each([
    [1, ['senquip_admin'], 730],
    [1, ['distributors'], 1],
    [730, [], 730],
    [1, null, 1],
  ])('effectiveDataStorageDays(%i, %j) -> %i', (days, groups, out) =>
    expect(effectiveDataStorageDays(days, groups)).toBe(out),
  );
});
