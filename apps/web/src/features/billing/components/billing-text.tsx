/** Shared pieces of the billing pages: a device's plan tag, its subscription in words, money. */
import {
  formatDate,
  formatMoney,
  planState,
  subscriptionKindLabel,
  type BillingDevice,
  type DeviceSubscription,
} from '@portal/core';
import '@/components/ui/plan-badge.css';

/** An epoch-seconds date as a medium date in the viewer's locale and zone ('15 Feb 2026', core formatDate). */
export function dayText(ts: number): string {
  return formatDate(ts * 1000);
}

/** Money in the configured currency, in the viewer's locale. */
export function money(amount: number, currency: string): string {
  return formatMoney(amount, currency);
}

/** The plan badge of a device, as the device page shows it (core planState over the server's tier and trial days). */
export function PlanTag({ device }: { device: Pick<BillingDevice, 'tier' | 'trialDaysRemaining'> }) {
  const state = planState({ tier: { name: device.tier, trialDaysRemaining: device.trialDaysRemaining } }, Date.now());
  return (
    <span
      className={`plan-badge plan-badge--${state.colour}${state.outline ? ' plan-badge--outline' : ''}`}
      title={state.tooltip}
    >
      {state.label}
    </span>
  );
}

/** 'Monthly, renews 15 Feb 2026', 'Yearly, ends 1 Mar 2027', 'Lifetime, never ends', 'None'. */
export function subscriptionSummary(s: DeviceSubscription): string {
  if (s.kind === 'none') return 'None';
  const kind = subscriptionKindLabel(s.kind);
  if (s.periodEnd === null) return `${kind}, never ends`;
  return s.cancelAtPeriodEnd ? `${kind}, ends ${dayText(s.periodEnd)}` : `${kind}, renews ${dayText(s.periodEnd)}`;
}

/** 'Awaiting payment until 14 Feb 2026' or 'Paid', for a running subscription; '' for none. */
export function subscriptionStatusText(s: DeviceSubscription): string {
  if (s.status === 'awaiting_payment')
    return s.graceEndsAt === null ? 'Awaiting payment' : `Awaiting payment by ${dayText(s.graceEndsAt)}`;
  if (s.status === 'active') return 'Paid';
  return '';
}
