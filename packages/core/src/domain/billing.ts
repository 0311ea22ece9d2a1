/**
 * Subscriptions and invoicing (spec 1 sections 2 and 9, DESIGN.md section 5 'Billing'): what a
 * subscription costs, when its period ends, the 30-day grace of an unpaid invoice, what a
 * cancellation leaves the device on, and money in the configured currency. Pure: every time is
 * given (epoch milliseconds unless named otherwise); the plan rules stay in plans.ts.
 */

import {
  BASIC_TIER_NAME,
  DAY_MS,
  PLANS,
  PREMIUM_TIER_NAME,
  TRIAL_TIER_NAME,
  devicePlan,
  type DevicePlanInput,
  type PlanName,
} from './plans';
import { roleAtLeast } from './roles';

export const SUBSCRIPTION_KINDS = ['none', 'monthly', 'yearly', 'lifetime'] as const;
export type SubscriptionKind = (typeof SUBSCRIPTION_KINDS)[number];
export const PAID_SUBSCRIPTION_KINDS = ['monthly', 'yearly', 'lifetime'] as const;
export type PaidSubscriptionKind = (typeof PAID_SUBSCRIPTION_KINDS)[number];

/**
 * A device's subscription state: 'none' (no subscription), 'awaiting_payment' (Hosted on an open
 * invoice, within its grace), 'active' (the current period's invoice is paid).
 */
