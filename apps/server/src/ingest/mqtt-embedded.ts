/**
 * MQTT ingest through the embedded Aedes broker (MQTT_PORT, DESIGN.md section 6): username = device
 * id, password = device key, client id = device id (or device id, '-' and a suffix) so no device can
 * take over another's session; packets of at most MQTT_MAX_PACKET_BYTES (mqtt-guard.ts); a device
 * may publish only to dev/{ownId}/(data|diag|ack) and subscribe only to dev/{ownId}/cmd; a record
 * is stored inside `authorizePublish`, which Aedes runs before it writes the PUBACK, so a QoS 1
 * publish is acknowledged only once its record is committed. After a data publish the device's
 * queued commands and pending config go to dev/{id}/cmd (QoS 1).
 */
import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { commandTopic, deviceMessageTopic, isOwnClientId } from '@portal/core';
import type { CommandSink, DeliveryService } from '../modules/delivery/delivery.service';
import type { TelemetryService } from '../modules/telemetry/telemetry.service';
import { commandPayload, handleDeviceMessage, type DeviceServices, type MqttIngest } from './mqtt-device-messages';
import { guardConnection, type ConnectionGuard, type MqttConnectionLimits } from './mqtt-guard';

function authError(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

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
