/**
 * MQTT ingest (DESIGN.md section 6), two ways:
 * - the embedded Aedes broker (MQTT_PORT): username = device id, password = device key, client id =
 *   device id (or device id, '-' and a suffix) so no device can take over another's session;
 *   packets of at most MQTT_MAX_PACKET_BYTES (mqtt-guard.ts); a device may publish only to
 *   dev/{ownId}/(data|diag|ack) and subscribe only to dev/{ownId}/cmd; a record is stored
 *   inside `authorizePublish`, which Aedes runs before it writes the PUBACK, so a QoS 1 publish
 *   is acknowledged only once its record is committed;
 * - an external broker (MQTT_URL): the server subscribes with the shared subscriptions
 *   `$share/{group}/dev/+/(data|diag|ack)` over MQTT_SHARED_CONNECTIONS connections and holds
 *   each PUBACK until the message is committed (`holdPubacks`). The broker
 *   authenticates devices.
 * Either way, after a data publish the device's queued commands and pending config go to
 * dev/{id}/cmd (QoS 1).
 */
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import mqtt, { type IPublishPacket, type MqttClient } from 'mqtt';
import { RECORD_LIMITS, type CommandMessage } from '@portal/core';
import type { CommandSink, DeliveryService } from '../modules/delivery/delivery.service';
import type { TelemetryService } from '../modules/telemetry/telemetry.service';
import type { Db } from '../db/db';
import type { IngestItem } from './batch';
import { guardConnection, type ConnectionGuard, type MqttConnectionLimits } from './mqtt-guard';
import { DEVICE_MESSAGE_KINDS, commandTopic, deviceMessageTopic, isOwnClientId } from './mqtt-rules';

/** Through an external broker, a device counts as connected this long after its last message. */
const SEEN_WINDOW_MS = 5 * 60_000;

export interface MqttIngest {
  /** The embedded broker's port; null with an external broker. */
  port: number | null;
  close(): Promise<void>;
}

/** The services a device message reaches: the ingest writer and the delivery module. */
interface DeviceServices {
  telemetry: TelemetryService;
  delivery: DeliveryService;
}

/** Reads one device message and hands it to the writer; resolves once it is stored or logged. */
function handleDeviceMessage(
  { telemetry, delivery }: DeviceServices,
  deviceId: string,
  kind: string,
  payload: Buffer,
  basic: boolean,
): Promise<void> {
  if (kind === 'ack') return handleAck(telemetry, delivery, deviceId, payload);
  // No async frame here: one would keep the payload, its text and its parsed body alive until
  // the batch commits; the writer keeps only what it stores.
  const stored = telemetry.ingest(readMessage(deviceId, kind, payload, basic, telemetry.now()));
  if (kind !== 'data') return stored.then(() => undefined);
  return stored.then((outcome) => {
    if (outcome.stored + outcome.duplicates > 0) delivery.afterContact(deviceId);
  });
}

/** A device's data or diagnostics message as the writer takes it (or why it cannot be read). */
function readMessage(deviceId: string, kind: string, payload: Buffer, basic: boolean, receivedAt: Date): IngestItem {
  const item: IngestItem = { deviceId, kind: kind === 'diag' ? 'diag' : 'data', basic, receivedAt, source: 'mqtt' };
  if (payload.length > RECORD_LIMITS.maxPayloadBytes) {
    item.error = `Payload of ${payload.length} bytes is over the limit of ${RECORD_LIMITS.maxPayloadBytes}`;
    return item;
  }
  try {
    item.text = payload.toString('utf8');
    item.body = JSON.parse(item.text);
  } catch {
    delete item.text;
    item.error = 'The payload is not valid JSON';
  }
  return item;
}

async function handleAck(
  telemetry: TelemetryService,
  delivery: DeliveryService,
  deviceId: string,
  payload: Buffer,
): Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse(payload.toString('utf8'));
  } catch {
    await telemetry.log(deviceId, 'refused', 'mqtt ack: not valid JSON');
    return;
  }
  await delivery.acknowledge(deviceId, body);
}

function commandPayload(message: CommandMessage): Buffer {
  return Buffer.from(JSON.stringify(message), 'utf8');
}

