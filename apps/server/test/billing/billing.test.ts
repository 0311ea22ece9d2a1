/**
 * Billing over real HTTP on PGlite (DESIGN.md section 5 'Billing', ledger PLAN-28, PLAN-29,
 * API-58 to API-62): the customer's devices (direct and through groups) with plan, trial days and
 * subscription; subscribing makes the device Hosted at once with an invoice due in 30 days;
 * unpaid after the grace it returns to its previous plan (the injectable clock and the sweep);
 * a cancellation ends at the period's end, to Trial while trial days remain, else Basic; renewals;
 * lifetime never ends and cannot be cancelled; changes are all or nothing (a stranger's device is
 * 404, a non-ADMIN 403); staff change plans and mark invoices paid, everyone else 403; the invoice
 * PDF for its owner and staff only; bad bodies 400; every change recorded with who made it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BILLING_MESSAGES,
  DAY_MS,
  DEVICE_MESSAGES,
  type BillingAdminDeviceResponse,
  type BillingCustomerResponse,
  type BillingDevice,
  type Invoice,
  type InvoicePaidResponse,
  type UpdatePlanResponse,
  type UpdateSubscriptionResponse,
} from '@portal/core';
import { type TestPortal, signedIn, startTestPortal } from '../helpers';
import {
  type RoleFixture,
  type SignedInUser,
  claim,
  deviceWithRoles,
  expectError,
  provision,
  randomDeviceId,
  signedInUser,
} from '../device-helpers';
import { pdfInfo, pdfPageTexts } from '../provisioning-labels/pdf-reader';

const CUSTOMER = '/api/billing-get-customer';
const UPDATE = '/api/billing-update-subscription';
const PORTAL = '/api/billing-create-stripe-portal';
const PLAN = '/api/billing-update-plan';
const paidPath = (id: number) => `/api/billing-invoice-paid/${id}`;
const pdfPath = (id: number | string) => `/api/billing-invoice/${id}`;

describe('billing (pglite)', () => {
  let tp: TestPortal;
  let staff: SignedInUser;

  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', seed: false });
    staff = await signedInUser(tp, ['senquip_admin']);
  }, 60_000);
  afterAll(async () => {
    await tp?.close();
  });
  afterEach(async () => {
    if (tp.clock.offsetMs === 0) return;
    tp.clock.reset();
    staff.client = await signedIn(tp, staff);
  });

  const sweep = () => tp.portal.app.services.billing.sweep();
  /** Moves the clock and signs `users` and staff in again (sessions last 7 days), then sweeps. */
  async function later(ms: number, ...users: SignedInUser[]): Promise<void> {
    tp.clock.advance(ms);
    for (const user of [...users, staff]) user.client = await signedIn(tp, user);
    await sweep();
  }

  async function customer(user: SignedInUser): Promise<BillingCustomerResponse> {
    const res = await user.client.get(CUSTOMER);
    expect(res.status, res.text).toBe(200);
    return res.body as BillingCustomerResponse;
  }
  async function deviceOf(user: SignedInUser, deviceid: string): Promise<BillingDevice | undefined> {
    return (await customer(user)).devices.find((d) => d.deviceid === deviceid);
  }
  async function subscribe(user: SignedInUser, deviceList: string[], subscription: string) {
    const res = await user.client.post(UPDATE, { deviceList, subscription });
    expect(res.status, res.text).toBe(200);
    return res.body as UpdateSubscriptionResponse;
  }
  async function tierOf(user: SignedInUser, deviceid: string): Promise<string> {
    const res = await user.client.get(`/api/device/${deviceid}/settings`);
    expect(res.status, res.text).toBe(200);
    return (res.body as { deviceSettings: { tier: { name: string } } }).deviceSettings.tier.name;
  }
  async function markPaid(invoiceid: number): Promise<Invoice> {
    const res = await staff.client.post(paidPath(invoiceid));
    expect(res.status, res.text).toBe(200);
    return (res.body as InvoicePaidResponse).invoice;
  }
  async function adminDevice(deviceid: string): Promise<BillingAdminDeviceResponse> {
    const res = await staff.client.get(`/api/billing-admin-device/${deviceid}`);
    expect(res.status, res.text).toBe(200);
    return res.body as BillingAdminDeviceResponse;
  }
  /** A device the new user claimed (its ADMIN, trial started now). */
  async function ownDevice(): Promise<{ admin: SignedInUser; deviceid: string }> {
    const admin = await signedInUser(tp);
    const device = await provision(tp);
    expect((await claim(admin.client, device.deviceid, device.setupPassword)).status).toBe(200);
    return { admin, deviceid: device.deviceid };
  }
  async function pdfOf(user: SignedInUser, invoiceid: number): Promise<{ status: number; type: string; body: Buffer }> {
    const res = await fetch(`${tp.base}${pdfPath(invoiceid)}`, { headers: { cookie: user.client.cookieHeader() } });
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      body: Buffer.from(await res.arrayBuffer()),
    };
  }

  describe('GET /billing-get-customer', () => {
    let fx: RoleFixture;
    let groupid: string;
    let member: SignedInUser;

    beforeAll(async () => {
      fx = await deviceWithRoles(tp);
      const made = await fx.users.ADMIN.client.post('/api/group', { groupName: 'Billing Yard' });
      groupid = (made.body as { groupid: string }).groupid;
      const placed = await fx.users.ADMIN.client.post(`/api/device/${fx.device.deviceid}/user`, {
        setupPassword: fx.device.setupPassword,
        groupid,
      });
      expect(placed.status, placed.text).toBe(200);
      member = await signedInUser(tp);
      const shared = await fx.users.ADMIN.client.post(`/api/group/${groupid}/user`, {
        targetEmail: member.email,
        targetPermission: 'ADMIN',
      });
      expect(shared.status, shared.text).toBe(200);
    }, 60_000);

    it('lists every device the user holds with its plan, trial days, subscription and prices', async () => {
      const body = await customer(fx.users.ADMIN);
      expect(body).toMatchObject({
        provider: 'invoicing',
        currency: 'USD',
        prices: { monthly: 7.5, yearly: 75, lifetime: 700 },
        graceDays: 30,
        invoices: [],
      });
      const device = body.devices.find((d) => d.deviceid === fx.device.deviceid);
      expect(device).toMatchObject({
        model: fx.device.model,
        groupids: [groupid],
        role: 'ADMIN',
        plan: 'Trial',
        tier: 'TRIAL',
        canChange: true,
        subscription: { kind: 'none', status: 'none', cancelAtPeriodEnd: false, periodEnd: null },
      });
      expect(device!.trialDaysRemaining).toBe(89);
    });

    it('only a device ADMIN may change it; a group member sees it through the group; a stranger not at all', async () => {
      expect(await deviceOf(fx.users.VIEW, fx.device.deviceid)).toMatchObject({
        role: 'VIEW',
        canChange: false,
        groupids: [],
      });
      expect(await deviceOf(fx.users.USER, fx.device.deviceid)).toMatchObject({ role: 'USER', canChange: false });
      expect(await deviceOf(member, fx.device.deviceid)).toMatchObject({
        role: 'ADMIN',
        canChange: true,
        groupids: [groupid],
      });
      expect((await customer(fx.users.STRANGER)).devices).toEqual([]);
    });

    it('needs a session', async () => {
      expectError(await tp.client().get(CUSTOMER), 401, 'UNAUTHENTICATED');
    });

    it('the billing portal is the invoices page', async () => {
      const res = await fx.users.VIEW.client.post(PORTAL);
      expect(res.status, res.text).toBe(200);
      expect(new URL((res.body as { url: string }).url).pathname).toBe('/account/invoices');
      expectError(await tp.client().post(PORTAL), 401, 'UNAUTHENTICATED');
    });
  });

  describe('POST /billing-update-subscription', () => {
    it('subscribing makes the device Hosted at once with an open invoice due in 30 days', async () => {
      const { admin, deviceid } = await ownDevice();
      const before = tp.clock.now().getTime();
      const { results } = await subscribe(admin, [deviceid], 'monthly');
      expect(results).toEqual([
        expect.objectContaining({
          deviceid,
          result: 'subscribed',
          plan: 'Hosted',
          subscription: expect.objectContaining({
            kind: 'monthly',
            status: 'awaiting_payment',
            cancelAtPeriodEnd: false,
          }),
        }),
      ]);
      expect(results[0]!.invoiceid).toEqual(expect.any(Number));
      expect(await tierOf(admin, deviceid)).toBe('PREMIUM');

      const body = await customer(admin);
      expect(body.devices.find((d) => d.deviceid === deviceid)?.plan).toBe('Hosted');
      expect(body.invoices).toHaveLength(1);
      const invoice = body.invoices[0]!;
      expect(invoice).toMatchObject({
        invoiceid: results[0]!.invoiceid,
        deviceid,
        kind: 'monthly',
        amount: 7.5,
        currency: 'USD',
        status: 'open',
        paidAt: null,
        customerEmail: admin.email,
      });
      expect(invoice.number).toMatch(/^INV-\d{6}$/);
      expect(invoice.dueAt - invoice.issuedAt).toBe(30 * 86_400);
      expect(invoice.issuedAt * 1000).toBeGreaterThanOrEqual(before - 1);
      expect(results[0]!.subscription.graceEndsAt).toBe(invoice.dueAt);
    });

    it("a stranger's device is 404 like the device calls, a non-ADMIN's 403, and one refusal changes nothing", async () => {
      const fx = await deviceWithRoles(tp);
      const deviceid = fx.device.deviceid;
      const { admin: other, deviceid: otherDevice } = await ownDevice();
      expectError(
        await fx.users.STRANGER.client.post(UPDATE, { deviceList: [deviceid], subscription: 'monthly' }),
        404,
        'NOT_FOUND',
        DEVICE_MESSAGES.notFound,
      );
      for (const role of ['USER', 'OPERATOR', 'VIEW'] as const)
        expectError(
          await fx.users[role].client.post(UPDATE, { deviceList: [deviceid], subscription: 'monthly' }),
          403,
          'FORBIDDEN',
          BILLING_MESSAGES.notAdmin,
        );
      expectError(
        await fx.users.ADMIN.client.post(UPDATE, { deviceList: [randomDeviceId('Z')], subscription: 'monthly' }),
        404,
        'NOT_FOUND',
        DEVICE_MESSAGES.notFound,
      );
      // Their own device first, then one they do not hold: neither changes.
      expectError(
        await other.client.post(UPDATE, { deviceList: [otherDevice, deviceid], subscription: 'yearly' }),
        404,
        'NOT_FOUND',
      );
      expect((await deviceOf(other, otherDevice))?.subscription.kind).toBe('none');
      expect((await customer(other)).invoices).toEqual([]);
      expect(await tierOf(other, otherDevice)).toBe('TRIAL');
      expectError(
        await tp.client().post(UPDATE, { deviceList: [deviceid], subscription: 'monthly' }),
        401,
        'UNAUTHENTICATED',
      );
    });

    it('refuses bad bodies with 400', async () => {
      const { admin, deviceid } = await ownDevice();
      const bad: unknown[] = [
        {},
        { deviceList: [], subscription: 'monthly' },
        { deviceList: Array.from({ length: 101 }, () => randomDeviceId()), subscription: 'monthly' },
        { deviceList: [deviceid, deviceid], subscription: 'monthly' },
        { deviceList: [deviceid], subscription: 'weekly' },
        { deviceList: [deviceid] },
        { deviceList: deviceid, subscription: 'monthly' },
        { deviceList: ['bad id'], subscription: 'monthly' },
        { deviceList: [deviceid], subscription: 'monthly', coupon: 'FREE' },
      ];
      for (const body of bad) expectError(await admin.client.post(UPDATE, body), 400, 'BAD_REQUEST');
      expect((await deviceOf(admin, deviceid))?.subscription.kind).toBe('none');
    });

    it('changes several devices in one call', async () => {
      const { admin, deviceid } = await ownDevice();
      const second = await provision(tp);
      expect((await claim(admin.client, second.deviceid, second.setupPassword)).status).toBe(200);
      const { results } = await subscribe(admin, [deviceid, second.deviceid], 'yearly');
      expect(results.map((r) => [r.deviceid, r.result, r.plan])).toEqual([
        [deviceid, 'subscribed', 'Hosted'],
        [second.deviceid, 'subscribed', 'Hosted'],
      ]);
      const invoices = (await customer(admin)).invoices;
      expect(invoices.map((i) => [i.deviceid, i.amount, i.kind]).sort()).toEqual(
        [
          [deviceid, 75, 'yearly'],
          [second.deviceid, 75, 'yearly'],
        ].sort(),
      );
      // The same kind again changes nothing.
      expect((await subscribe(admin, [deviceid], 'yearly')).results[0]!.result).toBe('unchanged');
    });

    it("a cancellation ends at the period's end and the device returns to its trial", async () => {
      const { admin, deviceid } = await ownDevice();
      const subscribed = (await subscribe(admin, [deviceid], 'monthly')).results[0]!;
      await markPaid(subscribed.invoiceid!);
      const cancelled = (await subscribe(admin, [deviceid], 'none')).results[0]!;
      expect(cancelled).toMatchObject({
        result: 'cancelled',
        plan: 'Hosted',
        subscription: { kind: 'monthly', status: 'active', cancelAtPeriodEnd: true, planAfterPeriod: 'Trial' },
      });
      const periodEnd = cancelled.subscription.periodEnd! * 1000;
      expect((await subscribe(admin, [deviceid], 'none')).results[0]!.result).toBe('unchanged');

      await later(periodEnd - tp.clock.now().getTime() - 60_000, admin);
      expect((await deviceOf(admin, deviceid))?.plan).toBe('Hosted');

      await later(120_000, admin);
      const device = await deviceOf(admin, deviceid);
      expect(device).toMatchObject({ plan: 'Trial', tier: 'TRIAL', subscription: { kind: 'none', status: 'none' } });
      expect(await tierOf(admin, deviceid)).toBe('TRIAL');
      const events = (await adminDevice(deviceid)).events.map((e) => [e.kind, e.actor]);
      expect(events).toEqual([
        ['ended', null],
        ['cancel', admin.email],
        ['paid', staff.email],
        ['subscribe', admin.email],
      ]);
    });

    it('a cancelled device whose trial is over by then returns to Basic', async () => {
      const { admin, deviceid } = await ownDevice();
      await tp.portal.db.query('UPDATE devices SET added_ts = added_ts - $2 WHERE id = $1', [deviceid, 80 * 86_400]);
      const subscribed = (await subscribe(admin, [deviceid], 'monthly')).results[0]!;
      await markPaid(subscribed.invoiceid!);
      const cancelled = (await subscribe(admin, [deviceid], 'none')).results[0]!;
      expect(cancelled.subscription.planAfterPeriod).toBe('Basic');
      await later(subscribed.subscription.periodEnd! * 1000 - tp.clock.now().getTime() + 1000, admin);
      expect(await deviceOf(admin, deviceid)).toMatchObject({ plan: 'Basic', tier: 'TRIAL' });
    });

    it('asking for the same kind again withdraws a cancellation', async () => {
      const { admin, deviceid } = await ownDevice();
      await subscribe(admin, [deviceid], 'monthly');
      await subscribe(admin, [deviceid], 'none');
      const resumed = (await subscribe(admin, [deviceid], 'monthly')).results[0]!;
      expect(resumed).toMatchObject({ result: 'resumed', subscription: { cancelAtPeriodEnd: false } });
    });

    it('another kind replaces the subscription from now: a new invoice, the open one void', async () => {
      const { admin, deviceid } = await ownDevice();
      const first = (await subscribe(admin, [deviceid], 'monthly')).results[0]!;
      const changed = (await subscribe(admin, [deviceid], 'yearly')).results[0]!;
      expect(changed).toMatchObject({ result: 'changed', plan: 'Hosted', subscription: { kind: 'yearly' } });
      const invoices = (await customer(admin)).invoices.filter((i) => i.deviceid === deviceid);
      expect(invoices.map((i) => [i.invoiceid, i.kind, i.status, i.amount])).toEqual([
        [changed.invoiceid, 'yearly', 'open', 75],
        [first.invoiceid, 'monthly', 'void', 7.5],
      ]);
      expectError(await staff.client.post(paidPath(first.invoiceid!)), 409, 'CONFLICT', BILLING_MESSAGES.invoiceVoid);
    });

    it('an unpaid invoice after the 30-day grace returns the device to its previous plan', async () => {
      const { admin, deviceid } = await ownDevice();
      const { invoiceid } = (await subscribe(admin, [deviceid], 'yearly')).results[0]!;
      await later(30 * DAY_MS - 60_000, admin);
      expect((await deviceOf(admin, deviceid))?.plan).toBe('Hosted');

      await later(120_000, admin);
      expect(await deviceOf(admin, deviceid)).toMatchObject({
        plan: 'Trial',
        tier: 'TRIAL',
        subscription: { kind: 'none' },
      });
      expect((await customer(admin)).invoices.find((i) => i.invoiceid === invoiceid)?.status).toBe('void');
      expect((await adminDevice(deviceid)).events[0]).toMatchObject({ kind: 'reverted', actor: null });
    });

    it('a paid period renews with a new invoice; the device stays Hosted', async () => {
      const { admin, deviceid } = await ownDevice();
      const first = (await subscribe(admin, [deviceid], 'monthly')).results[0]!;
      expect(await markPaid(first.invoiceid!)).toMatchObject({ status: 'paid' });
      expect((await deviceOf(admin, deviceid))?.subscription.status).toBe('active');
      const end = first.subscription.periodEnd!;
      await later(end * 1000 - tp.clock.now().getTime() + 1000, admin);
      const device = await deviceOf(admin, deviceid);
      expect(device).toMatchObject({
        plan: 'Hosted',
        subscription: { kind: 'monthly', status: 'awaiting_payment', periodStart: end },
      });
      const renewal = (await customer(admin)).invoices.find((i) => i.deviceid === deviceid && i.status === 'open');
      expect(renewal).toMatchObject({ periodStart: end, issuedAt: end, amount: 7.5 });
    });

    it('lifetime never ends and cannot be cancelled or changed', async () => {
      const { admin, deviceid } = await ownDevice();
      const { invoiceid } = (await subscribe(admin, [deviceid], 'lifetime')).results[0]!;
      expect((await customer(admin)).invoices[0]).toMatchObject({ amount: 700, periodEnd: null });
      await markPaid(invoiceid!);
      await later(20 * 365 * DAY_MS, admin);
      expect(await deviceOf(admin, deviceid)).toMatchObject({
        plan: 'Hosted',
        subscription: { kind: 'lifetime', status: 'active', periodEnd: null },
      });
      expectError(
        await admin.client.post(UPDATE, { deviceList: [deviceid], subscription: 'none' }),
        409,
        'CONFLICT',
        BILLING_MESSAGES.lifetimeCannotCancel,
      );
      expectError(
        await admin.client.post(UPDATE, { deviceList: [deviceid], subscription: 'monthly' }),
        409,
        'CONFLICT',
        BILLING_MESSAGES.lifetimeCannotChange,
      );
    });
  });

  describe('staff calls', () => {
    it('billing-update-plan: Basic, Hosted and Trial, recorded; a running subscription ends', async () => {
      const { admin, deviceid } = await ownDevice();
      const { invoiceid } = (await subscribe(admin, [deviceid], 'monthly')).results[0]!;

      const basic = await staff.client.post(PLAN, { deviceid, plan: 'Basic', reason: 'Unpaid account' });
      expect(basic.status, basic.text).toBe(200);
      expect(basic.body as UpdatePlanResponse).toMatchObject({
        deviceid,
        previousPlan: 'Hosted',
        plan: 'Basic',
        tier: 'BASIC_ONLY',
        endedSubscription: true,
      });
      expect(await deviceOf(admin, deviceid)).toMatchObject({ plan: 'Basic', subscription: { kind: 'none' } });
      expect((await customer(admin)).invoices.find((i) => i.invoiceid === invoiceid)?.status).toBe('void');
      const settings = await admin.client.get(`/api/device/${deviceid}/settings`);
      expect(settings.body).toMatchObject({ deviceSettings: { tier: { name: 'BASIC_ONLY', dataToPortal: false } } });

      const hosted = await staff.client.post(PLAN, { deviceid, plan: 'Hosted' });
      expect(hosted.body).toMatchObject({ previousPlan: 'Basic', plan: 'Hosted', endedSubscription: false });
      expect((await customer(admin)).invoices).toHaveLength(1);

      // A trial that is over starts afresh.
      await tp.portal.db.query('UPDATE devices SET added_ts = added_ts - $2 WHERE id = $1', [deviceid, 100 * 86_400]);
      const trial = await staff.client.post(PLAN, { deviceid, plan: 'Trial' });
      expect(trial.body).toMatchObject({ previousPlan: 'Hosted', plan: 'Trial', trialDaysRemaining: 90 });

      const events = (await adminDevice(deviceid)).events;
      expect(events.slice(0, 3).map((e) => [e.kind, e.actor, e.detail.toPlan])).toEqual([
        ['plan-change', staff.email, 'Trial'],
        ['plan-change', staff.email, 'Hosted'],
        ['plan-change', staff.email, 'Basic'],
      ]);
      expect(events[2]!.detail.reason).toBe('Unpaid account');
    });

    it('staff calls are 403 for everyone else, 404 for unknown ids, 400 for bad bodies', async () => {
      const { admin, deviceid } = await ownDevice();
      const { invoiceid } = (await subscribe(admin, [deviceid], 'monthly')).results[0]!;
      const distributor = await signedInUser(tp, ['distributors']);
      for (const user of [admin, distributor]) {
        expectError(await user.client.post(PLAN, { deviceid, plan: 'Hosted' }), 403, 'FORBIDDEN');
        expectError(await user.client.post(paidPath(invoiceid!)), 403, 'FORBIDDEN');
        expectError(await user.client.get(`/api/billing-admin-device/${deviceid}`), 403, 'FORBIDDEN');
      }
      expectError(await tp.client().post(PLAN, { deviceid, plan: 'Hosted' }), 401, 'UNAUTHENTICATED');
      expect((await deviceOf(admin, deviceid))?.subscription.status).toBe('awaiting_payment');

      expectError(
        await staff.client.post(PLAN, { deviceid: randomDeviceId('Z'), plan: 'Basic' }),
        404,
        'NOT_FOUND',
        DEVICE_MESSAGES.notFound,
      );
      for (const body of [
        {},
        { deviceid, plan: 'PREMIUM' },
        { deviceid: 'x', plan: 'Basic' },
        { deviceid, plan: 'Basic', x: 1 },
      ])
        expectError(await staff.client.post(PLAN, body), 400, 'BAD_REQUEST');
      expectError(await staff.client.post(paidPath(999_999)), 404, 'NOT_FOUND', BILLING_MESSAGES.invoiceNotFound);
      expectError(await staff.client.post('/api/billing-invoice-paid/abc'), 400, 'BAD_REQUEST');

      // Marking paid twice changes nothing the second time.
      const paid = await markPaid(invoiceid!);
      expect(await markPaid(invoiceid!)).toEqual(paid);
      expect((await adminDevice(deviceid)).events.filter((e) => e.kind === 'paid')).toHaveLength(1);
    });
  });

  describe('GET /billing-invoice/{invoiceid}', () => {
    it('is a PDF of the invoice for its owner and staff, 404 for anyone else', async () => {
      const fx = await deviceWithRoles(tp);
      const deviceid = fx.device.deviceid;
      const { invoiceid } = (await subscribe(fx.users.ADMIN, [deviceid], 'monthly')).results[0]!;
      const invoice = (await customer(fx.users.ADMIN)).invoices[0]!;

      const pdf = await pdfOf(fx.users.ADMIN, invoiceid!);
      expect(pdf.status).toBe(200);
      expect(pdf.type).toBe('application/pdf');
      expect(await pdfInfo(pdf.body)).toMatchObject({ pages: 1, title: `Invoice ${invoice.number}` });
      const text = (await pdfPageTexts(pdf.body)).join('\n');
      for (const expected of [invoice.number, deviceid, '$7.50', 'Total (USD)', 'OPEN', fx.users.ADMIN.email])
        expect(text).toContain(expected);
      expect(text).toContain(new Date(invoice.issuedAt * 1000).toISOString().slice(0, 10));

      expect((await pdfOf(staff, invoiceid!)).status).toBe(200);
      await markPaid(invoiceid!);
      expect((await pdfPageTexts((await pdfOf(fx.users.ADMIN, invoiceid!)).body)).join('\n')).toContain('PAID');

      const other = await pdfOf(fx.users.USER, invoiceid!);
      expect(other.status).toBe(404);
      expect(JSON.parse(other.body.toString('utf8'))).toEqual({
        message: BILLING_MESSAGES.invoiceNotFound,
        code: 'NOT_FOUND',
      });
      expectError(await fx.users.ADMIN.client.get(pdfPath('0')), 400, 'BAD_REQUEST');
      expectError(await tp.client().get(pdfPath(invoiceid!)), 401, 'UNAUTHENTICATED');
    });
  });

  it('answered nothing with a 5xx', () => {
    expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
  });
});
