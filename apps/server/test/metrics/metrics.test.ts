/**
 * The metrics calls over real HTTP (core contracts/metrics.ts, DESIGN.md section 5):
 * GET /api/group/{groupid}/metrics answers one key under avg (weighted by sample count), sum,
 * max, min or latest over the group's devices for a current and a previous period of whole
 * hours, and must agree with a scan of the stored records of randomised data; GET
 * /api/device/{id}/metrics answers every metric kind per key of one device, with the latest and
 * last known values. Both floor their times to the hour; the previous period defaults to the
 * hours just before the current one; a non-member gets the group calls' 404, a stranger to a
 * device the device calls' 404; a bad query is 400 and changes nothing. Every answer is checked
 * against the OpenAPI document by the test client. Runs on PGlite, and on PostgreSQL when
 * reachable.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  COLUMN_OPERATORS,
  GROUP_MESSAGES,
  METRICS_MAX_DAYS,
  type GroupMetricsPeriod,
  type GroupMetricsResponse,
  type MetricsOperator,
  type MetricsResponse,
} from '@portal/core';
import { type ApiClient, type DbKind, type TestPortal, findPostgres, startTestPortal } from '../helpers';
import {
  type Provisioned,
  type RoleFixture,
  type SignedInUser,
  deviceWithRoles,
  expectError,
  provision,
  signedInUser,
} from '../device-helpers';
import { postRecords } from '../ingest-helpers';

const HOUR = 3600;
const DAY = 86_400;
const floorHour = (t: number) => Math.floor(t / HOUR) * HOUR;

/** A small seeded generator, so a failure can be replayed from the seed in its message. */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Value {
  deviceid: string;
  ts: number;
  v: number;
}

/** What a period's answer must be, from the values (a scan of the records) in [start, end). */
function expectedPeriod(values: Value[], operator: MetricsOperator, start: number, end: number) {
  const inside = values.filter((x) => x.ts >= start && x.ts < end);
  const devices = new Set(inside.map((x) => x.deviceid)).size;
  if (inside.length === 0) return { value: null, devices: 0, count: 0, deviceid: null, ts: null };
  const vs = inside.map((x) => x.v);
  const sum = vs.reduce((a, b) => a + b, 0);
  const newest = [...inside].sort((a, b) => b.ts - a.ts || a.deviceid.localeCompare(b.deviceid))[0]!;
  const value = {
    avg: sum / vs.length,
    sum,
    max: Math.max(...vs),
    min: Math.min(...vs),
    latest: newest.v,
  }[operator];
  return {
    value,
    devices,
    count: vs.length,
    deviceid: operator === 'latest' ? newest.deviceid : null,
    ts: operator === 'latest' ? newest.ts : null,
  };
}

function expectPeriod(got: GroupMetricsPeriod, want: ReturnType<typeof expectedPeriod>, label: string): void {
  const { value, ...rest } = want;
  expect({ ...got, value: null }, label).toMatchObject({ ...rest, value: null });
  if (value === null) expect(got.value, label).toBeNull();
  else expect(got.value, label).toBeCloseTo(value, 6);
}

