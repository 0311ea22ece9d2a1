/**
 * Billing (DESIGN.md section 5): a customer's devices, subscriptions and invoices; subscription
 * changes, all or nothing; and the staff calls. The sweep that renews, ends and reverts
 * subscriptions on the injectable clock is billing.sweep.ts, run before each read. Plans stay
 * core's (devicePlan over devices.tier and added_ts); this module changes the tier and records
 * why, with who did it, in billing_events. Who may change a device's subscription is decided by
 * the access gate (a stranger: 404) and core's canChangeSubscription (below ADMIN: 403).
 */
import {
  BILLING_GRACE_DAYS,
  BILLING_MESSAGES,
  DEVICE_ROLES,
  canChangeSubscription,
  centsToAmount,
  devicePlan,
  deviceTrialDays,
  effectiveRole,
  invoiceNumber,
  isStaffAdmin,
  periodEnd,
  subscriptionPrice,
  subscriptionPrices,
  tierAfterSubscription,
  tierForPlan,
  type BillingAdminDeviceResponse,
  type BillingCustomerResponse,
  type BillingDevice,
  type InvoicePaidResponse,
  type PaidSubscriptionKind,
  type UpdatePlanBody,
  type UpdatePlanResponse,
  type UpdateSubscriptionBody,
  type UpdateSubscriptionResponse,
} from '@portal/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock';
import type { Db } from '../../db/db';
import { AppError, conflict, forbidden } from '../../errors';
import type { User } from '../auth/auth.service';
import { deviceNotFound, type AccessService } from '../access/access.service';
import type { PaymentProvider } from './billing.provider';
import { invoicePdf } from './billing.invoice-pdf';
import { seconds, toInvoice, toSubscription } from './billing.mapping';
import * as repo from './billing.repository';
import { createBillingSweep, issueInvoice } from './billing.sweep';

/** What billing offers: the customer's and the staff's billing calls, and the sweep. */
export interface BillingService {
  /** The payment provider subscriptions are made with. */
  provider: PaymentProvider;
  /** ISO 4217 code prices and invoices are in (CURRENCY). */
  currency: string;
  /** GET /billing-get-customer: every device the user holds, prices and their invoices. */
  customer(user: User): Promise<BillingCustomerResponse>;
  /**
   * POST /billing-update-subscription: every device or none (one transaction). A device the
   * user holds no role on is 404 'Device not found'; a role below ADMIN is 403; cancelling or
   * changing a lifetime subscription is 409.
   */
  updateSubscription(user: User, body: UpdateSubscriptionBody): Promise<UpdateSubscriptionResponse>;
  /** POST /billing-create-stripe-portal: the provider's billing portal for this customer. */
  portalUrl(user: User, origin: string): Promise<{ url: string }>;
  /**
   * POST /billing-update-plan (staff): Hosted (complimentary, no invoice), Trial (a trial that
   * is over starts afresh) or Basic; a running subscription ends and its open invoices are void.
   */
  updatePlan(actor: User, body: UpdatePlanBody): Promise<UpdatePlanResponse>;
  /** POST /billing-invoice-paid/{invoiceid} (staff): paid once; a void invoice is 409. */
  markInvoicePaid(actor: User, invoiceid: number): Promise<InvoicePaidResponse>;
  /** GET /billing-invoice/{invoiceid}: the PDF, for the invoice's owner or staff (anyone else: 404). */
  invoiceDocument(user: User, invoiceid: number, seller: string): Promise<{ filename: string; pdf: Buffer }>;
  /** GET /billing-admin-device/{id} (staff): the device's billing state, invoices and events. */
  adminDevice(actor: User, deviceId: string): Promise<BillingAdminDeviceResponse>;
  /** Renewals, period ends and grace expiries due now (the timer calls it; tests too, after moving the clock). */
  sweep(): Promise<void>;
  /** Starts the sweep's timer. */
  start(): void;
  /** Stops the sweep's timer and waits for a running sweep. */
  close(): Promise<void>;
}