function authError(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

// ---------------------------------------------------------------- embedded broker

interface Session {
  deviceId: string;
  basic: boolean;
}

export async function startEmbeddedBroker(options: {
  port: number;
  host: string;
  limits: MqttConnectionLimits;
  telemetry: TelemetryService;
  delivery: DeliveryService;
  log: FastifyBaseLogger;
}): Promise<MqttIngest> {
  const { telemetry, delivery, log, limits } = options;
  const services: DeviceServices = { telemetry, delivery };
  const sessions = new WeakMap<Client, Session>();
  const online = new Map<string, Client>();
  /** Each connection's limits (mqtt-guard.ts), and the device on it once accepted. */
  const guards = new WeakMap<object, ConnectionGuard>();
  const deviceOn = new WeakMap<object, string>();

  const broker = new Aedes({
    // A connection's in-flight QoS 1 publishes wait in authorizePublish: that is the backpressure.
    concurrency: 1000,
    // The guard's deadline covers the CONNECT and its authentication; this is Aedes's own.
    connectTimeout: limits.connectTimeoutMs,
    authenticate(client, username, password, done) {
      const id = username ?? '';
      const key = password ? password.toString('utf8') : '';
      (async () => {
        if (!id || !key || !(await telemetry.verifyDevice(id, key)))
          return done(authError('Bad username or password', 4), null);
        // Refused before Aedes registers the client id, so no other device's connection is closed.
        if (!isOwnClientId(id, client.id)) {
          telemetry
            .log(
              id,
              'refused',
              `mqtt: client id ${JSON.stringify(client.id.slice(0, 100))} refused: a device connects with its own id as client id (or its id, '-' and a suffix)`,
            )
            .catch((error: unknown) => log.warn({ err: error }, 'Server log write failed'));
          return done(authError('Client identifier rejected', 2), null);
        }
        const plan = await telemetry.ingestPlan(id);
        if (!plan) return done(authError('Bad username or password', 4), null);
        sessions.set(client, { deviceId: id, basic: plan.basic });
        done(null, true);
      })().catch((error: unknown) => {
        log.error({ err: error }, 'MQTT authentication failed');
        done(authError('Server unavailable', 3), null);
      });
    },
    authorizePublish(client, packet, callback) {
      const session = client ? sessions.get(client) : undefined;
      if (!session) return callback(new Error('Not authenticated'));
      const message = deviceMessageTopic(packet.topic);
      if (!message || message.deviceId !== session.deviceId) {
        telemetry
          .log(
            session.deviceId,
            'refused',
            `mqtt: publish to ${JSON.stringify(packet.topic.slice(0, 200))} refused: a device publishes only to dev/${session.deviceId}/(data|diag|ack)`,
          )
          .catch((error: unknown) => log.warn({ err: error }, 'Server log write failed'))
          .finally(() => callback(new Error('Not authorized to publish to this topic')));
        return;
      }
      // Nothing a device publishes is kept by the broker.
      packet.retain = false;
      handleDeviceMessage(
        services,
        session.deviceId,
        message.kind,
        Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload),
        session.basic,
      ).then(
        () => callback(null),
        (error: unknown) => {
          log.error({ err: error, deviceId: session.deviceId }, 'MQTT message could not be stored');
          callback(error instanceof Error ? error : new Error(String(error)));
        },
      );
    },
    authorizeSubscribe(client, subscription, callback) {
      const session = sessions.get(client);
      if (session && subscription.topic === commandTopic(session.deviceId)) return callback(null, subscription);
      if (session) {
        telemetry
          .log(
            session.deviceId,
            'refused',
            `mqtt: subscription to ${JSON.stringify(subscription.topic.slice(0, 200))} refused: a device subscribes only to dev/${session.deviceId}/cmd`,
          )
          .catch((error: unknown) => log.warn({ err: error }, 'Server log write failed'));
      }
      callback(null, null);
    },
  });
  await broker.listen();

  broker.on('clientReady', (client) => {
    const session = sessions.get(client);
    if (!session) return;
    guards.get(client.conn)?.accept();
    deviceOn.set(client.conn, session.deviceId);
    online.set(session.deviceId, client);
    telemetry
      .log(session.deviceId, 'connect', `mqtt: connected (client id ${JSON.stringify(client.id.slice(0, 100))})`)
      .catch(() => undefined);
  });
  broker.on('clientDisconnect', (client) => {
    const session = sessions.get(client);
    if (!session) return;
    if (online.get(session.deviceId) === client) online.delete(session.deviceId);
    telemetry.log(session.deviceId, 'disconnect', 'mqtt: disconnected').catch(() => undefined);
  });
  broker.on('clientError', (client, error) => {
    const session = sessions.get(client);
    log.debug({ deviceId: session?.deviceId, err: error }, 'MQTT client error');
  });

  const server = net.createServer((socket) => {
    broker.handle(socket);
    const guard = guardConnection(socket, limits, (reason) => {
      const deviceId = deviceOn.get(socket);
      log.warn({ deviceId, remoteAddress: socket.remoteAddress, reason }, 'MQTT connection closed at its limits');
      if (deviceId) telemetry.log(deviceId, 'refused', `mqtt: connection closed: ${reason}`).catch(() => undefined);
    });
    guards.set(socket, guard);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    throw error;
  }

  const sink: CommandSink = {
    publish: (deviceId, message) =>
      new Promise<void>((resolve, reject) => {
        broker.publish(
          {
            cmd: 'publish',
            topic: commandTopic(deviceId),
            payload: commandPayload(message),
            qos: 1,
            retain: false,
            dup: false,
          },
          (error) => (error ? reject(error) : resolve()),
        );
      }),
    isOnline: (deviceId) => online.has(deviceId),
  };
  const detach = delivery.useTransport(sink);

  return {
    port: (server.address() as net.AddressInfo).port,
    async close() {
      detach();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---------------------------------------------------------------- external broker

/** What ingest needs of a device's plan. */
interface IngestPlan {
  basic: boolean;
}
const BASIC_PLAN: IngestPlan = { basic: true };
const HOSTED_PLAN: IngestPlan = { basic: false };

export interface ExternalBrokerOptions {
  url: string;
  /** Shared-subscription group: every portal instance in the group gets a share of the devices' messages. */
  shareGroup: string;
  /** Parallel connections (each with the broker's in-flight window of messages waiting for their commit). */
  connections: number;
  telemetry: TelemetryService;
  delivery: DeliveryService;
  log: FastifyBaseLogger;
  /** The database's notifications (Db.listen): devices added, removed or changed plan on any instance. */
  listen: Db['listen'];
  /**
   * INSTANCE_ID: persistent subscriber sessions with client ids portal-{id}-{n}, so that what the
   * broker had sent a killed instance comes again when it restarts. Unset: clean sessions.
   */
  instanceId?: string | undefined;
}

/** The channel migration 027's trigger names a device on when it is added, removed or changes plan. */
export const DEVICE_CHANNEL = 'portal_devices';

type SendPacket = (
  packet: { cmd: string; messageId?: number },
  cb?: (error?: Error) => void,
  ...rest: unknown[]
) => void;

/** A message waiting for its store and for mqtt.js to hand over its PUBACK. */
interface Held {
  state: 'storing' | 'stored';
  puback: { cmd: string; messageId?: number } | null;
}

/** What holdPubacks gives: how many messages wait for their store and PUBACK, and when they last came. */
export interface HeldPubacks {
  unacknowledged(): number;
  /** Date.now() of the last message handed over. */
  lastMessageAt(): number;
}

/**
 * Messages one connection to an external broker holds unacknowledged at most. A broker may send
 * more than its in-flight setting says (Mosquitto 2.0 did: hundreds per connection), and each
 * waiting message is memory the garbage collector copies until its batch commits; past this
 * many the connection is not read until a PUBACK goes (TCP backpressure; the broker queues).
 */
export const MAX_UNACKNOWLEDGED_PER_CONNECTION = 32;

/**
 * Each QoS 1 message of an external broker is acknowledged only once it is stored, without
 * making the connection wait. mqtt.js writes a PUBACK when `handleMessage` calls back and reads
 * the connection's next message only after that, which would leave one message per connection
 * in the group commit; here `handleMessage` calls back at once and the PUBACK it triggers is
 * held until the message's `store` resolves. PUBACKs leave in the order their messages came
 * (MQTT 3.1.1 section 4.6), so the broker keeps its in-flight window going, up to
 * `maxUnacknowledged` messages per connection. A message that cannot be stored gets no PUBACK: the connection is dropped
 * (`onStoreError`) and reconnects, and PUBACKs held for the old connection are never sent.
 */
export function holdPubacks(
  client: MqttClient,
  store: (packet: IPublishPacket) => Promise<void>,
  onStoreError: (error: unknown) => void,
  maxUnacknowledged = MAX_UNACKNOWLEDGED_PER_CONNECTION,
): HeldPubacks {
  const internals = client as unknown as { _sendPacket: SendPacket };
  const send = internals._sendPacket.bind(client);
  /** Messages handed over and not yet acknowledged, in arrival order (this connection only). */
  let waiting: Held[] = [];
  /** The same, by message id, until mqtt.js asks to send its PUBACK. */
  const byId = new Map<number, Held>();
  const release = () => {
    let n = 0;
    while (n < waiting.length && waiting[n]!.state === 'stored') {
      const held = waiting[n]!;
      if (held.puback) send(held.puback);
      else break; // stored before mqtt.js asked for its PUBACK: sent when it does
      n += 1;
    }
    if (n > 0) waiting.splice(0, n);
    if (paused && waiting.length < maxUnacknowledged) {
      const resume = paused;
      paused = null;
      resume();
    }
  };
  /** Counts connections: what was handed over on an earlier one is never acknowledged on a later one. */
  let connection = 0;
  /** The connection's next read, held back while `maxUnacknowledged` messages wait for their store. */
  let paused: (() => void) | null = null;
  const reset = () => {
    connection += 1;
    waiting = [];
    byId.clear();
    paused = null;
  };
  client.on('close', reset);
  /**
   * Marks `held` stored once `stored` resolves. A function of its own: closures made inside
   * `handleMessage` would keep mqtt.js's callback, and with it the packet and its payload,
   * alive until the batch commits.
   */
  const settle = (held: Held, stored: Promise<void>) => {
    const mine = connection;
    stored.then(
      () => {
        held.state = 'stored';
        if (mine === connection) release();
      },
      (error: unknown) => {
        if (mine !== connection) return;
        // No PUBACK for it nor for those after it on this connection: drop it, the broker resends.
        reset();
        onStoreError(error);
        client.stream.destroy();
      },
    );
  };
  let lastMessageAt = 0;
  client.handleMessage = (packet, callback) => {
    lastMessageAt = Date.now();
    if (packet.qos !== 1 || packet.messageId === undefined) {
      store(packet).catch(onStoreError);
      return callback();
    }
    const held: Held = { state: 'storing', puback: null };
    waiting.push(held);
    byId.set(packet.messageId, held);
    settle(held, store(packet));
    if (waiting.length < maxUnacknowledged) callback();
    else paused = callback;
  };
  internals._sendPacket = (packet, cb, ...rest) => {
    const held = packet.cmd === 'puback' && packet.messageId !== undefined ? byId.get(packet.messageId) : undefined;
    if (!held) return send(packet, cb, ...rest);
    byId.delete(packet.messageId!);
    held.puback = packet;
    cb?.();
    if (held === waiting[0] && held.state === 'stored') release();
  };
  return { unacknowledged: () => waiting.length, lastMessageAt: () => lastMessageAt };
}

/** A graceful stop waits this long at most for the messages the broker had sent before the unsubscribe. */
const DRAIN_LIMIT_MS = 10_000;
/** ...and counts the connections drained once no message came for this long and none waits. */
const DRAIN_QUIET_MS = 300;

/**
 * A graceful stop of the subscriber connections: unsubscribe (the broker sends the shares to the
 * other instances from then on), store and acknowledge what had already been sent to these
 * connections, then disconnect. A clean-session connection closed with messages unacknowledged
 * would lose them: the broker discards a clean session's in-flight messages.
 */
async function drain(
  connections: readonly { client: MqttClient; held: HeldPubacks }[],
  topics: string[],
): Promise<void> {
  await Promise.all(connections.map(({ client }) => client.unsubscribeAsync(topics).catch(() => undefined)));
  const deadline = Date.now() + DRAIN_LIMIT_MS;
  const busy = () =>
    connections.some(
      ({ client, held }) =>
        client.connected && (held.unacknowledged() > 0 || Date.now() - held.lastMessageAt() < DRAIN_QUIET_MS),
    );
  while (busy() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  await Promise.all(connections.map(({ client }) => client.endAsync().catch(() => undefined)));
}

export async function connectExternalBroker(options: ExternalBrokerOptions): Promise<MqttIngest> {
  const { telemetry, delivery, log } = options;
  const services: DeviceServices = { telemetry, delivery };
  /** The plans read lately (null: unknown device), one shared object per kind of plan. */
  const plans = new Map<string, { plan: IngestPlan | null; until: number }>();

  /** The cached plan of a device (null: unknown device), or undefined when it must be read. */
  function cachedPlan(deviceId: string, now: number): IngestPlan | null | undefined {
    const cached = plans.get(deviceId);
    if (!cached || cached.until <= now) return undefined;
    return cached.plan;
  }

  /** Plan reads under way: the messages a device sends meanwhile wait for the same read. */
  const reading = new Map<string, Promise<IngestPlan | null>>();
  /** Counts the device notifications: a read that one overtook is used once, not cached. */
  let changes = 0;

  // A device added, removed or moved to another plan on any instance is read afresh at its next
  // message, so a device provisioned a moment ago is never taken for an unknown one.
  const unlisten = await options.listen(DEVICE_CHANNEL, (deviceId) => {
    changes += 1;
    if (deviceId === null) {
      plans.clear();
      reading.clear();
    } else {
      plans.delete(deviceId);
      reading.delete(deviceId);
    }
  });

  function planOf(deviceId: string): Promise<IngestPlan | null> {
    let read = reading.get(deviceId);
    if (!read) {
      const before = changes;
      read = telemetry
        .ingestPlan(deviceId)
        .then((plan) => {
          if (plans.size >= 100_000) plans.clear();
          if (changes === before)
            plans.set(deviceId, { plan: plan && (plan.basic ? BASIC_PLAN : HOSTED_PLAN), until: Date.now() + 10_000 });
          return plan;
        })
        .finally(() => {
          if (reading.get(deviceId) === read) reading.delete(deviceId);
        });
      reading.set(deviceId, read);
    }
    return read;
  }

  /**
   * When each device's last message reached this instance. The broker does not tell who is
   * connected, so a device counts as online for SEEN_WINDOW_MS after a message of its own; any
   * other device gets what is queued for it at its next contact, instead of a publish to nobody
   * that would then wait out the resend delay.
   */
  const seen = new Map<string, number>();
  const isOnline = (deviceId: string): boolean => {
    const at = seen.get(deviceId);
    return at !== undefined && Date.now() - at < SEEN_WINDOW_MS;
  };

  const persistent = options.instanceId !== undefined;
  const tag = options.instanceId ?? randomBytes(4).toString('hex');
  const clients: MqttClient[] = [];
  const connections: { client: MqttClient; held: HeldPubacks }[] = [];
  const topics = DEVICE_MESSAGE_KINDS.map((kind) => `$share/${options.shareGroup}/dev/+/${kind}`);
  const subscribe = async (i: number) => {
    const client = mqtt.connect(options.url, {
      // mqtt.js would format a debug line for every packet; the portal logs what matters itself.
      log: () => undefined,
      clientId: `portal-${tag}-${i}`,
      clean: !persistent,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
    });
    clients.push(client);
    const store = (packet: IPublishPacket): Promise<void> => {
      const message = deviceMessageTopic(packet.topic);
      if (!message) return Promise.resolve();
      const { deviceId, kind } = message;
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
      const cached = cachedPlan(deviceId, Date.now());
      const handle = (plan: IngestPlan | null): Promise<void> => {
        if (plan) {
          if (seen.size >= 100_000) seen.clear();
          seen.set(deviceId, Date.now());
          return handleDeviceMessage(services, deviceId, kind, payload, plan.basic);
        }
        log.debug({ deviceId }, 'MQTT message from an unknown device ignored');
        return Promise.resolve();
      };
      return cached === undefined ? planOf(deviceId).then(handle) : handle(cached);
    };
    const held = holdPubacks(client, store, (error) => {
      log.error({ err: error }, 'MQTT message could not be stored; reconnecting to the broker');
    });
    connections.push({ client, held });
    client.on('error', (error) => log.warn({ err: error }, 'External MQTT broker error'));
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    await client.subscribeAsync(topics, { qos: 1 });
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.connections) }, (_, i) => subscribe(i)));
  } catch (error) {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await unlisten();
    throw new Error(`Cannot use the MQTT broker at MQTT_URL: ${(error as Error).message}`);
  }

  let next = 0;
  const detach = delivery.useTransport({
    async publish(deviceId, message) {
      const client = clients[next++ % clients.length]!;
      await client.publishAsync(commandTopic(deviceId), commandPayload(message), { qos: 1 });
    },
    isOnline,
  });

  return {
    port: null,
    async close() {
      detach();
      await drain(connections, topics);
      await unlisten();
    },
  };
}
