/**
 * MQTT ingest through an external broker (MQTT_URL, DESIGN.md section 6): the server subscribes
 * with the shared subscriptions `$share/{group}/dev/+/(data|diag|ack)` over MQTT_SHARED_CONNECTIONS
 * connections and holds each PUBACK until the message is committed (mqtt-held-pubacks.ts). The
 * broker authenticates devices; the portal reads each device's plan (cached, dropped when the
 * database says the device changed) and counts a device online for a while after its last message.
 * After a data publish the device's queued commands and pending config go to dev/{id}/cmd (QoS 1).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type IPublishPacket, type MqttClient } from 'mqtt';
import { DEVICE_MESSAGE_KINDS, commandTopic, deviceMessageTopic } from '@portal/core';
import type { DeliveryService } from '../modules/delivery/delivery.service';
import type { TelemetryService } from '../modules/telemetry/telemetry.service';
import type { Db } from '../db/db';
import { commandPayload, handleDeviceMessage, type DeviceServices, type MqttIngest } from './mqtt-device-messages';
import { holdPubacks, type HeldPubacks } from './mqtt-held-pubacks';

/** Through an external broker, a device counts as connected this long after its last message. */
const SEEN_WINDOW_MS = 5 * 60_000;

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
