/**
 * Ingest over real MQTT (the embedded broker on an ephemeral port, and an external Mosquitto
 * when one is reachable) and real HTTP, on PGlite and on PostgreSQL when reachable: storage
 * before acknowledgement, device credentials and topic rules, hostile payloads, commands,
 * and the read calls (data with time buckets, diagnostics, server log, rpc, metrics).
 */
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { UNSTORABLE_TEXT_MESSAGE } from '@portal/core';
import { loadConfig } from '../../src/config';
import { startPortal } from '../../src/portal';
import { type ApiClient, type DbKind, type TestPortal, findPostgres, startTestPortal } from '../helpers';
import {
  type Provisioned,
  type RoleFixture,
  claim,
  del,
  deviceWithRoles,
  expectError,
  provision,
  signedInUser,
} from '../device-helpers';
import { EXTERNAL_MQTT_URL, brokerReachable, closed, connectDevice, inbox, until, vts } from '../ingest-helpers';

const NOT_FOUND = 'Device not found';
const BAD_DEVICE = 'Invalid device credentials';

type DataBody = {
  deviceid: string;
  data: Record<string, { v: unknown; ts: number }[]>;
  events: { msg: string; lv: number | null }[];
  bucketSeconds?: number;
};
type LogBody = { entries: { kind: string; message: string }[] };
type RpcBody = { commands: { commandID: number; method: string; state: string }[] };

const nowS = (tp: TestPortal) => tp.clock.now().getTime() / 1000;

/** A device's server log messages as one text. */
async function serverLogText(client: ApiClient, deviceId: string): Promise<string> {
  const log = (await client.get(`/api/device/${deviceId}/serverlog`)).body as LogBody;
  return log.entries.map((e) => e.message).join('\n');
}

function ingestHttp(tp: TestPortal, id: string, key: string, body: unknown, raw?: string) {
  return tp.client().request('POST', `/api/ingest/${id}`, {
    ...(raw !== undefined ? { rawBody: raw } : { body }),
    headers: { authorization: `Device ${key}` },
    csrf: false,
  });
}

async function claimed(
  tp: TestPortal,
): Promise<{ device: Provisioned; admin: Awaited<ReturnType<typeof signedInUser>> }> {
  const device = await provision(tp);
  const admin = await signedInUser(tp);
  const res = await claim(admin.client, device.deviceid, device.setupPassword);
  expect(res.status, res.text).toBe(200);
  return { device, admin };
}

