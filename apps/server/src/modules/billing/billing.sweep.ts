/**
 * The billing sweep: on the injectable clock it renews subscriptions whose period ended (issuing
 * the next period's invoice), ends those cancelled at the period end, and reverts the device of
 * an invoice left unpaid past the grace (DESIGN.md section 5). Also the period invoice itself,
 * which subscribing issues for the first period.
 */
import {
  BILLING_GRACE_DAYS,
  amountToCents,
  devicePlan,
  graceEnd,
  periodEnd,
  subscriptionPrice,
  tierAfterSubscription,
  type PaidSubscriptionKind,
} from '@portal/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock';
import type { Db } from '../../db/db';
import type { PaymentProvider } from './billing.provider';
import { seconds } from './billing.mapping';
import * as repo from './billing.repository';

/** The sweep's timer and its single run. */
export interface BillingSweep {
  /** Settles every running subscription with something due now; one at a time, never two sweeps at once. */
  sweep(): Promise<void>;
  /** Starts the timer (every `sweepMs`; never when it is 0). */
  start(): void;
  /** Stops the timer and waits for a running sweep. */
  close(): Promise<void>;
}

export interface BillingSweepDeps {
  db: Db;
  clock: Clock;
  provider: PaymentProvider;
  /** ISO 4217 code invoices are in (CURRENCY). */
  currency: string;
  log: FastifyBaseLogger;
  /** How often the sweep runs (ms); 0: never by itself (tests call sweep()). */
  sweepMs: number;
}

/** Issues the invoice of one period of `subscriptionId`, due after the grace. */
export async function issueInvoice(
  tx: Db,
  currency: string,
  subscriptionId: number,
  deviceId: string,
  customer: { id: string | null; email: string },
  kind: PaidSubscriptionKind,
  start: number,
  end: number | null,
  issuedAt: number,
): Promise<number> {
  return repo.insertInvoice(tx, {
    subscriptionId,
    deviceId,
    userId: customer.id,
    customerEmail: customer.email,
    kind,
    amountCents: amountToCents(subscriptionPrice(kind)),
    currency,
    periodStart: new Date(start),
    periodEnd: end === null ? null : new Date(end),
    issuedAt: new Date(issuedAt),
    dueAt: new Date(graceEnd(issuedAt)),
  });
}

export function createBillingSweep(deps: BillingSweepDeps): BillingSweep {
  const { db, clock, provider, currency, log } = deps;
  let timer: NodeJS.Timeout | null = null;
  let sweeping: Promise<void> | null = null;

  /**
   * One running subscription brought up to `nowMs`: an open invoice past its grace reverts the
   * device (before a period end at the same time); a period that ended either ends it (cancelled)
   * or renews it with a new invoice, repeated while periods keep ending before now.
   */
  async function settle(subscriptionId: number, nowMs: number): Promise<void> {
    await db.transaction(async (tx) => {
      for (;;) {
        const sub = await repo.subscriptionById(tx, subscriptionId, true);
        if (!sub || sub.status === 'ended') return;
        const device = await repo.findDevice(tx, sub.device_id, true);
        if (!device) return;
        const due = sub.grace_ends_at;
        const end = sub.period_end;
        const at = new Date(nowMs);
        const back = tierAfterSubscription(sub.previous_tier);
        if (due !== null && due <= nowMs && (end === null || due <= end)) {
          await repo.endSubscription(tx, sub.id, 'unpaid', at);
          await repo.setTier(tx, sub.device_id, back);
          await provider.cancelSubscription({ deviceId: sub.device_id, providerRef: null, atPeriodEnd: false });
          await repo.insertEvent(tx, sub.device_id, 'reverted', null, at, {
            kind: sub.kind,
            reason: `The invoice was unpaid after the ${BILLING_GRACE_DAYS}-day grace.`,
            fromTier: device.tier,
            toTier: back,
            toPlan: devicePlan({ tier: back, added_ts: device.added_ts }, nowMs),
          });
          return;
        }
        if (end === null || end > nowMs) return;
        if (sub.cancel_at_period_end) {
          await repo.endSubscription(tx, sub.id, 'cancelled', new Date(end));
          await repo.setTier(tx, sub.device_id, back);
          await repo.insertEvent(tx, sub.device_id, 'ended', null, at, {
            kind: sub.kind,
            reason: 'Cancelled at the end of the period.',
            periodEnd: end / 1000,
            fromTier: device.tier,
            toTier: back,
            toPlan: devicePlan({ tier: back, added_ts: device.added_ts }, end),
          });
          return;
        }
        const nextEnd = periodEnd(sub.kind, end);
        const email = await customerEmail(tx, sub);
        const invoiceid = await issueInvoice(
          tx,
          currency,
          sub.id,
          sub.device_id,
          { id: sub.user_id, email },
          sub.kind,
          end,
          nextEnd,
          end,
        );
        await repo.renewPeriod(tx, sub.id, new Date(end), nextEnd === null ? null : new Date(nextEnd));
        await repo.insertEvent(tx, sub.device_id, 'renew', null, at, {
          kind: sub.kind,
          invoiceid,
          amount: subscriptionPrice(sub.kind),
          currency,
          periodStart: end / 1000,
          periodEnd: seconds(nextEnd),
        });
      }
    });
  }

  async function customerEmail(tx: Db, sub: repo.SubscriptionRow): Promise<string> {
    return (await repo.subscriptionCustomerEmail(tx, sub.id, sub.user_id)) ?? '';
  }

  /** Settles every running subscription with something due now; one at a time, never two sweeps at once. */
  function sweep(): Promise<void> {
    if (sweeping) return sweeping;
    sweeping = (async () => {
      try {
        const nowMs = clock.now().getTime();
        for (const id of await repo.dueSubscriptionIds(db, new Date(nowMs))) await settle(id, nowMs);
      } finally {
        sweeping = null;
      }
    })();
    return sweeping;
  }

  return {
    sweep,

    start(): void {
      if (deps.sweepMs <= 0 || timer) return;
      timer = setInterval(() => {
        sweep().catch((error: unknown) => log.error({ err: error }, 'Billing sweep failed'));
      }, deps.sweepMs);
      timer.unref();
    },

    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      if (sweeping) await sweeping.catch(() => undefined);
    },
  };
}
