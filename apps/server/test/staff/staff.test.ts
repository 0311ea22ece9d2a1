/**
 * Staff administration calls (issue 16; spec 2 section 7 API-61, API-65..67, STAFF-04, STAFF-11;
 * DESIGN.md section 5 staff groups) over real HTTP on PGlite: every call is 401 signed out and 403
 * for anyone outside senquip_admin (a customer, a distributor, a provisioning account);
 * distributors are listed, created (POST, id 0) and edited (PUT, an existing id) with strict
 * validation; devices are assigned to a distributor all or nothing, recorded with who and when
 * (dossier, server log, statistics); any device or user is found; a device's dossier names every
 * user with their role and its source, its groups, plan, distributor and server log; a user's
 * dossier their devices and groups; the distributor actions work for a staff admin on any
 * device; and the statistics count a known fixture (devices on each plan, a subscription and its
 * paid invoice, records in the last hour).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BASIC_TIER_NAME,
  PREMIUM_TIER_NAME,
  STAFF_MESSAGES,
  recentMonths,
  type BillingAdminStatsResponse,
  type Distributor,
  type StaffDeviceResponse,
  type StaffSearchResponse,
  type StaffUserResponse,
} from '@portal/core';
import { type TestPortal, startTestPortal } from '../helpers';
import {
  type Provisioned,
  type SignedInUser,
  claim,
  expectError,
  provision,
  randomDeviceId,
  signedInUser,
} from '../device-helpers';

/** Every staff admin call: method, path, body. */
const STAFF_CALLS: [string, string, unknown][] = [
  ['GET', '/api/distributors', undefined],
  ['POST', '/api/distributors', { id: 0, name: 'X', contactEmail: 'x@example.com', country: 'AU' }],
  ['PUT', '/api/distributors', { id: 1, name: 'X', contactEmail: 'x@example.com', country: 'AU' }],
  ['PUT', '/api/distributor-devices', { distributorId: 1, deviceList: ['TAAAAAAAA'] }],
  ['GET', '/api/staff/search?q=ab', undefined],
  ['GET', '/api/staff/device/TAAAAAAAA', undefined],
  ['GET', '/api/staff/user/someone', undefined],
  ['GET', '/api/billing-admin-stats', undefined],
];

const distributorBody = (extra: Record<string, unknown> = {}) => ({
  id: 0,
  name: `Outback Sensors ${Math.random().toString(36).slice(2, 8)}`,
  contactEmail: 'sales@outback.example.com',
  country: 'AU',
  notes: 'Queensland and the Northern Territory',
  ...extra,
});

