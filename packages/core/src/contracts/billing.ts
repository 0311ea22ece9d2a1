/**
 * Billing calls (spec 2 section 7, DESIGN.md section 5 'Billing'): the customer's devices,
 * subscriptions and invoices (GET /billing-get-customer), subscription changes
 * (POST /billing-update-subscription), the billing portal address (POST
 * /billing-create-stripe-portal), and the staff calls (POST /billing-update-plan, POST
 * /billing-invoice-paid/{invoiceid}, GET /billing-admin-device/{id}); the invoice PDF is
 * GET /billing-invoice/{invoiceid}. Times are epoch seconds; money is a number with two decimals.
 */
import { z } from 'zod';
import {
  BILLING_EVENT_KINDS,
  BILLING_MESSAGES,
  INVOICE_STATUSES,
  MAX_SUBSCRIPTION_DEVICES,
  PAID_SUBSCRIPTION_KINDS,
  STAFF_PLAN_CHOICES,
  SUBSCRIPTION_KINDS,
  SUBSCRIPTION_STATUSES,
} from '../domain/billing';
import { PLAN_NAMES } from '../domain/plans';
import { DeviceRoleSchema } from '../domain/roles';
import { DeviceRouteIdSchema } from './devices';
import { safeString } from './fields';

export const SubscriptionKindSchema = z.enum(SUBSCRIPTION_KINDS, {
  message: `subscription must be one of ${SUBSCRIPTION_KINDS.join(', ')}`,
});
export const PaidSubscriptionKindSchema = z.enum(PAID_SUBSCRIPTION_KINDS);
export const SubscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);
export const InvoiceStatusSchema = z.enum(INVOICE_STATUSES);
export const BillingEventKindSchema = z.enum(BILLING_EVENT_KINDS);
export const PlanNameSchema = z.enum(PLAN_NAMES);

/** A device's subscription as billing-get-customer and billing-update-subscription answer it. */
export const DeviceSubscriptionSchema = z.object({
  kind: SubscriptionKindSchema,
  status: SubscriptionStatusSchema,
  /** Start and end of the current period (epoch seconds); periodEnd null for lifetime and 'none'. */
  periodStart: z.number().nullable(),
  periodEnd: z.number().nullable(),
  /** 'none' was asked for: the subscription ends at periodEnd. */
  cancelAtPeriodEnd: z.boolean(),
  /** While awaiting payment: when the open invoice's grace ends and the device reverts. */
  graceEndsAt: z.number().nullable(),
  /** With cancelAtPeriodEnd: the plan the device is on once the period ends (Trial while trial days remain, else Basic); otherwise 'none'. */
  planAfterPeriod: z.enum([...PLAN_NAMES, 'none']),
});
export type DeviceSubscription = z.infer<typeof DeviceSubscriptionSchema>;

export const BillingDeviceSchema = z.object({
  deviceid: z.string(),
  name: z.string(),
  model: z.string(),
  /** The user's groups holding the device. */
  groupids: z.array(z.string()),
  role: DeviceRoleSchema,
  plan: PlanNameSchema,
  /** The stored tier (PREMIUM, TRIAL, BASIC_ONLY). */
  tier: z.string(),
  /** floor((added_ts + 90 d - now) / 1 d), negative once over; null before anyone added the device. */
  trialDaysRemaining: z.number().int().nullable(),
  subscription: DeviceSubscriptionSchema,
  /** Only a device ADMIN may change its subscription. */
  canChange: z.boolean(),
});
export type BillingDevice = z.infer<typeof BillingDeviceSchema>;

export const InvoiceSchema = z.object({
  invoiceid: z.number().int(),
  /** 'INV-000042'. */
  number: z.string(),
  deviceid: z.string(),
  deviceName: z.string(),
  kind: PaidSubscriptionKindSchema,
  amount: z.number(),
  currency: z.string(),
  status: InvoiceStatusSchema,
  issuedAt: z.number(),
  /** The end of the 30-day grace. */
  dueAt: z.number(),
  paidAt: z.number().nullable(),
  periodStart: z.number(),
  /** Null for lifetime. */
  periodEnd: z.number().nullable(),
  /** The e-mail of the user who subscribed (the invoice's owner). */
  customerEmail: z.string(),
});
export type Invoice = z.infer<typeof InvoiceSchema>;

