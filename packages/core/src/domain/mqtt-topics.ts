/**
 * What an MQTT broker lets each client do (DESIGN.md section 6, issue 17), as pure rules: the client
 * ids a device may use, and the topics each client may publish, subscribe and receive on. The
 * embedded broker (apps/server/src/ingest) and the HTTP hooks an external broker asks
 * (modules/mqtt-auth) apply the same rules.
 */
import { DEVICE_ID_PATTERN } from './ids';

/**
 * Whether a device may connect with this client id: its own id, or its own id followed by '-' and
 * a suffix (a second connection of the same device, e.g. a tool's). Device ids hold no '-', so
 * every client id belongs to one device at most, and no device can take over another's session.
 */
export function isOwnClientId(deviceId: string, clientId: string): boolean {
  return DEVICE_ID_PATTERN.test(deviceId) && (clientId === deviceId || clientId.startsWith(`${deviceId}-`));
}

/** The kinds of message a device publishes, each on dev/{id}/{kind}. */
export const DEVICE_MESSAGE_KINDS = ['data', 'diag', 'ack'] as const;
export type DeviceMessageKind = (typeof DEVICE_MESSAGE_KINDS)[number];

/** One topic level naming a device or a share group: not empty, no '/' and no wildcard. */
const LEVEL = '[^/+#]+';
const KINDS = DEVICE_MESSAGE_KINDS.join('|');
const DEVICE_LEVEL = new RegExp(`^${LEVEL}$`);
const DEVICE_MESSAGE_TOPIC = new RegExp(`^dev/(${LEVEL})/(${KINDS})$`);
const ANY_DEVICE_COMMAND_TOPIC = new RegExp(`^dev/${LEVEL}/cmd$`);
/** The portal's subscriptions: every device's messages of one kind, plainly or shared (`$share/{group}/...`). */
const PORTAL_SUBSCRIPTION = new RegExp(`^(\\$share/${LEVEL}/)?dev/\\+/(${KINDS})$`);

/**
 * The device and kind of a device message's topic, dev/{id}/(data|diag|ack), or null for any
 * other topic (a wildcard or an empty level where the id goes included).
 */
export function deviceMessageTopic(topic: string): { deviceId: string; kind: DeviceMessageKind } | null {
  const match = DEVICE_MESSAGE_TOPIC.exec(topic);
  return match ? { deviceId: match[1]!, kind: match[2] as DeviceMessageKind } : null;
}

/** The topic a device receives its commands and config on. */
export function commandTopic(deviceId: string): string {
  return `dev/${deviceId}/cmd`;
}

/** Who is on an MQTT connection: a device (username = its id), or the portal's own subscriber user. */
export type MqttPrincipal = { kind: 'device'; deviceId: string } | { kind: 'portal' };

/** What a client asks to do with a topic: publish to it, subscribe to it (a filter), or receive a message on it. */
export type MqttAccess = 'publish' | 'subscribe' | 'receive';

/**
 * Whether `principal` may `access` `topic`. A device publishes only to dev/{its id}/(data|diag|ack)
 * and subscribes to and receives only dev/{its id}/cmd; no wildcard, no other device's topic, no
 * `$SYS`. The portal subscribes to every device's messages (`dev/+/data`, diag and ack, plainly or
 * as `$share/{group}/...`), receives them, and publishes commands to any one device's dev/{id}/cmd.
 */
export function mayAccessTopic(principal: MqttPrincipal, access: MqttAccess, topic: string): boolean {
  switch (principal.kind) {
    case 'device':
      if (!DEVICE_LEVEL.test(principal.deviceId)) return false;
      return access === 'publish'
        ? deviceMessageTopic(topic)?.deviceId === principal.deviceId
        : topic === commandTopic(principal.deviceId);
    case 'portal':
      switch (access) {
        case 'publish':
          return ANY_DEVICE_COMMAND_TOPIC.test(topic);
        case 'subscribe':
          return PORTAL_SUBSCRIPTION.test(topic);
        case 'receive':
          return deviceMessageTopic(topic) !== null;
      }
  }
}
