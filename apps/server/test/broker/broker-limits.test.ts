/**
 * The embedded broker's packet cap and connect deadline, over real sockets: a packet declaring
 * more than MQTT_MAX_PACKET_BYTES closes its connection before its body is sent (nothing is
 * buffered, nothing stored), the largest legal record still goes through, and a connection
 * that never sends CONNECT is closed after MQTT_CONNECT_TIMEOUT_MS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_LIMITS } from '@portal/core';
import type { TestPortal } from '../helpers';
import { randomDeviceId } from '../device-helpers';
import { closed, connectDevice, makeDevice, until } from '../ingest-helpers';
import { after, rawSocket, remainingLength, startBrokerPortal } from './broker-helpers';

const CONNECT_TIMEOUT_MS = 3000;
const MAX_PACKET_BYTES = 262_144;

describe('embedded broker limits', () => {
  let tp: TestPortal;
  let url: string;
  let port: number;

  beforeAll(async () => {
    tp = await startBrokerPortal({
      MQTT_MAX_PACKET_BYTES: String(MAX_PACKET_BYTES),
      MQTT_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
    });
    port = tp.portal.mqttPort!;
    url = `mqtt://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await tp?.close();
  });

  const recordCount = async (deviceId: string) =>
    (
      await tp.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM records WHERE device_id = $1', [deviceId])
    )[0]!.n;

  /** The reasons the broker gave in its log for closing connections at their limits. */
  const limitReasons = () =>
    tp.logs.lines.filter((l) => l.msg === 'MQTT connection closed at its limits').map((l) => String(l.reason));

  it('closes a connection whose CONNECT declares 200 MiB as soon as the header arrives, before any body', async () => {
    const { socket, closed: closedAt } = await rawSocket(port);
    const header = Buffer.concat([Buffer.from([0x10]), remainingLength(200 * 1024 * 1024)]);
    const sentAt = Date.now();
    socket.write(header);
    // Well before the connect deadline, which would close it too.
    const at = await Promise.race([closedAt, after(CONNECT_TIMEOUT_MS - 1000, null)]);
    expect(at, 'closed before the connect deadline').not.toBeNull();
    expect(at! - sentAt).toBeLessThan(CONNECT_TIMEOUT_MS - 1000);
    expect(socket.bytesWritten).toBe(header.length);
    await until(() => limitReasons().some((r) => /at least \d+ bytes is over the limit of 262144/.test(r)));
  });

  it('disconnects a device whose PUBLISH is over the cap and stores nothing of it', async () => {
    const device = await makeDevice(tp, randomDeviceId('P'));
    const client = await connectDevice(url, device.id, device.key);
    client.on('error', () => undefined);
    const gone = closed(client);
    const ts = Math.floor(tp.clock.now().getTime() / 1000);
    const records = Array.from({ length: 300 }, (_, i) => ({ ts: ts - i, note: 'x'.repeat(1000) }));
    const payload = Buffer.from(JSON.stringify(records));
    expect(payload.length).toBeGreaterThan(MAX_PACKET_BYTES);
    client.publish(`dev/${device.id}/data`, payload, { qos: 1 }, () => undefined);
    expect(await Promise.race([gone.then(() => 'closed'), after(CONNECT_TIMEOUT_MS, 'still open')])).toBe('closed');
    await until(() => limitReasons().some((r) => r.includes(`over the limit of ${MAX_PACKET_BYTES}`)));
    await client.endAsync(true);
    expect(await recordCount(device.id)).toBe(0);
  });

  it('still takes the largest legal record message (just under 64 kB) and acknowledges it once stored', async () => {
    const device = await makeDevice(tp, randomDeviceId('L'));
    const client = await connectDevice(url, device.id, device.key);
    try {
      const ts = Math.floor(tp.clock.now().getTime() / 1000);
      const records = Array.from({ length: 62 }, (_, i) => ({ ts: ts - i, note: 'x'.repeat(1000) }));
      const payload = Buffer.from(JSON.stringify(records));
      expect(payload.length).toBeGreaterThan(RECORD_LIMITS.maxPayloadBytes - 2000);
      expect(payload.length).toBeLessThanOrEqual(RECORD_LIMITS.maxPayloadBytes);
      await client.publishAsync(`dev/${device.id}/data`, payload, { qos: 1 });
      expect(await recordCount(device.id)).toBe(62);
      expect(client.connected).toBe(true);
    } finally {
      await client.endAsync();
    }
  });

  it('closes a connection that never sends CONNECT after MQTT_CONNECT_TIMEOUT_MS', async () => {
    const { socket, closed: closedAt } = await rawSocket(port);
    const openedAt = Date.now();
    const at = await Promise.race([closedAt, after(CONNECT_TIMEOUT_MS + 2000, null)]);
    expect(at, 'closed by the server').not.toBeNull();
    expect(at! - openedAt).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 100);
    expect(socket.bytesWritten).toBe(0);
  });
});
