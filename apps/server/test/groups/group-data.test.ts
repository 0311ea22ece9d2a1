/**
 * The group data call and home's search over real HTTP (DESIGN.md section 5; core
 * contracts/group-data.ts): GET /api/group/{groupid}/data answers each device of the group with
 * its summary, last contact, the asked keys' latest values, event counts by level, the newest
 * messages in the range, position and marker severity, for records and events sent through the
 * device ingest API; ranges are floored to whole hours with the end's hour whole; any member
 * level reads it, a stranger and a former member get the group calls' 404; a bad query is 400
 * and changes nothing. GET /api/search finds devices by part of their name or id and groups by
 * name, only among what the caller may see. Every answer is checked against the OpenAPI document
 * by the test client. Runs on PGlite, and on PostgreSQL when reachable.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  GROUP_DATA_MAX_DAYS,
  GROUP_MESSAGES,
  SEARCH_MAX_RESULTS,
  type DeviceRole,
  type GroupDataDevice,
  type GroupDataResponse,
  type SearchResponse,
} from '@portal/core';
import { type ApiClient, type DbKind, type TestPortal, findPostgres, startTestPortal } from '../helpers';
import {
  type Provisioned,
  type SignedInUser,
  del,
  expectError,
  provisioningStaff,
  randomDeviceId,
  signedInUser,
} from '../device-helpers';
import { postRecords } from '../ingest-helpers';

const HOUR = 3600;
const DAY = 86_400;
const LEVELS: DeviceRole[] = ['ADMIN', 'USER', 'OPERATOR', 'VIEW'];

function describeGroupData(dbKind: DbKind): void {
  describe(`group data and search (${dbKind})`, () => {
    let tp: TestPortal;
    let groupid: string;
    let admin: SignedInUser;
    const member = {} as Record<DeviceRole, SignedInUser>;
    let stranger: SignedInUser;
    /** a: values, events of each level and a position; b: one event, no position; c: nothing yet. */
    let a: Provisioned;
    let b: Provisioned;
    let c: Provisioned;
    /** The hour the events start in (three days ago). */
    let h0: number;

    const send = async (device: Provisioned, body: unknown) =>
      expect(await postRecords(tp, { id: device.deviceid, key: device.deviceKey }, body)).toBe(200);

    /** A device provisioned with a name (POST /api/prov-portal-edit-device/{id}). */
    async function provision(name: string): Promise<Provisioned> {
      const { client } = await provisioningStaff(tp);
      const res = await client.post(`/api/prov-portal-edit-device/${randomDeviceId()}`, { model: 'ORB-C1', name });
      expect(res.status, res.text).toBe(201);
      return res.body as Provisioned;
    }

    async function addToGroup(device: Provisioned, notes?: Record<string, string>) {
      const res = await admin.client.post(`/api/device/${device.deviceid}/user`, {
        setupPassword: device.setupPassword,
        groupid,
      });
      expect(res.body, res.text).toMatchObject({ permission: 'ADMIN', groupid });
      if (notes) {
        const settings = await admin.client.put(`/api/device/${device.deviceid}/settings`, {
          PORTAL_deviceNotes: notes,
        });
        expect(settings.status, settings.text).toBe(200);
      }
    }

    const data = async (client: ApiClient, query = '') => {
      const res = await client.get(`/api/group/${groupid}/data${query}`);
      expect(res.status, res.text).toBe(200);
      return res.body as GroupDataResponse;
    };
    const deviceIn = (answer: GroupDataResponse, device: Provisioned) =>
      answer.devices.find((d) => d.deviceid === device.deviceid)!;
    const msgs = (d: GroupDataDevice) => d.messages.map((m) => m.msg);

    beforeAll(async () => {
      tp = await startTestPortal({ db: dbKind, seed: false, telemetry: { derivedHoldMs: 0 } });
      admin = await signedInUser(tp);
      const made = await admin.client.post('/api/group', { groupName: 'North Yard' });
      groupid = (made.body as { groupid: string }).groupid;
      [a, b, c] = [await provision('Pump North 7'), await provision('Main pump house'), await provision('Tank South')];
      await addToGroup(a, { status: 'Active', asset_type: 'Pump', make: 'Acme', model: 'P7' });
      await addToGroup(b);
      await addToGroup(c);
      for (const level of LEVELS.slice(1)) {
        member[level] = await signedInUser(tp);
        const shared = await admin.client.post(`/api/group/${groupid}/user`, {
          targetEmail: member[level].email,
          targetPermission: level,
        });
        expect(shared.status, shared.text).toBe(200);
      }
      member.ADMIN = admin;
      stranger = await signedInUser(tp);
      h0 = Math.floor(tp.clock.now().getTime() / 1000 / HOUR) * HOUR - 3 * DAY;
      await send(a, [
        {
          ts: h0 + 100,
          temp: 21.5,
          gps_lat: 51.5,
          gps_lon: -0.12,
          gps_hdop: 1.2,
          events: [
            { msg: 'info one', lv: 5 },
            { msg: 'alert one', lv: 15, topic: 'power' },
          ],
        },
        {
          ts: h0 + HOUR + 10,
          temp: 22,
          events: [
            { msg: 'warn one', severity: 'WARN' },
            { msg: 'alarm one', lv: 35 },
          ],
        },
        { ts: h0 + 2 * HOUR + 5, temp: 23.5, label: 'on', events: [{ msg: 'info two', severity: 'INFO' }] },
      ]);
      await send(b, [{ ts: h0 + 50, temp: 5, events: [{ msg: 'b info', lv: 1 }] }]);
    }, 120_000);
    afterAll(async () => {
      await tp?.close();
    });
    afterEach(() => {
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });

    it('answers every device: summary, last contact, asked values, counts by level, newest messages, position, severity', async () => {
      const nowS = tp.clock.now().getTime() / 1000;
      const answer = await data(member.VIEW.client, '?keys=temp,label,nope');
      expect(answer.groupid).toBe(groupid);
      // The default range: the last 7 days to now, in whole hours (the end's hour whole).
      expect(answer.to).toBe(Math.floor(nowS / HOUR) * HOUR + HOUR);
      expect(answer.from).toBe(Math.floor((nowS - 7 * DAY) / HOUR) * HOUR);
      expect(answer.devices.map((d) => d.deviceid)).toEqual([a, b, c].map((d) => d.deviceid).sort());
      const da = deviceIn(answer, a);
      expect(da).toEqual({
        deviceid: a.deviceid,
        name: 'Pump North 7',
        status: 'Active',
        type: 'Pump',
        fw: expect.any(String) as unknown,
        machineMake: 'Acme',
        machineModel: 'P7',
        ts: expect.any(Number) as unknown,
        values: { temp: { v: 23.5, ts: h0 + 2 * HOUR + 5 }, label: { v: 'on', ts: h0 + 2 * HOUR + 5 } },
        alarmCount: 1,
        warningCount: 1,
        alertCount: 1,
        infoCount: 2,
        messages: [
          { ts: h0 + 2 * HOUR + 5, topic: null, msg: 'info two', lv: null, severity: 'INFO' },
          // Events of one time: the last stored first.
          { ts: h0 + HOUR + 10, topic: null, msg: 'alarm one', lv: 35, severity: null },
          { ts: h0 + HOUR + 10, topic: null, msg: 'warn one', lv: null, severity: 'WARN' },
          { ts: h0 + 100, topic: 'power', msg: 'alert one', lv: 15, severity: null },
          { ts: h0 + 100, topic: null, msg: 'info one', lv: 5, severity: null },
        ],
        lat: 51.5,
        lon: -0.12,
        hdop: 1.2,
        severity: 'alarm',
      });
      // Last contact is when the portal heard from the device, not a record's own time.
      expect(Math.abs(da.ts! - nowS)).toBeLessThan(120);
      expect(deviceIn(answer, b)).toMatchObject({
        name: 'Main pump house',
        values: { temp: { v: 5, ts: h0 + 50 } },
        infoCount: 1,
        alarmCount: 0,
        messages: [{ msg: 'b info', lv: 1 }],
        lat: null,
        lon: null,
        hdop: null,
        severity: 'info',
      });
      expect(deviceIn(answer, c)).toMatchObject({
        name: 'Tank South',
        ts: null,
        values: {},
        alarmCount: 0,
        warningCount: 0,
        alertCount: 0,
        infoCount: 0,
        messages: [],
        lat: null,
        severity: 'normal',
      });
      // The summary fields are GET /group/{groupid}'s deviceSummaries.
      const group = (await member.VIEW.client.get(`/api/group/${groupid}`)).body as {
        deviceSummaries: Record<string, Record<string, string>>;
      };
      for (const d of answer.devices) {
        const { name, status, type, fw, machineMake, machineModel } = d;
        expect({ name, status, type, fw, machineMake, machineModel }).toEqual(group.deviceSummaries[d.deviceid]);
      }
    });

    it('keys: only the asked keys have values (none asked: none); the position is there anyway', async () => {
      const none = deviceIn(await data(member.USER.client), a);
      expect(none.values).toEqual({});
      expect(none).toMatchObject({ lat: 51.5, lon: -0.12 });
      const one = deviceIn(await data(member.USER.client, '?keys=temp'), a);
      expect(one.values).toEqual({ temp: { v: 23.5, ts: h0 + 2 * HOUR + 5 } });
      const position = deviceIn(await data(member.USER.client, '?keys=gps_lat'), a);
      expect(position.values).toEqual({ gps_lat: { v: 51.5, ts: h0 + 100 } });
    });

    it('messages: how many newest messages per device (0 to 20; default 5)', async () => {
      expect(msgs(deviceIn(await data(admin.client, '?messages=2'), a))).toEqual(['info two', 'alarm one']);
      expect(deviceIn(await data(admin.client, '?messages=0'), a).messages).toEqual([]);
      // Counts do not depend on how many messages are answered.
      expect(deviceIn(await data(admin.client, '?messages=0'), a)).toMatchObject({ alarmCount: 1, infoCount: 2 });
    });

    it('range edges: both ends floored to whole hours, the end hour read whole', async () => {
      // One hour (h0+1h), asked from its middle to its last second: the two events of that hour.
      const hour = await data(admin.client, `?from=${h0 + HOUR + 1799}&to=${h0 + HOUR + 3599}`);
      expect([hour.from, hour.to]).toEqual([h0 + HOUR, h0 + 2 * HOUR]);
      const inHour = deviceIn(hour, a);
      expect(inHour).toMatchObject({ alarmCount: 1, warningCount: 1, alertCount: 0, infoCount: 0, severity: 'alarm' });
      expect(msgs(inHour)).toEqual(['alarm one', 'warn one']);
      expect(deviceIn(hour, b)).toMatchObject({ infoCount: 0, messages: [], severity: 'normal' });
      // Ending at the first second of an hour reads that hour whole.
      const twoHours = deviceIn(await data(admin.client, `?from=${h0 + HOUR + 1}&to=${h0 + 2 * HOUR}`), a);
      expect(msgs(twoHours)).toEqual(['info two', 'alarm one', 'warn one']);
      expect(twoHours).toMatchObject({ infoCount: 1, warningCount: 1, alarmCount: 1, alertCount: 0 });
      // Starting one second after an hour's start still reads that hour; the hour after the events reads none.
      expect(msgs(deviceIn(await data(admin.client, `?from=${h0 + 1}&to=${h0 + 1}`), a))).toEqual([
        'alert one',
        'info one',
      ]);
      const after = deviceIn(await data(admin.client, `?from=${h0 + 3 * HOUR}&to=${h0 + 4 * HOUR}`), a);
      expect(after).toMatchObject({ infoCount: 0, messages: [], severity: 'normal' });
      // Only `from`: to now. Only `to`: the 7 days before it.
      const fromOnly = await data(admin.client, `?from=${h0 + 2 * HOUR}`);
      expect(msgs(deviceIn(fromOnly, a))).toEqual(['info two']);
      const toOnly = await data(admin.client, `?to=${h0 + 2 * HOUR}`);
      expect(toOnly.from).toBe(h0 + 2 * HOUR - 7 * DAY);
      // Values are the latest whatever the range.
      expect(deviceIn(await data(admin.client, `?to=${h0}&keys=temp`), a).values).toEqual({
        temp: { v: 23.5, ts: h0 + 2 * HOUR + 5 },
      });
    });

    it('a range long before a device’s newest events still answers its newest messages in that range', async () => {
      const d = await provision('Busy one');
      await addToGroup(d);
      const h1 = h0 - DAY;
      // 25 hours with one event each: more than the 20 newest messages kept per device.
      await send(
        d,
        Array.from({ length: 25 }, (_, i) => ({ ts: h1 + i * HOUR, n: i, events: [{ msg: `e${i}` }] })),
      );
      const early = deviceIn(await data(admin.client, `?from=${h1}&to=${h1 + HOUR}&messages=3`), d);
      expect(msgs(early)).toEqual(['e1', 'e0']);
      const all = deviceIn(await data(admin.client, '?messages=20'), d);
      expect(msgs(all)).toEqual(Array.from({ length: 20 }, (_, i) => `e${24 - i}`));
      expect(all.infoCount).toBe(25);
      const middle = deviceIn(await data(admin.client, `?from=${h1 + 2 * HOUR}&to=${h1 + 6 * HOUR}&messages=20`), d);
      expect(msgs(middle)).toEqual(['e6', 'e5', 'e4', 'e3', 'e2']);
    });

    it('every member level reads it; a stranger, an unknown group and a former member get 404 Group not found', async () => {
      for (const level of LEVELS) {
        const answer = await data(member[level].client);
        expect(answer.devices.length, level).toBeGreaterThanOrEqual(3);
      }
      const path = `/api/group/${groupid}/data`;
      expectError(await stranger.client.get(path), 404, 'NOT_FOUND', GROUP_MESSAGES.notFound);
      expectError(await admin.client.get('/api/group/AAAAAAAAAAA/data'), 404, 'NOT_FOUND', GROUP_MESSAGES.notFound);
      expectError(await admin.client.get(`/api/group/${groupid.toLowerCase()}/data`), 404, 'NOT_FOUND');
      expectError(await tp.client().get(path), 401, 'UNAUTHENTICATED');
      const former = await signedInUser(tp);
      await admin.client.post(`/api/group/${groupid}/user`, { targetEmail: former.email, targetPermission: 'USER' });
      expect((await former.client.get(path)).status).toBe(200);
      expect((await del(admin.client, `/api/group/${groupid}/user`, { targetUserID: former.id })).status).toBe(200);
      expectError(await former.client.get(path), 404, 'NOT_FOUND', GROUP_MESSAGES.notFound);
    });

    it('stats: count, sum, min and max of the numeric values of each asked key in the range; only when asked', async () => {
      const answer = await data(member.VIEW.client, '?keys=temp&stats=temp,label,nope');
      const da = deviceIn(answer, a);
      const temp = da.stats?.temp;
      expect(temp).toBeDefined();
      expect(temp!.count).toBeGreaterThan(0);
      expect(temp!.min).toBeLessThanOrEqual(temp!.max);
      expect(temp!.sum / temp!.count).toBeGreaterThanOrEqual(temp!.min);
      expect(temp!.sum / temp!.count).toBeLessThanOrEqual(temp!.max);
      // A text key has no numbers; an unknown key nothing.
      expect(Object.keys(da.stats ?? {})).toEqual(['temp']);
      expect(deviceIn(await data(member.VIEW.client, '?keys=temp'), a).stats).toBeUndefined();
    });

    it('a bad query is 400 { message, code } and changes nothing', async () => {
      const before = await data(admin.client, '?keys=temp');
      const bad = [
        '?from=abc',
        '?to=1.5',
        '?from=-1',
        `?from=${h0 + HOUR}&to=${h0}`,
        `?from=${h0 - (GROUP_DATA_MAX_DAYS + 1) * DAY}&to=${h0}`,
        `?from=${h0 - (GROUP_DATA_MAX_DAYS + 1) * DAY}`,
        `?from=${h0 + 30 * DAY}`,
        '?messages=21',
        '?messages=-1',
        '?messages=two',
        `?keys=${Array.from({ length: 51 }, (_, i) => `k${i}`).join(',')}`,
        `?keys=${'k'.repeat(65)}`,
        '?keys=temp,,label',
        `?stats=${Array.from({ length: 51 }, (_, i) => `k${i}`).join(',')}`,
        `?stats=${'k'.repeat(65)}`,
        '?stats=temp,,label',
        '?extra=1',
      ];
      for (const query of bad) {
        const res = await admin.client.get(`/api/group/${groupid}/data${query}`);
        expectError(res, 400, 'BAD_REQUEST');
      }
      const after = await data(admin.client, '?keys=temp');
      expect({ ...after, devices: after.devices.map((d) => ({ ...d, ts: 0 })) }).toEqual({
        ...before,
        devices: before.devices.map((d) => ({ ...d, ts: 0 })),
      });
    });

    describe('search', () => {
      const search = async (client: ApiClient, q: string) => {
        const res = await client.get(`/api/search?q=${encodeURIComponent(q)}`);
        expect(res.status, res.text).toBe(200);
        return res.body as SearchResponse;
      };

      it('finds devices by part of their name or id and groups by part of their name, case-insensitive', async () => {
        const found = await search(member.VIEW.client, 'PUMP');
        // Those starting with the text first ('Pump North 7'), then by name.
        expect(found.devices).toEqual([
          { deviceid: a.deviceid, name: 'Pump North 7' },
          { deviceid: b.deviceid, name: 'Main pump house' },
        ]);
        expect(found.groups).toEqual([]);
        const byId = await search(member.VIEW.client, c.deviceid.slice(2, 7).toLowerCase());
        expect(byId.devices).toContainEqual({ deviceid: c.deviceid, name: 'Tank South' });
        expect((await search(member.VIEW.client, 'th ya')).groups).toEqual([
          { groupid, groupName: 'North Yard', permission: 'VIEW' },
        ]);
        expect((await search(member.VIEW.client, groupid.slice(3))).groups).toEqual([
          { groupid, groupName: 'North Yard', permission: 'VIEW' },
        ]);
        expect(await search(member.VIEW.client, 'nothing like it')).toEqual({ devices: [], groups: [] });
      });

      it('never finds what the caller cannot access; a former member loses the group and its devices at once', async () => {
        // The stranger's own device and group share the words.
        const own = await provision('Pump Secret');
        const claimed = await stranger.client.post(`/api/device/${own.deviceid}/user`, {
          setupPassword: own.setupPassword,
        });
        expect(claimed.status, claimed.text).toBe(200);
        await stranger.client.post('/api/group', { groupName: 'North Yard Private' });
        const seen = await search(stranger.client, 'pump');
        expect(seen.devices).toEqual([{ deviceid: own.deviceid, name: 'Pump Secret' }]);
        const mine = await search(member.OPERATOR.client, 'pump');
        expect(mine.devices.map((d) => d.deviceid)).not.toContain(own.deviceid);
        expect((await search(member.OPERATOR.client, 'north yard')).groups).toEqual([
          { groupid, groupName: 'North Yard', permission: 'OPERATOR' },
        ]);
        // A direct grant alone finds the device too (no group).
        const direct = await signedInUser(tp);
        await stranger.client.post(`/api/device/${own.deviceid}/user`, {
          targetEmail: direct.email,
          targetPermission: 'VIEW',
        });
        expect((await search(direct.client, 'secret')).devices).toEqual([
          { deviceid: own.deviceid, name: 'Pump Secret' },
        ]);
        // Leaving the group: its devices and the group are gone from the answers.
        const leaving = await signedInUser(tp);
        await admin.client.post(`/api/group/${groupid}/user`, { targetEmail: leaving.email, targetPermission: 'VIEW' });
        expect((await search(leaving.client, 'pump')).devices).toHaveLength(2);
        await del(leaving.client, `/api/group/${groupid}/user`, { targetUserID: leaving.id });
        expect(await search(leaving.client, 'pump')).toEqual({ devices: [], groups: [] });
        expect(await search(leaving.client, 'north')).toEqual({ devices: [], groups: [] });
      });

      it(`answers at most ${SEARCH_MAX_RESULTS} of each`, async () => {
        const many = await signedInUser(tp);
        for (let i = 0; i < SEARCH_MAX_RESULTS + 2; i += 1) {
          expect((await many.client.post('/api/group', { groupName: `Depot ${i}` })).status).toBe(200);
        }
        const found = await search(many.client, 'depot');
        expect(found.groups).toHaveLength(SEARCH_MAX_RESULTS);
        // By name: 'Depot 0', 'Depot 1', 'Depot 10', ...
        expect(found.groups.slice(0, 3).map((g) => g.groupName)).toEqual(['Depot 0', 'Depot 1', 'Depot 10']);
      });

      it('a missing, empty or too long q is 400; so is another parameter; the caller must be signed in', async () => {
        for (const query of ['', '?q=', '?q=%20%20', `?q=${'x'.repeat(65)}`, '?q=pump&extra=1']) {
          expectError(await admin.client.get(`/api/search${query}`), 400, 'BAD_REQUEST');
        }
        expectError(await tp.client().get('/api/search?q=pump'), 401, 'UNAUTHENTICATED');
      });
    });
  });
}

describeGroupData('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeGroupData('postgres');
