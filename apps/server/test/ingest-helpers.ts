/** MQTT device clients and small waits for the ingest tests. */
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

/** A device connected with its id and key (no reconnection: a refusal stays visible). */
export function connectDevice(url: string, id: string, key: string, extra: IClientOptions = {}): Promise<MqttClient> {
  return mqtt.connectAsync(url, {
    username: id,
    password: key,
    clientId: `${id}-${Math.random().toString(36).slice(2, 8)}`,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    ...extra,
  });
}

/** Collects the messages a client receives, and waits for the next one on a topic. */
export function inbox(client: MqttClient) {
  const messages: { topic: string; body: unknown }[] = [];
  const waiters: { topic: string; resolve: (body: unknown) => void }[] = [];
  client.on('message', (topic, payload) => {
    const body = JSON.parse(payload.toString('utf8')) as unknown;
    const i = waiters.findIndex((w) => w.topic === topic);
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(body);
    else messages.push({ topic, body });
  });
  return {
    messages,
    next(topic: string): Promise<unknown> {
      const i = messages.findIndex((m) => m.topic === topic);
      if (i >= 0) return Promise.resolve(messages.splice(i, 1)[0]!.body);
      return new Promise((resolve) => waiters.push({ topic, resolve }));
    },
  };
}

/** Polls `check` until it returns a value other than undefined/false (bounded by the test timeout). */
export async function until<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  intervalMs = 20,
): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Resolves when the client is closed by the other side. */
export function closed(client: MqttClient): Promise<void> {
  return new Promise((resolve) => {
    if (client.disconnected || !client.connected) return resolve();
    client.once('close', () => resolve());
  });
}
