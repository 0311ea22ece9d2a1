/**
 * The device protocol's delivery and acknowledgement over real HTTP and a real MQTT connection
 * (the embedded broker), on PGlite and on PostgreSQL when reachable:
 * - HTTP devices acknowledge with POST /api/ingest/{id}/ack like MQTT devices on dev/{id}/ack;
 *   commands are 'sent' until acknowledged and sent again after the resend interval;
 * - the pending config and the script are sent with a version and applied only when the device
 *   acknowledges that version; a change made while a version is in flight is not lost;
 * - files are fetched by the device from GET /api/ingest/{id}/file/{fileId}, its own files only;
 * - a simulated device (HTTP and MQTT) downloads, applies, reports firmware and acknowledges;
 * - commands not acknowledged within COMMAND_EXPIRY_S expire (sweep and read) and are never sent;
 * - bad acknowledgements and downloads are refused and change nothing.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_EXPIRY_S, MAX_ACK_IDS } from '@portal/core';
import { HttpLink, MqttLink, SimDevice, type DeviceLink } from '@portal/simulator';
import { type ApiClient, type DbKind, type TestPortal, findPostgres, signedIn, startTestPortal } from '../helpers';
import { type RoleFixture, deviceWithRoles, expectError, provision } from '../device-helpers';
import { connectDevice, inbox, until } from '../ingest-helpers';

type Command = {
  commandID: number;
  method: string;
  args: Record<string, unknown>;
  state: string;
  sentAt: string | null;
  ackedAt: string | null;
};
type ConfigBody = {
  config: { settings: Record<string, Record<string, unknown>> };
  pending: { settings: Record<string, Record<string, unknown>> } | null;
  pendingVersion: number | null;
  pendingSentAt: string | null;
};
type CommandMessage = {
  commands: { id: number; method: string; args?: Record<string, unknown> }[];
  config?: Record<string, unknown>;
  configVersion?: number;
  script?: string;
  scriptVersion?: number;
};

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

function describeProtocol(kind: DbKind): void {
  describe(`device protocol (${kind})`, () => {
    let tp: TestPortal;
    let brokerUrl: string;
    const nowS = () => tp.clock.now().getTime() / 1000;
    const device = (path: string, key: string, options: { body?: unknown; rawBody?: string } = {}) =>
      tp.client().request(path.endsWith('/ack') || /\/ingest\/[^/]+$/.test(path) ? 'POST' : 'GET', path, {
        ...options,
        headers: { authorization: `Device ${key}` },
        csrf: false,
      });
    const ingest = (fx: RoleFixture, body: unknown) =>
      device(`/api/ingest/${fx.device.deviceid}`, fx.device.deviceKey, { body });
    const ack = (fx: RoleFixture, body: unknown, key = fx.device.deviceKey) =>
      device(`/api/ingest/${fx.device.deviceid}/ack`, key, { body });
    const commands = async (fx: RoleFixture, client: ApiClient = fx.users.VIEW.client) => {
      const res = await client.get(`/api/device/${fx.device.deviceid}/rpc`);
      expect(res.status, res.text).toBe(200);
      return (res.body as { commands: Command[] }).commands;
    };
    const stateOf = async (fx: RoleFixture, id: number) => (await commands(fx)).find((c) => c.commandID === id)?.state;
    const serverLog = async (fx: RoleFixture, client: ApiClient = fx.users.ADMIN.client) =>
      (
        (await client.get(`/api/device/${fx.device.deviceid}/serverlog`)).body as {
          entries: { kind: string; message: string }[];
        }
      ).entries.map((e) => e.message);
    const getConfig = async (fx: RoleFixture) =>
      (await fx.users.ADMIN.client.get(`/api/device/${fx.device.deviceid}/config`)).body as ConfigBody;
    const queue = async (fx: RoleFixture, method: string, args?: unknown) => {
      const res = await fx.users.ADMIN.client.post(`/api/device/${fx.device.deviceid}/rpc`, {
        method,
        ...(args === undefined ? {} : { args }),
      });
      expect(res.status, res.text).toBe(200);
      return (res.body as { commandID: number }).commandID;
    };
    const putConfig = async (fx: RoleFixture, settings: Record<string, unknown>) => {
      const res = await fx.users.ADMIN.client.put(`/api/device/${fx.device.deviceid}/config`, {
        config: { settings },
      });
      expect(res.status, res.text).toBe(200);
      return res.body as ConfigBody;
    };

    beforeAll(async () => {
      tp = await startTestPortal({ db: kind, seed: false });
      brokerUrl = `mqtt://127.0.0.1:${tp.portal.mqttPort}`;
    });
    afterAll(async () => {
      await tp?.close();
    });
    afterEach(() => {
      // No call of this suite may end in a server error.
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });

    it('HTTP: commands in the ingest answer become sent, delivered on POST /ack, and are sent again while unacknowledged', async () => {
      const fx = await deviceWithRoles(tp);
      const id = fx.device.deviceid;
      const first = await queue(fx, 'Admin.Trigger', { index: 2 });
      const second = await queue(fx, 'Admin.Reboot');
      // They are this device's alone: another device's contact carries none of them.
      const other = await provision(tp);
      const otherContact = await device(`/api/ingest/${other.deviceid}`, other.deviceKey, {
        body: { ts: nowS(), x: 0 },
      });
      expect(otherContact.status, otherContact.text).toBe(200);
      expect(otherContact.body).toEqual({ commands: [] });
      const res = await ingest(fx, { ts: nowS(), x: 1 });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        commands: [
          { id: first, method: 'Admin.Trigger', args: { index: 2 } },
          { id: second, method: 'Admin.Reboot' },
        ],
      });
      expect(await stateOf(fx, first)).toBe('sent');
      expect(await stateOf(fx, second)).toBe('sent');
      // Not sent again before the resend interval.
      expect((await ingest(fx, { ts: nowS() + 1, x: 2 })).body).toEqual({ commands: [] });

      const acked = await ack(fx, { id: first });
      expect(acked.status, acked.text).toBe(200);
      expect(acked.body).toEqual({ commands: [first], config: null, script: null });
      const listed = await commands(fx);
      expect(listed.find((c) => c.commandID === first)).toMatchObject({
        state: 'delivered',
        ackedAt: expect.any(String),
      });
      expect(listed.find((c) => c.commandID === second)?.state).toBe('sent');
      // Acknowledging again is accepted and changes nothing.
      expect((await ack(fx, { ids: [first] })).status).toBe(200);

      // The unacknowledged one goes out again once the resend interval has passed.
      tp.clock.advance(tp.portal.app.services.delivery.options.resendAfterMs + 1000);
      expect((await ingest(fx, { ts: nowS(), x: 3 })).body).toEqual({
        commands: [{ id: second, method: 'Admin.Reboot' }],
      });
      expect((await ack(fx, { ids: [second] })).body).toEqual({ commands: [second], config: null, script: null });
      expect(await stateOf(fx, second)).toBe('delivered');
      tp.clock.advance(tp.portal.app.services.delivery.options.resendAfterMs + 1000);
      expect((await ingest(fx, { ts: nowS(), x: 4 })).body).toEqual({ commands: [] });

      const log = await serverLog(fx);
      expect(log).toContain(`Command ${first} Admin.Trigger sent (http)`);
      expect(log).toContain(`Command ${second} Admin.Reboot sent again, not yet acknowledged (http)`);
      expect(log).toContain(`Command ${first} Admin.Trigger delivered (acknowledged)`);
      expect(log.filter((m) => m === `Command ${second} Admin.Reboot delivered (acknowledged)`)).toHaveLength(1);
      const rpc = (await fx.users.VIEW.client.get(`/api/device/${id}/rpc`)).body as { deviceid: string };
      expect(rpc.deviceid).toBe(fx.device.deviceid);
    });

    it('MQTT: config and script go out with versions and apply on {config}/{script} acks; a change made while one is in flight is not lost', async () => {
      const fx = await deviceWithRoles(tp);
      const id = fx.device.deviceid;
      const client = await connectDevice(brokerUrl, id, fx.device.deviceKey);
      try {
        const box = inbox(client);
        await client.subscribeAsync(`dev/${id}/cmd`, { qos: 1 });
        const next = async () => (await box.next(`dev/${id}/cmd`)) as CommandMessage;

        // An online device gets the change at once.
        await putConfig(fx, { device: { base_interval: 120 } });
        const v1 = await next();
        expect(v1).toEqual({
          commands: [],
          config: { settings: { device: { base_interval: 120 } } },
          configVersion: 1,
        });
        const sent = await getConfig(fx);
        expect(sent.pendingVersion).toBe(1);
        expect(sent.pendingSentAt).not.toBeNull();
        expect(sent.config.settings.device!.base_interval).toBe(60);

        // A second change while version 1 is in flight: merged, version 2, sent too.
        await putConfig(fx, { gps: { enabled: false } });
        const v2 = await next();
        expect(v2).toEqual({
          commands: [],
          config: { settings: { device: { base_interval: 120 }, gps: { enabled: false } } },
          configVersion: 2,
        });
        // The device acknowledges version 1 late: nothing is lost, version 2 stays pending.
        await client.publishAsync(`dev/${id}/ack`, JSON.stringify({ config: 1 }), { qos: 1 });
        const between = await getConfig(fx);
        expect(between.pending).toEqual({ settings: { device: { base_interval: 120 }, gps: { enabled: false } } });
        expect(between.pendingVersion).toBe(2);
        expect(between.config.settings.device!.base_interval).toBe(60);
        await client.publishAsync(`dev/${id}/ack`, JSON.stringify({ config: 2 }), { qos: 1 });
        const applied = await getConfig(fx);
        expect(applied.pending).toBeNull();
        expect(applied.pendingVersion).toBeNull();
        expect(applied.config.settings.device!.base_interval).toBe(120);
        expect(applied.config.settings.gps!.enabled).toBe(false);

        // The script: sent with its version, pending until acknowledged.
        const script = b64('print("hi")\n');
        expect((await fx.users.ADMIN.client.put(`/api/device/${id}/script`, { scriptFileBase64: script })).status).toBe(
          200,
        );
        expect(await next()).toEqual({ commands: [], script, scriptVersion: 1 });
        const pendingScript = (await fx.users.ADMIN.client.get(`/api/device/${id}/script`)).body;
        expect(pendingScript).toMatchObject({ data: script, pending: true });
        await client.publishAsync(`dev/${id}/ack`, JSON.stringify({ script: 1 }), { qos: 1 });
        expect((await fx.users.ADMIN.client.get(`/api/device/${id}/script`)).body).toMatchObject({
          data: script,
          pending: false,
        });

        // Commands and versions in one acknowledgement.
        const trigger = await queue(fx, 'Admin.Trigger', { index: 1 });
        expect((await next()).commands.map((c) => c.id)).toEqual([trigger]);
        await putConfig(fx, { device: { sq_interval: 30 } });
        expect((await next()).configVersion).toBe(3);
        await client.publishAsync(`dev/${id}/ack`, JSON.stringify({ ids: [trigger], config: 3 }), { qos: 1 });
        expect(await stateOf(fx, trigger)).toBe('delivered');
        expect((await getConfig(fx)).pending).toBeNull();

        const log = await serverLog(fx);
        for (const line of [
          'config version 1 sent (mqtt)',
          'config version 2 sent (mqtt)',
          'config applied (version 2)',
          'config applied (version 3)',
          'script version 1 sent (mqtt)',
          'script applied (version 1)',
          `Command ${trigger} Admin.Trigger delivered (acknowledged)`,
        ])
          expect(log).toContain(line);
        expect(log).not.toContain('config applied (version 1)');
        expect(log.some((m) => m.includes('refused'))).toBe(false);
      } finally {
        await client.endAsync();
      }
    });

    it('MQTT: work another portal instance queued (a command, a config) reaches the device at its next publish; a device with nothing open gets nothing', async () => {
      const fx = await deviceWithRoles(tp);
      const quiet = await deviceWithRoles(tp);
      const id = fx.device.deviceid;
      const client = await connectDevice(brokerUrl, id, fx.device.deviceKey);
      const other = await connectDevice(brokerUrl, quiet.device.deviceid, quiet.device.deviceKey);
      try {
        const box = inbox(client);
        const quietBox = inbox(other);
        await client.subscribeAsync(`dev/${id}/cmd`, { qos: 1 });
        await other.subscribeAsync(`dev/${quiet.device.deviceid}/cmd`, { qos: 1 });
        // Written straight into the database, as another instance would: this process was not told.
        const [row] = await tp.portal.db.query<{ id: number }>(
          `INSERT INTO commands (device_id, method, args, state, created_at) VALUES ($1, 'Admin.Trigger', '{"index":1}', 'queued', $2) RETURNING id`,
          [id, tp.clock.now()],
        );
        await tp.portal.db.query(
          `UPDATE devices SET pending_config = config, config_version = config_version + 1 WHERE id = $1`,
          [id],
        );
        const ts = nowS();
        await client.publishAsync(`dev/${id}/data`, JSON.stringify({ ts, v: 1 }), { qos: 1 });
        await other.publishAsync(`dev/${quiet.device.deviceid}/data`, JSON.stringify({ ts, v: 1 }), { qos: 1 });
        const message = (await box.next(`dev/${id}/cmd`)) as CommandMessage;
        expect(message.commands.map((c) => c.id)).toEqual([row!.id]);
        expect(message.configVersion).toEqual(expect.any(Number));
        expect(await stateOf(fx, row!.id)).toBe('sent');
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(quietBox.messages).toEqual([]);
      } finally {
        await client.endAsync();
        await other.endAsync();
      }
    });

    it('HTTP: a change merged while a version is in flight stays pending after that version is acknowledged, and goes out next', async () => {
      const fx = await deviceWithRoles(tp);
      await putConfig(fx, { device: { base_interval: 300 } });
      expect((await ingest(fx, { ts: nowS(), x: 1 })).body).toEqual({
        commands: [],
        config: { settings: { device: { base_interval: 300 } } },
        configVersion: 1,
      });
      await putConfig(fx, { device: { transmit_interval: 5 } });
      const inFlight = await getConfig(fx);
      expect(inFlight.pendingVersion).toBe(2);
      expect(inFlight.pendingSentAt).toBeNull(); // version 2 is not sent yet
      expect((await ack(fx, { config: 1 })).status).toBe(200);
      const afterOne = await getConfig(fx);
      expect(afterOne.config.settings.device).toMatchObject({ base_interval: 300, transmit_interval: 1 });
      expect(afterOne.pending).toEqual({ settings: { device: { base_interval: 300, transmit_interval: 5 } } });
      expect(afterOne.pendingVersion).toBe(2);
      expect((await ingest(fx, { ts: nowS() + 1, x: 2 })).body).toEqual({
        commands: [],
        config: { settings: { device: { base_interval: 300, transmit_interval: 5 } } },
        configVersion: 2,
      });
      expect((await ack(fx, { config: 2 })).status).toBe(200);
      const done = await getConfig(fx);
      expect(done.pending).toBeNull();
      expect(done.config.settings.device).toMatchObject({ base_interval: 300, transmit_interval: 5 });
      const log = await serverLog(fx);
      expect(log).toContain('config applied (version 1)');
      expect(log).toContain('config applied (version 2)');
    });

    it('files: the command names the download path; a device fetches only its own files with its own key', async () => {
      const fx = await deviceWithRoles(tp);
      const other = await deviceWithRoles(tp);
      const id = fx.device.deviceid;
      const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const put = await fx.users.ADMIN.client.put(`/api/device/${id}/file`, {
        fileName: 'table.bin',
        fileDataBase64: bytes.toString('base64'),
      });
      expect(put.status, put.text).toBe(200);
      const command = put.body as Command;
      const fileId = command.args.fileId as number;
      const path = `/api/ingest/${id}/file/${fileId}`;
      expect(command.args).toEqual({ fileName: 'table.bin', size: bytes.length, sha256, fileId, path });

      const answer = (await ingest(fx, { ts: nowS(), x: 1 })).body as CommandMessage;
      expect(answer.commands).toEqual([{ id: command.commandID, method: 'Admin.File', args: command.args }]);
      // The command message stays small: the bytes come from the download route.
      expect(JSON.stringify(answer).length).toBeLessThan(400);

      const res = await fetch(tp.base + path, { headers: { authorization: `Device ${fx.device.deviceKey}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      const got = Buffer.from(await res.arrayBuffer());
      expect(got.equals(bytes)).toBe(true);
      expect(createHash('sha256').update(got).digest('hex')).toBe(sha256);

      // Another device (with its own valid key) cannot fetch it, under its own id or this one.
      expectError(
        await device(`/api/ingest/${other.device.deviceid}/file/${fileId}`, other.device.deviceKey),
        404,
        'NOT_FOUND',
        'File not found',
      );
      expectError(await device(path, other.device.deviceKey), 401, 'INVALID_CREDENTIALS');
      expectError(await device(path, 'wrong-key'), 401, 'INVALID_CREDENTIALS');
      expectError(await tp.client().get(path), 401, 'INVALID_CREDENTIALS');
      expectError(await device(`/api/ingest/${id}/file/${fileId + 100_000}`, fx.device.deviceKey), 404, 'NOT_FOUND');
      expectError(await device(`/api/ingest/${id}/file/abc`, fx.device.deviceKey), 400, 'BAD_REQUEST');
      expectError(await device(`/api/ingest/${id}/file/-1`, fx.device.deviceKey), 400, 'BAD_REQUEST');
      // A user session is no device credential.
      expectError(await fx.users.ADMIN.client.get(path), 401, 'INVALID_CREDENTIALS');

      expect((await ack(fx, { id: command.commandID })).status).toBe(200);
      expect(await stateOf(fx, command.commandID)).toBe('delivered');
    });

    for (const transport of ['http', 'mqtt'] as const) {
      it(`a simulated device over ${transport} fetches files, applies config and script, reports its new firmware and acknowledges all`, async () => {
        const fx = await deviceWithRoles(tp);
        const id = fx.device.deviceid;
        const creds = { id, key: fx.device.deviceKey };
        const link: DeviceLink =
          transport === 'http' ? new HttpLink(tp.base, creds) : new MqttLink(brokerUrl, creds, { httpUrl: tp.base });
        const sim = new SimDevice({
          id,
          key: fx.device.deviceKey,
          model: 'ORB-C1',
          link,
          config: { base_interval: 1 },
          diagEvery: 1,
        });
        sim.start();
        try {
          await until(async () => Object.keys(await tp.portal.app.services.telemetry.latest(id)).length > 0);
          const bytes = Buffer.from(`lookup table for ${id}\n`.repeat(200));
          const file = (
            await fx.users.ADMIN.client.put(`/api/device/${id}/file`, {
              fileName: 'lookup.bin',
              fileDataBase64: bytes.toString('base64'),
            })
          ).body as Command;
          const firmware = (
            await fx.users.ADMIN.client.post(`/api/device/${id}/firmware`, { firmwareName: 'SFW100-2.5.0' })
          ).body as Command;
          await putConfig(fx, { device: { base_interval: 2 } });
          const script = b64('-- device script\n');
          expect(
            (await fx.users.ADMIN.client.put(`/api/device/${id}/script`, { scriptFileBase64: script })).status,
          ).toBe(200);

          await until(async () => {
            const list = await commands(fx);
            return [file.commandID, firmware.commandID].every(
              (c) => list.find((x) => x.commandID === c)?.state === 'delivered',
            );
          });
          expect(sim.files.get('lookup.bin')?.equals(bytes)).toBe(true);
          expect(sim.firmware).toBe('SFW100-2.5.0');
          await until(async () => (await getConfig(fx)).pending === null);
          expect((await getConfig(fx)).config.settings.device!.base_interval).toBe(2);
          expect(sim.baseIntervalS).toBe(2);
          await until(
            async () =>
              ((await fx.users.ADMIN.client.get(`/api/device/${id}/script`)).body as { pending: boolean }).pending ===
              false,
          );
          expect(sim.script).toBe(script);
          if (transport === 'mqtt') {
            // The new firmware string arrives in the device's next diagnostics message.
            await until(async () => {
              const diag = (await fx.users.ADMIN.client.get(`/api/device/${id}/diagnostics`)).body as {
                diagnostics: { data: { fw?: string } }[];
              };
              return diag.diagnostics[0]?.data.fw === 'SFW100-2.5.0';
            });
            // ... and becomes the device's firmware: its record, its config, its server log.
            await until(async () => (await getConfig(fx)).config.settings.device!.fw === 'SFW100-2.5.0');
            expect((await tp.portal.app.services.devices.getDevice(id))?.fw).toBe('SFW100-2.5.0');
            expect(
              (await serverLog(fx)).some((m) =>
                /^firmware now SFW100-2\.5\.0 \(was SFW\d{3}-[\d.]+\), as the device reports$/.test(m),
              ),
            ).toBe(true);
          }
          expect(sim.stats.errors).toBe(0);
          const log = await serverLog(fx);
          expect(log).toContain(`Command ${file.commandID} Admin.File delivered (acknowledged)`);
          expect(log).toContain(`Command ${firmware.commandID} Admin.Firmware delivered (acknowledged)`);
          expect(log.some((m) => /^config applied \(version \d+\)$/.test(m))).toBe(true);
          expect(log.some((m) => /^script applied \(version \d+\)$/.test(m))).toBe(true);
          expect(log.some((m) => m.includes('refused'))).toBe(false);
        } finally {
          await sim.stop();
        }
      });
    }

    it("refuses bad acknowledgements (another device's command, unknown ids, malformed bodies, versions never sent, wrong keys) and changes nothing", async () => {
      const fx = await deviceWithRoles(tp);
      const other = await deviceWithRoles(tp);
      const mine = await queue(fx, 'Admin.Reboot');
      const theirs = await queue(other, 'Admin.Reboot');
      await ingest(fx, { ts: nowS(), x: 1 });
      await ingest(other, { ts: nowS(), x: 1 });
      await putConfig(fx, { device: { base_interval: 90 } });
      expect((await ingest(fx, { ts: nowS() + 1, x: 2 })).body).toMatchObject({ configVersion: 1 });
      const cancelled = await queue(fx, 'Admin.Cancelled');
      const del = await fx.users.ADMIN.client.request('DELETE', `/api/device/${fx.device.deviceid}/rpc`, {
        body: { commandID: cancelled },
      });
      expect(del.status, del.text).toBe(200);
      const before = { mine: await commands(fx), theirs: await commands(other), config: await getConfig(fx) };
      const unchanged = async () => {
        expect(await commands(fx)).toEqual(before.mine);
        expect(await commands(other)).toEqual(before.theirs);
        expect(await getConfig(fx)).toEqual(before.config);
      };

      // Another device's command, and unknown ids: 404, as for an id that does not exist.
      expectError(await ack(fx, { id: theirs }), 404, 'NOT_FOUND', `Command ${theirs} not found`);
      expectError(await ack(fx, { ids: [mine, theirs] }), 404, 'NOT_FOUND', `Command ${theirs} not found`);
      expectError(await ack(fx, { id: 2_000_000_000 }), 404, 'NOT_FOUND');
      // A cancelled command, a config version never sent, a script never sent: 409.
      expectError(await ack(fx, { id: mine, ids: [cancelled] }), 409, 'CONFLICT', /cancelled/);
      expectError(
        await ack(fx, { id: mine, config: 2 }),
        409,
        'CONFLICT',
        'Config version 2 was not sent to this device',
      );
      expectError(
        await ack(fx, { config: 1, script: 1 }),
        409,
        'CONFLICT',
        'Script version 1 was not sent to this device',
      );
      // Malformed bodies: 400.
      const malformed: unknown[] = [
        {},
        { id: 'x' },
        { id: 1.5 },
        { id: -3 },
        { id: mine, extra: true },
        { ids: 'all' },
        { ids: Array.from({ length: MAX_ACK_IDS + 1 }, (_, i) => i + 1) },
        { config: 0 },
        { config: 'latest' },
        [{ id: mine }],
        mine,
        null,
        'ok',
      ];
      for (const body of malformed) expectError(await ack(fx, body), 400, 'BAD_REQUEST', /acknowledgement|JSON/);
      expectError(
        await device(`/api/ingest/${fx.device.deviceid}/ack`, fx.device.deviceKey, { rawBody: '{"id": 1,' }),
        400,
        'BAD_REQUEST',
        'The body is not valid JSON',
      );
      expectError(
        await device(`/api/ingest/${fx.device.deviceid}/ack`, fx.device.deviceKey, {
          rawBody: JSON.stringify({ ids: Array.from({ length: 4000 }, (_, i) => i + 1) }),
        }),
        413,
        'PAYLOAD_TOO_LARGE',
      );
      // Wrong or missing keys, another device's key, an unknown device: 401, the same answer.
      for (const res of [
        await ack(fx, { id: mine }, 'wrong-key'),
        await ack(fx, { id: mine }, other.device.deviceKey),
        await device('/api/ingest/ZZZZZZZZZ/ack', fx.device.deviceKey, { body: { id: mine } }),
        await tp.client().request('POST', `/api/ingest/${fx.device.deviceid}/ack`, { body: { id: mine }, csrf: false }),
      ])
        expectError(res, 401, 'INVALID_CREDENTIALS', 'Invalid device credentials');
      await unchanged();

      // Over MQTT: refused and logged, nothing changed, and the connection keeps working.
      const client = await connectDevice(brokerUrl, fx.device.deviceid, fx.device.deviceKey);
      try {
        const topic = `dev/${fx.device.deviceid}/ack`;
        for (const payload of ['{"id":', JSON.stringify({ id: theirs }), JSON.stringify({ config: 7 }), '[]'])
          await client.publishAsync(topic, payload, { qos: 1 });
        await unchanged();
        await client.publishAsync(topic, JSON.stringify({ id: mine }), { qos: 1 });
        expect(await stateOf(fx, mine)).toBe('delivered');
      } finally {
        await client.endAsync();
      }
      expect(await stateOf(other, theirs)).toBe('sent');
      const log = await serverLog(fx);
      expect(log).toContain(`http ack refused: Command ${theirs} not found`);
      expect(log).toContain('http ack refused: Config version 2 was not sent to this device');
      expect(log).toContain('http ack refused: The body is not valid JSON');
      expect(log).toContain(`mqtt ack refused: Command ${theirs} not found`);
      expect(log).toContain('mqtt ack refused: Config version 7 was not sent to this device');
      expect(log.some((m) => m.startsWith('mqtt ack refused: Malformed acknowledgement'))).toBe(true);
      expect(await serverLog(other)).not.toContain(`Command ${theirs} Admin.Reboot delivered (acknowledged)`);
    });

    describe('expiry', () => {
      afterAll(() => tp.clock.reset());

      it('a command not acknowledged within COMMAND_EXPIRY_S expires (periodic sweep, and when read) and is never sent again', async () => {
        expect(COMMAND_EXPIRY_S).toBe(7 * 86_400);
        const fx = await deviceWithRoles(tp);
        const id = fx.device.deviceid;
        const sentOne = await queue(fx, 'Admin.Reboot');
        expect((await ingest(fx, { ts: nowS(), x: 1 })).body).toMatchObject({ commands: [{ id: sentOne }] });
        const queuedOne = await queue(fx, 'Admin.Trigger', { index: 3 });
        const acked = await queue(fx, 'Admin.Acked');
        expect((await ingest(fx, { ts: nowS() + 1, x: 1 })).body).toMatchObject({
          commands: [{ id: queuedOne }, { id: acked }],
        });
        expect((await ack(fx, { id: acked })).status).toBe(200);
        const queuedTwo = await queue(fx, 'Admin.Trigger', { index: 5 });
        tp.clock.advance(COMMAND_EXPIRY_S * 1000 - 60_000);
        const fresh = await queue(fx, 'Admin.Trigger', { index: 4 });
        tp.clock.advance(120_000);
        // Sessions last 7 days too: sign in again.
        const admin = { ...fx.users.ADMIN, client: await signedIn(tp, fx.users.ADMIN) };
        const view = await signedIn(tp, fx.users.VIEW);
        const fx2: RoleFixture = {
          ...fx,
          users: { ...fx.users, ADMIN: admin, VIEW: { ...fx.users.VIEW, client: view } },
        };

        // The periodic job (retention) sweeps every device.
        const results = await tp.portal.app.services.telemetry.runRetention(tp.clock.now());
        expect(Array.isArray(results)).toBe(true);
        const log = await serverLog(fx2);
        expect(log).toContain(`Command ${sentOne} Admin.Reboot: command expired (not acknowledged within 7 days)`);
        expect(log).toContain(`Command ${queuedOne} Admin.Trigger: command expired (not acknowledged within 7 days)`);
        expect(log).toContain(`Command ${queuedTwo} Admin.Trigger: command expired (not acknowledged within 7 days)`);
        const listed = await commands(fx2);
        expect(listed.find((c) => c.commandID === sentOne)?.state).toBe('expired');
        expect(listed.find((c) => c.commandID === queuedOne)?.state).toBe('expired');
        expect(listed.find((c) => c.commandID === queuedTwo)?.state).toBe('expired');
        expect(listed.find((c) => c.commandID === acked)?.state).toBe('delivered');
        expect(listed.find((c) => c.commandID === fresh)?.state).toBe('queued');

        // Never delivered again, and an acknowledgement of it is refused.
        expect((await ingest(fx2, { ts: nowS(), x: 2 })).body).toEqual({
          commands: [{ id: fresh, method: 'Admin.Trigger', args: { index: 4 } }],
        });
        expectError(await ack(fx2, { id: sentOne }), 409, 'CONFLICT', /expired/);
        expect(await stateOf(fx2, sentOne)).toBe('expired');

        // When read: a command past the limit reads as expired even before the sweep runs.
        tp.clock.advance(COMMAND_EXPIRY_S * 1000);
        const again = await signedIn(tp, fx.users.VIEW);
        const rpc = (await again.get(`/api/device/${id}/rpc`)).body as { commands: Command[] };
        expect(rpc.commands.find((c) => c.commandID === fresh)?.state).toBe('expired');
        expect(
          (await serverLog(fx2, await signedIn(tp, fx.users.ADMIN))).filter((m) => m.includes('command expired')),
        ).toHaveLength(4);
        // An acknowledged command never expires.
        expect(rpc.commands.filter((c) => c.state === 'expired')).toHaveLength(4);
        expect(rpc.commands.find((c) => c.commandID === acked)?.state).toBe('delivered');
      });

      it('a queued command past the limit is expired at delivery rather than sent', async () => {
        tp.clock.reset(); // back to now: the provisioning staff's session is valid again
        const fx = await deviceWithRoles(tp);
        const old = await queue(fx, 'Admin.Reboot');
        tp.clock.advance(COMMAND_EXPIRY_S * 1000 + 1000);
        expect((await ingest(fx, { ts: nowS(), x: 1 })).body).toEqual({ commands: [] });
        const admin = await signedIn(tp, fx.users.ADMIN);
        expect((await serverLog(fx, admin)).join('\n')).toContain(`Command ${old} Admin.Reboot: command expired`);
        const rpc = (await admin.get(`/api/device/${fx.device.deviceid}/rpc`)).body as { commands: Command[] };
        expect(rpc.commands.find((c) => c.commandID === old)?.state).toBe('expired');
      });
    });
  });
}

describeProtocol('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeProtocol('postgres');
