/**
 * Billing rows as the API answers them: a device's running subscription (or none) and an invoice,
 * times in epoch seconds.
 */
import {
  centsToAmount,
  invoiceNumber,
  planAfterSubscription,
  type DeviceSubscription,
  type Invoice,
} from '@portal/core';
import type * as repo from './billing.repository';

/** Epoch milliseconds as the API's epoch seconds; null stays null. */
export const seconds = (ms: number | null) => (ms === null ? null : ms / 1000);

const NO_SUBSCRIPTION: DeviceSubscription = {
  kind: 'none',
  status: 'none',
  periodStart: null,
  periodEnd: null,
  cancelAtPeriodEnd: false,
  graceEndsAt: null,
  planAfterPeriod: 'none',
};

/** A running subscription as the API answers it; `addedTs` (the device's, epoch seconds) says what a cancellation returns it to. */
export function toSubscription(row: repo.SubscriptionRow | null, addedTs: number | null): DeviceSubscription {
  if (!row || row.status === 'ended') return NO_SUBSCRIPTION;
  return {
    kind: row.kind,
    status: row.status,
    periodStart: seconds(row.period_start),
    periodEnd: seconds(row.period_end),
    cancelAtPeriodEnd: row.cancel_at_period_end,
    graceEndsAt: row.status === 'awaiting_payment' ? seconds(row.grace_ends_at) : null,
    planAfterPeriod:
      row.cancel_at_period_end && row.period_end !== null
        ? planAfterSubscription({ added_ts: addedTs }, row.previous_tier, row.period_end)
        : 'none',
  };
}

/** An invoice row as the API answers it. */
export function toInvoice(row: repo.InvoiceRow): Invoice {
  return {
    invoiceid: row.id,
    number: invoiceNumber(row.id),
    deviceid: row.device_id,
    deviceName: row.device_name,
    kind: row.kind,
    amount: centsToAmount(row.amount_cents),
    currency: row.currency,
    status: row.status,
    issuedAt: row.issued_at / 1000,
    dueAt: row.due_at / 1000,
    paidAt: seconds(row.paid_at),
    periodStart: row.period_start / 1000,
    periodEnd: seconds(row.period_end),
    customerEmail: row.customer_email,
  };
}
