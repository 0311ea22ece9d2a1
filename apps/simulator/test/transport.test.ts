/**
 * The device protocol over real transports: MQTT against a real broker (an in-process aedes
 * broker when aedes is installed, else Mosquitto on 127.0.0.1:1883 when reachable, else the
 * MQTT tests are skipped with a message) and HTTP against a small ingest endpoint.
 */
import {
  createServer as createNetServer,
  connect as netConnect,
  type AddressInfo,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceRecordSchema, type DeviceRecord } from '@portal/core';
import { startFleet, type Fleet } from '../src/fleet';
import { randomDeviceId, waitFor } from './helpers';

interface Broker {
  kind: 'aedes' | 'mosquitto';
  url: string;
  /** Whether the broker checks device keys (ours does; an external one may not). */
  checksKeys: boolean;
  stop(): Promise<void>;
}

const keys = new Map<string, string>();
const OBSERVER = { username: 'observer', password: randomBytes(12).toString('hex') };

async function startAedes(): Promise<Broker | null> {
  let mod: { Aedes?: { createBroker(opts: object): Promise<AedesLike> } };
  try {
    const name = 'aedes';
    mod = (await import(/* @vite-ignore */ name)) as typeof mod;
  } catch {
    return null;
  }
  if (!mod.Aedes) return null;
  const broker = await mod.Aedes.createBroker({
    authenticate: (
      _client: unknown,
      username: string | undefined,
      password: Buffer | undefined,
      done: (e: Error | null, ok: boolean) => void,
    ) => {
      const given = password?.toString('utf8');
      const ok =
        username === OBSERVER.username
          ? given === OBSERVER.password
          : username !== undefined && keys.get(username) === given;
      done(null, ok);
    },
  });
  const server: NetServer = createNetServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    kind: 'aedes',
    url: `mqtt://127.0.0.1:${port}`,
    checksKeys: true,
    stop: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface AedesLike {
  handle: (socket: unknown) => void;
  close(cb: () => void): void;
}

async function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function pickBroker(): Promise<Broker | null> {
  // SIM_TEST_BROKER=mosquitto runs these tests against the external broker even with aedes installed
  const aedes = process.env.SIM_TEST_BROKER === 'mosquitto' ? null : await startAedes();
  if (aedes) return aedes;
  if (await reachable('127.0.0.1', 1883)) {
    return { kind: 'mosquitto', url: 'mqtt://127.0.0.1:1883', checksKeys: false, stop: async () => {} };
  }
  return null;
}

const broker = await pickBroker();
if (!broker)
  console.warn('simulator MQTT tests skipped: aedes is not installed and no broker answers on 127.0.0.1:1883');

it.runIf(!broker && process.env.REQUIRE_SERVICES === '1')('has an MQTT broker (REQUIRE_SERVICES=1)', () => {
  expect.fail('No MQTT broker: install aedes or start Mosquitto on 127.0.0.1:1883');
});

describe.skipIf(!broker)(`MQTT device protocol (${broker?.kind ?? 'no broker'})`, () => {
  const idA = randomDeviceId();
  const idB = randomDeviceId();
  const idBad = randomDeviceId();
  const seen = new Map<string, unknown[]>();
  let observer: MqttClient;
  let fleet: Fleet | null = null;

  const on = (topic: string) => seen.get(topic) ?? [];
  const records = (id: string): DeviceRecord[] =>
    on(`dev/${id}/data`).flatMap((m) => (Array.isArray(m) ? m : [m])) as DeviceRecord[];

  beforeAll(async () => {
    keys.set(idA, randomBytes(32).toString('base64url'));
    keys.set(idB, randomBytes(32).toString('base64url'));
    observer = await mqtt.connectAsync(broker!.url, { ...OBSERVER, clientId: `obs-${idA}`, reconnectPeriod: 0 });
    observer.on('message', (topic, payload) => {
      const list = seen.get(topic) ?? [];
      list.push(JSON.parse(payload.toString('utf8')));
      seen.set(topic, list);
    });
    await observer.subscribeAsync([`dev/${idA}/#`, `dev/${idB}/#`, `dev/${idBad}/#`], { qos: 1 });
  });

  afterAll(async () => {
    await fleet?.stop();
    await observer?.endAsync();
    await broker?.stop();
  });

  it('publishes records and diagnostics, applies a config, answers a trigger and acknowledges it', async () => {
    fleet = startFleet({
      devices: [
        { id: idA, key: keys.get(idA) ?? '', model: 'QUAD-X2' },
        { id: idB, key: keys.get(idB) ?? '', model: 'ORB-C1' },
        ...(broker!.checksKeys ? [{ id: idBad, key: 'wrong-key', model: 'ORB-X1' }] : []),
      ],
      transport: 'mqtt',
      mqttUrl: broker!.url,
      staggerMs: 0,
      maxBackoffMs: 500,
    });
    await waitFor(() => records(idA).length >= 1 && records(idB).length >= 1, 'first records');
    await waitFor(() => on(`dev/${idA}/diag`).length >= 1, 'diagnostics');
    expect(on(`dev/${idA}/diag`)[0]).toMatchObject({ model: 'QUAD-X2' });
    for (const r of [...records(idA), ...records(idB)]) expect(DeviceRecordSchema.safeParse(r).success).toBe(true);
    expect(records(idA)[0]?.can1?.length).toBe(records(idA)[0]?.state === 1 ? undefined : 4);

    await observer.publishAsync(
      `dev/${idA}/cmd`,
      JSON.stringify({
        commands: [{ id: 41, method: 'Admin.Trigger', args: { index: 2 } }],
        config: { device: { base_interval: 1 } },
      }),
      { qos: 1 },
    );
    await waitFor(() => on(`dev/${idA}/ack`).some((a) => (a as { id: number }).id === 41), 'the acknowledgement');
    await waitFor(
      () => records(idA).some((r) => r.events?.some((e) => e.msg === 'Trigger 2 activated' && e.topic === 'trigger')),
      'the trigger event',
    );
    // the new cadence: one record a second from now on (the old one was a minute)
    const count = records(idA).length;
    await waitFor(() => records(idA).length >= count + 3, 'records at the new 1 s interval', 15_000);
    for (const r of records(idA)) expect(DeviceRecordSchema.safeParse(r).success).toBe(true);
    expect(records(idB)).toHaveLength(1); // B kept its 60 s interval

    const stats = fleet.stats;
    expect(stats.acks).toBe(1);
    expect(stats.triggers).toBe(1);
    expect(stats.configs).toBe(1);
    if (broker!.checksKeys) {
      // a wrong key is refused by the broker; the device keeps retrying with backoff
      await waitFor(
        () => (fleet?.devices.find((d) => d.id === idBad)?.stats.errors ?? 0) >= 2,
        'refusals of the wrong key',
      );
      expect(records(idBad)).toHaveLength(0);
      expect(stats.online).toBe(2);
    }
    await fleet.stop();
    fleet = null;
  });

  it('a publish in flight when the connection drops (a portal killed) fails, and the device reconnects and sends again', async () => {
    // A relay between the device and the broker that can swallow the broker's answers and cut the line.
    const target = new URL(broker!.url);
    let swallow = false;
    const sockets = new Set<Socket>();
    const relay = createNetServer((inbound) => {
      const outbound = netConnect({ host: target.hostname, port: Number(target.port) });
      for (const [from, to] of [
        [inbound, outbound],
        [outbound, inbound],
      ] as const) {
        sockets.add(from);
        from.on('data', (chunk: Buffer) => {
          if (from === inbound || !swallow) to.write(chunk);
        });
        from.on('close', () => to.destroy());
        from.on('error', () => to.destroy());
      }
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const id = randomDeviceId();
    keys.set(id, randomBytes(32).toString('base64url'));
    await observer.subscribeAsync(`dev/${id}/#`, { qos: 1 });
    const relayed = startFleet({
      devices: [{ id, key: keys.get(id)!, model: 'ORB-C1' }],
      transport: 'mqtt',
      mqttUrl: `mqtt://127.0.0.1:${(relay.address() as AddressInfo).port}`,
      baseInterval: 1,
      staggerMs: 0,
      maxBackoffMs: 500,
    });
    try {
      const [device] = relayed.devices;
      await waitFor(() => device!.stats.records >= 1, 'the first record acknowledged');
      // A record reaches the broker, but its PUBACK never reaches the device; then the line drops.
      swallow = true;
      await waitFor(() => records(id).length > device!.stats.records, 'a record in flight');
      const taken = records(id).length;
      for (const socket of sockets) socket.destroy();
      swallow = false;
      await waitFor(() => device!.stats.records >= taken, 'the record in flight acknowledged after a reconnection');
      expect(device!.stats.reconnects).toBeGreaterThanOrEqual(1);
    } finally {
      // Bounded: a device stuck on its publish (the failure this shows) would never stop.
      await Promise.race([relayed.stop(), new Promise((resolve) => setTimeout(resolve, 5_000))]);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    }
  });
});

describe('HTTP device protocol', () => {
  let server: HttpServer;
  let url = '';
  const id = randomDeviceId();
  const key = randomBytes(32).toString('base64url');
  const received: { auth: string | undefined; body: unknown }[] = [];
  const acks: { auth: string | undefined; body: unknown }[] = [];
  const fileBytes = randomBytes(3000);
  const filePath = `/api/ingest/${id}/file/9`;
  let replies: unknown[] = [];

  beforeAll(async () => {
    server = createHttpServer((req, res) => {
      let data = '';
      req.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
      req.on('end', () => {
        if (req.method === 'GET' && req.url === filePath && req.headers.authorization === `Device ${key}`) {
          res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(fileBytes);
          return;
        }
        if (req.method === 'POST' && req.url === `/api/ingest/${id}/ack`) {
          acks.push({ auth: req.headers.authorization, body: JSON.parse(data) });
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ commands: [], config: null, script: null }));
          return;
        }
        if (req.method !== 'POST' || req.url !== `/api/ingest/${id}`) {
          res.writeHead(404).end();
          return;
        }
        received.push({ auth: req.headers.authorization, body: JSON.parse(data) });
        if (req.headers.authorization !== `Device ${key}`) {
          res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Unauthorized"}');
          return;
        }
        const reply = replies.shift() ?? { commands: [] };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('posts records with the device key, acts on the commands of the response and acknowledges them', async () => {
    const sha256 = createHash('sha256').update(fileBytes).digest('hex');
    replies = [
      {
        commands: [
          { id: 7, method: 'Admin.Trigger', args: { index: 3 } },
          {
            id: 8,
            method: 'Admin.File',
            args: { fileName: 'table.bin', size: fileBytes.length, sha256, fileId: 9, path: filePath },
          },
        ],
        config: { settings: { device: { base_interval: 1 } } },
        configVersion: 4,
      },
    ];
    const fleet = startFleet({
      devices: [{ id, key, model: 'ORB-X1' }],
      transport: 'http',
      httpUrl: url,
      staggerMs: 0,
    });
    try {
      await waitFor(() => received.length >= 4, 'four posts');
      expect(received.every((r) => r.auth === `Device ${key}`)).toBe(true);
      const bodies = received.flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body])) as DeviceRecord[];
      for (const b of bodies) expect(DeviceRecordSchema.safeParse(b).success).toBe(true);
      expect(bodies[1]?.events?.some((e) => e.msg === 'Trigger 3 activated')).toBe(true);
      expect(fleet.devices[0]?.baseIntervalS).toBe(1);
      expect(fleet.stats.commands).toBe(2);
      await waitFor(() => acks.length >= 3, 'three acknowledgements');
      expect(acks.every((a) => a.auth === `Device ${key}`)).toBe(true);
      expect(acks.map((a) => a.body)).toEqual(expect.arrayContaining([{ config: 4 }, { id: 7 }, { id: 8 }]));
      expect(fleet.devices[0]?.files.get('table.bin')?.equals(fileBytes)).toBe(true);
      expect(fleet.stats.files).toBe(1);
      expect(fleet.stats.errors).toBe(0);
    } finally {
      await fleet.stop();
    }
  });

  it('counts a refused key as an error and retries', async () => {
    const before = received.length;
    const fleet = startFleet({
      devices: [{ id, key: 'not-the-key', model: 'ORB-C1' }],
      transport: 'http',
      httpUrl: url,
      staggerMs: 0,
      maxBackoffMs: 200,
    });
    try {
      await waitFor(() => received.length >= before + 3, 'retries');
      expect(fleet.stats.errors).toBeGreaterThanOrEqual(2);
      expect(fleet.stats.lastError).toContain('401');
      expect(fleet.stats.queued).toBe(1);
    } finally {
      await fleet.stop();
    }
  });
});
