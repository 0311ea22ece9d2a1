/**
 * Bounds what one connection to the embedded broker may make the server hold. Aedes (through
 * mqtt-packet, which has no size limit) buffers a packet whole before anything checks it, so a
 * CONNECT or PUBLISH declaring hundreds of MB would be kept in memory as it arrives. The guard
 * reads each fixed header as Aedes reads the socket and closes the connection when a packet
 * declares more than the cap, before its body is buffered; until the connection has its CONNACK
 * it may send at most the cap in all, and it must get there within the connect timeout.
 */
import type { Socket } from 'node:net';
import { FixedHeaderReader } from './mqtt-fixed-header';

export interface MqttConnectionLimits {
  /** The largest packet accepted, fixed header included (MQTT_MAX_PACKET_BYTES). */
  maxPacketBytes: number;
  /** Time from the TCP connection to an accepted CONNECT (MQTT_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs: number;
}

export interface ConnectionGuard {
  /** The connection is authenticated and has its CONNACK: the deadline and the byte bound before it end. */
  accept(): void;
}

/**
 * Watches `socket`, which Aedes already handles, and destroys it (telling `onRefused` why) when
 * it breaks one of the limits. Call after `broker.handle(socket)`: with Aedes's 'readable'
 * listener in place, this 'data' listener sees each chunk as Aedes reads it and does not change
 * how the socket is read. Aedes stops reading while it authenticates or handles a packet, so the
 * bytes it has not read wait in the kernel (TCP backpressure), not in the process.
 */
export function guardConnection(
  socket: Socket,
  limits: MqttConnectionLimits,
  onRefused: (reason: string) => void,
): ConnectionGuard {
  const headers = new FixedHeaderReader(limits.maxPacketBytes);
  let accepted = false;
  let bytesBeforeAccept = 0;
  const refuse = (reason: string) => {
    clearTimeout(deadline);
    socket.off('data', check);
    if (socket.destroyed) return;
    socket.destroy();
    onRefused(reason);
  };
  const check = (chunk: Buffer) => {
    const refusal = headers.read(chunk);
    if (refusal) return refuse(refusal);
    if (accepted) return;
    bytesBeforeAccept += chunk.length;
    if (bytesBeforeAccept > limits.maxPacketBytes) {
      refuse(`${bytesBeforeAccept} bytes sent before the connection was accepted (limit ${limits.maxPacketBytes})`);
    }
  };
  const deadline = setTimeout(
    () => refuse(`no accepted CONNECT within ${limits.connectTimeoutMs} ms`),
    limits.connectTimeoutMs,
  );
  socket.on('data', check);
  socket.once('close', () => clearTimeout(deadline));
  return {
    accept() {
      accepted = true;
      clearTimeout(deadline);
    },
  };
}
