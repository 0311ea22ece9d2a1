/**
 * The device side of the ingest benchmark, in its own process (so publishing does not share the
 * portal's event loop): one MQTT connection per device, QoS 1, at most `window` unacknowledged
 * publishes per connection. Driven by the parent over IPC: setup -> ready, go -> done, close;
 * `stop` (no answer) during a go ends it early: no new publishes, done once those in flight settle.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { RecordSource } from './records';

export interface PublisherSetup {
  type: 'setup';
  url: string;
  devices: { id: string; key: string }[];
  /** Topic of a device's records: `${prefix}/${id}/data`. */
  topicPrefix: string;
  /** Send the device id and key as username and password. */
  authenticate: boolean;
  window: number;
  recordsPerDevice: number;
  tsBase: number;
  intervalS: number;
}

export interface PublisherDone {
  type: 'done';
  /** Epoch milliseconds (fractional) of the first publish and of the last PUBACK. */
  firstPublishAt: number;
  lastAckAt: number;
  acked: number;
  errors: number;
  firstError: string | null;
}

const nowMs = () => performance.timeOrigin + performance.now();

let setup: PublisherSetup | null = null;
let clients: MqttClient[] = [];
let payloads: Buffer[][] = [];
let stopping = false;

function send(message: unknown): void {
  process.send?.(message);
}

async function connectAll(s: PublisherSetup): Promise<void> {
  payloads = s.devices.map((d) => {
    const source = new RecordSource(d.id);
    return Array.from({ length: s.recordsPerDevice }, (_, i) =>
      Buffer.from(JSON.stringify(source.at(s.tsBase + i * s.intervalS))),
    );
  });
  clients = new Array<MqttClient>(s.devices.length);
  let next = 0;
  const connector = async () => {
    while (next < s.devices.length) {
      const i = next++;
      const d = s.devices[i]!;
      clients[i] = await mqtt.connectAsync(s.url, {
        clientId: `${d.id}-bench-${process.pid}`,
        ...(s.authenticate ? { username: d.id, password: d.key } : {}),
        reconnectPeriod: 0,
        connectTimeout: 20_000,
        clean: true,
      });
    }
  };
  await Promise.all(Array.from({ length: 20 }, connector));
}

async function publishAll(s: PublisherSetup): Promise<PublisherDone> {
  let firstPublishAt = 0;
  let lastAckAt = 0;
  let acked = 0;
  let errors = 0;
  let firstError: string | null = null;
  firstPublishAt = nowMs();
  stopping = false;
  await Promise.all(
    clients.map(
      (client, i) =>
        new Promise<void>((resolve) => {
          const topic = `${s.topicPrefix}/${s.devices[i]!.id}/data`;
          const list = payloads[i]!;
          let sent = 0;
          let done = 0;
          const pump = () => {
            while (!stopping && sent < list.length && sent - done < s.window) {
              const payload = list[sent++]!;
              client.publish(topic, payload, { qos: 1 }, (error) => {
                done += 1;
                if (error) {
                  errors += 1;
                  firstError ??= error.message;
                } else {
                  acked += 1;
                  lastAckAt = nowMs();
                }
                if (done === list.length || (stopping && done === sent)) resolve();
                else pump();
              });
            }
          };
          pump();
        }),
    ),
  );
  return { type: 'done', firstPublishAt, lastAckAt, acked, errors, firstError };
}

process.on('message', (message: { type: string } & Partial<PublisherSetup>) => {
  (async () => {
    if (message.type === 'setup') {
      setup = message as PublisherSetup;
      await connectAll(setup);
      send({ type: 'ready' });
    } else if (message.type === 'go' && setup) {
      send(await publishAll(setup));
    } else if (message.type === 'stop') {
      stopping = true;
    } else if (message.type === 'close') {
      await Promise.all(clients.map((c) => c?.endAsync().catch(() => undefined)));
      process.exit(0);
    }
  })().catch((error: unknown) => {
    send({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  });
});
