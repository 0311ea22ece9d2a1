/**
 * The payment provider seam (DESIGN.md section 5 'Payment provider'): the billing service calls
 * only this interface, so a real provider's adapter (a card processor with its own customer
 * portal) is added here and chosen by BILLING_PROVIDER without touching any caller. The built-in
 * 'invoicing' provider takes no payment itself: the service issues an invoice per period, staff
 * mark it paid, and its "billing portal" is the Account page's Invoices tab.
 */
import { DEFAULT_BILLING_PROVIDER, INVOICES_PATH, type PaidSubscriptionKind } from '@portal/core';

export interface ProviderCustomer {
  userId: string;
  email: string;
}

export interface ProviderSubscriptionInput {
  deviceId: string;
  customer: ProviderCustomer;
  kind: PaidSubscriptionKind;
  /** Price of one period (lifetime: once), in `currency`. */
  amount: number;
  currency: string;
  periodStart: Date;
  /** Null for lifetime. */
  periodEnd: Date | null;
}

export interface PaymentProvider {
  /** The name BILLING_PROVIDER selects it by; stored with each subscription. */
  readonly id: string;
  /** Starts a subscription at the provider; answers the provider's own reference for it (null when it keeps none). */
  createSubscription(input: ProviderSubscriptionInput): Promise<{ providerRef: string | null }>;
  /** Stops a subscription at the provider: at its period's end, or at once (a staff plan change, a change of kind). */
  cancelSubscription(input: { deviceId: string; providerRef: string | null; atPeriodEnd: boolean }): Promise<void>;
  /** Withdraws a pending cancellation. */
  resumeSubscription(input: { deviceId: string; providerRef: string | null }): Promise<void>;
  /** Where the customer manages billing (payment methods, invoices): an absolute URL. */
  billingPortalUrl(input: { customer: ProviderCustomer; origin: string }): Promise<string>;
}

/** The built-in provider: invoices issued by the portal, paid outside it and marked paid by staff. */
export function createInvoicingProvider(): PaymentProvider {
  return {
    id: DEFAULT_BILLING_PROVIDER,
    createSubscription: () => Promise.resolve({ providerRef: null }),
    cancelSubscription: () => Promise.resolve(),
    resumeSubscription: () => Promise.resolve(),
    billingPortalUrl: ({ origin }) => Promise.resolve(`${origin}${INVOICES_PATH}`),
  };
}

/** The providers BILLING_PROVIDER may name. A new adapter is one more entry. */
export const PAYMENT_PROVIDERS = {
  invoicing: createInvoicingProvider,
} as const satisfies Record<string, () => PaymentProvider>;
export type PaymentProviderId = keyof typeof PAYMENT_PROVIDERS;
export const PAYMENT_PROVIDER_IDS = Object.keys(PAYMENT_PROVIDERS) as [PaymentProviderId, ...PaymentProviderId[]];

export function createPaymentProvider(id: PaymentProviderId): PaymentProvider {
  return PAYMENT_PROVIDERS[id]();
}
