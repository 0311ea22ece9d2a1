/**
 * The external-broker subscriber's acknowledgements (holdPubacks): a real MQTT broker (Aedes on
 * an ephemeral port) sends QoS 1 messages to a real mqtt.js subscriber and reports each PUBACK it
 * receives. The subscriber takes the broker's whole in-flight window at once (up to its own limit
 * of messages waiting), acknowledges a message only once it is stored and in the order the
 * messages came, and a message that cannot be stored is never acknowledged: the connection is
 * dropped and comes back.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { holdPubacks } from '../../src/ingest/mqtt-held-pubacks';

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('acknowledgements to an external broker', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setup(maxUnacknowledged?: number) {
    const broker = new Aedes();
    await broker.listen();
    /** Payloads of the messages the subscriber acknowledged, in the order the PUBACKs came. */
    const acked: string[] = [];
    /** Payloads of the messages handed to the subscriber, by message id. */
    const payloadOf = new Map<number, string>();
    const persistence = (broker as unknown as { persistence: unknown }).persistence as {
      outgoingClearMessageId(client: unknown, packet: { messageId: number }, cb: unknown): unknown;
    };
    const clear = persistence.outgoingClearMessageId.bind(persistence);
    persistence.outgoingClearMessageId = (client, packet, cb) => {
      acked.push(payloadOf.get(packet.messageId) ?? `id ${packet.messageId}`);
      return clear(client, packet, cb);
    };
    let connects = 0;
    broker.on('client', (client) => {
      if (client.id.startsWith('sub-')) connects += 1;
    });
    const server = net.createServer((socket) => broker.handle(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const stores = new Map<string, Deferred>();
    const errors: unknown[] = [];
    const subscriber: MqttClient = mqtt.connect(url, { clientId: 'sub-1', clean: true, reconnectPeriod: 100 });
    holdPubacks(
      subscriber,
      (packet) => {
        const d = deferred();
        stores.set(String(packet.payload), d);
        payloadOf.set(packet.messageId!, String(packet.payload));
        return d.promise;
      },
      (error) => errors.push(error),
      maxUnacknowledged,
    );
    await new Promise((resolve) => subscriber.once('connect', resolve));
    await subscriber.subscribeAsync('dev/+/data', { qos: 1 });
    const publisher = await mqtt.connectAsync(url, { clientId: 'pub-1' });
    cleanups.push(async () => {
      await publisher.endAsync(true);
      await subscriber.endAsync(true);
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const publish = (payloads: string[]) =>
      Promise.all(payloads.map((p) => publisher.publishAsync('dev/D1/data', p, { qos: 1 })));
    return { acked, stores, errors, publish, connects: () => connects };
  }

  it('takes several messages at once and acknowledges each once stored, in arrival order', async () => {
    const t = await setup();
    await t.publish(['m1', 'm2', 'm3']);
    // All three are handed over while none is stored yet: the connection did not wait.
    await until(() => t.stores.size === 3);
    t.stores.get('m2')!.resolve();
    t.stores.get('m3')!.resolve();
    await settle();
    expect(t.acked).toEqual([]);
    t.stores.get('m1')!.resolve();
    await until(() => t.acked.length === 3);
    expect(t.acked).toEqual(['m1', 'm2', 'm3']);
  });

  it('keeps acknowledging round after round as stores finish one by one', async () => {
    const t = await setup();
    const payloads = Array.from({ length: 8 }, (_, i) => `r${i}`);
    await t.publish(payloads);
    await until(() => t.stores.size === 8);
    for (const [i, p] of payloads.entries()) {
      t.stores.get(p)!.resolve();
      await until(() => t.acked.length === i + 1);
    }
    expect(t.acked).toEqual(payloads);
  });

  it('reads no further while its limit of messages waits for their store, then goes on', async () => {
    const t = await setup(3);
    const payloads = Array.from({ length: 7 }, (_, i) => `w${i}`);
    await t.publish(payloads.slice(0, 1));
    await until(() => t.stores.size === 1);
    void t.publish(payloads.slice(1));
    await until(() => t.stores.size === 3);
    await settle();
    expect([...t.stores.keys()]).toEqual(['w0', 'w1', 'w2']);
    t.stores.get('w1')!.resolve();
    await settle();
    // w0 still waits, so nothing is acknowledged and nothing more is read.
    expect(t.stores.size).toBe(3);
    t.stores.get('w0')!.resolve();
    await until(() => t.stores.size === 5);
    expect(t.acked).toEqual(['w0', 'w1']);
    for (const p of payloads.slice(2)) {
      await until(() => t.stores.has(p));
      t.stores.get(p)!.resolve();
    }
    await until(() => t.acked.length === 7);
    expect(t.acked).toEqual(payloads);
  });

  it('never acknowledges a message that could not be stored; the connection comes back', async () => {
    const t = await setup();
    await t.publish(['a1', 'a2']);
    await until(() => t.stores.size === 2);
    t.stores.get('a1')!.reject(new Error('database down'));
    t.stores.get('a2')!.resolve();
    await until(() => t.connects() === 2);
    expect(t.errors).toHaveLength(1);
    await settle();
    // a2 came after a1 on the dropped connection: its PUBACK is not sent there either.
    expect(t.acked).toEqual([]);
  });
});
