/**
 * Issue 32's server rows, over real HTTP, MQTT (the embedded broker) and the import call, on PGlite:
 * - CARD-28: every point of GET /data carries source (mqtt, http, import) and aws_ts (when the
 *   portal received the record, epoch seconds), beside v and ts;
 * - CARD-27: an event's name is kept at ingest and returned; events given only lv or only a
 *   severity word both classify (core eventLevel over what GET /data answers, and the event counts
 *   ingest keeps);
 * - API-42: POST /rpc takes extra fields beside method and args, bounded and validated, and
 *   ignores them (named in ignoredFields; the device is sent method and args only);
 * - issue 32 item 2: the intervals a device reports in its diagnostics become its applied config
 *   (logged), the pending config untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RPC_EXTRA_FIELDS_MAX, eventLevel, type DataResponse } from '@portal/core';
import { type TestPortal, startTestPortal } from '../helpers';
import { type Provisioned, type SignedInUser, claim, expectError, provision, signedInUser } from '../device-helpers';
import { connectDevice, inbox, postRecords, storedEventCounts, until } from '../ingest-helpers';

const nowS = (tp: TestPortal) => tp.clock.now().getTime() / 1000;

describe('record origin, event names, rpc extra fields and reported intervals', () => {
  let tp: TestPortal;
  let owner: SignedInUser;
  let device: Provisioned;
  const dataOf = async (d: Provisioned, query = '') =>
    (await owner.client.get(`/api/device/${d.deviceid}/data?dataPoints=50${query}`)).body as DataResponse;

  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite' });
    owner = await signedInUser(tp);
    device = await provision(tp);
    expect((await claim(owner.client, device.deviceid, device.setupPassword)).status).toBe(200);
  });
  afterAll(async () => {
    await tp?.close();
  });

  it('CARD-28: points carry source and aws_ts: how each record came and when the portal received it', async () => {
    const t = Math.floor(nowS(tp)) - 600;
    // HTTP: a record ten minutes old, received now.
    const httpAt = nowS(tp);
    expect(await postRecords(tp, { id: device.deviceid, key: device.deviceKey }, { ts: t, level: 1 })).toBe(200);
    const httpDone = nowS(tp);
    // MQTT, QoS 1 (acknowledged once stored).
    const client = await connectDevice(`mqtt://127.0.0.1:${tp.portal.mqttPort}`, device.deviceid, device.deviceKey);
    const mqttAt = nowS(tp);
    try {
      await client.publishAsync(`dev/${device.deviceid}/data`, JSON.stringify({ ts: t + 60, level: 2 }), { qos: 1 });
    } finally {
      await client.endAsync();
    }
    const mqttDone = nowS(tp);
    // The import call (the Raw Data page's).
    const imported = await owner.client.post(`/api/device/${device.deviceid}/import`, {
      records: [{ ts: t + 120, level: 3 }],
    });
    expect(imported.status, imported.text).toBe(200);

    const points = (await dataOf(device)).data.level!;
    expect(points.map((p) => [p.v, p.ts, p.source])).toEqual([
      [3, t + 120, 'import'],
      [2, t + 60, 'mqtt'],
      [1, t, 'http'],
    ]);
    for (const p of points) expect(Object.keys(p)).toEqual(['v', 'ts', 'source', 'aws_ts']);
    const [, mqtt, http] = points;
    // aws_ts is the receipt time (epoch seconds), not the record's own time.
    expect(http!.aws_ts).toBeGreaterThanOrEqual(Math.floor(httpAt * 1000) / 1000);
    expect(http!.aws_ts).toBeLessThanOrEqual(httpDone);
    expect(mqtt!.aws_ts).toBeGreaterThanOrEqual(Math.floor(mqttAt * 1000) / 1000);
    expect(mqtt!.aws_ts).toBeLessThanOrEqual(mqttDone);
    expect(http!.aws_ts! - http!.ts).toBeGreaterThan(590);
    // A record written before sources were kept answers source null.
    await tp.portal.db.query('UPDATE records SET source = NULL WHERE device_id = $1 AND ts = $2', [device.deviceid, t]);
    expect((await dataOf(device)).data.level!.at(-1)).toMatchObject({ v: 1, source: null });
    // Downsampled points are bucket averages, not records: v and ts only.
    const buckets = (await dataOf(device, `&fromTime=${t - 3600}&downsample=60`)).data.level!;
    expect(buckets.length).toBeGreaterThan(0);
    for (const b of buckets) expect(Object.keys(b).sort()).toEqual(['ts', 'v']);
  });

  it('CARD-27: an event keeps its name; events given only lv or only severity both classify', async () => {
    const t = Math.floor(nowS(tp)) - 30;
    const events = [
      { name: 'coolant_high', msg: 'Coolant 109 °C', lv: 35 },
      { name: 'door', msg: 'Door open', severity: 'WARN', topic: 'cabin' },
      { msg: 'No name', lv: 5 },
    ];
    expect(await postRecords(tp, { id: device.deviceid, key: device.deviceKey }, { ts: t, events })).toBe(200);
    const answered = (await dataOf(device)).events.filter((e) => e.ts === t);
    // Newest first; events of one record in reverse order of arrival.
    expect(answered).toEqual([
      { name: null, ts: t, topic: null, msg: 'No name', lv: 5, severity: null },
      { name: 'door', ts: t, topic: 'cabin', msg: 'Door open', lv: null, severity: 'WARN' },
      { name: 'coolant_high', ts: t, topic: null, msg: 'Coolant 109 °C', lv: 35, severity: null },
    ]);
    expect(answered.map((e) => eventLevel(e))).toEqual(['info', 'warning', 'alarm']);
    // The counts ingest keeps for the group table classify them the same way.
    const hour = Math.floor(t / 3600) * 3600;
    const { hours } = await storedEventCounts(tp.portal.db, [device.deviceid]);
    expect(hours.get(`${device.deviceid}/${hour}/alarm`)).toBeGreaterThanOrEqual(1);
    expect(hours.get(`${device.deviceid}/${hour}/warning`)).toBeGreaterThanOrEqual(1);
    // A name that is not text, or too long, is dropped with the events key (reported), the record kept.
    const bad = await postRecords(
      tp,
      { id: device.deviceid, key: device.deviceKey },
      { ts: t + 1, level: 9, events: [{ name: 'x'.repeat(65), msg: 'long' }] },
    );
    expect(bad).toBe(200);
    expect((await dataOf(device)).events.some((e) => e.msg === 'long')).toBe(false);
  });

  it('API-42: POST /rpc takes extra fields, bounded and validated, and ignores them', async () => {
    const path = `/api/device/${device.deviceid}/rpc`;
    const queued = await owner.client.post(path, {
      method: 'Admin.Trigger',
      args: { index: 1 },
      timeout: 30,
      note: { by: 'test' },
    });
    expect(queued.status, queued.text).toBe(200);
    expect(queued.body).toMatchObject({
      method: 'Admin.Trigger',
      args: { index: 1 },
      ignoredFields: ['timeout', 'note'],
    });
    // Without extra fields the answer is the command alone.
    const plain = await owner.client.post(path, { method: 'Admin.Trigger', args: { index: 2 } });
    expect(plain.status).toBe(200);
    expect(plain.body).not.toHaveProperty('ignoredFields');

    // Bounded and validated: a 400, nothing queued.
    const before = (await owner.client.get(path)).body as { commands: unknown[] };
    const tooMany = Object.fromEntries(Array.from({ length: RPC_EXTRA_FIELDS_MAX + 1 }, (_, i) => [`f${i}`, i]));
    for (const body of [
      { method: 'Admin.Trigger', args: { index: 1 }, ...tooMany },
      { method: 'Admin.Trigger', args: { index: 1 }, 'bad name': 1 },
      { method: 'Admin.Trigger', args: { index: 1 }, note: 'a\u0000' },
      {
        method: 'Admin.Trigger',
        args: { index: 1 },
        note: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) as unknown,
      },
    ])
      expectError(await owner.client.post(path, body), 400, 'BAD_REQUEST');
    expect(((await owner.client.get(path)).body as { commands: unknown[] }).commands).toHaveLength(
      before.commands.length,
    );

    // The device is sent method and args only.
    const client = await connectDevice(`mqtt://127.0.0.1:${tp.portal.mqttPort}`, device.deviceid, device.deviceKey);
    try {
      const box = inbox(client);
      await client.subscribeAsync(`dev/${device.deviceid}/cmd`, { qos: 1 });
      await client.publishAsync(`dev/${device.deviceid}/data`, JSON.stringify({ ts: nowS(tp), level: 4 }), { qos: 1 });
      const sent = JSON.stringify(await box.next(`dev/${device.deviceid}/cmd`));
      expect(sent).toContain('Admin.Trigger');
      expect(sent).not.toContain('timeout');
      expect(sent).not.toContain('note');
    } finally {
      await client.endAsync();
    }
  });

  it('issue 32 item 2: intervals reported in diagnostics become the applied config, logged; the pending config stays', async () => {
    const other = await provision(tp);
    expect((await claim(owner.client, other.deviceid, other.setupPassword)).status).toBe(200);
    const configOf = async () =>
      (await owner.client.get(`/api/device/${other.deviceid}/config`)).body as {
        config: { settings: { device: Record<string, unknown> } };
        pending: { settings: { device?: Record<string, unknown> } } | null;
      };
    expect((await configOf()).config.settings.device).toMatchObject({ base_interval: 60 });
    // A change the device has yet to apply.
    const put = await owner.client.put(`/api/device/${other.deviceid}/config`, {
      config: { settings: { device: { base_interval: 30 } } },
    });
    expect(put.status, put.text).toBe(200);

    const client = await connectDevice(`mqtt://127.0.0.1:${tp.portal.mqttPort}`, other.deviceid, other.deviceKey);
    try {
      await client.publishAsync(
        `dev/${other.deviceid}/diag`,
        JSON.stringify({ ts: nowS(tp), fw: 'SFW100-2.4.1', base_interval: 15, transmit_interval: 1 }),
        { qos: 1 },
      );
    } finally {
      await client.endAsync();
    }
    const config = await until(async () => {
      const c = await configOf();
      return c.config.settings.device.base_interval === 15 && c;
    });
    expect(config.config.settings.device).toMatchObject({ base_interval: 15, transmit_interval: 1 });
    expect(config.pending?.settings.device).toMatchObject({ base_interval: 30 });
    const log = await tp.portal.db.query<{ message: string }>(
      `SELECT message FROM server_log WHERE device_id = $1 AND kind = 'config' ORDER BY id`,
      [other.deviceid],
    );
    expect(log.map((l) => l.message)).toContain(
      'interval now base_interval 15 s, transmit_interval 1 (was base_interval 60 s, transmit_interval 1), as the device reports',
    );
    // Reporting the same again changes and logs nothing; values outside the contract are ignored.
    for (const body of [
      { base_interval: 15, transmit_interval: 1 },
      { base_interval: 0, transmit_interval: 5000 },
    ]) {
      const outcome = await tp.portal.app.services.telemetry.ingest({
        deviceId: other.deviceid,
        kind: 'diag',
        body: { ts: nowS(tp), ...body },
        basic: false,
        receivedAt: tp.clock.now(),
        source: 'mqtt',
      });
      expect(outcome.stored).toBe(1);
    }
    expect((await configOf()).config.settings.device).toMatchObject({ base_interval: 15, transmit_interval: 1 });
    const after = await tp.portal.db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM server_log WHERE device_id = $1 AND message LIKE 'interval now%'`,
      [other.deviceid],
    );
    expect(after[0]!.n).toBe(1);
  });
});