function describeMetrics(dbKind: DbKind): void {
  describe(`metrics calls (${dbKind})`, () => {
    let tp: TestPortal;
    let admin: SignedInUser;
    let viewer: SignedInUser;
    let stranger: SignedInUser;
    let groupid: string;
    let emptyGroupid: string;
    let devices: Provisioned[];
    /** The portal's time when the data was sent, floored to the hour. */
    let h: number;
    let seed: number;

    const send = async (device: Provisioned, body: unknown) =>
      expect(await postRecords(tp, { id: device.deviceid, key: device.deviceKey }, body)).toBe(200);

    const groupMetrics = async (client: ApiClient, query: string, id = groupid) => {
      const res = await client.get(`/api/group/${id}/metrics?${query}`);
      expect(res.status, res.text).toBe(200);
      return res.body as GroupMetricsResponse;
    };

    /** The numeric values of `key` the group's devices stored, read back from the records. */
    async function scan(key: string): Promise<Value[]> {
      const rows = await tp.portal.db.query<{ device_id: string; ts: number; v: unknown }>(
        `SELECT device_id, ts, data -> $2 AS v FROM records WHERE device_id = ANY($1::text[])`,
        [devices.map((d) => d.deviceid), key],
      );
      return rows
        .filter((r) => typeof r.v === 'number')
        .map((r) => ({ deviceid: r.device_id, ts: Number(r.ts), v: r.v as number }));
    }

    beforeAll(async () => {
      tp = await startTestPortal({ db: dbKind, seed: false, telemetry: { derivedHoldMs: 0 } });
      admin = await signedInUser(tp);
      viewer = await signedInUser(tp);
      stranger = await signedInUser(tp);
      groupid = ((await admin.client.post('/api/group', { groupName: 'Metrics Yard' })).body as { groupid: string })
        .groupid;
      emptyGroupid = ((await admin.client.post('/api/group', { groupName: 'Quiet Yard' })).body as { groupid: string })
        .groupid;
      devices = [await provision(tp), await provision(tp), await provision(tp), await provision(tp)];
      for (const device of devices) {
        const added = await admin.client.post(`/api/device/${device.deviceid}/user`, {
          setupPassword: device.setupPassword,
          groupid,
        });
        expect(added.status, added.text).toBe(200);
      }
      const quiet = await provision(tp);
      expect(
        (
          await admin.client.post(`/api/device/${quiet.deviceid}/user`, {
            setupPassword: quiet.setupPassword,
            groupid: emptyGroupid,
          })
        ).status,
      ).toBe(200);
      const shared = await admin.client.post(`/api/group/${groupid}/user`, {
        targetEmail: viewer.email,
        targetPermission: 'VIEW',
      });
      expect(shared.status, shared.text).toBe(200);

      // Randomised records over the last 6 days for three devices (the fourth sends nothing):
      // temp mostly numeric (sometimes missing, sometimes text, which no rollup counts), some
      // records at the same second on two devices (latest's tie), a few on exact hour and day
      // boundaries.
      seed = Math.floor(Math.random() * 2 ** 31);
      const random = generator(seed);
      h = floorHour(tp.clock.now().getTime() / 1000);
      const start = h - 6 * DAY;
      for (const [i, device] of devices.slice(0, 3).entries()) {
        const times = new Set<number>([Math.floor(start / DAY) * DAY + DAY, h - 2 * DAY, h - 1]);
        while (times.size < 160) times.add(start + Math.floor(random() * (6 * DAY)));
        const records = [...times].map((ts) => {
          const r = random();
          const temp = r < 0.08 ? undefined : r < 0.12 ? 'n/a' : Math.round((random() * 200 - 50 + i * 7) * 100) / 100;
          return { ts, ...(temp === undefined ? {} : { temp }), volts: Math.round(random() * 240) };
        });
        for (let j = 0; j < records.length; j += 50) await send(device, records.slice(j, j + 50));
      }
    }, 180_000);
    afterAll(async () => {
      await tp?.close();
    });
    afterEach(() => {
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });

    it('each operator over the devices agrees with a scan of the records, current and previous period', async () => {
      const values = await scan('temp');
      expect(values.length).toBeGreaterThan(300);
      // Unaligned times (hours at both edges, whole days inside), a period inside one day (edges
      // only), whole days, and an explicit previous period.
      const ranges = [
        { c: [h - 2 * DAY - 1234, h - 17], p: undefined },
        { c: [h - 5 * HOUR + 59, h + 1], p: undefined },
        { c: [h - 3 * DAY - (h % DAY), h - (h % DAY)], p: [h - 6 * DAY + 600, h - 4 * DAY - 3599] },
      ] as const;
      for (const { c, p } of ranges) {
        for (const operator of COLUMN_OPERATORS) {
          const query =
            `key=temp&operator=${operator}&currentStartTime=${c[0]}&currentEndTime=${c[1]}` +
            (p ? `&previousStartTime=${p[0]}&previousEndTime=${p[1]}` : '');
          const answer = await groupMetrics(viewer.client, query);
          const label = `seed ${seed}, ${query}`;
          const [cs, ce] = [floorHour(c[0]), floorHour(c[1])];
          const [ps, pe] = p ? [floorHour(p[0]), floorHour(p[1])] : [2 * cs - ce, cs];
          expect(answer, label).toMatchObject({ groupid, key: 'temp', operator });
          expect(answer.currentPeriod, label).toMatchObject({ startTime: cs, endTime: ce });
          expect(answer.previousPeriod, label).toMatchObject({ startTime: ps, endTime: pe });
          expectPeriod(answer.currentPeriod, expectedPeriod(values, operator, cs, ce), `${label} current`);
          expectPeriod(answer.previousPeriod, expectedPeriod(values, operator, ps, pe), `${label} previous`);
        }
      }
    });

    it('operator defaults to avg; latest names the device and time of the newest value', async () => {
      const values = await scan('volts');
      const query = `key=volts&currentStartTime=${h - DAY}&currentEndTime=${h + HOUR}`;
      const answer = await groupMetrics(admin.client, query);
      expect(answer.operator).toBe('avg');
      expectPeriod(answer.currentPeriod, expectedPeriod(values, 'avg', h - DAY, h + HOUR), query);
      const latest = await groupMetrics(admin.client, `${query}&operator=latest`);
      const want = expectedPeriod(values, 'latest', h - DAY, h + HOUR);
      expect(latest.currentPeriod).toMatchObject({ deviceid: want.deviceid, ts: h - 1, value: want.value });
      expect(devices.slice(0, 3).map((d) => d.deviceid)).toContain(latest.currentPeriod.deviceid);
    });

    it('floors every time to the hour: a period shorter than its hour is empty, not an error', async () => {
      const answer = await groupMetrics(
        admin.client,
        `key=temp&operator=sum&currentStartTime=${h - 1800}&currentEndTime=${h - 60}&previousStartTime=${h - 7199}&previousEndTime=${h - 1}`,
      );
      expect(answer.currentPeriod).toEqual({
        startTime: h - HOUR,
        endTime: h - HOUR,
        value: null,
        devices: 0,
        count: 0,
        deviceid: null,
        ts: null,
      });
      expect(answer.previousPeriod).toMatchObject({ startTime: h - 2 * HOUR, endTime: h - HOUR });
    });

    it('a group whose devices have no data, and a key nobody sent, answer null with no devices', async () => {
      const range = `currentStartTime=${h - 7 * DAY}&currentEndTime=${h + HOUR}`;
      for (const operator of COLUMN_OPERATORS) {
        const quiet = await groupMetrics(admin.client, `key=temp&operator=${operator}&${range}`, emptyGroupid);
        expect(quiet.currentPeriod).toMatchObject({ value: null, devices: 0, count: 0, deviceid: null, ts: null });
        const unknown = await groupMetrics(admin.client, `key=nope&operator=${operator}&${range}`);
        expect(unknown.currentPeriod).toMatchObject({ value: null, devices: 0, count: 0 });
        expect(unknown.previousPeriod).toMatchObject({ value: null, devices: 0, count: 0 });
      }
    });

    it('a non-member, an unknown group and a malformed id get 404; signed out 401', async () => {
      const query = `key=temp&currentStartTime=${h - DAY}&currentEndTime=${h}`;
      for (const [client, id] of [
        [stranger.client, groupid],
        [admin.client, 'GNOSUCHGRP1'],
        [admin.client, '__proto__'],
      ] as const) {
        expectError(await client.get(`/api/group/${id}/metrics?${query}`), 404, 'NOT_FOUND', GROUP_MESSAGES.notFound);
      }
      expectError(await tp.client().get(`/api/group/${groupid}/metrics?${query}`), 401, 'UNAUTHENTICATED');
    });

    it('a bad query is 400 and writes nothing', async () => {
      const [before] = await tp.portal.db.query<{ n: number }>(
        'SELECT (SELECT count(*) FROM rollup_hour) + (SELECT count(*) FROM records) AS n',
      );
      const ok = `currentStartTime=${h - DAY}&currentEndTime=${h}`;
      for (const query of [
        ok,
        `key=&${ok}`,
        `key=temp&operator=median&${ok}`,
        `key=temp&operator=AVG&${ok}`,
        `key=temp&currentStartTime=${h}&currentEndTime=${h - DAY}`,
        `key=temp&currentStartTime=${h - (METRICS_MAX_DAYS + 1) * DAY}&currentEndTime=${h}`,
        `key=temp&${ok}&previousStartTime=${h - 2 * DAY}`,
        `key=temp&${ok}&previousStartTime=${h - DAY}&previousEndTime=${h - 2 * DAY}`,
        `key=temp&currentStartTime=${h - DAY}`,
        `key=temp&currentStartTime=soon&currentEndTime=${h}`,
        `key=temp&currentStartTime=-5&currentEndTime=${h}`,
        `key=temp&${ok}&extra=1`,
        `key=${'k'.repeat(65)}&${ok}`,
      ]) {
        expectError(await admin.client.get(`/api/group/${groupid}/metrics?${query}`), 400, 'BAD_REQUEST');
      }
      const [after] = await tp.portal.db.query<{ n: number }>(
        'SELECT (SELECT count(*) FROM rollup_hour) + (SELECT count(*) FROM records) AS n',
      );
      expect(after).toEqual(before);
    });

    describe('GET /api/device/{id}/metrics', () => {
      let fx: RoleFixture;
      const deviceMetrics = async (client: ApiClient, query: string, id = fx.device.deviceid) => {
        const res = await client.get(`/api/device/${id}/metrics?${query}`);
        expect(res.status, res.text).toBe(200);
        return res.body as MetricsResponse;
      };

      beforeAll(async () => {
        fx = await deviceWithRoles(tp);
        await send(fx.device, [
          { ts: h - 3 * HOUR + 10, a: 1, b: 10, s: 'x' },
          { ts: h - 2 * HOUR + 10, a: 5, b: 20 },
          { ts: h - HOUR + 10, a: 3 },
          { ts: h - 5 * HOUR + 10, a: 7, c: 2 },
        ]);
      });

      it('every kind per key over whole hours, the previous period by default the hours before, keys by dataKeys', async () => {
        const answer = await deviceMetrics(
          fx.users.VIEW.client,
          `currentStartTime=${h - 3 * HOUR + 59}&currentEndTime=${h - 1}`,
        );
        expect(answer.currentPeriod).toEqual({
          startTime: h - 3 * HOUR,
          endTime: h - HOUR,
          data: {
            a: { min: 1, max: 5, avg: 3, sum: 6, diff: 4, acc: 5, count: 2 },
            b: { min: 10, max: 20, avg: 15, sum: 30, diff: 10, acc: 20, count: 2 },
          },
        });
        expect(answer.previousPeriod).toEqual({
          startTime: h - 5 * HOUR,
          endTime: h - 3 * HOUR,
          data: {
            a: { min: 7, max: 7, avg: 7, sum: 7, diff: 0, acc: 7, count: 1 },
            c: { min: 2, max: 2, avg: 2, sum: 2, diff: 0, acc: 2, count: 1 },
          },
        });
        expect(answer.latestData).toBeUndefined();
        const some = await deviceMetrics(
          fx.users.OPERATOR.client,
          `currentStartTime=${h - 3 * HOUR}&currentEndTime=${h}&dataKeys=b,nope`,
        );
        expect(Object.keys(some.currentPeriod.data)).toEqual(['b']);
        expect(some.previousPeriod.data).toEqual({});
      });

      it("currentIntermediatePeriods: the current period's hours (a day or less), else its UTC days, each with its metrics (CHT-08)", async () => {
        const hours = await deviceMetrics(
          fx.users.VIEW.client,
          `currentStartTime=${h - 3 * HOUR + 59}&currentEndTime=${h - 1}&dataKeys=a,b`,
        );
        expect(hours.currentIntermediatePeriods).toEqual([
          {
            endTime: h - 2 * HOUR,
            data: {
              a: { min: 1, max: 1, avg: 1, sum: 1, diff: 0, acc: 1, count: 1 },
              b: { min: 10, max: 10, avg: 10, sum: 10, diff: 0, acc: 10, count: 1 },
            },
          },
          {
            endTime: h - HOUR,
            data: {
              a: { min: 5, max: 5, avg: 5, sum: 5, diff: 0, acc: 5, count: 1 },
              b: { min: 20, max: 20, avg: 20, sum: 20, diff: 0, acc: 20, count: 1 },
            },
          },
        ]);
        // Three days and a bit: one slice per UTC day (clipped to the period), the counts adding up.
        const start = h - 3 * 86_400 - 5 * HOUR;
        const days = await deviceMetrics(fx.users.VIEW.client, `currentStartTime=${start}&currentEndTime=${h}`);
        const slices = days.currentIntermediatePeriods;
        expect(slices.at(-1)?.endTime).toBe(h);
        expect(slices.slice(0, -1).every((s) => s.endTime % 86_400 === 0)).toBe(true);
        expect(slices.length).toBe(Math.ceil(h / 86_400) - Math.floor(start / 86_400));
        const count = (key: string) => slices.reduce((n, s) => n + (s.data[key]?.count ?? 0), 0);
        expect(count('a')).toBe(days.currentPeriod.data.a?.count);
        expect(count('c')).toBe(1);
        // An open range has at most 400 slices of whole days.
        const open = await deviceMetrics(fx.users.VIEW.client, 'currentStartTime=0&currentEndTime=4102444800');
        expect(open.currentIntermediatePeriods.length).toBeLessThanOrEqual(400);
        expect(open.currentIntermediatePeriods.reduce((n, s) => n + (s.data.a?.count ?? 0), 0)).toBe(4);
        // An empty period has none.
        const empty = await deviceMetrics(fx.users.VIEW.client, `currentStartTime=${h}&currentEndTime=${h + 10}`);
        expect(empty.currentIntermediatePeriods).toEqual([]);
      });

      it('includeLatestData: latestData holds the values not older than the current period, lastKnownData all', async () => {
        const answer = await deviceMetrics(
          fx.users.USER.client,
          `currentStartTime=${h - 2 * HOUR}&currentEndTime=${h}&includeLatestData=true`,
        );
        expect(answer.lastKnownData).toEqual({
          a: { v: 3, ts: h - HOUR + 10 },
          b: { v: 20, ts: h - 2 * HOUR + 10 },
          c: { v: 2, ts: h - 5 * HOUR + 10 },
          s: { v: 'x', ts: h - 3 * HOUR + 10 },
        });
        expect(answer.latestData).toEqual({ a: { v: 3, ts: h - HOUR + 10 }, b: { v: 20, ts: h - 2 * HOUR + 10 } });
      });

      it('a stranger and an unknown device get 404, signed out 401; a bad query is 400; a reversed period is empty', async () => {
        const ok = `currentStartTime=${h - DAY}&currentEndTime=${h}`;
        expectError(
          await fx.users.STRANGER.client.get(`/api/device/${fx.device.deviceid}/metrics?${ok}`),
          404,
          'NOT_FOUND',
        );
        expectError(await admin.client.get(`/api/device/ZZZZZZZZZ/metrics?${ok}`), 404, 'NOT_FOUND');
        expectError(await tp.client().get(`/api/device/${fx.device.deviceid}/metrics?${ok}`), 401, 'UNAUTHENTICATED');
        for (const query of [
          '',
          `currentStartTime=${h}`,
          `currentStartTime=soon&currentEndTime=${h}`,
          `${ok}&previousEndTime=${h}`,
          `${ok}&includeLatestData=yes`,
          `${ok}&dataKeys=a,,b`,
        ]) {
          expectError(
            await fx.users.ADMIN.client.get(`/api/device/${fx.device.deviceid}/metrics?${query}`),
            400,
            'BAD_REQUEST',
          );
        }
        // Open and reversed ranges are answered (as the device calls always have): a reversed one is empty.
        const reversed = await deviceMetrics(fx.users.VIEW.client, `currentStartTime=${h}&currentEndTime=${h - DAY}`);
        expect(reversed.currentPeriod).toEqual({ startTime: h, endTime: h - DAY, data: {} });
        const open = await deviceMetrics(
          fx.users.VIEW.client,
          'currentStartTime=0&currentEndTime=4102444800&dataKeys=a',
        );
        expect(open.currentPeriod.data.a).toMatchObject({ count: 4, min: 1, max: 7, sum: 16 });
      });
    });
  });
}

describeMetrics('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeMetrics('postgres');
