/**
 * Holds each PUBACK of an external broker's QoS 1 message until the message is stored, without
 * making the connection wait (mqtt-external.ts), up to a bound of messages per connection.
 */
import type { IPublishPacket, MqttClient } from 'mqtt';

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
