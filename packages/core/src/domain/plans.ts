/** Plans, trial and banners (spec 1 sections 4 and 9, DESIGN.md section 5). */

import { isStaffAdmin } from './roles';

export const PLAN_NAMES = ['Hosted', 'Trial', 'Basic'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** The tier name that makes a customer Hosted. */
export const PREMIUM_TIER_NAME = 'PREMIUM';
/** The stored tier of a device on its trial (then Basic once the trial days are over). */
export const TRIAL_TIER_NAME = 'TRIAL';
/** The stored tier of a device staff put on Basic (billing-update-plan), whatever its trial days. */
export const BASIC_TIER_NAME = 'BASIC_ONLY';
export const TRIAL_DAYS = 90;
/** The trial badge turns danger at this many days or fewer. */
export const TRIAL_DANGER_DAYS = 30;
/** The trial banner shows at this many days or fewer. */
export const TRIAL_BANNER_DAYS = 45;
/** Data storage days forced for staff admins (senquip_admin). */
export const DATA_STORAGE_DAYS_STAFF = 730;
export const DAY_MS = 86_400_000;

/** Badge text and tooltip when no tier data could be loaded. */
export const NO_TIER_LABEL = '---';
export const NO_TIER_TOOLTIP = 'Network request error.';
export const BASIC_BANNER_TEXT = 'update rate limited to 5 minutes and data stored for 1 day';
/** Basic thins ingest to one record per this many seconds (DESIGN.md section 5). */
export const BASIC_RECORD_INTERVAL_S = 300;

/** What a plan gives (spec 1 section 9). minUpdateRate's unit is not stated by the spec. */
export interface PlanQuota {
  minUpdateRate: number;
  dataStorageDays: number;
  emails: number;
  sms: number;
  dataToPortal: boolean;
  api: boolean;
  serverLog: boolean;
  monthlyCost: number;
  yearlyCost: number;
  lifetimeCost: number;
}

const HOSTED: PlanQuota = {
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
};

/** The plan table. Trial has Hosted's quotas and costs nothing. */
export const PLANS = {
  Hosted: HOSTED,
  Trial: { ...HOSTED, monthlyCost: 0, yearlyCost: 0, lifetimeCost: 0 },
  Basic: {
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
  },
} as const satisfies Record<PlanName, PlanQuota>;

export type PlanColour = 'success' | 'warning' | 'danger' | 'secondary' | 'muted';

/** A tier as the billing side reports it. */
export interface TierInput {
  name: string;
  dataToPortal?: boolean | null;
  /** The server's own figure; used when added_ts is not given. */
  trialDaysRemaining?: number | null;
}

export interface PlanStateInput {
  tier?: TierInput | null;
  /** When the device was first added (epoch seconds): the trial starts here. */
  added_ts?: number | null;
  /** When the trial was reset (epoch seconds); a reset happens once only. */
  trial_reset_ts?: number | null;
}

export interface PlanState {
  /** Null when no tier data could be loaded. */
  plan: PlanName | null;
  /** The badge text: the plan name or '---'. */
  label: PlanName | typeof NO_TIER_LABEL;
  colour: PlanColour;
  /** The badge is drawn as an outline (Trial, Basic, no tier) rather than filled (Hosted, the paid plan). */
  outline: boolean;
  tooltip: string;
  trialDaysRemaining: number | null;
  trialResetActive: boolean;
  trialResetAvailable: boolean;
  showTrialBanner: boolean;
  showBasicBanner: boolean;
  dataToPortal: boolean;
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Whole trial days left: floor((added_ts + 90 days - now) / 1 day); added_ts in epoch seconds, now in epoch ms. */
export function trialDaysRemaining(addedTs: number, nowMs: number): number {
  return Math.floor((addedTs * 1000 + TRIAL_DAYS * DAY_MS - nowMs) / DAY_MS);
}

/** A plan's badge colour where its trial days are not known (a Trial badge turns danger near its end). */
export const PLAN_COLOURS: Readonly<Record<PlanName, PlanColour>> = {
  Hosted: 'success',
  Trial: 'warning',
  Basic: 'secondary',
};

/** The trial badge colour: danger at 30 days or fewer, warning otherwise. */
export function trialColour(days: number): 'danger' | 'warning' {
  return days <= TRIAL_DANGER_DAYS ? 'danger' : 'warning';
}

/** Hosted for tier PREMIUM, Basic for tier BASIC; otherwise Trial with 0 or more trial days left, else Basic (no days: Basic). */
function planOfTier(tierName: unknown, days: number | null): PlanName {
  if (tierName === PREMIUM_TIER_NAME) return 'Hosted';
  if (tierName === BASIC_TIER_NAME) return 'Basic';
  return days !== null && days >= 0 ? 'Trial' : 'Basic';
}

/** A device as the server stores it: its tier name and when it was first added (epoch seconds). */
export interface DevicePlanInput {
  tier: string | null | undefined;
  /** Null until the first user adds the device (the trial starts then). */
  added_ts?: number | null | undefined;
}

/**
 * The plan a device is on at `nowMs` (spec 1 section 4, PLAN-02 to PLAN-07): Hosted for tier
 * PREMIUM; otherwise Trial for 90 days from added_ts (0 days left included), Basic afterwards;
 * Basic with no added_ts, which on this server means nobody has added the device yet: its trial
 * has not started. The one rule behind the settings record, retention and ingest thinning; the
 * web reaches the same plan from the settings record's tier through `planState`.
 */
export function devicePlan(device: DevicePlanInput, nowMs: number): PlanName {
  return planOfTier(device.tier, deviceTrialDays(device, nowMs));
}

/**
 * The plan whose data rules apply to a device's records (storage days, Basic thinning): its plan
 * (`devicePlan`), except that a device nobody has added yet keeps its data as a trial device
 * does. Its trial starts when it is added; until then (factory tests, provisioning) every record
 * is kept and none is thinned.
 */
export function dataPlan(device: DevicePlanInput, nowMs: number): PlanName {
  if (device.tier !== PREMIUM_TIER_NAME && device.tier !== BASIC_TIER_NAME && deviceTrialDays(device, nowMs) === null)
    return 'Trial';
  return devicePlan(device, nowMs);
}

/** The trial days a device has left at `nowMs` (negative once over), or null when nobody has added it yet. */
export function deviceTrialDays(device: Pick<DevicePlanInput, 'added_ts'>, nowMs: number): number | null {
  const addedTs = device.added_ts;
  return isFiniteNumber(addedTs) && Number.isFinite(nowMs) ? trialDaysRemaining(addedTs, nowMs) : null;
}

/**
 * The plan state of a device (spec 1 section 4). `nowMs` is epoch milliseconds; the record's
 * added_ts and trial_reset_ts are epoch seconds. Days come from added_ts when given, else from
 * the tier's trialDaysRemaining; with neither the plan is Basic and the trial reset is active.
 */
export function planState(input: PlanStateInput, nowMs: number): PlanState {
  const tier = input.tier ?? null;
  const days =
    deviceTrialDays(input, nowMs) ??
    (tier !== null && isFiniteNumber(tier.trialDaysRemaining) ? Math.floor(tier.trialDaysRemaining) : null);
  const trialResetActive = days === null;
  const trialResetAvailable = days !== null && days >= 0 && !isFiniteNumber(input.trial_reset_ts);

  if (tier === null || typeof tier !== 'object' || typeof tier.name !== 'string') {
    return {
      plan: null,
      label: NO_TIER_LABEL,
      colour: 'muted',
      outline: true,
      tooltip: NO_TIER_TOOLTIP,
      trialDaysRemaining: days,
      trialResetActive,
      trialResetAvailable,
      showTrialBanner: false,
      showBasicBanner: false,
      dataToPortal: typeof tier?.dataToPortal === 'boolean' ? tier.dataToPortal : true,
    };
  }

  const plan = planOfTier(tier.name, days);
  const dataToPortal = typeof tier.dataToPortal === 'boolean' ? tier.dataToPortal : PLANS[plan].dataToPortal;
  const base = {
    plan,
    label: plan,
    outline: plan !== 'Hosted',
    trialDaysRemaining: days,
    trialResetActive,
    trialResetAvailable,
    dataToPortal,
  };
  switch (plan) {
    case 'Hosted':
      return {
        ...base,
        colour: PLAN_COLOURS.Hosted,
        tooltip: 'Hosted plan',
        showTrialBanner: false,
        showBasicBanner: false,
      };
    case 'Trial': {
      const left = days ?? 0;
      return {
        ...base,
        colour: trialColour(left),
        tooltip: `${left} ${left === 1 ? 'day' : 'days'} remaining in trial`,
        showTrialBanner: left <= TRIAL_BANNER_DAYS,
        showBasicBanner: false,
      };
    }
    case 'Basic':
      return {
        ...base,
        colour: PLAN_COLOURS.Basic,
        tooltip: `Basic plan: ${BASIC_BANNER_TEXT}`,
        showTrialBanner: false,
        showBasicBanner: true,
      };
  }
}

/** A tier as the device settings record carries it (spec 2 section 3; PLAN-25). */
export interface DeviceTier {
  /** The billing tier's name as stored (PREMIUM, BASIC, or a trial's). */
  name: string;
  /** The badge colour (planState's). */
  color: PlanColour;
  /** Drawn as an outline rather than filled (planState's). */
  outline: boolean;
  /** The badge's tooltip (planState's). */
  tooltip: string;
  dataToPortal: boolean;
  /** floor((added_ts + 90 days - now) / 1 day), or null when nobody has added the device yet. */
  trialDaysRemaining: number | null;
}

/**
 * The tier object of a device at `nowMs` (PLAN-25): its name, the colour, outline and tooltip of
 * its plan badge, whether its plan sends data to the portal, and its trial days. The server sends
 * it in the settings record; the colour, outline and tooltip are those planState gives the web
 * for the same tier, so the badge reads the same on both sides.
 */
export function deviceTier(device: DevicePlanInput, nowMs: number): DeviceTier {
  const plan = devicePlan(device, nowMs);
  const trialDays = deviceTrialDays(device, nowMs);
  const name = device.tier ?? '';
  const state = planState(
    { tier: { name, dataToPortal: PLANS[plan].dataToPortal, trialDaysRemaining: trialDays } },
    nowMs,
  );
  return {
    name,
    color: state.colour,
    outline: state.outline,
    tooltip: state.tooltip,
    dataToPortal: state.dataToPortal,
    trialDaysRemaining: trialDays,
  };
}

/** The banner shown on a trial with 45 days or fewer left. */
export function trialBannerText(days: number): string {
  return `Trial ends in ${days} ${days === 1 ? 'day' : 'days'}. Upgrade to the Hosted plan to keep full data.`;
}

export type UnavailableFeature = 'Widgets' | 'Custom charts';

/** 'Widgets are unavailable on the {tier} Plan' / 'Custom charts are unavailable on the {tier} Plan'. */
export function unavailableFeatureMessage(feature: UnavailableFeature, tierName: string): string {
  return `${feature} are unavailable on the ${tierName} Plan`;
}

/** A device's server log refused by its plan (spec 1 section 9: Basic has none), in the words of the features above. */
export function serverLogUnavailableMessage(tierName: string): string {
  return `The server log is unavailable on the ${tierName} Plan`;
}

/** Whether a refusal is the plan's (serverLogUnavailableMessage), not the role's. */
export function isServerLogUnavailableMessage(message: string): boolean {
  return /^The server log is unavailable on the .+ Plan$/.test(message);
}

/** Data storage days for a user: 730 for staff admins, otherwise the plan's figure. */
export function effectiveDataStorageDays(planDays: number, userGroups: readonly string[] | null | undefined): number {
  return isStaffAdmin(userGroups) ? DATA_STORAGE_DAYS_STAFF : planDays;
}

/**
 * Where an upgrade text (a plan banner, a plan badge, a feature refused by the plan) points: the
 * Plans page, or, on a brand that hides Plans, Support (DESIGN.md section 5), about the device
 * when there is one.
 */
export function upgradeLink(
  brand: { hidePlans: boolean },
  deviceid?: string | null,
): { to: string; label: 'See plans' | 'Contact support' } {
  if (!brand.hidePlans) return { to: '/plans', label: 'See plans' };
  return { to: deviceid ? `/support/${encodeURIComponent(deviceid)}` : '/support', label: 'Contact support' };
}
