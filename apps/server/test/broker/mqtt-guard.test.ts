/**
 * The connection guard on real sockets, read the way Aedes reads them ('readable' and read()):
 * until its CONNACK a connection may send at most the cap in all, and it has the connect
 * timeout to get there.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { guardConnection, type ConnectionGuard } from '../../src/ingest/mqtt-guard';
import { until } from '../ingest-helpers';
import { after, rawSocket } from './broker-helpers';

const LIMITS = { maxPacketBytes: 70_000, connectTimeoutMs: 60_000 };
/** PINGREQ packets: legal, 2 bytes each. */
const pings = (bytes: number) => Buffer.alloc(bytes, Buffer.from([0xc0, 0x00]));

describe('guardConnection', () => {
  let server: net.Server | undefined;
  const sockets = new Set<net.Socket>();
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** A server that reads each connection like Aedes and guards it; resolves with its port and the guards by client port. */
  async function guardedServer(limits = LIMITS) {
    const guards = new Map<number, ConnectionGuard>();
    const refusals: string[] = [];
    let received = 0;
    server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('readable', () => {
        for (let chunk = socket.read() as Buffer | null; chunk; chunk = socket.read() as Buffer | null) {
          received += chunk.length;
        }
      });
      guards.set(
        socket.remotePort!,
        guardConnection(socket, limits, (reason) => refusals.push(reason)),
      );
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as net.AddressInfo).port, guards, refusals, received: () => received };
  }

  it('closes a connection that sends more than the cap before it is accepted', async () => {
    const s = await guardedServer();
    const { socket, closed } = await rawSocket(s.port);
    socket.write(pings(LIMITS.maxPacketBytes + 2));
    expect(await Promise.race([closed.then(() => 'closed'), after(5000, 'open')])).toBe('closed');
    expect(s.refusals).toEqual([expect.stringMatching(/bytes sent before the connection was accepted/)]);
  });

  it('lets an accepted connection send any number of legal packets', async () => {
    const s = await guardedServer();
    const { socket, closed } = await rawSocket(s.port);
    (await until(() => s.guards.get(socket.localPort!))).accept();
    socket.write(pings(4 * LIMITS.maxPacketBytes));
    await until(() => s.received() === 4 * LIMITS.maxPacketBytes);
    expect(await Promise.race([closed.then(() => 'closed'), after(100, 'open')])).toBe('open');
    expect(s.refusals).toEqual([]);
    socket.destroy();
  });

  it('closes a connection not accepted within the connect timeout, and not one accepted in time', async () => {
    const s = await guardedServer({ ...LIMITS, connectTimeoutMs: 300 });
    const late = await rawSocket(s.port);
    const early = await rawSocket(s.port);
    (await until(() => s.guards.get(early.socket.localPort!))).accept();
    expect(await Promise.race([late.closed.then(() => 'closed'), after(3000, 'open')])).toBe('closed');
    expect(await Promise.race([early.closed.then(() => 'closed'), after(300, 'open')])).toBe('open');
    expect(s.refusals).toEqual(['no accepted CONNECT within 300 ms']);
    early.socket.destroy();
  });
});