export const SUBSCRIPTION_STATUSES = ['none', 'awaiting_payment', 'active'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** An invoice is open until staff mark it paid; void when its subscription ended before payment. */
export const INVOICE_STATUSES = ['open', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * True when the role may change the device's subscription: its ADMIN only (DESIGN.md section 5);
 * anything below, or not a role, is answered 403 BILLING_MESSAGES.notAdmin.
 */
export function canChangeSubscription(role: unknown): boolean {
  return roleAtLeast(role, 'ADMIN');
}

/** The plans staff may put a device on (billing-update-plan). */
export const STAFF_PLAN_CHOICES = ['Hosted', 'Trial', 'Basic'] as const satisfies readonly PlanName[];

/** What the billing events table records. */
export const BILLING_EVENT_KINDS = [
  'subscribe',
  'cancel',
  'resume',
  'change',
  'renew',
  'paid',
  'reverted',
  'ended',
  'plan-change',
] as const;
export type BillingEventKind = (typeof BILLING_EVENT_KINDS)[number];

/** Days an unpaid invoice keeps its device Hosted (DESIGN.md section 5). */
export const BILLING_GRACE_DAYS = 30;
/** The most devices one billing-update-subscription call may name. */
export const MAX_SUBSCRIPTION_DEVICES = 100;
export const DEFAULT_CURRENCY = 'USD';
export const DEFAULT_BILLING_PROVIDER = 'invoicing';
/** The built-in provider's "billing portal": the Account page's Invoices tab. */
export const INVOICES_PATH = '/account/invoices';

export const BILLING_MESSAGES = {
  notAdmin: 'Only a device ADMIN may change its subscription.',
  lifetimeCannotCancel: 'A lifetime subscription never ends and cannot be cancelled.',
  lifetimeCannotChange: 'A lifetime subscription cannot be changed.',
  invoiceNotFound: 'Invoice not found',
  invoiceVoid: 'This invoice was voided and cannot be marked paid.',
  staffOnly: 'Only staff may do this.',
  duplicateDevices: 'Each device may be named once.',
} as const;

export interface SubscriptionPrices {
  monthly: number;
  yearly: number;
  lifetime: number;
}

/** The Hosted plan's prices from the plan table (PLAN-20). */
export function subscriptionPrices(): SubscriptionPrices {
  return { monthly: PLANS.Hosted.monthlyCost, yearly: PLANS.Hosted.yearlyCost, lifetime: PLANS.Hosted.lifetimeCost };
}

/** The price of one period of a subscription; 0 for 'none'. */
export function subscriptionPrice(kind: SubscriptionKind): number {
  return kind === 'none' ? 0 : subscriptionPrices()[kind];
}

/** Cents to the amount with two decimals (750 -> 7.5). */
export function centsToAmount(cents: number): number {
  return Math.round(cents) / 100;
}

/** An amount to whole cents (7.5 -> 750): the database keeps money in cents. */
export function amountToCents(amount: number): number {
  return Math.round(amount * 100);
}

/** Adds whole calendar months in UTC; a day the target month lacks becomes its last day (31 Jan + 1 = 28/29 Feb). */
export function addCalendarMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(d.getUTCDate(), lastDay),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

/** When a period starting at `startMs` ends: +1 calendar month, +1 year, never (null) for lifetime. */
export function periodEnd(kind: PaidSubscriptionKind, startMs: number): number | null {
  switch (kind) {
    case 'monthly':
      return addCalendarMonths(startMs, 1);
    case 'yearly':
      return addCalendarMonths(startMs, 12);
    case 'lifetime':
      return null;
  }
}

/** When an invoice issued at `issuedMs` must be paid by: 30 days of grace. */
export function graceEnd(issuedMs: number): number {
  return issuedMs + BILLING_GRACE_DAYS * DAY_MS;
}

/** Whether an open invoice's grace is over at `nowMs`. */
export function graceExpired(issuedMs: number, nowMs: number): boolean {
  return nowMs >= graceEnd(issuedMs);
}

/** A running subscription may be cancelled (at its period's end) unless it is lifetime. */
export function canCancel(kind: SubscriptionKind): boolean {
  return kind === 'monthly' || kind === 'yearly';
}

/**
 * The tier a device returns to when its subscription ends (cancelled at the period's end, or an
 * unpaid invoice after grace): the tier it had before, except that Hosted is never "returned to"
 * (a device Hosted by staff before subscribing goes back to its trial state): TRIAL then follows
 * the trial days, so the device is Trial while days remain and Basic afterwards.
 */
export function tierAfterSubscription(previousTier: string | null | undefined): string {
  if (!previousTier || previousTier === PREMIUM_TIER_NAME) return TRIAL_TIER_NAME;
  return previousTier;
}

/** The plan a device is on once its subscription ends at `atMs` (plans.ts decides from the tier and the trial days). */
export function planAfterSubscription(
  device: Pick<DevicePlanInput, 'added_ts'>,
  previousTier: string | null | undefined,
  atMs: number,
): PlanName {
  return devicePlan({ tier: tierAfterSubscription(previousTier), added_ts: device.added_ts }, atMs);
}

/** The stored tier for a plan staff choose (billing-update-plan). */
export function tierForPlan(plan: PlanName): string {
  switch (plan) {
    case 'Hosted':
      return PREMIUM_TIER_NAME;
    case 'Trial':
      return TRIAL_TIER_NAME;
    case 'Basic':
      return BASIC_TIER_NAME;
  }
}

/** 'INV-000042': the invoice number shown for invoice id 42. */
export function invoiceNumber(id: number): string {
  return `INV-${String(id).padStart(6, '0')}`;
}

/** Money in the configured currency, always with two decimals ('$7.50', '€75.00'). */
export function formatMoney(amount: number, currency: string, locale?: string): string {
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** Whether a currency code is one Intl knows (ISO 4217, three letters). */
export function isKnownCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    new Intl.NumberFormat('en', { style: 'currency', currency: code });
    return true;
  } catch {
    return false;
  }
}

const KIND_LABELS: Record<SubscriptionKind, string> = {
  none: 'None',
  monthly: 'Monthly',
  yearly: 'Yearly',
  lifetime: 'Lifetime',
};

/** 'None', 'Monthly', 'Yearly', 'Lifetime'. */
export function subscriptionKindLabel(kind: SubscriptionKind): string {
  return KIND_LABELS[kind];
}

/** '$7.50 / month', '$75.00 / year', '$700.00 once', 'No subscription'. */
export function subscriptionPriceLabel(kind: SubscriptionKind, currency: string, locale?: string): string {
  if (kind === 'none') return 'No subscription';
  const money = formatMoney(subscriptionPrice(kind), currency, locale);
  return kind === 'monthly' ? `${money} / month` : kind === 'yearly' ? `${money} / year` : `${money} once`;
}
