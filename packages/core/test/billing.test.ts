import { describe, expect, it } from 'vitest';
import {
  BASIC_TIER_NAME,
  BILLING_GRACE_DAYS,
  BILLING_MESSAGES,
  DAY_MS,
  PREMIUM_TIER_NAME,
  SUBSCRIPTION_KINDS,
  TRIAL_TIER_NAME,
  InvoiceParamsSchema,
  UpdatePlanBodySchema,
  UpdateSubscriptionBodySchema,
  addCalendarMonths,
  canCancel,
  dataPlan,
  devicePlan,
  formatMoney,
  graceEnd,
  graceExpired,
  invoiceNumber,
  isKnownCurrency,
  periodEnd,
  planAfterSubscription,
  planState,
  subscriptionPrice,
  subscriptionPriceLabel,
  subscriptionPrices,
  tierAfterSubscription,
  tierForPlan,
} from '../src/index';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const NOW_S = NOW / 1000;
const DAY_S = 86_400;

describe('subscription prices (PLAN-20)', () => {
  it('the kinds are none, monthly, yearly and lifetime', () =>
    expect([...SUBSCRIPTION_KINDS]).toEqual(['none', 'monthly', 'yearly', 'lifetime']));

  it("come from the plan table's Hosted costs", () => {
    expect(subscriptionPrices()).toEqual({ monthly: 7.5, yearly: 75, lifetime: 700 });
    expect(subscriptionPrice('monthly')).toBe(7.5);
    expect(subscriptionPrice('none')).toBe(0);
  });
});

describe('periods', () => {
  it('monthly is one calendar month, clamped to the last day of a shorter month', () => {
    expect(periodEnd('monthly', Date.UTC(2026, 0, 15, 12))).toBe(Date.UTC(2026, 1, 15, 12));
    expect(periodEnd('monthly', Date.UTC(2026, 0, 31, 9, 30))).toBe(Date.UTC(2026, 1, 28, 9, 30));
    expect(periodEnd('monthly', Date.UTC(2028, 0, 31))).toBe(Date.UTC(2028, 1, 29));
    expect(periodEnd('monthly', Date.UTC(2026, 11, 31))).toBe(Date.UTC(2027, 0, 31));
  });

  it('yearly is one year (29 February becomes 28 February)', () => {
    expect(periodEnd('yearly', Date.UTC(2026, 4, 1))).toBe(Date.UTC(2027, 4, 1));
    expect(periodEnd('yearly', Date.UTC(2028, 1, 29))).toBe(Date.UTC(2029, 1, 28));
  });

  it('lifetime never ends', () => expect(periodEnd('lifetime', NOW)).toBeNull());

  it('addCalendarMonths keeps the time of day', () =>
    expect(addCalendarMonths(Date.UTC(2026, 2, 31, 23, 59, 59), 1)).toBe(Date.UTC(2026, 3, 30, 23, 59, 59)));
});

describe('grace (DESIGN.md section 5)', () => {
  it('lasts 30 days from the invoice', () => {
    expect(BILLING_GRACE_DAYS).toBe(30);
    expect(graceEnd(NOW)).toBe(NOW + 30 * DAY_MS);
  });

  it('is over at its end, not a millisecond before', () => {
    expect(graceExpired(NOW, NOW + 30 * DAY_MS - 1)).toBe(false);
    expect(graceExpired(NOW, NOW + 30 * DAY_MS)).toBe(true);
  });
});

describe('cancellation', () => {
  it('monthly and yearly may be cancelled, lifetime not', () => {
    expect(canCancel('monthly')).toBe(true);
    expect(canCancel('yearly')).toBe(true);
    expect(canCancel('lifetime')).toBe(false);
    expect(canCancel('none')).toBe(false);
  });

  it("returns the device to its trial while days remain, else Basic, at the period's end", () => {
    const device = { added_ts: NOW_S - 10 * DAY_S };
    expect(planAfterSubscription(device, TRIAL_TIER_NAME, NOW + 30 * DAY_MS)).toBe('Trial');
    expect(planAfterSubscription(device, TRIAL_TIER_NAME, NOW + 81 * DAY_MS)).toBe('Basic');
  });

  it('a device Hosted before subscribing returns to its trial state, a Basic one to Basic', () => {
    expect(tierAfterSubscription(PREMIUM_TIER_NAME)).toBe(TRIAL_TIER_NAME);
    expect(tierAfterSubscription(null)).toBe(TRIAL_TIER_NAME);
    expect(tierAfterSubscription(BASIC_TIER_NAME)).toBe(BASIC_TIER_NAME);
    expect(planAfterSubscription({ added_ts: NOW_S }, BASIC_TIER_NAME, NOW)).toBe('Basic');
  });
});

