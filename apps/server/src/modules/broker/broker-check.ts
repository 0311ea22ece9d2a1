/**
 * The start-up check of an external broker (issue 17): can a client without credentials publish a
 * device's data? It tries once: an anonymous connection publishes to a probe device's data topic
 * while the portal's own user listens on that topic. A refused connection, a refused publish
 * (an MQTT 5 PUBACK reason code) or a message that never arrives all mean "no". MQTT_URL's user
 * and password, which the check, `npm run broker-sync` and the broker hooks (modules/mqtt-auth)
 * read, are taken from the URL here too.
 */
import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';

/** How long the listener waits for the anonymous publish to arrive. */
const ARRIVAL_MS = 1500;

/** MQTT_URL without its user and password. */
export function anonymousUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

/** MQTT_URL's user and password, decoded ('' where it names none, or is no URL at all). */
export function brokerUrlUser(url: string): { username: string; password: string } {
  try {
    const parsed = new URL(url);
    return { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
  } catch {
    return { username: '', password: '' };
  }
}

export async function anonymousCanPublish(url: string): Promise<boolean> {
  const tag = randomBytes(6).toString('hex');
  const topic = `dev/PROBE-${tag}/data`;
  const listener = await mqtt
    .connectAsync(url, {
      log: () => undefined,
      clientId: `portal-probe-listener-${tag}`,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
    })
    .catch((error: unknown) => {
      throw new Error(`Cannot use the MQTT broker at MQTT_URL: ${(error as Error).message}`);
    });
  try {
    let arrived: () => void = () => undefined;
    const arrival = new Promise<boolean>((resolve) => {
      arrived = () => resolve(true);
      setTimeout(() => resolve(false), ARRIVAL_MS);
    });
    listener.on('message', (received) => {
      if (received === topic) arrived();
    });
    await listener.subscribeAsync(topic, { qos: 0 });
    let anonymous: mqtt.MqttClient;
    try {
      anonymous = await mqtt.connectAsync(anonymousUrl(url), {
        log: () => undefined,
        clientId: `portal-probe-${tag}`,
        clean: true,
        reconnectPeriod: 0,
        connectTimeout: 5000,
        protocolVersion: 5,
      });
    } catch {
      return false; // the connection was refused
    }
    try {
      const answer = await anonymous.publishAsync(topic, '{"probe":true}', { qos: 1 }).catch(() => undefined);
      const reason = (answer as { reasonCode?: number } | undefined)?.reasonCode ?? 0;
      if (reason >= 0x80) return false;
      return await arrival;
    } finally {
      await anonymous.endAsync(true).catch(() => undefined);
    }
  } finally {
    await listener.endAsync(true).catch(() => undefined);
  }
}
