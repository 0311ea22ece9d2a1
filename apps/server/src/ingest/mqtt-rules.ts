/**
 * What an MQTT broker admits, as pure rules: the size a packet may declare (mqtt-guard.ts), the
 * client ids a device may use, and the topics each client may publish, subscribe and receive on.
 * The embedded broker (mqtt.ts) and the HTTP hooks an external broker asks (modules/mqtt-auth)
 * apply the same rules.
 */
import { DEVICE_ID_PATTERN } from '@portal/core';

/** MQTT's remaining length takes at most 4 bytes (MQTT 3.1.1 section 2.2.3). */
const MAX_LENGTH_BYTES = 4;

/**
 * Reads the fixed headers of an MQTT byte stream as it passes, chunk by chunk, and skips each
 * packet's body without keeping it. `read` returns why the stream must be closed as soon as a
 * packet declares more than `maxPacketBytes` (fixed header included), before its body arrives.
 */
export class FixedHeaderReader {
  /** Body bytes of the current packet still to skip. */
  private skip = 0;
  /** Where the next header byte goes: the type byte, or one of the remaining-length bytes. */
  private inLength = false;
  private length = 0;
  private lengthBytes = 0;
  private multiplier = 1;

  constructor(private readonly maxPacketBytes: number) {}

  /** Reads the next bytes of the stream; returns a refusal reason, or null while every packet fits. */
  read(chunk: Uint8Array): string | null {
    let i = 0;
    while (i < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
        continue;
      }
      const byte = chunk[i++]!;
      if (!this.inLength) {
        this.inLength = true;
        this.length = 0;
        this.lengthBytes = 0;
        this.multiplier = 1;
        continue;
      }
      this.length += (byte & 0x7f) * this.multiplier;
      this.multiplier *= 128;
      this.lengthBytes += 1;
      // Each length byte only adds: a partial length already over the cap is refused at once.
      const declared = 1 + this.lengthBytes + this.length;
      if (declared > this.maxPacketBytes) {
        return `a packet of at least ${declared} bytes is over the limit of ${this.maxPacketBytes}`;
      }
      if (byte & 0x80) {
        if (this.lengthBytes === MAX_LENGTH_BYTES) return 'a malformed remaining length';
        continue;
      }
      this.inLength = false;
      this.skip = this.length;
    }
    return null;
  }
}

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
