/**
 * Text the database cannot store (U+0000, unpaired surrogates), on PGlite and on PostgreSQL when
 * reachable: device messages over HTTP and MQTT are stored without it (or refused) with the reason
 * in the device's server log, never a 500 nor a lost batch; the API refuses it with 400 and writes
 * nothing (the rpc call included); the config's device name goes through the name sanitiser and
 * colours are CSS colours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLOUR_MESSAGE, JSON_TOO_DEEP_MESSAGE, UNSTORABLE_TEXT_MESSAGE } from '@portal/core';
import { describeWhenPostgres, startTestPortal, type ApiClient, type DbKind, type TestPortal } from '../helpers';
import { claim, expectError, provision, signedInUser, type Provisioned } from '../device-helpers';
import { connectDevice, until, vts } from '../ingest-helpers';

type DataBody = { data: Record<string, { v: unknown; ts: number }[]>; events: { msg: string }[] };
type LogBody = { entries: { kind: string; message: string }[] };

function describeText(kind: DbKind) {
  describe(`text the database cannot store (${kind})`, () => {
    let tp: TestPortal;
    let admin: ApiClient;
    let device: Provisioned;
    const nowS = () => Math.floor(tp.clock.now().getTime() / 1000);

    beforeAll(async () => {
      tp = await startTestPortal({ db: kind, seed: false });
      device = await provision(tp);
      admin = (await signedInUser(tp)).client;
      expect((await claim(admin, device.deviceid, device.setupPassword)).status).toBe(200);
    });
    afterAll(async () => {
      await tp?.close();
    });

    const ingest = (raw: string) =>
      tp.client().request('POST', `/api/ingest/${device.deviceid}`, {
        rawBody: raw,
        headers: { authorization: `Device ${device.deviceKey}` },
        csrf: false,
      });
    const data = async () => vts<DataBody>((await admin.get(`/api/device/${device.deviceid}/data`)).body);
    const serverLog = async () =>
      ((await admin.get(`/api/device/${device.deviceid}/serverlog`)).body as LogBody).entries
        .map((e) => e.message)
        .join('\n');

    it('a server log line cut at its 2000-character limit never splits a surrogate pair (the batch would fail)', async () => {
      const ts = nowS() - 95;
      // Invalid key names (emoji), each reported in one 'dropped' line: find the padding that puts a
      // pair across character 2000 of that line, as the record validator words it.
      let keys: string[] = [];
      let line = '';
      for (let pad = 0; pad < 4; pad += 1) {
        keys = Array.from(
          { length: 40 },
          (_, i) => `${'x'.repeat(pad)}${'\u{1F600}'.repeat(30)}${String.fromCharCode(65 + i)}`,
        );
        line = `Record ${ts}: ${keys.map((k) => `Invalid key name ${JSON.stringify(k)}`).join('; ')}`;
        const code = line.charCodeAt(1999);
        if (code >= 0xd800 && code <= 0xdbff) break;
      }
      const record = Object.fromEntries([['ts', ts], ['ok', 1], ...keys.map((k) => [k, 1])]);
      const res = await ingest(JSON.stringify(record));
      expect(res.status, res.text).toBe(200);
      expect((await data()).data.ok).toContainEqual({ v: 1, ts });
      const entries = ((await admin.get(`/api/device/${device.deviceid}/serverlog`)).body as LogBody).entries;
      expect(entries.map((e) => e.message)).toContain(line.slice(0, 1999));
    });

    it('an MQTT record whose JSON repeats a key, the first time with U+0000, is stored with the value JSON.parse kept, and acknowledged', async () => {
      // JSON.parse keeps the last "m"; the text itself (which jsonb would read whole) holds \u0000.
      const ts = nowS() - 90;
      const client = await connectDevice(`mqtt://127.0.0.1:${tp.portal.mqttPort}`, device.deviceid, device.deviceKey);
      try {
        await client.publishAsync(`dev/${device.deviceid}/data`, `{"ts":${ts},"m":"x\\u0000","m":"mqtt"}`, { qos: 1 });
        await client.publishAsync(`dev/${device.deviceid}/data`, `{"ts":${ts + 1},"m":"after"}`, { qos: 1 });
      } finally {
        await client.endAsync();
      }
      const stored = await until(async () => {
        const d = await data();
        return (d.data.m?.length ?? 0) >= 2 ? d : undefined;
      });
      expect(stored.data.m).toEqual([
        { v: 'after', ts: ts + 1 },
        { v: 'mqtt', ts },
      ]);
    });

    it('imported records keep their storable values only (the device-record rules drop the rest)', async () => {
      const ts = nowS() - 80;
      const res = await admin.post(`/api/device/${device.deviceid}/import`, {
        records: [
          { ts, imp: 1, bad: 'x\u0000', ['k\ud800']: 1 },
          { ts: ts + 1, imp: 2, events: [{ msg: 'y\u0000' }], lone: '\udc00' },
        ],
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ imported: 2, refused: [] });
      const stored = await data();
      expect(stored.data.imp).toEqual([
        { v: 2, ts: ts + 1 },
        { v: 1, ts },
      ]);
      expect(stored.data.bad).toBeUndefined();
      expect(stored.data.lone).toBeUndefined();
      expect(stored.events.map((e) => e.msg)).not.toContain('y\u0000');
    });

    it('diagnostics nested too deep are refused with the reason in the server log, not a crash', async () => {
      const client = await connectDevice(`mqtt://127.0.0.1:${tp.portal.mqttPort}`, device.deviceid, device.deviceKey);
      try {
        const deep = `{"ts":${nowS()},"d":${'['.repeat(5000)}1${']'.repeat(5000)}}`;
        await client.publishAsync(`dev/${device.deviceid}/diag`, deep, { qos: 1 });
        await client.publishAsync(`dev/${device.deviceid}/diag`, '{"k\\ud800":1}', { qos: 1 });
      } finally {
        await client.endAsync();
      }
      const log = await until(async () => {
        const text = await serverLog();
        return text.includes(JSON_TOO_DEEP_MESSAGE) && text.includes(UNSTORABLE_TEXT_MESSAGE) ? text : undefined;
      });
      expect(log).toContain('mqtt diag');
      const diagnostics = (await admin.get(`/api/device/${device.deviceid}/diagnostics`)).body as {
        diagnostics: unknown[];
      };
      expect(diagnostics.diagnostics).toEqual([]);
    });

    it("POST rpc with a lone surrogate in method is a 400 and queues nothing (spec's all-or-nothing)", async () => {
      const path = `/api/device/${device.deviceid}/rpc`;
      const before = (await admin.get(path)).body as { commands: unknown[] };
      expectError(
        await admin.post(path, { method: 'a\ud800b', args: {} }),
        400,
        'BAD_REQUEST',
        `method: ${UNSTORABLE_TEXT_MESSAGE}`,
      );
      expectError(
        await admin.post(path, { method: 'Admin.Reboot', args: { note: ['x\u0000'] } }),
        400,
        'BAD_REQUEST',
        `args.note.0: ${UNSTORABLE_TEXT_MESSAGE}`,
      );
      expect(((await admin.get(path)).body as { commands: unknown[] }).commands).toEqual(before.commands);
      const queued = await admin.post(path, { method: 'Admin.Reboot', args: { note: 'ok' } });
      expect(queued.status, queued.text).toBe(200);
    });

    it('refuses U+0000 in the address: GET /data?dataKeys=%00 and a device id with %00', async () => {
      expectError(
        await admin.get(`/api/device/${device.deviceid}/data?dataKeys=%00`),
        400,
        'BAD_REQUEST',
        `dataKeys: ${UNSTORABLE_TEXT_MESSAGE}`,
      );
      expectError(
        await admin.get(`/api/device/${device.deviceid}%00/settings`),
        400,
        'BAD_REQUEST',
        `id: ${UNSTORABLE_TEXT_MESSAGE}`,
      );
    });

    it("PUT config: settings.device.name is sanitised like the device's other names; trigger colours are CSS colours", async () => {
      const path = `/api/device/${device.deviceid}/config`;
      const res = await admin.put(path, { config: { settings: { device: { name: `<b>"Pump"</b> ~'1'?` } } } });
      expect(res.status, res.text).toBe(200);
      const pending = (res.body as { pending: { settings: { device: { name: string } } } }).pending;
      expect(pending.settings.device.name).toBe('bPump/b 1');
      for (const colour of ['url(javascript:x)', 'red;background:x', '__proto__', '']) {
        expectError(
          await admin.put(path, {
            config: { settings: { script: { triggers: [{ index: 1, name: 'Horn', colour }] } } },
          }),
          400,
          'BAD_REQUEST',
          `config.settings.script.triggers.0.${COLOUR_MESSAGE}`,
        );
      }
      const settings = `/api/device/${device.deviceid}/settings`;
      expectError(
        await admin.put(settings, { PORTAL_displaySettings: { temp: { colour: 'url(javascript:x)' } } }),
        400,
        'BAD_REQUEST',
        `PORTAL_displaySettings.temp.${COLOUR_MESSAGE}`,
      );
      const ok = await admin.put(settings, { PORTAL_displaySettings: { temp: { colour: '#0284C7aa' } } });
      expect(ok.status, ok.text).toBe(200);
    });

    it('answered no request with a 5xx', () => {
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });
  });
}

describeText('pglite');

await describeWhenPostgres('text the database cannot store (postgres)', () => describeText('postgres'));
