/**
 * A device's data as a whole, over real HTTP on PGlite and PostgreSQL: retention by plan (run
 * with the injected clock), delete-data and transfer-data with the setup password, export (CSV
 * and JSON, streamed in pages), import through the ingest writer, and DATA_latest in settings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, DeviceSettingsResponseSchema } from '@portal/core';
import { type DbKind, type TestPortal, findPostgres, startTestPortal } from '../helpers';
import {
  type Provisioned,
  type RoleFixture,
  type SignedInUser,
  claim,
  deviceWithRoles,
  expectError,
  provision,
  signedInUser,
} from '../device-helpers';
import { type Agg, bucketsOf, expectDerivedMatchRecords, expectedFromRecords, vts } from '../ingest-helpers';
import { selectRecordBuckets } from '../../src/modules/telemetry/telemetry-reads.repository';

const NOT_FOUND = 'Device not found';
const BAD_PASSWORD = 'Invalid setup password.';

type DataBody = { data: Record<string, { v: unknown; ts: number }[]>; events: { msg: string }[] };

const nowS = (tp: TestPortal) => tp.clock.now().getTime() / 1000;

function ingestHttp(tp: TestPortal, device: Provisioned, body: unknown) {
  return tp.client().request('POST', `/api/ingest/${device.deviceid}`, {
    body,
    headers: { authorization: `Device ${device.deviceKey}` },
    csrf: false,
  });
}

async function ingestOk(tp: TestPortal, device: Provisioned, body: unknown): Promise<void> {
  const res = await ingestHttp(tp, device, body);
  expect(res.status, res.text).toBe(200);
}

async function ingestDiag(tp: TestPortal, deviceId: string, ts: number): Promise<void> {
  const outcome = await tp.portal.app.services.telemetry.ingest({
    deviceId,
    kind: 'diag',
    body: { ts, rssi: -70 },
    basic: false,
    receivedAt: tp.clock.now(),
    source: 'http',
  });
  expect(outcome.stored).toBe(1);
}

/** Row counts of every data table for a device. */
async function counts(tp: TestPortal, deviceId: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['records', 'latest', 'events', 'diagnostics', 'rollup_hour', 'rollup_day', 'server_log']) {
    const rows = await tp.portal.db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM ${table} WHERE device_id = $1`,
      [deviceId],
    );
    out[table] = rows[0]!.n;
  }
  return out;
}

const HOUR = 3600;
const DAY = 86_400;

/** The hourly and the daily rollups of a device hold exactly what its records give. */
function expectRollupsOfRecords(tp: TestPortal, deviceId: string): Promise<void> {
  return expectDerivedMatchRecords(tp.portal.db, [deviceId], { latest: false, contacts: false, exactSums: true });
}

/** The metrics call's figures of an aggregate. */
const metricOf = (a: Agg) => ({
  min: a.min,
  max: a.max,
  avg: a.sum / a.count,
  sum: a.sum,
  diff: a.last - a.first,
  acc: a.last,
  count: a.count,
});

/** A device's aggregates of `key` merged over the buckets in [from, to), from a map of `expectedFromRecords`. */
function mergedOver(
  aggregates: Map<string, Agg>,
  deviceId: string,
  key: string,
  from: number,
  to: number,
): Agg | undefined {
  let out: Agg | undefined;
  for (const [bucket, a] of bucketsOf(aggregates, deviceId, key).sort((x, y) => x[1].first_ts - y[1].first_ts)) {
    if (bucket < from || bucket >= to) continue;
    out = out
      ? {
          ...out,
          count: out.count + a.count,
          min: Math.min(out.min, a.min),
          max: Math.max(out.max, a.max),
          sum: out.sum + a.sum,
          last: a.last,
          last_ts: a.last_ts,
        }
      : { ...a };
  }
  return out;
}

async function claimedBy(tp: TestPortal, user: SignedInUser): Promise<Provisioned> {
  const device = await provision(tp);
  const res = await claim(user.client, device.deviceid, device.setupPassword);
  expect(res.status, res.text).toBe(200);
  return device;
}

/** Two records an hour apart with an event, and a diagnostics message. */
async function someData(tp: TestPortal, device: Provisioned): Promise<number> {
  const t = Math.floor(nowS(tp)) - 7200;
  await ingestOk(tp, device, [
    { ts: t, temp: 10, state: 'a', events: [{ topic: 'power', msg: 'on', lv: 1 }] },
    { ts: t + 3600, temp: 20, state: 'b' },
  ]);
  await ingestDiag(tp, device.deviceid, t);
  return t;
}

function describeDeviceData(kind: DbKind) {
  describe(`device data (${kind})`, () => {
    let tp: TestPortal;
    let fx: RoleFixture;

    beforeAll(async () => {
      tp = await startTestPortal({ db: kind });
      fx = await deviceWithRoles(tp);
    });
    afterAll(async () => {
      await tp?.close();
    });

    const path = (id: string, call: string) => `/api/device/${id}/${call}`;

    describe('retention', () => {
      it('deletes records, events, diagnostics and rollups older than the plan keeps them, in bounded batches, and logs it', async () => {
        const telemetry = tp.portal.app.services.telemetry;
        const owner = await signedInUser(tp);
        // The Basic device: claimed 91 days ago, so its 90-day trial has run out.
        const basic = await claimedBy(tp, owner);
        await tp.portal.db.query('UPDATE devices SET added_ts = added_ts - $2 WHERE id = $1', [
          basic.deviceid,
          (91 * DAY_MS) / 1000,
        ]);
        try {
          const trial = await claimedBy(tp, owner);
          const unclaimed = await provision(tp);
          const now = Math.floor(nowS(tp));
          for (const device of [basic, trial, unclaimed]) {
            // Basic thins ingest to one record per 5 minutes: these are hours apart.
            await ingestOk(tp, device, [
              { ts: now - 3 * 86_400, temp: 1, events: [{ msg: 'old' }] },
              { ts: now - 2 * 86_400, temp: 2, events: [{ msg: 'old' }] },
              { ts: now - 3 * 86_400 + 600, temp: 3 },
              { ts: now - 600, temp: 4, events: [{ msg: 'new' }] },
            ]);
            await ingestDiag(tp, device.deviceid, now - 2 * 86_400);
            await ingestDiag(tp, device.deviceid, now - 60);
          }
          const before = await counts(tp, basic.deviceid);
          expect(before).toMatchObject({ records: 4, events: 3, diagnostics: 2, latest: 1 });
          const trialBefore = await counts(tp, trial.deviceid);

          telemetry.options.retentionBatchSize = 2;
          const results = await telemetry.runRetention(tp.clock.now());
          const mine = results.find((r) => r.deviceId === basic.deviceid);
          expect(mine).toMatchObject({ records: 3, events: 2, diagnostics: 1 });
          expect(mine!.rollups).toBeGreaterThanOrEqual(2);
          expect(mine!.dailyRollups).toBeGreaterThanOrEqual(2);
          expect(results.find((r) => r.deviceId === trial.deviceid)).toBeUndefined();
          expect(results.find((r) => r.deviceId === unclaimed.deviceid)).toBeUndefined();

          const after = await counts(tp, basic.deviceid);
          expect(after).toMatchObject({
            records: 1,
            events: 1,
            diagnostics: 1,
            latest: 1,
            rollup_hour: 1,
            rollup_day: 1,
          });
          await expectRollupsOfRecords(tp, basic.deviceid);
          expect(await counts(tp, trial.deviceid)).toEqual(trialBefore);
          const data = vts<DataBody>((await owner.client.get(path(basic.deviceid, 'data'))).body);
          expect(data.data.temp).toEqual([{ v: 4, ts: now - 600 }]);
          expect(data.events.map((e) => e.msg)).toEqual(['new']);

          // The device's owner cannot read a Basic device's log (the plan has none): read it here.
          const log = {
            entries: await tp.portal.db.query<{ kind: string; message: string }>(
              'SELECT kind, message FROM server_log WHERE device_id = $1 ORDER BY id DESC',
              [basic.deviceid],
            ),
          };
          expect(log.entries.find((e) => e.kind === 'retention')?.message).toMatch(
            /^retention: deleted 3 records older than \d{4}-\d\d-\d\dT/,
          );
          expect(
            tp.logs.lines.some(
              (l) => typeof l.msg === 'string' && l.msg.startsWith('retention: deleted 3 records older than'),
            ),
          ).toBe(true);

          // A second run finds nothing more; two years on, the trial device is Basic too.
          expect(
            (await telemetry.runRetention(tp.clock.now())).find((r) => r.deviceId === basic.deviceid),
          ).toBeUndefined();
          const later = await telemetry.runRetention(new Date(tp.clock.now().getTime() + 731 * DAY_MS));
          expect(later.find((r) => r.deviceId === trial.deviceid)).toMatchObject({
            records: 4,
            events: 3,
            diagnostics: 2,
          });
        } finally {
          tp.portal.app.services.telemetry.options.retentionBatchSize = 5000;
        }
      });
    });

    describe('delete-data', () => {
      it('roles: VIEW, USER and OPERATOR get 403, a stranger 404; nothing is deleted', async () => {
        const { device, users } = fx;
        await someData(tp, device);
        const before = await counts(tp, device.deviceid);
        for (const role of ['VIEW', 'USER', 'OPERATOR'] as const) {
          expectError(
            await users[role].client.post(path(device.deviceid, 'delete-data'), {
              setupPassword: device.setupPassword,
            }),
            403,
            'FORBIDDEN',
          );
        }
        expectError(
          await users.STRANGER.client.post(path(device.deviceid, 'delete-data'), {
            setupPassword: device.setupPassword,
          }),
          404,
          'NOT_FOUND',
          NOT_FOUND,
        );
        expectError(
          await users.ADMIN.client.post(path('NOSUCHDEV', 'delete-data'), { setupPassword: 'x' }),
          404,
          'NOT_FOUND',
          NOT_FOUND,
        );
        expectError(
          await tp.client().post(path(device.deviceid, 'delete-data'), { setupPassword: device.setupPassword }),
          401,
          'UNAUTHENTICATED',
        );
        expect(await counts(tp, device.deviceid)).toEqual(before);
      });

      it('a wrong setup password is 403 and bad bodies are 400; nothing is deleted', async () => {
        const { device, users } = fx;
        await someData(tp, device);
        const before = await counts(tp, device.deviceid);
        const admin = users.ADMIN.client;
        expectError(
          await admin.post(path(device.deviceid, 'delete-data'), { setupPassword: 'WRONGPW1' }),
          403,
          'FORBIDDEN',
          BAD_PASSWORD,
        );
        expectError(
          await admin.post(path(device.deviceid, 'delete-data'), { setupPassword: device.setupPassword.toLowerCase() }),
          403,
          'FORBIDDEN',
          BAD_PASSWORD,
        );
        for (const body of [
          {},
          { setupPassword: '' },
          { setupPassword: 5 },
          { setupPassword: device.setupPassword, extra: 1 },
          [],
        ]) {
          expectError(await admin.post(path(device.deviceid, 'delete-data'), body), 400, 'BAD_REQUEST');
        }
        expectError(await admin.post(path(device.deviceid, 'delete-data')), 400, 'BAD_REQUEST');
        expect(await counts(tp, device.deviceid)).toEqual(before);
      });

      it('ADMIN with the setup password deletes records, latest, events, diagnostics and rollups; the server log stays and says so', async () => {
        const owner = await signedInUser(tp);
        const device = await claimedBy(tp, owner);
        const other = await claimedBy(tp, owner);
        await someData(tp, device);
        await someData(tp, other);
        const otherBefore = await counts(tp, other.deviceid);
        const res = await owner.client.post(path(device.deviceid, 'delete-data'), {
          setupPassword: device.setupPassword,
        });
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual({
          deviceid: device.deviceid,
          deleted: { records: 2, events: 1, diagnostics: 1, rollups: 2, latest: 2 },
        });
        const after = await counts(tp, device.deviceid);
        expect(after).toMatchObject({
          records: 0,
          latest: 0,
          events: 0,
          diagnostics: 0,
          rollup_hour: 0,
          rollup_day: 0,
        });
        expect(after.server_log).toBeGreaterThan(0);
        expect(await counts(tp, other.deviceid)).toEqual(otherBefore);
        const log = (await owner.client.get(path(device.deviceid, 'serverlog'))).body as {
          entries: { kind: string; message: string }[];
        };
        expect(log.entries[0]).toMatchObject({ kind: 'data-deleted' });
        expect(log.entries[0]!.message).toMatch(/2 records/);
        const settings = await owner.client.get(path(device.deviceid, 'settings'));
        expect((settings.body as { deviceSettings: { DATA_latest: unknown } }).deviceSettings.DATA_latest).toEqual({});
      });
    });

    describe('transfer-data', () => {
      it('moves records, events, diagnostics, rollups and latest values to the target in one go', async () => {
        const owner = await signedInUser(tp);
        const source = await claimedBy(tp, owner);
        const target = await claimedBy(tp, owner);
        const t = await someData(tp, source);
        // The target has a record of its own in the same hour, and one at the same time (it stays the target's).
        await ingestOk(tp, target, [
          { ts: t + 10, temp: 30 },
          { ts: t + 3600, temp: 99 },
        ]);
        const res = await owner.client.post(path(source.deviceid, 'transfer-data'), {
          setupPassword: source.setupPassword,
          targetDeviceid: target.deviceid,
        });
        expect(res.status, res.text).toBe(200);
        expect(res.body).toMatchObject({
          deviceid: source.deviceid,
          targetDeviceid: target.deviceid,
          moved: { records: 1, events: 1, diagnostics: 1 },
        });
        expect(await counts(tp, source.deviceid)).toMatchObject({
          records: 0,
          latest: 0,
          events: 0,
          diagnostics: 0,
          rollup_hour: 0,
          rollup_day: 0,
        });
        expect(await counts(tp, target.deviceid)).toMatchObject({ records: 3, events: 1, diagnostics: 1, latest: 2 });
        await expectRollupsOfRecords(tp, target.deviceid);
        const data = vts<DataBody>((await owner.client.get(path(target.deviceid, 'data'))).body);
        expect(data.data.temp).toEqual([
          { v: 99, ts: t + 3600 },
          { v: 30, ts: t + 10 },
          { v: 10, ts: t },
        ]);
        expect(data.events.map((e) => e.msg)).toEqual(['on']);
        // events=false (a chart's read) leaves the events out and nothing else; anything but true or false is refused.
        const noEvents = vts<DataBody>((await owner.client.get(path(target.deviceid, 'data?events=false'))).body);
        expect(noEvents).toEqual({ ...data, events: [] });
        expect(vts((await owner.client.get(path(target.deviceid, 'data?events=true'))).body)).toEqual(data);
        const refused = await owner.client.get(path(target.deviceid, 'data?events=no'));
        expect(refused.status).toBe(400);
        expect(JSON.stringify(refused.body)).toContain('events must be true or false');
        // Rollups rebuilt from the records: the first hour has 10 and 30, the second 99 only.
        const hour = Math.floor(t / 3600) * 3600;
        const metrics = await owner.client.get(
          path(target.deviceid, `metrics?currentStartTime=${hour}&currentEndTime=${hour + 7200}`),
        );
        const temp = (
          metrics.body as {
            currentPeriod: { data: Record<string, { count: number; sum: number; min: number; max: number }> };
          }
        ).currentPeriod.data.temp;
        expect(temp).toMatchObject({ count: 3, sum: 139, min: 10, max: 99 });
        const settings = (await owner.client.get(path(target.deviceid, 'settings'))).body as {
          deviceSettings: { DATA_latest: Record<string, { v: unknown; ts: number }> };
        };
        expect(settings.deviceSettings.DATA_latest).toEqual({
          temp: { v: 99, ts: t + 3600 },
          state: { v: 'b', ts: t + 3600 },
        });
        const log = (await owner.client.get(path(target.deviceid, 'serverlog'))).body as {
          entries: { kind: string; message: string }[];
        };
        expect(log.entries[0]!.message).toContain(`from ${source.deviceid}`);
      });

      it('needs ADMIN on both devices and the source setup password; nothing moves otherwise', async () => {
        const owner = await signedInUser(tp);
        const source = await claimedBy(tp, owner);
        const target = await claimedBy(tp, owner);
        await someData(tp, source);
        const viewOnly = await provision(tp);
        const otherOwner = await signedInUser(tp);
        expect((await claim(otherOwner.client, viewOnly.deviceid, viewOnly.setupPassword)).status).toBe(200);
        expect(
          (
            await otherOwner.client.post(path(viewOnly.deviceid, 'user'), {
              targetEmail: owner.email,
              targetPermission: 'VIEW',
            })
          ).status,
        ).toBe(200);
        const strangers = await provision(tp);
        const before = [await counts(tp, source.deviceid), await counts(tp, target.deviceid)];
        const transfer = (client: SignedInUser['client'], from: string, body: unknown) =>
          client.post(path(from, 'transfer-data'), body);

        expectError(
          await transfer(owner.client, source.deviceid, { setupPassword: 'WRONGPW1', targetDeviceid: target.deviceid }),
          403,
          'FORBIDDEN',
          BAD_PASSWORD,
        );
        expectError(
          await transfer(owner.client, source.deviceid, {
            setupPassword: target.setupPassword,
            targetDeviceid: target.deviceid,
          }),
          403,
          'FORBIDDEN',
          BAD_PASSWORD,
        );
        expectError(
          await transfer(owner.client, source.deviceid, {
            setupPassword: source.setupPassword,
            targetDeviceid: viewOnly.deviceid,
          }),
          403,
          'FORBIDDEN',
        );
        expectError(
          await transfer(owner.client, source.deviceid, {
            setupPassword: source.setupPassword,
            targetDeviceid: strangers.deviceid,
          }),
          404,
          'NOT_FOUND',
          NOT_FOUND,
        );
        expectError(
          await transfer(owner.client, source.deviceid, {
            setupPassword: source.setupPassword,
            targetDeviceid: 'bad id',
          }),
          404,
          'NOT_FOUND',
          NOT_FOUND,
        );
        expectError(
          await transfer(owner.client, source.deviceid, {
            setupPassword: source.setupPassword,
            targetDeviceid: source.deviceid,
          }),
          400,
          'BAD_REQUEST',
        );
        expectError(
          await transfer(owner.client, viewOnly.deviceid, {
            setupPassword: viewOnly.setupPassword,
            targetDeviceid: target.deviceid,
          }),
          403,
          'FORBIDDEN',
        );
        expectError(
          await transfer(otherOwner.client, source.deviceid, {
            setupPassword: source.setupPassword,
            targetDeviceid: viewOnly.deviceid,
          }),
          404,
          'NOT_FOUND',
          NOT_FOUND,
        );
        for (const body of [
          { setupPassword: source.setupPassword },
          { targetDeviceid: target.deviceid },
          { setupPassword: source.setupPassword, targetDeviceid: target.deviceid, x: 1 },
        ]) {
          expectError(await transfer(owner.client, source.deviceid, body), 400, 'BAD_REQUEST');
        }
        expect([await counts(tp, source.deviceid), await counts(tp, target.deviceid)]).toEqual(before);
      });
    });

    describe('export', () => {
      it('any role exports CSV (ts and one column per key) and JSON; a stranger gets 404', async () => {
        const owner = await signedInUser(tp);
        const device = await claimedBy(tp, owner);
        const t = Math.floor(nowS(tp)) - 1000;
        await ingestOk(tp, device, [
          { ts: t, temp: 1.5, note: 'a,b "c"', arr: [1, 2], events: [{ msg: 'x' }] },
          { ts: t + 1, temp: 2, on: true },
          { ts: t + 2, note: '=SUM(A1)' },
        ]);
        const csv = await owner.client.get(path(device.deviceid, 'export'));
        expect(csv.status, csv.text).toBe(200);
        expect(csv.headers['content-type']).toMatch(/^text\/csv/);
        expect(csv.headers['content-disposition']).toMatch(
          new RegExp(`attachment; filename="${device.deviceid}-.*\\.csv"`),
        );
        expect(csv.text.split('\r\n')).toEqual([
          'ts,arr,note,on,temp',
          `${t},"[1,2]","a,b ""c""",,1.5`,
          `${t + 1},,,true,2`,
          `${t + 2},,'=SUM(A1),,`,
          '',
        ]);

        const keyed = await owner.client.get(
          path(device.deviceid, `export?dataKeys=temp&fromTime=${t + 1}&toTime=${t + 5}`),
        );
        expect(keyed.text).toBe(`ts,temp\r\n${t + 1},2\r\n${t + 2},\r\n`);

        const json = await owner.client.get(path(device.deviceid, `export?format=json&toTime=${t + 1}`));
        expect(json.headers['content-type']).toMatch(/^application\/json/);
        expect(json.body).toEqual({
          deviceid: device.deviceid,
          records: [
            { ts: t, temp: 1.5, note: 'a,b "c"', arr: [1, 2], events: [{ msg: 'x' }] },
            { ts: t + 1, temp: 2, on: true },
          ],
        });
        const empty = await owner.client.get(path(device.deviceid, `export?format=json&fromTime=1&toTime=2`));
        expect(empty.body).toEqual({ deviceid: device.deviceid, records: [] });

        const view = await fx.users.VIEW.client.get(path(fx.device.deviceid, 'export'));
        expect(view.status).toBe(200);
        expectError(
          await fx.users.STRANGER.client.get(path(fx.device.deviceid, 'export')),
          404,
          'NOT_FOUND',
          NOT_FOUND,
        );
        expectError(await owner.client.get(path(device.deviceid, 'export?format=xml')), 400, 'BAD_REQUEST');
        expectError(await owner.client.get(path(device.deviceid, 'export?fromTime=abc')), 400, 'BAD_REQUEST');
        expectError(
          await owner.client.get(path(device.deviceid, `export?fromTime=${t + 5}&toTime=${t}`)),
          400,
          'BAD_REQUEST',
        );
        expectError(await tp.client().get(path(device.deviceid, 'export')), 401, 'UNAUTHENTICATED');
      });
    });

    describe('import', () => {
      it('stores valid records through the ingest writer (latest and rollups follow) and lists refused ones by index', async () => {
        const owner = await signedInUser(tp);
        const device = await claimedBy(tp, owner);
        const t = Math.floor(nowS(tp)) - 5000;
        const records: unknown[] = [];
        for (let i = 0; i < 2500; i += 1) records.push({ ts: t + i, level: i % 10, label: 'imported-record-padding' });
        records.push({ ts: 'soon', level: 1 }, 'not a record', { ts: t - 8 * 86_400, level: 1 }, { ts: t, level: 5 });
        const res = await owner.client.post(path(device.deviceid, 'import'), { records });
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual({
          deviceid: device.deviceid,
          imported: 2500,
          duplicates: 1,
          thinned: 0,
          refused: [
            { index: 2500, reason: 'A record needs ts, epoch seconds' },
            { index: 2501, reason: 'A record must be a JSON object' },
            { index: 2502, reason: expect.stringMatching(/more than 7 days old/) as unknown as string },
          ],
        });
        expect(await counts(tp, device.deviceid)).toMatchObject({ records: 2500, latest: 2 });
        const settings = (await owner.client.get(path(device.deviceid, 'settings'))).body as {
          deviceSettings: { DATA_latest: Record<string, { v: unknown; ts: number }> };
        };
        expect(settings.deviceSettings.DATA_latest.level).toEqual({ v: 2499 % 10, ts: t + 2499 });
        const hour = Math.floor(t / 3600) * 3600;
        const metrics = await owner.client.get(
          path(device.deviceid, `metrics?currentStartTime=${hour}&currentEndTime=${hour + 3 * 3600}`),
        );
        expect(
          (metrics.body as { currentPeriod: { data: Record<string, { count: number }> } }).currentPeriod.data.level
            ?.count,
        ).toBe(2500);

        // Export reads it back page by page.
        const csv = await owner.client.get(path(device.deviceid, 'export?dataKeys=level'));
        const lines = csv.text.trim().split('\r\n');
        expect(lines).toHaveLength(2501);
        expect(lines[1]).toBe(`${t},0`);
        expect(lines[2500]).toBe(`${t + 2499},9`);
      });

      it('needs editDeviceSettings; a stranger gets 404; bad bodies are 400; nothing is stored on rejection', async () => {
        const { device, users } = fx;
        const before = await counts(tp, device.deviceid);
        const body = { records: [{ ts: nowS(tp) - 10, imported: 1 }] };
        expectError(await users.VIEW.client.post(path(device.deviceid, 'import'), body), 403, 'FORBIDDEN');
        expectError(
          await users.STRANGER.client.post(path(device.deviceid, 'import'), body),
          404,
          'NOT_FOUND',
          NOT_FOUND,
        );
        expectError(await tp.client().post(path(device.deviceid, 'import'), body), 401, 'UNAUTHENTICATED');
        const admin = users.ADMIN.client;
        const tooMany = { records: Array.from({ length: 5001 }, (_, i) => ({ ts: nowS(tp) - i, a: 1 })) };
        for (const bad of [
          {},
          { records: 'x' },
          { records: {} },
          { records: [], extra: true },
          tooMany,
          [body.records[0]],
        ]) {
          expectError(await admin.post(path(device.deviceid, 'import'), bad), 400, 'BAD_REQUEST');
        }
        expect(await counts(tp, device.deviceid)).toEqual(before);
        const ok = await users.USER.client.post(path(device.deviceid, 'import'), { records: [] });
        expect(ok.status, ok.text).toBe(200);
        expect(ok.body).toMatchObject({ imported: 0, refused: [] });
      });
    });

    describe('settings', () => {
      it('GET settings includes DATA_latest: the newest value of every key with its time', async () => {
        const owner = await signedInUser(tp);
        const device = await claimedBy(tp, owner);
        const empty = await owner.client.get(path(device.deviceid, 'settings'));
        expect(DeviceSettingsResponseSchema.parse(empty.body).deviceSettings.DATA_latest).toEqual({});
        const t = Math.floor(nowS(tp)) - 100;
        await ingestOk(tp, device, [
          { ts: t, temp: 1, state: 'old' },
          { ts: t + 5, temp: 2, arr: [1, 2] },
        ]);
        await ingestOk(tp, device, { ts: t - 50, temp: 0, state: 'older' });
        const res = await owner.client.get(path(device.deviceid, 'settings'));
        expect(res.status, res.text).toBe(200);
        expect(DeviceSettingsResponseSchema.parse(res.body).deviceSettings.DATA_latest).toEqual({
          temp: { v: 2, ts: t + 5 },
          state: { v: 'old', ts: t },
          arr: { v: [1, 2], ts: t + 5 },
        });
      });
    });

    describe('daily rollups', () => {
      /** Five days of records of keys a and b every 2,000 s, sent newest message first; values are halves (sums stay exact). */
      async function fiveDays(device: Provisioned): Promise<{ start: number; end: number }> {
        const end = Math.floor(nowS(tp)) - 60;
        const start = end - 5 * DAY;
        const records: { ts: number; a: number; b?: number; s: string }[] = [];
        for (let ts = start, i = 0; ts <= end; ts += 2000, i += 1)
          records.push({ ts, a: ((i * 37) % 101) - 50 + (i % 2) / 2, ...(i % 3 === 0 ? { b: i / 2 } : {}), s: 'x' });
        for (let i = records.length; i > 0; i -= 40) await ingestOk(tp, device, records.slice(Math.max(0, i - 40), i));
        return { start, end };
      }

      it('every writer keeps them: hourly and daily rows equal what the records give (ingest out of order, import)', async () => {
        const owner = await signedInUser(tp);
        const device = await claimedBy(tp, owner);
        const { end } = await fiveDays(device);
        // Resent and older records of days already written, and an import.
        await ingestOk(tp, device, [
          { ts: end - 2000, a: 1000 },
          { ts: end - 3 * DAY + 1, a: -1000.5, b: 7 },
        ]);
        const imported = await owner.client.post(path(device.deviceid, 'import'), {
          records: [
            { ts: end - 4 * DAY + 3, a: 0.5 },
            { ts: end - 10, b: -3 },
          ],
        });
        expect(imported.body).toMatchObject({ imported: 2 });
        expect((await counts(tp, device.deviceid)).rollup_day).toBeGreaterThanOrEqual(2 * 5);
        await expectRollupsOfRecords(tp, device.deviceid);
      });

      it('long ranges read them: day buckets and whole-day metrics give the same min, max, avg, first and last as the records', async () => {
        const owner = await signedInUser(tp);
        const device = await claimedBy(tp, owner);
        const { start, end } = await fiveDays(device);
        const { days, hours } = await expectedFromRecords(tp.portal.db, [device.deviceid]);
        const day0 = Math.floor(start / DAY) * DAY;
        type Metrics = { currentPeriod: { startTime: number; endTime: number; data: Record<string, unknown> } };
        const metrics = async (from: number, to: number) => {
          const res = await owner.client.get(
            path(device.deviceid, `metrics?currentStartTime=${from}&currentEndTime=${to}`),
          );
          expect(res.status, res.text).toBe(200);
          return (res.body as Metrics).currentPeriod;
        };
        // Whole days; then a range starting and ending inside days (hours around whole days).
        for (const [from, to] of [
          [day0 + DAY, day0 + 4 * DAY],
          [start + 5 * HOUR + 17, end - 7 * HOUR],
          [start + 2 * HOUR, start + 9 * HOUR],
        ] as const) {
          const period = await metrics(from, to);
          const [lo, hi] = [Math.floor(from / HOUR) * HOUR, Math.floor(to / HOUR) * HOUR];
          expect(period).toMatchObject({ startTime: lo, endTime: hi });
          expect(period.data).toEqual(
            Object.fromEntries(
              ['a', 'b'].flatMap((key) => {
                const merged = mergedOver(hours, device.deviceid, key, lo, hi);
                return merged ? [[key, metricOf(merged)]] : [];
              }),
            ),
          );
        }

        // Buckets of a day: one per day, the day's average, newest first.
        const q = `fromTime=${start}&toTime=${end}&dataKeys=a`;
        const daily = (await owner.client.get(path(device.deviceid, `data?${q}&downsample=86400`))).body as DataBody & {
          bucketSeconds: number;
        };
        expect(daily.bucketSeconds).toBe(DAY);
        const expected = bucketsOf(days, device.deviceid, 'a')
          .map(([ts, a]) => ({ v: a.sum / a.count, ts }))
          .sort((x, y) => y.ts - x.ts);
        expect(expected.length).toBeGreaterThanOrEqual(5);
        expect(daily.data).toEqual({ a: expected });

        // The server's own width: 5 days in at most 4 points is 2 days a bucket; 60 points is 2 hours.
        const wide = (await owner.client.get(path(device.deviceid, `data?${q}&downsample=true&dataPoints=4`)))
          .body as DataBody & { bucketSeconds: number };
        expect(wide.bucketSeconds).toBe(2 * DAY);
        const twoDays = new Map<number, { sum: number; count: number }>();
        for (const [bucket, a] of bucketsOf(days, device.deviceid, 'a')) {
          const b = Math.floor(bucket / (2 * DAY)) * 2 * DAY;
          const t = twoDays.get(b) ?? { sum: 0, count: 0 };
          twoDays.set(b, { sum: t.sum + a.sum, count: t.count + a.count });
        }
        expect(wide.data.a).toEqual(
          [...twoDays]
            .sort((x, y) => y[0] - x[0])
            .slice(0, 4)
            .map(([ts, t]) => ({ v: t.sum / t.count, ts })),
        );
        const narrow = (await owner.client.get(path(device.deviceid, `data?${q}&downsample=true&dataPoints=60`)))
          .body as DataBody & { bucketSeconds: number };
        expect(narrow.bucketSeconds).toBe(2 * HOUR);
        expect(narrow.data.a).toHaveLength(60);

        // The day rows are what is read: change one and whole-day answers follow, hour-based ones do not.
        const [first] = expected.slice(-2);
        await tp.portal.db.query(
          `UPDATE rollup_day SET max = 12345, sum = sum + count WHERE device_id = $1 AND key = 'a' AND bucket = $2`,
          [device.deviceid, first!.ts],
        );
        const changed = vts<DataBody>(
          (await owner.client.get(path(device.deviceid, `data?${q}&downsample=86400`))).body,
        );
        expect(changed.data.a!.find((p) => p.ts === first!.ts)!.v).toBeCloseTo(first!.v + 1, 9);
        expect(((await metrics(first!.ts, first!.ts + DAY)).data.a as { max: number }).max).toBe(12345);
        expect(((await metrics(first!.ts, first!.ts + DAY - HOUR)).data.a as { max: number }).max).not.toBe(12345);
      });

      it('open ranges are answered; times outside 0 to 2100 are a 400 naming the range, before any work', async () => {
        const owner = await signedInUser(tp);
        const device = await claimedBy(tp, owner);
        await fiveDays(device);
        for (const query of [
          'data?downsample=3600',
          'data?downsample=86400&fromTime=0',
          `data?downsample=${365 * DAY}&toTime=4102444800`,
          'data?downsample=1&fromTime=0&toTime=4102444800&dataPoints=10000',
          'metrics?currentStartTime=0&currentEndTime=4102444800',
          'metrics?currentStartTime=0&currentEndTime=4102444800&previousStartTime=4102444800&previousEndTime=0',
        ]) {
          const res = await owner.client.get(path(device.deviceid, query));
          expect(res.status, `${query}: ${res.text}`).toBe(200);
        }
        const all = (
          await owner.client.get(path(device.deviceid, 'metrics?currentStartTime=0&currentEndTime=4102444800'))
        ).body as { currentPeriod: { data: Record<string, { count: number }> } };
        expect(all.currentPeriod.data.a?.count).toBe(217);
        // Issue 30, finding 1: this request took the server down (unbounded periods); now a 400 at once.
        for (const [query, message] of [
          [
            'metrics?currentStartTime=1795764516&currentEndTime=99999999999999999999999',
            'currentEndTime must be epoch seconds from 0 to 4102444800',
          ],
          [
            'metrics?currentStartTime=-1e23&currentEndTime=1e23',
            'currentStartTime must be epoch seconds from 0 to 4102444800',
          ],
          [
            'metrics?currentStartTime=0&currentEndTime=1e308',
            'currentEndTime must be epoch seconds from 0 to 4102444800',
          ],
          ['data?downsample=86400&fromTime=-1e15', 'fromTime must be epoch seconds from 0 to 4102444800'],
          ['data?toTime=1e308', 'toTime must be epoch seconds from 0 to 4102444800'],
          ['data?relative=1e23', 'relative must be a number from 0 to 4102444800000'],
          ['data?downsample=1e20', 'downsample must be true or a bucket width in seconds from 1 to 31622400'],
          ['export?fromTime=-1&toTime=1e23', 'fromTime must be epoch seconds from 0 to 4102444800'],
        ]) {
          const started = performance.now();
          const res = await owner.client.get(path(device.deviceid, query!));
          const ms = performance.now() - started;
          expect(res.status, `${query}: ${res.text}`).toBe(400);
          expect(res.body).toEqual({ message, code: 'BAD_REQUEST' });
          console.log(`issue 30 bound (${kind}): GET ${query} -> 400 in ${ms.toFixed(1)} ms`);
        }
        expect((await tp.client().get('/api/health')).status).toBe(200);
      });

      it('a bucket read groups at most its cap of records, and answers only the buckets it read whole', async () => {
        const owner = await signedInUser(tp);
        const device = await claimedBy(tp, owner);
        const t = Math.floor(tp.clock.now().getTime() / 1000 / 600) * 600 - 3600;
        // Two records in each of six 10-minute buckets (a and b), oldest first.
        await ingestOk(
          tp,
          device,
          Array.from({ length: 12 }, (_, i) => ({ ts: t + Math.floor(i / 2) * 600 + (i % 2) * 60, a: i, b: 1 })),
        );
        const range = { from: 0, to: 4_102_444_800 };
        for (const keys of [null, ['a', 'b']]) {
          const all = await selectRecordBuckets(tp.portal.db, device.deviceid, range, 600, 100, keys);
          expect(all.filter((r) => r.key === 'a').map((r) => r.bucket)).toHaveLength(6);
          // Five records: the newest two buckets and one record of the third, which is left out.
          const capped = await selectRecordBuckets(tp.portal.db, device.deviceid, range, 600, 100, keys, 5);
          expect(capped.filter((r) => r.key === 'a').sort((x, y) => y.bucket - x.bucket)).toEqual([
            { key: 'a', bucket: t + 3000, v: 10.5 },
            { key: 'a', bucket: t + 2400, v: 8.5 },
          ]);
          // Exactly the records there are: every bucket, whole.
          const exact = await selectRecordBuckets(tp.portal.db, device.deviceid, range, 600, 100, keys, 12);
          expect(exact).toEqual(all);
        }
      });

      it('numbers beyond 2^53 - 1 are dropped at ingest and import, and every read of the device answers', async () => {
        const owner = await signedInUser(tp);
        const device = await claimedBy(tp, owner);
        const t = Math.floor(tp.clock.now().getTime() / 1000) - 3 * HOUR;
        await ingestOk(tp, device, [
          { ts: t, ov: 1e308, ok: 1 },
          { ts: t + 60, ov: -1e308, ok: 2 },
          { ts: t + 120, ov: 1e23, ok: 3, list: [1, 1e308] },
        ]);
        const imported = await owner.client.post(`/api/device/${device.deviceid}/import`, {
          records: [
            { ts: t + 180, ov: 1e308, ok: 4 },
            { ts: 1e308, ok: 5 },
            { ts: t - 30 * DAY, ok: 6 },
          ],
        });
        expect(imported.status, imported.text).toBe(200);
        expect(imported.body).toMatchObject({
          imported: 1,
          refused: [
            { index: 1, reason: expect.stringMatching(/in the future/) },
            { index: 2, reason: expect.stringMatching(/more than 7 days old/) },
          ],
        });
        const stored = await tp.portal.db.query<{ data: Record<string, unknown> }>(
          'SELECT data FROM records WHERE device_id = $1 ORDER BY ts',
          [device.deviceid],
        );
        expect(stored.map((r) => r.data)).toEqual([
          { ts: t, ok: 1 },
          { ts: t + 60, ok: 2 },
          { ts: t + 120, ok: 3 },
          { ts: t + 180, ok: 4 },
        ]);
        const log = await owner.client.get(path(device.deviceid, 'serverlog'));
        expect(log.text).toContain('holds a number outside -9007199254740991 to 9007199254740991');
        // Older rows written before the rule (stored here directly) are left out of every aggregate.
        await tp.portal.db.query(
          `INSERT INTO records (device_id, ts, received_at, data) VALUES ($1, $2, now(), $3::jsonb), ($1, $4, now(), $3::jsonb)`,
          [device.deviceid, t + 240, JSON.stringify({ ov: 1e308 }), t + 300],
        );
        for (const query of [
          'data',
          `data?downsample=600&fromTime=${t - HOUR}&toTime=${t + HOUR}`,
          `data?downsample=600&dataKeys=ov,ok&fromTime=${t - HOUR}&toTime=${t + HOUR}`,
          'data?downsample=true',
          'data?downsample=3600',
          'data?downsample=86400',
          `metrics?currentStartTime=${t - DAY}&currentEndTime=${t + DAY}`,
          'export',
          'export?format=json',
        ]) {
          const res = await owner.client.get(path(device.deviceid, query));
          expect(res.status, `${query}: ${res.text.slice(0, 200)}`).toBe(200);
        }
      });
    });

    describe('GET /data answer', () => {
      /** GET /data as it was answered before it was written from the jsonb text: records parsed, points built, stringified. */
      async function reference(deviceId: string, keys: string[] | null): Promise<string> {
        const rows = await tp.portal.db.query<{
          ts: number;
          data: Record<string, unknown>;
          source: string | null;
          aws_ts: number;
        }>(
          `SELECT ts, data, source, extract(epoch FROM received_at)::double precision AS aws_ts
             FROM records WHERE device_id = $1 ORDER BY ts DESC LIMIT 600`,
          [deviceId],
        );
        const data = Object.create(null) as Record<string, unknown[]>;
        for (const row of rows) {
          for (const [key, v] of Object.entries(row.data)) {
            if (key === 'ts' || key === 'events' || (keys && !keys.includes(key))) continue;
            (data[key] ??= []).push({ v, ts: row.ts, source: row.source, aws_ts: row.aws_ts } as {
              v: unknown;
              ts: number;
            });
          }
        }
        const events = await tp.portal.db.query(
          'SELECT name, ts, topic, msg, lv, severity FROM events WHERE device_id = $1 ORDER BY ts DESC, id DESC LIMIT 600',
          [deviceId],
        );
        return JSON.stringify({ deviceid: deviceId, data, events });
      }

      it('is byte for byte what JSON.stringify gives for the stored values, whatever they hold', async () => {
        const owner = await signedInUser(tp);
        const device = await claimedBy(tp, owner);
        const t = Math.floor(nowS(tp)) - 500;
        await ingestOk(tp, device, [
          {
            ts: t + 0.25,
            text: 'quote " backslash \\ slash / newline \n tab \t bell \u0007 unit \u001f del \u007f',
            uni: 'é ü 日本 😀 \u2028 </script>',
            empty: '',
            t: true,
            f: false,
            zero: 0,
            negzero: -0,
            big: 1e21,
            bigger: 1.2345678901234567e300,
            small: 1e-7,
            tiny: 5e-324,
            frac: 0.1 + 0.2,
            neg: -123.456,
            int: 123456789012345,
            long: 1234567890123456,
            max: Number.MAX_SAFE_INTEGER,
            arr: [1, -2.5, 1e21, 0.000001, 3e-7],
            can1: [{ id: 0x18fef100, data: '00ff12' }],
            events: [{ topic: 'power', msg: 'on "now"', lv: 12 }],
          },
          { ts: t + 1, zero: 1, only_here: 'late key' },
          { ts: t + 2, text: 'x' },
        ]);
        // Numbers written by other means than JavaScript: trailing zeros, exponents, beyond a double.
        await tp.portal.db.query(
          `INSERT INTO records (device_id, ts, received_at, data) VALUES ($1, $2, now(), $3::jsonb)`,
          [
            device.deviceid,
            t - 1,
            `{"ts": ${t - 1}, "zero": 12.50, "neg": -0.000000100, "big": 1E+2, "int": 100.000, "small": 0.0000010,` +
              ` "frac": 123456789012345678901234567890.123, "huge": 1${'0'.repeat(400)}, "arr": [1.50, 2E-9]}`,
          ],
        );
        const res = await owner.client.get(path(device.deviceid, 'data'));
        expect(res.status, res.text).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.text).toBe(await reference(device.deviceid, null));
        const body = vts<DataBody>(res.body);
        expect(Object.keys(body.data)).toContain('only_here');
        expect(body.data.huge).toEqual([{ v: null, ts: t - 1 }]);
        expect(body.data.zero!.map((p) => p.v)).toEqual([1, 0, 12.5]);

        const keyed = await owner.client.get(path(device.deviceid, 'data?dataKeys=text,zero,nosuchkey&dataPoints=2'));
        const keys = ['text', 'zero', 'nosuchkey'];
        const rows = await tp.portal.db.query<{
          ts: number;
          data: Record<string, unknown>;
          source: string | null;
          aws_ts: number;
        }>(
          `SELECT ts, data, source, extract(epoch FROM received_at)::double precision AS aws_ts
             FROM records WHERE device_id = $1 AND data ?| $2::text[] ORDER BY ts DESC LIMIT 2`,
          [device.deviceid, keys],
        );
        const data = Object.create(null) as Record<string, unknown[]>;
        for (const row of rows)
          for (const [key, v] of Object.entries(row.data))
            if (keys.includes(key)) (data[key] ??= []).push({ v, ts: row.ts, source: row.source, aws_ts: row.aws_ts });
        expect(keyed.text).toBe(
          JSON.stringify({
            deviceid: device.deviceid,
            data,
            events: (JSON.parse(res.text) as { events: unknown[] }).events.slice(0, 2),
          }),
        );

        const empty = await owner.client.get(path(device.deviceid, `data?fromTime=1&toTime=2`));
        expect(empty.text).toBe(JSON.stringify({ deviceid: device.deviceid, data: {}, events: [] }));
      });
    });

    it('nothing answered 5xx', () => {
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });
  });
}

describeDeviceData('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeDeviceData('postgres');