describe('staff administration (pglite)', () => {
  let tp: TestPortal;
  let staff: SignedInUser;

  const stats = async (): Promise<BillingAdminStatsResponse> => {
    const res = await staff.client.get('/api/billing-admin-stats');
    expect(res.status, res.text).toBe(200);
    return res.body as BillingAdminStatsResponse;
  };
  const createDistributor = async (extra: Record<string, unknown> = {}): Promise<Distributor> => {
    const res = await staff.client.post('/api/distributors', distributorBody(extra));
    expect(res.status, res.text).toBe(201);
    return res.body as Distributor;
  };
  const dossier = async (deviceid: string): Promise<StaffDeviceResponse> => {
    const res = await staff.client.get(`/api/staff/device/${deviceid}`);
    expect(res.status, res.text).toBe(200);
    return res.body as StaffDeviceResponse;
  };

  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', seed: false });
    staff = await signedInUser(tp, ['senquip_admin']);
  });
  afterAll(async () => {
    await tp?.close();
  });

  it('refuses every staff call signed out (401) and outside senquip_admin (403)', async () => {
    const anon = tp.client();
    const outsiders = [
      await signedInUser(tp),
      await signedInUser(tp, ['distributors']),
      await signedInUser(tp, ['provisioning_account']),
    ];
    for (const [method, path, body] of STAFF_CALLS) {
      expectError(await anon.request(method, path, body === undefined ? {} : { body }), 401, 'UNAUTHENTICATED');
      for (const user of outsiders) {
        const res = await user.client.request(method, path, body === undefined ? {} : { body });
        expectError(res, 403, 'FORBIDDEN');
      }
    }
    // nothing was created by the refused calls
    expect((await staff.client.get('/api/distributors')).body).toEqual([]);
  });

  describe('distributors', () => {
    it('creates with POST id 0, lists by name, edits with PUT, recording who', async () => {
      const made = await createDistributor({
        name: '  Zeta Distribution  ',
        country: 'nz',
        contactEmail: 'Ops@Zeta.example.com',
      });
      expect(made).toMatchObject({
        name: 'Zeta Distribution',
        country: 'NZ',
        contactEmail: 'ops@zeta.example.com',
        deviceCount: 0,
        updatedBy: staff.email,
      });
      expect(made.id).toBeGreaterThan(0);
      const alpha = await createDistributor({ name: 'Alpha Telemetry', notes: undefined });
      expect(alpha.notes).toBe('');

      const list = (await staff.client.get('/api/distributors')).body as Distributor[];
      const names = list.map((d) => d.name);
      expect(names.indexOf('Alpha Telemetry')).toBeLessThan(names.indexOf('Zeta Distribution'));

      const other = await signedInUser(tp, ['senquip_admin']);
      const edited = await other.client.put('/api/distributors', {
        id: made.id,
        name: 'Zeta Distribution Ltd',
        contactEmail: 'ops@zeta.example.com',
        country: 'NZ',
        notes: 'North Island',
      });
      expect(edited.status, edited.text).toBe(200);
      expect(edited.body).toMatchObject({
        id: made.id,
        name: 'Zeta Distribution Ltd',
        notes: 'North Island',
        updatedBy: other.email,
      });
      const again = (await staff.client.get('/api/distributors')).body as Distributor[];
      expect(again.find((d) => d.id === made.id)?.name).toBe('Zeta Distribution Ltd');
    });

    it('validates strictly: POST needs id 0, PUT an existing id, names are unique, fields are checked', async () => {
      const made = await createDistributor({ name: 'Unique Name Pty' });
      expectError(
        await staff.client.post('/api/distributors', distributorBody({ id: made.id })),
        400,
        'BAD_REQUEST',
        STAFF_MESSAGES.postNeedsZero,
      );
      expectError(
        await staff.client.put('/api/distributors', distributorBody({ id: 0 })),
        400,
        'BAD_REQUEST',
        STAFF_MESSAGES.putNeedsId,
      );
      expectError(
        await staff.client.put('/api/distributors', distributorBody({ id: 999_999 })),
        404,
        'NOT_FOUND',
        STAFF_MESSAGES.distributorNotFound,
      );
      expectError(
        await staff.client.post('/api/distributors', distributorBody({ name: 'UNIQUE name pty' })),
        409,
        'CONFLICT',
        STAFF_MESSAGES.distributorNameTaken,
      );
      const other = await createDistributor();
      expectError(
        await staff.client.put('/api/distributors', distributorBody({ id: other.id, name: 'unique NAME pty' })),
        409,
        'CONFLICT',
      );

      const bad: Record<string, unknown>[] = [
        { name: '   ' },
        { name: 'x'.repeat(81) },
        { contactEmail: 'not-an-address' },
        { country: 'XX' },
        { country: 'Australia' },
        { country: 'ZZ' },
        { notes: 'n'.repeat(1001) },
        { id: -1 },
        { id: 1.5 },
        { id: '0' },
        { extra: true },
        { name: 'Nul\u0000Name' },
      ];
      for (const change of bad) {
        expectError(await staff.client.post('/api/distributors', distributorBody(change)), 400, 'BAD_REQUEST');
      }
      const { name: _omit, ...noName } = distributorBody();
      expectError(await staff.client.post('/api/distributors', noName), 400, 'BAD_REQUEST');
      expectError(await staff.client.post('/api/distributors', 'text'), 400, 'BAD_REQUEST');
    });
  });

  describe('devices of a distributor, search and dossiers', () => {
    let a: Provisioned;
    let b: Provisioned;
    let owner: SignedInUser;
    let member: SignedInUser;
    let groupid: string;

    beforeAll(async () => {
      a = await provision(tp, 'ORB-C1', randomDeviceId('SQA'));
      b = await provision(tp, 'ORB-C1', randomDeviceId('SQB'));
      owner = await signedInUser(tp);
      const made = await owner.client.post('/api/group', { groupName: 'Yard fleet' });
      groupid = (made.body as { groupid: string }).groupid;
      const claimed = await owner.client.post(`/api/device/${a.deviceid}/user`, {
        setupPassword: a.setupPassword,
        groupid,
      });
      expect(claimed.status, claimed.text).toBe(200);
      member = await signedInUser(tp);
      const shared = await owner.client.post(`/api/group/${groupid}/user`, {
        targetEmail: member.email,
        targetPermission: 'OPERATOR',
      });
      expect(shared.status, shared.text).toBe(200);
      const granted = await owner.client.post(`/api/device/${a.deviceid}/user`, {
        targetEmail: member.email,
        targetPermission: 'USER',
      });
      expect(granted.status, granted.text).toBe(200);
    });

    it('assigns devices all or nothing, moves and unassigns them, recording who and when', async () => {
      const north = await createDistributor({ name: 'North Assign' });
      const south = await createDistributor({ name: 'South Assign' });
      const ghost = randomDeviceId('ZZZ');
      const refused = await staff.client.put('/api/distributor-devices', {
        distributorId: north.id,
        deviceList: [a.deviceid, ghost],
      });
      expectError(refused, 404, 'NOT_FOUND', `Unknown device: ${ghost}`);
      expect((await dossier(a.deviceid)).distributor).toBeNull();

      const res = await staff.client.put('/api/distributor-devices', {
        distributorId: north.id,
        deviceList: [` ${a.deviceid.toLowerCase()} `, b.deviceid, a.deviceid],
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        message: '2 devices assigned to North Assign',
        distributorId: north.id,
        deviceList: [a.deviceid, b.deviceid],
      });
      const seen = await dossier(a.deviceid);
      expect(seen.distributor).toMatchObject({ id: north.id, name: 'North Assign', assignedBy: staff.email });
      expect(Math.abs(seen.distributor!.assignedAt - tp.clock.now().getTime() / 1000)).toBeLessThan(60);
      expect(seen.serverLog[0]).toMatchObject({
        kind: 'staff',
        message: `Assigned to distributor North Assign by ${staff.email}`,
      });
      let list = (await staff.client.get('/api/distributors')).body as Distributor[];
      expect(list.find((d) => d.id === north.id)?.deviceCount).toBe(2);

      // a device has one distributor: assigning it again moves it
      await staff.client.put('/api/distributor-devices', { distributorId: south.id, deviceList: [b.deviceid] });
      list = (await staff.client.get('/api/distributors')).body as Distributor[];
      expect(list.find((d) => d.id === north.id)?.deviceCount).toBe(1);
      expect(list.find((d) => d.id === south.id)?.deviceCount).toBe(1);

      const removed = await staff.client.put('/api/distributor-devices', {
        distributorId: null,
        deviceList: [b.deviceid],
      });
      expect(removed.body).toMatchObject({
        message: '1 device no longer assigned to a distributor',
        distributorId: null,
      });
      expect((await dossier(b.deviceid)).distributor).toBeNull();

      expectError(
        await staff.client.put('/api/distributor-devices', { distributorId: 999_999, deviceList: [a.deviceid] }),
        404,
        'NOT_FOUND',
        STAFF_MESSAGES.distributorNotFound,
      );
      for (const body of [
        { distributorId: north.id, deviceList: [] },
        { distributorId: north.id, deviceList: ['short'] },
        { distributorId: north.id, deviceList: Array.from({ length: 501 }, () => a.deviceid) },
        { distributorId: 0, deviceList: [a.deviceid] },
        { deviceList: [a.deviceid] },
        { distributorId: north.id, deviceList: [a.deviceid], extra: 1 },
      ]) {
        expectError(await staff.client.put('/api/distributor-devices', body), 400, 'BAD_REQUEST');
      }
    });

    it('finds any device by id prefix or name and any user by part of the address', async () => {
      const byId = await staff.client.get(`/api/staff/search?q=${a.deviceid.slice(0, 5).toLowerCase()}`);
      expect(byId.status, byId.text).toBe(200);
      const found = byId.body as StaffSearchResponse;
      expect(found.devices.map((d) => d.deviceid)).toContain(a.deviceid);
      expect(found.devices.find((d) => d.deviceid === a.deviceid)).toMatchObject({
        model: 'ORB-C1',
        plan: 'Trial',
        distributor: 'North Assign',
      });

      const local = owner.email.split('@')[0]!;
      const users = (await staff.client.get(`/api/staff/search?q=${encodeURIComponent(local.toUpperCase())}`))
        .body as StaffSearchResponse;
      expect(users.users).toEqual([{ userId: owner.id, email: owner.email, userGroups: [], deviceCount: 1 }]);

      const none = (await staff.client.get('/api/staff/search?q=nothing-matches-this')).body as StaffSearchResponse;
      expect(none).toEqual({ devices: [], users: [] });

      for (const q of ['', 'a', ' a ', 'x'.repeat(101)]) {
        expectError(await staff.client.get(`/api/staff/search?q=${encodeURIComponent(q)}`), 400, 'BAD_REQUEST');
      }
      expectError(await staff.client.get('/api/staff/search'), 400, 'BAD_REQUEST');
      expectError(await staff.client.get('/api/staff/search?q=ab&other=1'), 400, 'BAD_REQUEST');
    });

    it("shows a device's dossier: users with their roles and sources, groups, plan and server log", async () => {
      const d = await dossier(a.deviceid);
      expect(d.device).toMatchObject({
        deviceid: a.deviceid,
        model: 'ORB-C1',
        plan: 'Trial',
        // floor((added + 90 d - now) / 1 d): just added, 89 whole days and a part remain
        trialDaysRemaining: 89,
        trialResetState: 'available',
        addWithoutPass: 'INACTIVE',
        lastContact: null,
      });
      expect(d.users).toEqual([
        {
          userId: owner.id,
          email: owner.email,
          role: 'ADMIN',
          sources: [
            { kind: 'direct', groupid: null, groupName: null, role: 'ADMIN' },
            { kind: 'group', groupid, groupName: 'Yard fleet', role: 'ADMIN' },
          ],
        },
        {
          userId: member.id,
          email: member.email,
          role: 'USER',
          sources: [
            { kind: 'direct', groupid: null, groupName: null, role: 'USER' },
            { kind: 'group', groupid, groupName: 'Yard fleet', role: 'OPERATOR' },
          ],
        },
      ]);
      expect(d.groups).toEqual([{ groupid, groupName: 'Yard fleet', members: 2 }]);

      const fresh = await dossier(b.deviceid);
      expect(fresh.device).toMatchObject({ plan: 'Basic', trialDaysRemaining: null, addedAt: null });
      expect(fresh.users).toEqual([]);

      expectError(
        await staff.client.get(`/api/staff/device/${randomDeviceId('NOP')}`),
        404,
        'NOT_FOUND',
        'Device not found',
      );
      expectError(await staff.client.get('/api/staff/device/not-a-device'), 404, 'NOT_FOUND');
    });

    it("shows a user's dossier: devices with their highest role, and groups", async () => {
      const res = await staff.client.get(`/api/staff/user/${member.id}`);
      expect(res.status, res.text).toBe(200);
      const u = res.body as StaffUserResponse;
      expect(u.user).toMatchObject({ userId: member.id, email: member.email, userGroups: [], emailVerified: true });
      expect(u.devices).toEqual([expect.objectContaining({ deviceid: a.deviceid, role: 'USER', plan: 'Trial' })]);
      expect(u.groups).toEqual([{ groupid, groupName: 'Yard fleet', permission: 'OPERATOR', devices: 1 }]);
      expectError(
        await staff.client.get('/api/staff/user/nobody-has-this-id'),
        404,
        'NOT_FOUND',
        STAFF_MESSAGES.userNotFound,
      );
    });

    it('runs the distributor actions for a staff admin on any device; others still need distributors + ADMIN', async () => {
      const reset = await staff.client.post(`/api/billing-distributor-action/${a.deviceid}`, { action: 'reset-trial' });
      expect(reset.status, reset.text).toBe(200);
      expect((await dossier(a.deviceid)).device.trialResetState).toBe('active');
      const on = await staff.client.post(`/api/billing-distributor-action/${b.deviceid}`, {
        action: 'no-pass',
        params: { mode: 'ADMIN' },
      });
      expect(on.status, on.text).toBe(200);
      expect((await dossier(b.deviceid)).device.addWithoutPass).toBe('ADMIN');
      const off = await staff.client.post(`/api/billing-distributor-action/${b.deviceid}`, {
        action: 'no-pass',
        params: { mode: 'DISABLE' },
      });
      expect(off.status, off.text).toBe(200);
      expect((await dossier(b.deviceid)).device.addWithoutPass).toBe('INACTIVE');
      expectError(
        await staff.client.post(`/api/billing-distributor-action/${randomDeviceId('NOP')}`, { action: 'reset-trial' }),
        404,
        'NOT_FOUND',
      );

      // the owner holds ADMIN but is no distributor; a distributor without a role sees no device
      expectError(
        await owner.client.post(`/api/billing-distributor-action/${a.deviceid}`, { action: 'reset-trial' }),
        403,
        'FORBIDDEN',
      );
      const distributor = await signedInUser(tp, ['distributors']);
      expectError(
        await distributor.client.post(`/api/billing-distributor-action/${b.deviceid}`, { action: 'reset-trial' }),
        404,
        'NOT_FOUND',
      );
    });
  });

  it('counts a known fixture in the statistics: plans, models, activity, distributors, subscriptions, revenue, ingest', async () => {
    const before = await stats();
    const nowMs = tp.clock.now().getTime();
    const nowS = nowMs / 1000;
    const db = tp.portal.db;
    const hosted = await provision(tp, 'ORB-X1', randomDeviceId('STH'));
    const basic = await provision(tp, 'ORB-X1', randomDeviceId('STB'));
    const trial = await provision(tp, 'ORB-X1', randomDeviceId('STT'));
    const expired = await provision(tp, 'ORB-X1', randomDeviceId('STE'));
    const customer = await signedInUser(tp);
    for (const device of [hosted, basic, trial, expired]) {
      expect((await claim(customer.client, device.deviceid, device.setupPassword)).status).toBe(200);
    }
    await db.query('UPDATE devices SET tier = $3, last_contact = $2 WHERE id = $1', [
      hosted.deviceid,
      nowS - 60,
      PREMIUM_TIER_NAME,
    ]);
    await db.query('UPDATE devices SET tier = $3, last_contact = $2 WHERE id = $1', [
      basic.deviceid,
      nowS - 2 * 86400,
      BASIC_TIER_NAME,
    ]);
    await db.query('UPDATE devices SET added_ts = $2 WHERE id = $1', [expired.deviceid, nowS - 91 * 86400]);
    const dist = await createDistributor({ name: 'Stats Distribution' });
    await staff.client.put('/api/distributor-devices', {
      distributorId: dist.id,
      deviceList: [hosted.deviceid, trial.deviceid],
    });
    // a monthly subscription made now, its invoice paid now; an older yearly one paid 2 months ago
    const sub = await db.query<{ id: number }>(
      `INSERT INTO billing_subscriptions (device_id, user_id, kind, status, provider, period_start, period_end, previous_tier, created_at)
       VALUES ($1, $2, 'monthly', 'active', 'invoicing', $3, $4, 'TRIAL', $3) RETURNING id`,
      [hosted.deviceid, customer.id, new Date(nowMs), new Date(nowMs + 30 * 86_400_000)],
    );
    await db.query(
      `INSERT INTO billing_invoices (subscription_id, device_id, user_id, customer_email, kind, amount_cents, currency, status,
                                     period_start, period_end, issued_at, due_at, paid_at, paid_by)
       VALUES ($1, $2, $3, $4, 'monthly', 750, 'USD', 'paid', $5, $6, $5, $6, $5, $7),
              ($1, $2, $3, $4, 'monthly', 750, 'USD', 'open', $5, $6, $5, $6, NULL, NULL),
              ($1, $2, $3, $4, 'monthly', 990, 'EUR', 'paid', $5, $6, $5, $6, $5, $7)`,
      [
        sub[0]!.id,
        hosted.deviceid,
        customer.id,
        customer.email,
        new Date(nowMs),
        new Date(nowMs + 30 * 86_400_000),
        staff.email,
      ],
    );
    // records: two 10.5 minutes ago (minute 49 of the hour), one 58.5 minutes ago, one 2 hours ago (outside the hour)
    await db.query(
      `INSERT INTO records (device_id, ts, received_at, data)
       SELECT $1, ts, now(), '{}'::jsonb FROM unnest($2::double precision[]) AS ts`,
      [trial.deviceid, [nowS - 630, nowS - 625, nowS - 3510, nowS - 7200]],
    );

    const after = await stats();
    const months = recentMonths(tp.clock.now().getTime(), 12);
    expect(after.months.map((m) => m.month)).toEqual(months);
    expect(after.currency).toBe('USD');
    expect(after.totalDevices - before.totalDevices).toBe(4);
    expect({
      Hosted: after.devicesByPlan.Hosted - before.devicesByPlan.Hosted,
      Trial: after.devicesByPlan.Trial - before.devicesByPlan.Trial,
      Basic: after.devicesByPlan.Basic - before.devicesByPlan.Basic,
    }).toEqual({ Hosted: 1, Trial: 1, Basic: 2 });
    const x1 = (s: BillingAdminStatsResponse) => s.devicesByModel.find((m) => m.model === 'ORB-X1')?.count ?? 0;
    expect(x1(after) - x1(before)).toBe(4);
    expect(after.activeLastDay - before.activeLastDay).toBe(1);
    expect(after.devicesByDistributor.find((d) => d.distributorId === dist.id)).toEqual({
      distributorId: dist.id,
      name: 'Stats Distribution',
      count: 2,
    });
    const unassigned = (s: BillingAdminStatsResponse) =>
      s.devicesByDistributor.find((d) => d.distributorId === null)?.count ?? 0;
    expect(unassigned(after) - unassigned(before)).toBe(2);
    const last = (s: BillingAdminStatsResponse) => s.months[s.months.length - 1]!;
    expect(last(after).subscriptions - last(before).subscriptions).toBe(1);
    // only the paid invoice in the configured currency counts
    expect(Math.round((last(after).revenue - last(before).revenue) * 100)).toBe(750);
    expect(after.ingest.recordsLastHour - before.ingest.recordsLastHour).toBe(3);
    expect(after.ingest.minutes).toHaveLength(60);
    expect(after.ingest.minutes.reduce((s, n) => s + n, 0)).toBe(after.ingest.recordsLastHour);
    expect(after.ingest.minutes[49]! - before.ingest.minutes[49]!).toBe(2);
    expect(after.ingest.perMinute).toBe(Math.round((after.ingest.recordsLastHour / 60) * 100) / 100);
  });
});