export const SubscriptionPricesSchema = z.object({ monthly: z.number(), yearly: z.number(), lifetime: z.number() });

export const BillingCustomerResponseSchema = z.object({
  /** The payment provider in use ('invoicing' is built in). */
  provider: z.string(),
  currency: z.string(),
  prices: SubscriptionPricesSchema,
  graceDays: z.number().int(),
  devices: z.array(BillingDeviceSchema),
  invoices: z.array(InvoiceSchema),
});
export type BillingCustomerResponse = z.infer<typeof BillingCustomerResponseSchema>;

export const UpdateSubscriptionBodySchema = z.strictObject({
  deviceList: z
    .array(DeviceRouteIdSchema)
    .min(1, 'deviceList must name at least one device')
    .max(MAX_SUBSCRIPTION_DEVICES, `deviceList may name at most ${MAX_SUBSCRIPTION_DEVICES} devices`)
    .refine((list) => new Set(list).size === list.length, BILLING_MESSAGES.duplicateDevices),
  subscription: SubscriptionKindSchema,
});
export type UpdateSubscriptionBody = z.infer<typeof UpdateSubscriptionBodySchema>;

/** subscribed: a new subscription (and invoice); changed: another kind (new invoice); cancelled: ends at the period's end; resumed: a pending cancellation withdrawn. */
export const SUBSCRIPTION_RESULTS = ['subscribed', 'changed', 'cancelled', 'resumed', 'unchanged'] as const;
export const SubscriptionResultSchema = z.enum(SUBSCRIPTION_RESULTS);

export const UpdateSubscriptionResponseSchema = z.object({
  results: z.array(
    z.object({
      deviceid: z.string(),
      result: SubscriptionResultSchema,
      plan: PlanNameSchema,
      subscription: DeviceSubscriptionSchema,
      /** The invoice made by this change, if any. */
      invoiceid: z.number().int().nullable(),
    }),
  ),
});
export type UpdateSubscriptionResponse = z.infer<typeof UpdateSubscriptionResponseSchema>;

export const BillingPortalResponseSchema = z.object({ url: z.string() });
export type BillingPortalResponse = z.infer<typeof BillingPortalResponseSchema>;

export const UpdatePlanBodySchema = z.strictObject({
  deviceid: DeviceRouteIdSchema,
  plan: z.enum(STAFF_PLAN_CHOICES, { message: `plan must be one of ${STAFF_PLAN_CHOICES.join(', ')}` }),
  reason: safeString({ message: 'reason must be text' }).trim().max(500).optional(),
});
export type UpdatePlanBody = z.infer<typeof UpdatePlanBodySchema>;

export const UpdatePlanResponseSchema = z.object({
  deviceid: z.string(),
  previousPlan: PlanNameSchema,
  plan: PlanNameSchema,
  tier: z.string(),
  trialDaysRemaining: z.number().int().nullable(),
  /** A running subscription ended by the change (its open invoices voided). */
  endedSubscription: z.boolean(),
});
export type UpdatePlanResponse = z.infer<typeof UpdatePlanResponseSchema>;

export const InvoiceParamsSchema = z.strictObject({
  invoiceid: safeString()
    .regex(/^[1-9]\d{0,8}$/, 'invoiceid must be a positive whole number')
    .transform((v) => Number(v)),
});

export const InvoicePaidResponseSchema = z.object({ invoice: InvoiceSchema });
export type InvoicePaidResponse = z.infer<typeof InvoicePaidResponseSchema>;

export const BillingEventSchema = z.object({
  id: z.number().int(),
  deviceid: z.string(),
  kind: BillingEventKindSchema,
  /** Who made the change (e-mail), or null for the server's own sweep. */
  actor: z.string().nullable(),
  ts: z.number(),
  detail: z.record(z.string(), z.unknown()),
});
export type BillingEvent = z.infer<typeof BillingEventSchema>;

/** GET /billing-admin-device/{id} (senquip_admin): a device's billing state, invoices and events. */
export const BillingAdminDeviceResponseSchema = z.object({
  deviceid: z.string(),
  plan: PlanNameSchema,
  tier: z.string(),
  trialDaysRemaining: z.number().int().nullable(),
  subscription: DeviceSubscriptionSchema,
  invoices: z.array(InvoiceSchema),
  events: z.array(BillingEventSchema),
});
export type BillingAdminDeviceResponse = z.infer<typeof BillingAdminDeviceResponseSchema>;