export interface BillingOptions {
  /** How often the sweep runs (ms); 0: never by itself (tests call sweep()). */
  sweepMs: number;
}
export const DEFAULT_BILLING_OPTIONS: BillingOptions = { sweepMs: 60_000 };

export interface BillingDeps {
  db: Db;
  clock: Clock;
  access: AccessService;
  provider: PaymentProvider;
  /** ISO 4217 code prices and invoices are in (CURRENCY). */
  currency: string;
  log: FastifyBaseLogger;
  options?: Partial<BillingOptions>;
}

const invoiceNotFound = () => new AppError(404, 'NOT_FOUND', BILLING_MESSAGES.invoiceNotFound);
const ADMIN_EVENTS_LIMIT = 200;

/** Device rows hold added_ts in epoch seconds; the plan rules take it so. */
const planOf = (row: { tier: string; added_ts: number | null }, nowMs: number) => devicePlan(row, nowMs);

export function createBillingService(deps: BillingDeps): BillingService {
  const { db, clock, access, provider, currency, log } = deps;
  const options: BillingOptions = { ...DEFAULT_BILLING_OPTIONS, ...deps.options };
  const { sweep, start, close } = createBillingSweep({ db, clock, provider, currency, log, sweepMs: options.sweepMs });

  /** A new subscription of `kind` from now: Hosted at once, its first invoice open for the grace. */
  async function startSubscription(
    tx: Db,
    user: User,
    deviceId: string,
    kind: PaidSubscriptionKind,
    previousTier: string,
    nowMs: number,
  ): Promise<number> {
    const end = periodEnd(kind, nowMs);
    const { providerRef } = await provider.createSubscription({
      deviceId,
      customer: { userId: user.id, email: user.email },
      kind,
      amount: subscriptionPrice(kind),
      currency,
      periodStart: new Date(nowMs),
      periodEnd: end === null ? null : new Date(end),
    });
    const subscriptionId = await repo.insertSubscription(tx, {
      deviceId,
      userId: user.id,
      kind,
      provider: provider.id,
      providerRef,
      periodStart: new Date(nowMs),
      periodEnd: end === null ? null : new Date(end),
      previousTier,
      createdAt: new Date(nowMs),
    });
    await repo.setTier(tx, deviceId, tierForPlan('Hosted'));
    return issueInvoice(tx, currency, subscriptionId, deviceId, user, kind, nowMs, end, nowMs);
  }

  function billingDevice(
    row: repo.CustomerDeviceRow,
    sub: repo.SubscriptionRow | null,
    nowMs: number,
  ): BillingDevice | null {
    const role = effectiveRole(row.permissions.filter((p) => (DEVICE_ROLES as readonly string[]).includes(p)));
    if (role === null) return null;
    return {
      deviceid: row.id,
      name: row.name,
      model: row.model,
      groupids: [...row.groupids].sort(),
      role,
      plan: planOf(row, nowMs),
      tier: row.tier,
      trialDaysRemaining: deviceTrialDays(row, nowMs),
      subscription: toSubscription(sub, row.added_ts),
      canChange: canChangeSubscription(role),
    };
  }

  async function deviceResult(tx: Db, deviceId: string, nowMs: number) {
    const device = (await repo.findDevice(tx, deviceId))!;
    const sub = await repo.runningSubscription(tx, deviceId);
    return { plan: planOf(device, nowMs), subscription: toSubscription(sub, device.added_ts) };
  }

  return {
    provider,
    currency,

    async customer(user: User): Promise<BillingCustomerResponse> {
      await sweep();
      const nowMs = clock.now().getTime();
      const rows = await repo.customerDevices(db, user.id);
      const subs = new Map(
        (
          await repo.runningSubscriptions(
            db,
            rows.map((r) => r.id),
          )
        ).map((s) => [s.device_id, s]),
      );
      const devices = rows
        .map((row) => billingDevice(row, subs.get(row.id) ?? null, nowMs))
        .filter((d): d is BillingDevice => d !== null);
      const invoices = (await repo.userInvoices(db, user.id)).map(toInvoice);
      return {
        provider: provider.id,
        currency,
        prices: subscriptionPrices(),
        graceDays: BILLING_GRACE_DAYS,
        devices,
        invoices,
      };
    },

    async updateSubscription(user: User, body: UpdateSubscriptionBody): Promise<UpdateSubscriptionResponse> {
      await sweep();
      const nowMs = clock.now().getTime();
      const at = new Date(nowMs);
      const wanted = body.subscription;
      const results = await db.transaction(async (tx) => {
        const out: UpdateSubscriptionResponse['results'] = [];
        for (const deviceId of body.deviceList) {
          const role = await access.authorize(user.id, deviceId, null, tx);
          if (!canChangeSubscription(role)) throw forbidden(BILLING_MESSAGES.notAdmin);
          const device = await repo.findDevice(tx, deviceId, true);
          if (!device) throw deviceNotFound();
          const sub = await repo.runningSubscription(tx, deviceId, true);
          let result: UpdateSubscriptionResponse['results'][number]['result'] = 'unchanged';
          let invoiceid: number | null = null;

          if (wanted === 'none') {
            if (sub && !sub.cancel_at_period_end) {
              if (sub.kind === 'lifetime') throw conflict(BILLING_MESSAGES.lifetimeCannotCancel);
              await provider.cancelSubscription({ deviceId, providerRef: null, atPeriodEnd: true });
              await repo.setCancelAtPeriodEnd(tx, sub.id, true);
              await repo.insertEvent(tx, deviceId, 'cancel', user.email, at, {
                kind: sub.kind,
                periodEnd: seconds(sub.period_end),
                toPlan: planOf(
                  { tier: tierAfterSubscription(sub.previous_tier), added_ts: device.added_ts },
                  sub.period_end!,
                ),
              });
              result = 'cancelled';
            }
          } else if (!sub) {
            invoiceid = await startSubscription(tx, user, deviceId, wanted, device.tier, nowMs);
            await repo.insertEvent(tx, deviceId, 'subscribe', user.email, at, {
              kind: wanted,
              invoiceid,
              amount: subscriptionPrice(wanted),
              currency,
              fromTier: device.tier,
              fromPlan: planOf(device, nowMs),
              toPlan: 'Hosted',
            });
            result = 'subscribed';
          } else if (sub.kind === wanted) {
            if (sub.cancel_at_period_end) {
              await provider.resumeSubscription({ deviceId, providerRef: null });
              await repo.setCancelAtPeriodEnd(tx, sub.id, false);
              await repo.insertEvent(tx, deviceId, 'resume', user.email, at, { kind: sub.kind });
              result = 'resumed';
            }
          } else {
            if (sub.kind === 'lifetime') throw conflict(BILLING_MESSAGES.lifetimeCannotChange);
            await provider.cancelSubscription({ deviceId, providerRef: null, atPeriodEnd: false });
            await repo.endSubscription(tx, sub.id, 'changed', at);
            invoiceid = await startSubscription(tx, user, deviceId, wanted, sub.previous_tier, nowMs);
            await repo.insertEvent(tx, deviceId, 'change', user.email, at, {
              fromKind: sub.kind,
              kind: wanted,
              invoiceid,
              amount: subscriptionPrice(wanted),
              currency,
            });
            result = 'changed';
          }
          out.push({ deviceid: deviceId, result, invoiceid, ...(await deviceResult(tx, deviceId, nowMs)) });
        }
        return out;
      });
      return { results };
    },

    async portalUrl(user: User, origin: string): Promise<{ url: string }> {
      return { url: await provider.billingPortalUrl({ customer: { userId: user.id, email: user.email }, origin }) };
    },

    async updatePlan(actor: User, body: UpdatePlanBody): Promise<UpdatePlanResponse> {
      if (!isStaffAdmin(actor.userGroups)) throw forbidden(BILLING_MESSAGES.staffOnly);
      const nowMs = clock.now().getTime();
      const at = new Date(nowMs);
      return db.transaction(async (tx) => {
        const device = await repo.findDevice(tx, body.deviceid, true);
        if (!device) throw deviceNotFound();
        const previousPlan = planOf(device, nowMs);
        const sub = await repo.runningSubscription(tx, body.deviceid, true);
        if (sub) {
          await provider.cancelSubscription({ deviceId: body.deviceid, providerRef: null, atPeriodEnd: false });
          await repo.endSubscription(tx, sub.id, 'staff', at);
        }
        const tier = tierForPlan(body.plan);
        let addedTs = device.added_ts;
        const days = deviceTrialDays(device, nowMs);
        if (body.plan === 'Trial' && days !== null && days < 0) {
          addedTs = nowMs / 1000;
          await repo.setAddedTs(tx, body.deviceid, addedTs);
        }
        await repo.setTier(tx, body.deviceid, tier);
        const plan = planOf({ tier, added_ts: addedTs }, nowMs);
        await repo.insertEvent(tx, body.deviceid, 'plan-change', actor.email, at, {
          fromPlan: previousPlan,
          toPlan: plan,
          asked: body.plan,
          fromTier: device.tier,
          toTier: tier,
          ...(body.reason ? { reason: body.reason } : {}),
          ...(sub ? { endedSubscription: sub.kind } : {}),
          ...(addedTs !== device.added_ts ? { trialRestarted: true } : {}),
        });
        return {
          deviceid: body.deviceid,
          previousPlan,
          plan,
          tier,
          trialDaysRemaining: deviceTrialDays({ added_ts: addedTs }, nowMs),
          endedSubscription: sub !== null,
        };
      });
    },

    async markInvoicePaid(actor: User, invoiceid: number): Promise<InvoicePaidResponse> {
      if (!isStaffAdmin(actor.userGroups)) throw forbidden(BILLING_MESSAGES.staffOnly);
      const nowMs = clock.now().getTime();
      return db.transaction(async (tx) => {
        const invoice = await repo.findInvoice(tx, invoiceid, true);
        if (!invoice) throw invoiceNotFound();
        if (invoice.status === 'void') throw conflict(BILLING_MESSAGES.invoiceVoid);
        if (invoice.status === 'open') {
          await repo.markInvoicePaid(tx, invoiceid, new Date(nowMs), actor.email);
          if ((await repo.openInvoiceCount(tx, invoice.subscription_id)) === 0)
            await repo.setSubscriptionStatus(tx, invoice.subscription_id, 'active');
          await repo.insertEvent(tx, invoice.device_id, 'paid', actor.email, new Date(nowMs), {
            invoiceid,
            number: invoiceNumber(invoiceid),
            amount: centsToAmount(invoice.amount_cents),
            currency: invoice.currency,
          });
        }
        return { invoice: toInvoice((await repo.findInvoice(tx, invoiceid))!) };
      });
    },

    async invoiceDocument(user: User, invoiceid: number, seller: string): Promise<{ filename: string; pdf: Buffer }> {
      const row = await repo.findInvoice(db, invoiceid);
      if (!row || (row.user_id !== user.id && !isStaffAdmin(user.userGroups))) throw invoiceNotFound();
      const invoice = toInvoice(row);
      return { filename: `${invoice.number}.pdf`, pdf: await invoicePdf(invoice, seller) };
    },

    async adminDevice(actor: User, deviceId: string): Promise<BillingAdminDeviceResponse> {
      if (!isStaffAdmin(actor.userGroups)) throw forbidden(BILLING_MESSAGES.staffOnly);
      await sweep();
      const nowMs = clock.now().getTime();
      const device = await repo.findDevice(db, deviceId);
      if (!device) throw deviceNotFound();
      const sub = await repo.runningSubscription(db, deviceId);
      return {
        deviceid: device.id,
        plan: planOf(device, nowMs),
        tier: device.tier,
        trialDaysRemaining: deviceTrialDays(device, nowMs),
        subscription: toSubscription(sub, device.added_ts),
        invoices: (await repo.deviceInvoices(db, deviceId)).map(toInvoice),
        events: (await repo.deviceEvents(db, deviceId, ADMIN_EVENTS_LIMIT)).map((e) => ({
          id: e.id,
          deviceid: e.device_id,
          kind: e.kind,
          actor: e.actor,
          ts: e.ts,
          detail: e.detail,
        })),
      };
    },

    sweep,
    start,
    close,
  };
}