function describeIngestSuite(kind: DbKind) {
  describe(`ingest (${kind})`, () => {
    let tp: TestPortal;
    let brokerUrl: string;

    beforeAll(async () => {
      tp = await startTestPortal({ db: kind });
      brokerUrl = `mqtt://127.0.0.1:${tp.portal.mqttPort}`;
    });
    afterAll(async () => {
      await tp?.close();
    });

    it('HTTP ingest stores records (no CSRF header needed) and GET /data reads them newest first', async () => {
      const { device, admin } = await claimed(tp);
      const t = Math.floor(nowS(tp)) - 100;
      const res = await ingestHttp(tp, device.deviceid, device.deviceKey, [
        {
          ts: t,
          temp: 20.5,
          state: 'ok',
          on: true,
          arr: [1, 2, 3],
          events: [{ topic: 'power', msg: 'Power on', lv: 35 }],
        },
        { ts: t + 10, temp: 21 },
      ]);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ commands: [] });
      const data = vts<DataBody>((await admin.client.get(`/api/device/${device.deviceid}/data`)).body);
      expect(data.deviceid).toBe(device.deviceid);
      expect(data.data.temp).toEqual([
        { v: 21, ts: t + 10 },
        { v: 20.5, ts: t },
      ]);
      expect(data.data.state).toEqual([{ v: 'ok', ts: t }]);
      expect(data.data.arr).toEqual([{ v: [1, 2, 3], ts: t }]);
      expect(data.events).toEqual([{ name: null, ts: t, topic: 'power', msg: 'Power on', lv: 35, severity: null }]);
      const keyed = vts<DataBody>(
        (await admin.client.get(`/api/device/${device.deviceid}/data?dataKeys=state&dataPoints=1`)).body,
      );
      expect(Object.keys(keyed.data)).toEqual(['state']);
      const ranged = vts<DataBody>(
        (await admin.client.get(`/api/device/${device.deviceid}/data?fromTime=${t + 5}&toTime=${t + 20}`)).body,
      );
      expect(ranged.data.temp).toEqual([{ v: 21, ts: t + 10 }]);
    });

    it('an accepted record moves the device last contact forward (once per batch)', async () => {
      const { device } = await claimed(tp);
      const before = await tp.portal.db.query<{ last_contact: number | null }>(
        'SELECT last_contact FROM devices WHERE id = $1',
        [device.deviceid],
      );
      expect(before[0]?.last_contact).toBeNull();
      const res = await ingestHttp(tp, device.deviceid, device.deviceKey, [{ ts: Math.floor(nowS(tp)) - 5, temp: 1 }]);
      expect(res.status, res.text).toBe(200);
      const after = await tp.portal.db.query<{ last_contact: number | null }>(
        'SELECT last_contact FROM devices WHERE id = $1',
        [device.deviceid],
      );
      expect(after[0]?.last_contact).toBeCloseTo(tp.clock.now().getTime() / 1000, 0);
    });

    it('HTTP ingest refuses a bad key and an unknown device with the same answer', async () => {
      const device = await provision(tp);
      expectError(
        await ingestHttp(tp, device.deviceid, 'wrong-key', { ts: nowS(tp), a: 1 }),
        401,
        'INVALID_CREDENTIALS',
        BAD_DEVICE,
      );
      expectError(
        await ingestHttp(tp, 'ZZZZZZZZ9', device.deviceKey, { ts: nowS(tp), a: 1 }),
        401,
        'INVALID_CREDENTIALS',
        BAD_DEVICE,
      );
      const none = await tp
        .client()
        .request('POST', `/api/ingest/${device.deviceid}`, { body: { ts: nowS(tp) }, csrf: false });
      expectError(none, 401, 'INVALID_CREDENTIALS', BAD_DEVICE);
    });

    it('a resent record is stored once', async () => {
      const { device, admin } = await claimed(tp);
      const record = { ts: nowS(tp) - 5, v: 1 };
      expect((await ingestHttp(tp, device.deviceid, device.deviceKey, record)).status).toBe(200);
      expect((await ingestHttp(tp, device.deviceid, device.deviceKey, [record, record])).status).toBe(200);
      const data = vts<DataBody>((await admin.client.get(`/api/device/${device.deviceid}/data`)).body);
      expect(data.data.v).toHaveLength(1);
      const metrics = await admin.client.get(
        `/api/device/${device.deviceid}/metrics?currentStartTime=${nowS(tp) - 7200}&currentEndTime=${nowS(tp) + 3600}&includeLatestData=true`,
      );
      expect(metrics.status, metrics.text).toBe(200);
      expect(
        (metrics.body as { currentPeriod: { data: Record<string, { count: number }> } }).currentPeriod.data.v?.count,
      ).toBe(1);
    });

    it('MQTT: a QoS 1 record is acknowledged only after it is stored', async () => {
      const { device, admin } = await claimed(tp);
      const client = await connectDevice(brokerUrl, device.deviceid, device.deviceKey);
      try {
        const ts = nowS(tp) - 1;
        let acked = false;
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        // Hold the records table: the writer cannot commit until the gate opens.
        let locked!: () => void;
        const lockHeld = new Promise<void>((resolve) => (locked = resolve));
        const holding = tp.portal.db.transaction(async (tx) => {
          await tx.query('LOCK TABLE records IN EXCLUSIVE MODE');
          locked();
          await gate;
        });
        await lockHeld;
        const published = client
          .publishAsync(`dev/${device.deviceid}/data`, JSON.stringify({ ts, level: 7 }), { qos: 1 })
          .then(() => {
            acked = true;
          });
        await until(() => tp.portal.app.services.telemetry.pendingWrites() === 1);
        expect(acked).toBe(false);
        release();
        await holding;
        await published;
        const data = vts<DataBody>((await admin.client.get(`/api/device/${device.deviceid}/data`)).body);
        expect(data.data.level).toEqual([{ v: 7, ts }]);
      } finally {
        await client.endAsync();
      }
    });

    it('MQTT: a message holding one record in an array is stored as that record, like an object', async () => {
      const { device, admin } = await claimed(tp);
      const client = await connectDevice(brokerUrl, device.deviceid, device.deviceKey);
      try {
        const ts = nowS(tp) - 2;
        await client.publishAsync(`dev/${device.deviceid}/data`, JSON.stringify([{ ts, vsys: 12 }]), { qos: 1 });
        await client.publishAsync(`dev/${device.deviceid}/data`, JSON.stringify({ ts: ts + 1, vsys: 13 }), { qos: 1 });
        const res = await admin.client.get(`/api/device/${device.deviceid}/data`);
        expect(res.status, res.text).toBe(200);
        expect(vts<DataBody>(res.body).data.vsys).toEqual([
          { v: 13, ts: ts + 1 },
          { v: 12, ts },
        ]);
      } finally {
        await client.endAsync();
      }
    });

    it('MQTT: a wrong key is refused at connect', async () => {
      const device = await provision(tp);
      await expect(connectDevice(brokerUrl, device.deviceid, 'not-the-key')).rejects.toThrow(
        /Bad username or password|Not authorized/i,
      );
      await expect(connectDevice(brokerUrl, 'ZZZZZZZZ8', device.deviceKey)).rejects.toThrow(
        /Bad username or password|Not authorized/i,
      );
    });

    it("MQTT: publishing to another device's topic is refused and logged; so is subscribing to its commands", async () => {
      const { device, admin } = await claimed(tp);
      const other = await provision(tp);
      const client = await connectDevice(brokerUrl, device.deviceid, device.deviceKey);
      await expect(client.subscribeAsync(`dev/${other.deviceid}/cmd`, { qos: 1 })).rejects.toThrow(/Subscribe error/);
      const gone = closed(client);
      client.publish(`dev/${other.deviceid}/data`, JSON.stringify({ ts: nowS(tp), x: 1 }), { qos: 1 });
      await gone;
      await client.endAsync(true);
      const log = (await admin.client.get(`/api/device/${device.deviceid}/serverlog`)).body as LogBody;
      const messages = log.entries.map((e) => e.message).join('\n');
      expect(messages).toContain(`publish to "dev/${other.deviceid}/data" refused`);
      expect(messages).toContain(`subscription to "dev/${other.deviceid}/cmd" refused`);
      expect(log.entries.some((e) => e.kind === 'connect')).toBe(true);
      await until(async () =>
        ((await admin.client.get(`/api/device/${device.deviceid}/serverlog`)).body as LogBody).entries.some(
          (e) => e.kind === 'disconnect',
        ),
      );
    });

    it('MQTT: malformed, oversized and hostile payloads are logged and ignored while good records still flow', async () => {
      const { device, admin } = await claimed(tp);
      const client = await connectDevice(brokerUrl, device.deviceid, device.deviceKey);
      try {
        const topic = `dev/${device.deviceid}/data`;
        const now = nowS(tp);
        await client.publishAsync(topic, '{"ts": 1, broken', { qos: 1 });
        await client.publishAsync(topic, JSON.stringify({ ts: now, big: 'x'.repeat(70_000) }), { qos: 1 });
        await client.publishAsync(
          topic,
          '{"ts": ' +
            now +
            ', "__proto__": {"polluted": true}, "constructor": 5, "ok1": 1, "bad key": 2, "nested": {"a": 1}}',
          { qos: 1 },
        );
        await client.publishAsync(topic, JSON.stringify({ ts: now + 3600, future: 1 }), { qos: 1 });
        await client.publishAsync(topic, JSON.stringify({ ts: now - 8 * 86_400, past: 1 }), { qos: 1 });
        await client.publishAsync(topic, JSON.stringify([1, 'x', null]), { qos: 1 });
        await client.publishAsync(topic, JSON.stringify({ ts: now + 1, good: 42 }), { qos: 1 });
        const data = vts<DataBody>((await admin.client.get(`/api/device/${device.deviceid}/data`)).body);
        expect(data.data.good).toEqual([{ v: 42, ts: now + 1 }]);
        expect(data.data.ok1).toEqual([{ v: 1, ts: now }]);
        expect(data.data.constructor).toEqual([{ v: 5, ts: now }]);
        expect(Object.keys(data.data).sort()).toEqual(['constructor', 'good', 'ok1']);
        expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
        const log = await serverLogText(admin.client, device.deviceid);
        expect(log).toContain('not valid JSON');
        expect(log).toContain('over the limit of 65536');
        expect(log).toContain('Invalid key name "__proto__"');
        expect(log).toContain('Invalid key name "bad key"');
        expect(log).toContain('Key "nested" has a value of the wrong type');
        expect(log).toContain('more than 5 minutes in the future');
        expect(log).toContain('more than 7 days old');
        expect(log).toContain('A record must be a JSON object');
      } finally {
        await client.endAsync();
      }
    });

    it('HTTP: bad JSON and oversized bodies are refused; a refused record is logged while the good one is stored', async () => {
      const { device, admin } = await claimed(tp);
      expectError(
        await ingestHttp(tp, device.deviceid, device.deviceKey, undefined, '{nope'),
        400,
        'BAD_REQUEST',
        'The body is not valid JSON',
      );
      const big = await ingestHttp(
        tp,
        device.deviceid,
        device.deviceKey,
        undefined,
        JSON.stringify({ ts: nowS(tp), s: 'x'.repeat(1_100_000) }),
      );
      expect(big.status).toBe(413);
      const tooMany = await ingestHttp(
        tp,
        device.deviceid,
        device.deviceKey,
        Array.from({ length: 501 }, (_, i) => ({ ts: nowS(tp) - i, a: i })),
      );
      expectError(tooMany, 400, 'BAD_REQUEST', /at most 500 records/);
      const ts = nowS(tp);
      const mixed = await ingestHttp(tp, device.deviceid, device.deviceKey, [
        { ts: ts + 86_400, a: 1 },
        { ts, a: 2 },
      ]);
      expect(mixed.status).toBe(200);
      const data = vts<DataBody>((await admin.client.get(`/api/device/${device.deviceid}/data`)).body);
      expect(data.data.a).toEqual([{ v: 2, ts }]);
      const log = await serverLogText(admin.client, device.deviceid);
      expect(log).toContain('http data: The body is not valid JSON');
      expect(log).toContain('more than 5 minutes in the future');
    });

    it('text the database cannot store (U+0000, unpaired surrogates) is dropped and logged, never a 500', async () => {
      const { device, admin } = await claimed(tp);
      const ts = Math.floor(nowS(tp)) - 30;
      // Escapes in the raw JSON: JSON.parse makes them real U+0000 / lone surrogate characters.
      const raw = `[{"ts":${ts},"nul":"a\\u0000b","lone":"\\ud800","ok":1},{"ts":${ts + 1},"events":[{"msg":"x\\u0000"}],"ok":2}]`;
      const res = await ingestHttp(tp, device.deviceid, device.deviceKey, undefined, raw);
      expect(res.status, res.text).toBe(200);
      const client = await connectDevice(brokerUrl, device.deviceid, device.deviceKey);
      try {
        await client.publishAsync(`dev/${device.deviceid}/diag`, '{"note":"a\\u0000"}', { qos: 1 });
        await client.publishAsync(`dev/${device.deviceid}/data`, JSON.stringify({ ts: ts + 2, ok: 3 }), { qos: 1 });
      } finally {
        await client.endAsync();
      }
      const data = vts<DataBody>((await admin.client.get(`/api/device/${device.deviceid}/data`)).body);
      expect(data.data.ok).toEqual([
        { v: 3, ts: ts + 2 },
        { v: 2, ts: ts + 1 },
        { v: 1, ts },
      ]);
      expect(data.data.nul).toBeUndefined();
      expect(data.events).toEqual([]);
      const log = await serverLogText(admin.client, device.deviceid);
      expect(log).toContain('Key "nul" has a value of the wrong type');
      expect(log).toContain('Malformed events');
      expect(log).toContain(`Diagnostics: ${UNSTORABLE_TEXT_MESSAGE}`);
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });

    it('commands: queued while offline, delivered on the next publish, acknowledged as delivered; online devices get them at once', async () => {
      const fx: RoleFixture = await deviceWithRoles(tp);
      const id = fx.device.deviceid;
      const path = `/api/device/${id}/rpc`;
      expectError(
        await fx.users.STRANGER.client.post(path, { method: 'Admin.Trigger', args: { index: 2 } }),
        404,
        'NOT_FOUND',
        NOT_FOUND,
      );
      expectError(
        await fx.users.VIEW.client.post(path, { method: 'Admin.Trigger', args: { index: 2 } }),
        403,
        'FORBIDDEN',
      );
      expectError(await fx.users.OPERATOR.client.post(path, { method: 'Admin.Reboot' }), 403, 'FORBIDDEN');
      const queued = await fx.users.OPERATOR.client.post(path, { method: 'Admin.Trigger', args: { index: 2 } });
      expect(queued.status, queued.text).toBe(200);
      const commandId = (queued.body as { commandID: number }).commandID;
      const toCancel = await fx.users.ADMIN.client.post(path, { method: 'Admin.Reboot' });
      expect(toCancel.status).toBe(200);
      const cancelId = (toCancel.body as { commandID: number }).commandID;
      expect((await del(fx.users.ADMIN.client, path, { commandID: cancelId })).status).toBe(200);
      expectError(await del(fx.users.ADMIN.client, path, { commandID: cancelId }), 409, 'CONFLICT');

      const client = await connectDevice(brokerUrl, id, fx.device.deviceKey);
      try {
        const box = inbox(client);
        await client.subscribeAsync(`dev/${id}/cmd`, { qos: 1 });
        await client.publishAsync(`dev/${id}/data`, JSON.stringify({ ts: nowS(tp), x: 1 }), { qos: 1 });
        const message = (await box.next(`dev/${id}/cmd`)) as {
          commands: { id: number; method: string; args: unknown }[];
        };
        expect(message.commands).toEqual([{ id: commandId, method: 'Admin.Trigger', args: { index: 2 } }]);
        const listed = (await fx.users.VIEW.client.get(path)).body as RpcBody;
        expect(listed.commands.find((c) => c.commandID === commandId)?.state).toBe('sent');
        expect(listed.commands.find((c) => c.commandID === cancelId)?.state).toBe('cancelled');
        await client.publishAsync(`dev/${id}/ack`, JSON.stringify({ id: commandId }), { qos: 1 });
        const after = (await fx.users.VIEW.client.get(path)).body as RpcBody;
        expect(after.commands.find((c) => c.commandID === commandId)?.state).toBe('delivered');

        // Online now: a new command goes out at once.
        const now = await fx.users.USER.client.post(path, { method: 'Admin.Trigger', args: { index: 1 } });
        const second = (await box.next(`dev/${id}/cmd`)) as { commands: { id: number }[] };
        expect(second.commands.map((c) => c.id)).toEqual([(now.body as { commandID: number }).commandID]);
      } finally {
        await client.endAsync();
      }

      // HTTP: the answer carries the queued commands (sent; delivered once acknowledged on /ack).
      const third = await fx.users.ADMIN.client.post(path, { method: 'Config.Set', args: { a: 1 } });
      const thirdId = (third.body as { commandID: number }).commandID;
      const res = await ingestHttp(tp, id, fx.device.deviceKey, { ts: nowS(tp), y: 2 });
      expect(res.body).toEqual({ commands: [{ id: thirdId, method: 'Config.Set', args: { a: 1 } }] });
      const sent = (await fx.users.ADMIN.client.get(path)).body as RpcBody;
      expect(sent.commands.find((c) => c.commandID === thirdId)?.state).toBe('sent');
      const ack = await tp.client().request('POST', `/api/ingest/${id}/ack`, {
        body: { id: thirdId },
        headers: { authorization: `Device ${fx.device.deviceKey}` },
        csrf: false,
      });
      expect(ack.status, ack.text).toBe(200);
      const final = (await fx.users.ADMIN.client.get(path)).body as RpcBody;
      expect(final.commands.find((c) => c.commandID === thirdId)?.state).toBe('delivered');
    });

    it('read calls: strangers get 404, the server log is for ADMIN, diagnostics for ADMIN and USER', async () => {
      const fx = await deviceWithRoles(tp);
      const id = fx.device.deviceid;
      for (const p of ['data', 'diagnostics', 'serverlog', 'rpc', 'metrics?currentStartTime=0&currentEndTime=3600']) {
        expectError(await fx.users.STRANGER.client.get(`/api/device/${id}/${p}`), 404, 'NOT_FOUND', NOT_FOUND);
      }
      expectError(await fx.users.STRANGER.client.get(`/api/device/NOSUCHDEV/data`), 404, 'NOT_FOUND', NOT_FOUND);
      expectError(await fx.users.USER.client.get(`/api/device/${id}/serverlog`), 403, 'FORBIDDEN');
      expectError(await fx.users.OPERATOR.client.get(`/api/device/${id}/diagnostics`), 403, 'FORBIDDEN');
      expect((await fx.users.VIEW.client.get(`/api/device/${id}/data`)).status).toBe(200);

      const client = await connectDevice(brokerUrl, id, fx.device.deviceKey);
      try {
        await client.publishAsync(`dev/${id}/diag`, JSON.stringify({ ts: nowS(tp), rssi: -70, note: 'boot' }), {
          qos: 1,
        });
      } finally {
        await client.endAsync();
      }
      const diag = await fx.users.USER.client.get(`/api/device/${id}/diagnostics`);
      expect(diag.status).toBe(200);
      expect((diag.body as { diagnostics: { data: unknown }[] }).diagnostics.map((d) => d.data)).toEqual([
        { ts: expect.any(Number), rssi: -70, note: 'boot' },
      ]);
    });

    it('downsampled data: buckets under an hour from records, an hour or more from the hourly rollups', async () => {
      const { device, admin } = await claimed(tp);
      const base = Math.floor(nowS(tp) / 3600) * 3600 - 3 * 3600;
      const records = [
        { ts: base, t: 1 },
        { ts: base + 60, t: 2 },
        { ts: base + 120, t: 3, label: 'skip-me' },
        { ts: base + 600, t: 10 },
        { ts: base + 3600, t: 100 },
      ];
      expect((await ingestHttp(tp, device.deviceid, device.deviceKey, records)).status).toBe(200);
      const q = `fromTime=${base}&toTime=${base + 7200}`;
      const tenMin = vts<DataBody>(
        (await admin.client.get(`/api/device/${device.deviceid}/data?${q}&downsample=600`)).body,
      );
      expect(tenMin.bucketSeconds).toBe(600);
      expect(tenMin.data).toEqual({
        t: [
          { v: 100, ts: base + 3600 },
          { v: 10, ts: base + 600 },
          { v: 2, ts: base },
        ],
      });
      const hourly = vts<DataBody>(
        (await admin.client.get(`/api/device/${device.deviceid}/data?${q}&downsample=3600`)).body,
      );
      expect(hourly.data).toEqual({
        t: [
          { v: 100, ts: base + 3600 },
          { v: 4, ts: base },
        ],
      });
      const twoHours = vts<DataBody>(
        (await admin.client.get(`/api/device/${device.deviceid}/data?${q}&downsample=7200&dataKeys=t`)).body,
      );
      expect(twoHours.data.t).toEqual(
        base % 7200 === 0
          ? [{ v: (1 + 2 + 3 + 10 + 100) / 5, ts: base }]
          : [
              { v: 100, ts: base + 3600 },
              { v: 4, ts: base - 3600 },
            ],
      );
      const limited = vts<DataBody>(
        (await admin.client.get(`/api/device/${device.deviceid}/data?${q}&downsample=600&dataPoints=1`)).body,
      );
      expect(limited.data.t).toEqual([{ v: 100, ts: base + 3600 }]);
      // Named keys are read in one pass over the records: the same buckets; a string key, an
      // absent key, ts and a repeated name add nothing.
      const named = vts<DataBody>(
        (
          await admin.client.get(
            `/api/device/${device.deviceid}/data?${q}&downsample=600&dataKeys=t,label,missing,ts,t`,
          )
        ).body,
      );
      expect(named.data).toEqual(tenMin.data);
      const namedLimited = vts<DataBody>(
        (await admin.client.get(`/api/device/${device.deviceid}/data?${q}&downsample=600&dataPoints=2&dataKeys=t`))
          .body,
      );
      expect(namedLimited.data.t).toEqual(tenMin.data.t!.slice(0, 2));
      const auto = vts<DataBody>(
        (await admin.client.get(`/api/device/${device.deviceid}/data?${q}&downsample=true&dataPoints=2`)).body,
      );
      expect(auto.bucketSeconds).toBe(3600);
      const metrics = (
        await admin.client.get(
          `/api/device/${device.deviceid}/metrics?currentStartTime=${base + 1800}&currentEndTime=${base + 7200}`,
        )
      ).body as {
        currentPeriod: {
          startTime: number;
          data: Record<string, { min: number; max: number; avg: number; sum: number; diff: number; count: number }>;
        };
      };
      expect(metrics.currentPeriod.startTime).toBe(base);
      expect(metrics.currentPeriod.data.t).toMatchObject({ min: 1, max: 100, sum: 116, count: 5, diff: 99 });
    });

    it('Basic plan keeps at most one record per 5 minutes', async () => {
      const { device, admin } = await claimed(tp);
      tp.clock.advance(91 * 86_400_000);
      try {
        const t = Math.floor(nowS(tp)) - 250;
        const res = await ingestHttp(tp, device.deviceid, device.deviceKey, [
          { ts: t, b: 1 },
          { ts: t + 60, b: 2 },
          { ts: t + 299, b: 3 },
        ]);
        expect(res.status).toBe(200);
        const next = await ingestHttp(tp, device.deviceid, device.deviceKey, { ts: t + 300, b: 4 });
        expect(next.status).toBe(200);
      } finally {
        tp.clock.reset();
      }
      const data = vts<DataBody>((await admin.client.get(`/api/device/${device.deviceid}/data`)).body);
      expect(data.data.b?.map((p) => p.v)).toEqual([4, 1]);
    });

    it('keeps working for other devices while one floods a small queue (backpressure, no drops)', async () => {
      // 1,200 publishes in flight at once into a queue of 20: most must wait for room.
      const capacity = 20;
      const small = await startTestPortal({ db: kind, telemetry: { queueCapacity: capacity, batchSize: 10 } });
      const telemetry = small.portal.app.services.telemetry;
      const ingest = telemetry.ingest.bind(telemetry);
      let deepest = 0;
      let arrivedFull = 0;
      telemetry.ingest = (item) => {
        const depth = telemetry.queueDepth();
        deepest = Math.max(deepest, depth);
        if (depth >= capacity) arrivedFull += 1;
        return ingest(item);
      };
      const a = await claimed(small);
      const b = await claimed(small);
      const url = `mqtt://127.0.0.1:${small.portal.mqttPort}`;
      const ca = await connectDevice(url, a.device.deviceid, a.device.deviceKey);
      const cb = await connectDevice(url, b.device.deviceid, b.device.deviceKey);
      try {
        const start = Math.floor(nowS(small)) - 3000;
        const sends: Promise<unknown>[] = [];
        for (let i = 0; i < 1200; i += 1)
          sends.push(
            ca.publishAsync(`dev/${a.device.deviceid}/data`, JSON.stringify({ ts: start + i, n: i }), { qos: 1 }),
          );
        sends.push(cb.publishAsync(`dev/${b.device.deviceid}/data`, JSON.stringify({ ts: start, n: -1 }), { qos: 1 }));
        await Promise.all(sends);
        expect(arrivedFull).toBeGreaterThan(0);
        expect(deepest).toBe(capacity);
        const all = vts<DataBody>(
          (await a.admin.client.get(`/api/device/${a.device.deviceid}/data?dataPoints=10000&dataKeys=n`)).body,
        );
        expect(all.data.n?.map((p) => p.v)).toEqual(Array.from({ length: 1200 }, (_, i) => 1199 - i));
        const other = vts<DataBody>((await b.admin.client.get(`/api/device/${b.device.deviceid}/data`)).body);
        expect(other.data.n).toEqual([{ v: -1, ts: start }]);
      } finally {
        await ca.endAsync();
        await cb.endAsync();
        await small.close();
      }
    });
  });
}