describe('staff plans and the BASIC tier', () => {
  it('each plan has its tier', () => {
    expect(tierForPlan('Hosted')).toBe('PREMIUM');
    expect(tierForPlan('Trial')).toBe('TRIAL');
    expect(tierForPlan('Basic')).toBe('BASIC_ONLY');
  });

  it('tier BASIC_ONLY is Basic whatever the trial days, for the device, its data and the badge', () => {
    const device = { tier: BASIC_TIER_NAME, added_ts: NOW_S - DAY_S };
    expect(devicePlan(device, NOW)).toBe('Basic');
    expect(dataPlan(device, NOW)).toBe('Basic');
    expect(dataPlan({ tier: BASIC_TIER_NAME, added_ts: null }, NOW)).toBe('Basic');
    expect(planState({ tier: { name: BASIC_TIER_NAME }, added_ts: NOW_S - DAY_S }, NOW)).toMatchObject({
      plan: 'Basic',
      showBasicBanner: true,
      dataToPortal: false,
    });
  });
});

describe('money', () => {
  it('shows two decimals in the configured currency', () => {
    expect(formatMoney(7.5, 'USD', 'en-US')).toBe('$7.50');
    expect(formatMoney(700, 'USD', 'en-US')).toBe('$700.00');
    expect(formatMoney(75, 'EUR', 'en-US')).toBe('€75.00');
    expect(formatMoney(75, 'AUD', 'en-AU')).toBe('$75.00');
  });

  it('names the period', () => {
    expect(subscriptionPriceLabel('monthly', 'USD', 'en-US')).toBe('$7.50 / month');
    expect(subscriptionPriceLabel('yearly', 'USD', 'en-US')).toBe('$75.00 / year');
    expect(subscriptionPriceLabel('lifetime', 'USD', 'en-US')).toBe('$700.00 once');
    expect(subscriptionPriceLabel('none', 'USD', 'en-US')).toBe('No subscription');
  });

  it('knows currency codes', () => {
    expect(isKnownCurrency('USD')).toBe(true);
    expect(isKnownCurrency('usd')).toBe(false);
    expect(isKnownCurrency('US')).toBe(false);
  });

  it('numbers invoices', () => expect(invoiceNumber(42)).toBe('INV-000042'));
});

describe('billing contracts', () => {
  it('take 1 to 100 distinct device ids and a kind', () => {
    expect(UpdateSubscriptionBodySchema.safeParse({ deviceList: ['ABC123456'], subscription: 'monthly' }).success).toBe(
      true,
    );
    expect(UpdateSubscriptionBodySchema.safeParse({ deviceList: [], subscription: 'monthly' }).success).toBe(false);
    const many = Array.from({ length: 101 }, (_, i) => `D${String(i).padStart(8, '0')}`);
    expect(UpdateSubscriptionBodySchema.safeParse({ deviceList: many, subscription: 'none' }).success).toBe(false);
    expect(UpdateSubscriptionBodySchema.safeParse({ deviceList: ['ABC123456'], subscription: 'weekly' }).success).toBe(
      false,
    );
    const twice = UpdateSubscriptionBodySchema.safeParse({
      deviceList: ['ABC123456', 'ABC123456'],
      subscription: 'none',
    });
    expect(twice.success).toBe(false);
    expect(twice.error?.issues[0]?.message).toBe(BILLING_MESSAGES.duplicateDevices);
    expect(
      UpdateSubscriptionBodySchema.safeParse({ deviceList: ['ABC123456'], subscription: 'none', extra: 1 }).success,
    ).toBe(false);
  });

  it('staff plan changes name Hosted, Trial or Basic', () => {
    expect(UpdatePlanBodySchema.safeParse({ deviceid: 'ABC123456', plan: 'Basic', reason: ' refund ' }).data).toEqual({
      deviceid: 'ABC123456',
      plan: 'Basic',
      reason: 'refund',
    });
    expect(UpdatePlanBodySchema.safeParse({ deviceid: 'ABC123456', plan: 'PREMIUM' }).success).toBe(false);
  });

  it('invoice ids are positive whole numbers', () => {
    expect(InvoiceParamsSchema.parse({ invoiceid: '42' })).toEqual({ invoiceid: 42 });
    expect(InvoiceParamsSchema.safeParse({ invoiceid: '0' }).success).toBe(false);
    expect(InvoiceParamsSchema.safeParse({ invoiceid: '4a' }).success).toBe(false);
  });
});
