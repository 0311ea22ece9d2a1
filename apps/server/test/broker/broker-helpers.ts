/** A portal with its embedded broker under given MQTT settings, and raw sockets to talk to it. */
import net from 'node:net';
import { quietTestConfig, startPortalForTest, type TestPortal } from '../helpers';

/** A portal on an in-memory database and ephemeral ports, with these extra variables (e.g. MQTT_MAX_PACKET_BYTES). */
export async function startBrokerPortal(env: Record<string, string>): Promise<TestPortal> {
  return startPortalForTest(quietTestConfig(env));
}

/** A plain TCP connection to the broker, and a promise of its close (with when it came). */
export async function rawSocket(port: number): Promise<{ socket: net.Socket; closed: Promise<number> }> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.resume();
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed };
}

/** MQTT's variable-length integer (the remaining length of a fixed header). */
export function remainingLength(n: number): Buffer {
  const bytes: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    bytes.push(byte);
  } while (n > 0);
  return Buffer.from(bytes);
}

/** Resolves with `value` after `ms`. */
export const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
