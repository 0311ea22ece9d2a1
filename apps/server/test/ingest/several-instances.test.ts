/**
 * Issue 17's acceptance: two portal processes on one PostgreSQL database behind a private
 * Mosquitto (an ephemeral port, a generated configuration, anonymous clients refused, devices
 * authenticated by the dynamic security plugin that the portal keeps). Each instance has its
 * INSTANCE_ID, so its subscriber sessions are persistent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { findPostgres } from '../helpers';
import { privateBrokerAvailable, startPrivateBroker, type PrivateBroker } from '../private-broker';
import { until } from '../ingest-helpers';
import {
  createDatabase,
  DEMO,
  killInstance,
  provisionDevice,
  signIn,
  STAFF,
  startInstance as startPortalInstance,
  type Instance,
  type TempDatabase,
} from '../instances';

const usable = privateBrokerAvailable() && (await findPostgres()) !== null;
if (!usable && process.env.REQUIRE_SERVICES === '1')
  throw new Error('Several instances need PostgreSQL and mosquitto with its dynamic security plugin');

describe.skipIf(!usable)('several instances on PostgreSQL behind Mosquitto with device authentication', () => {
  let broker: PrivateBroker;
  let database: TempDatabase | undefined;
  const instances = new Map<string, Instance>();
  let db: pg.Client;

  async function startInstance(name: string): Promise<Instance> {
    const instance = await startPortalInstance({ name, databaseUrl: database!.url, mqttUrl: broker.portalUrl });
    instances.set(name, instance);
    return instance;
  }

  let staffOnA: Awaited<ReturnType<typeof signIn>>;
  /** Provisions a device through `instance` (staff); answers its key and setup password. */
  async function provisionOn(instance: Instance) {
    const api = instance.name === 'a' ? staffOnA : await signIn(instance, STAFF);
    return provisionDevice(api);
  }

  const stored = async (id: string): Promise<number> =>
    Number((await db.query('SELECT count(*) AS n FROM records WHERE device_id = $1', [id])).rows[0].n);

  const connectDevice = (id: string, key: string, extra: mqtt.IClientOptions = {}) =>
    mqtt.connectAsync(broker.url, { clientId: id, username: id, password: key, reconnectPeriod: 0, ...extra });

  beforeAll(async () => {
    broker = await startPrivateBroker({ verbose: true });
    database = await createDatabase((await findPostgres())!, 't_multi');
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    // One after the other: the first one migrates and seeds.
    await startInstance('a');
    await startInstance('b');
    staffOnA = await signIn(instances.get('a')!, STAFF);
  }, 120_000);

  afterAll(async () => {
    for (const instance of instances.values()) await killInstance(instance);
    await db?.end();
    await database?.drop();
    await broker?.stop();
  }, 60_000);

  it('refuses at the broker a wrong key, no key and another device key; a device publishes only to its own topics', async () => {
    const one = await provisionOn(instances.get('a')!);
    const two = await provisionOn(instances.get('a')!);
    await expect(connectDevice(one.id, 'not-the-key')).rejects.toThrow(/Not authorized|Bad user/i);
    await expect(mqtt.connectAsync(broker.url, { clientId: one.id, reconnectPeriod: 0 })).rejects.toThrow();
    await expect(connectDevice(one.id, two.key)).rejects.toThrow(/Not authorized|Bad user/i);
    const device = await connectDevice(one.id, one.key);
    try {
      const ts = Math.floor(Date.now() / 1000);
      await device.publishAsync(`dev/${two.id}/data`, JSON.stringify({ ts, n: 1 }), { qos: 1 });
      await device.publishAsync(`dev/${one.id}/data`, JSON.stringify({ ts, n: 1 }), { qos: 1 });
      await until(async () => (await stored(one.id)) === 1);
      expect(await stored(two.id)).toBe(0);
    } finally {
      await device.endAsync();
    }
  });

  it('shares ingest between the instances, and a device provisioned on one is accepted at once through both', async () => {
    const device = await provisionOn(instances.get('b')!);
    const client = await connectDevice(device.id, device.key);
    try {
      const base = Math.floor(Date.now() / 1000) - 1000;
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          client.publishAsync(`dev/${device.id}/data`, JSON.stringify({ ts: base + i, n: i }), { qos: 1 }),
        ),
      );
      await until(async () => (await stored(device.id)) === 40);
    } finally {
      await client.endAsync();
    }
    const sentTo = (name: string) =>
      broker
        .log()
        .split('\n')
        .filter(
          (line) => line.includes(`Sending PUBLISH to portal-${name}-`) && line.includes(`'dev/${device.id}/data'`),
        ).length;
    expect(sentTo('a')).toBeGreaterThan(0);
    expect(sentTo('b')).toBeGreaterThan(0);
    expect(sentTo('a') + sentTo('b')).toBe(40);
  });

  it('delivers a command queued while the device was offline on its first message', async () => {
    const device = await provisionOn(instances.get('a')!);
    const demo = await signIn(instances.get('b')!, DEMO);
    expect((await demo('POST', `/api/device/${device.id}/user`, { setupPassword: device.setupPassword })).status).toBe(
      200,
    );
    const queued = await demo('POST', `/api/device/${device.id}/rpc`, { method: 'Admin.Reboot' });
    expect(queued.status).toBe(200);
    const client = await connectDevice(device.id, device.key);
    try {
      const commands: string[] = [];
      client.on('message', (_topic, payload) => commands.push(payload.toString()));
      await client.subscribeAsync(`dev/${device.id}/cmd`, { qos: 1 });
      const sentAt = Date.now();
      await client.publishAsync(`dev/${device.id}/data`, JSON.stringify({ ts: Math.floor(sentAt / 1000), n: 1 }), {
        qos: 1,
      });
      const commandId = String(queued.body!.commandID);
      await until(() => commands.some((c) => c.includes(commandId)));
      expect(commands.join('\n')).toContain(commandId);
      // At its first contact, not at the 30 s resend.
      expect(Date.now() - sentAt).toBeLessThan(10_000);
    } finally {
      await client.endAsync();
    }
  });

  it('loses no acknowledged record and stores none twice when an instance is killed under load and restarts', async () => {
    const devices = await Promise.all(Array.from({ length: 8 }, () => provisionOn(instances.get('a')!)));
    const clients: MqttClient[] = await Promise.all(devices.map((d) => connectDevice(d.id, d.key)));
    const acked = new Map<string, number>(devices.map((d) => [d.id, 0]));
    const base = Math.floor(Date.now() / 1000) - 100_000;
    let running = true;
    const publishers = devices.map(async (device, i) => {
      const client = clients[i]!;
      let n = 0;
      while (running) {
        // A window of 10 unacknowledged publishes per device.
        await Promise.all(
          Array.from({ length: 10 }, () => {
            const ts = base + n;
            n += 1;
            return client
              .publishAsync(`dev/${device.id}/data`, JSON.stringify({ ts, n }), { qos: 1 })
              .then(() => acked.set(device.id, acked.get(device.id)! + 1));
          }),
        );
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const victim = instances.get('a')!;
    victim.child.kill('SIGKILL');
    await victim.exited;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await startInstance('a');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    running = false;
    await Promise.all(publishers);
    await Promise.all(clients.map((c) => c.endAsync()));
    const total = [...acked.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(500);
    // Whatever was acknowledged is stored within seconds, or never (then the counts below differ).
    const deadline = Date.now() + 20_000;
    for (const device of devices)
      await until(async () => (await stored(device.id)) >= acked.get(device.id)! || Date.now() > deadline);
    for (const device of devices) expect(await stored(device.id), device.id).toBe(acked.get(device.id));
    staffOnA = await signIn(instances.get('a')!, STAFF);
  }, 120_000);

  it('holds the request limit of the auth calls across both instances', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 24; i += 1) {
      const instance = instances.get(i % 2 === 0 ? 'a' : 'b')!;
      const answer = await fetch(`${instance.base}/api/auth/reset`, {
        method: 'POST',
        headers: { 'x-requested-with': 'portal', 'content-type': 'application/json' },
        body: JSON.stringify({ email: `nobody${i}@example.com` }),
      });
      statuses.push(answer.status);
    }
    // Reset requests: 20 a minute per address (RATE_LIMIT_PER_MINUTE), counted once for both instances.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(4);
  });
  it('drains on SIGTERM sent to the process group, even when nobody reads its output any more', async () => {
    const device = await provisionOn(instances.get('a')!);
    const client = await connectDevice(device.id, device.key);
    const victim = instances.get('b')!;
    let acked = 0;
    const base = Math.floor(Date.now() / 1000) - 200_000;
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < 400; i += 1) {
      sends.push(
        client
          .publishAsync(`dev/${device.id}/data`, JSON.stringify({ ts: base + i, n: i }), { qos: 1 })
          .then(() => (acked += 1)),
      );
      if (i === 100) {
        // As a terminal or a supervisor stops a group: the reader of the output goes too.
        victim.child.stdout!.destroy();
        victim.child.stderr!.destroy();
        process.kill(-victim.child.pid!, 'SIGTERM');
      }
      if (i % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(sends);
    expect(await victim.exited).toBe(0);
    await client.endAsync();
    await until(async () => (await stored(device.id)) === 400);
    expect(acked).toBe(400);
    // The broker saw its subscribers leave with a DISCONNECT, not a dropped connection.
    const lines = broker
      .log()
      .split('\n')
      .filter((line) => /Client portal-b-\d/.test(line));
    expect(lines.some((line) => /disconnected\.$/.test(line))).toBe(true);
    expect(lines.filter((line) => /closed its connection|exceeded timeout|socket error/i.test(line))).toEqual([]);
  });
});