describeIngestSuite('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeIngestSuite('postgres');
else console.log('PostgreSQL is not reachable: the PostgreSQL run of the ingest suite is skipped.');

describe('MQTT configuration', () => {
  it('a taken MQTT port is one line naming MQTT_PORT', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', () => resolve()));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const config = loadConfig({
        PORT: '0',
        MQTT_PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: 'memory://',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'silent',
      });
      await expect(startPortal(config)).rejects.toThrow(
        `Port ${port} is already in use: set MQTT_PORT to a free port.`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

// ---------------------------------------------------------------- external broker (Mosquitto)

const EXTERNAL_URL = EXTERNAL_MQTT_URL;

if (await brokerReachable(EXTERNAL_URL)) {
  describe('ingest through an external broker (MQTT_URL)', () => {
    let tp: TestPortal;
    beforeAll(async () => {
      tp = await startTestPortal({
        db: 'pglite',
        mqttUrl: EXTERNAL_URL,
        mqttShareGroup: `test${randomBytes(4).toString('hex')}`,
      });
    });
    afterAll(async () => {
      await tp?.close();
    });

    // A command queued before the device connects waits for its first message (the broker cannot
    // say who is connected; a publish to nobody would wait out the resend delay).
    it('stores what devices publish on the broker and sends commands back through it', async () => {
      expect(tp.portal.mqttPort).toBeNull();
      const fx = await deviceWithRoles(tp);
      const id = fx.device.deviceid;
      const queued = await fx.users.ADMIN.client.post(`/api/device/${id}/rpc`, {
        method: 'Admin.Trigger',
        args: { index: 0 },
      });
      const commandId = (queued.body as { commandID: number }).commandID;
      const device = await mqtt.connectAsync(EXTERNAL_URL, {
        clientId: `dev-${id}-${randomBytes(3).toString('hex')}`,
        reconnectPeriod: 0,
      });
      try {
        const box = inbox(device);
        await device.subscribeAsync(`dev/${id}/cmd`, { qos: 1 });
        const ts = nowS(tp);
        await device.publishAsync(`dev/${id}/data`, JSON.stringify({ ts, ext: 5 }), { qos: 1 });
        const data = await until(async () => {
          const body = vts<DataBody>((await fx.users.VIEW.client.get(`/api/device/${id}/data`)).body);
          return body.data.ext ? body : undefined;
        });
        expect(data.data.ext).toEqual([{ v: 5, ts }]);
        const message = (await box.next(`dev/${id}/cmd`)) as { commands: { id: number }[] };
        expect(message.commands.map((c) => c.id)).toContain(commandId);
        await device.publishAsync(`dev/${id}/ack`, JSON.stringify({ id: commandId }), { qos: 1 });
        await until(
          async () =>
            ((await fx.users.ADMIN.client.get(`/api/device/${id}/rpc`)).body as RpcBody).commands.find(
              (c) => c.commandID === commandId,
            )?.state === 'delivered',
        );
        // The device made contact moments ago: a command queued now goes out at once, not at its next message.
        const second = await fx.users.ADMIN.client.post(`/api/device/${id}/rpc`, {
          method: 'Admin.Trigger',
          args: { index: 1 },
        });
        const secondId = (second.body as { commandID: number }).commandID;
        const pushed = (await box.next(`dev/${id}/cmd`)) as { commands: { id: number }[] };
        expect(pushed.commands.map((c) => c.id)).toEqual([secondId]);
      } finally {
        await device.endAsync();
      }
    });
  });
} else if (process.env.REQUIRE_SERVICES === '1') {
  describe('external MQTT broker', () => {
    it('is reachable (REQUIRE_SERVICES=1)', () => {
      throw new Error(`The MQTT broker at ${EXTERNAL_URL} is not reachable (set TEST_MQTT_URL)`);
    });
  });
} else {
  console.log(`The MQTT broker at ${EXTERNAL_URL} is not reachable: the external-broker ingest test is skipped.`);
  describe.skip('ingest through an external broker (not reachable)', () => {
    it('skipped', () => undefined);
  });
}
