/**
 * Client ids on the embedded broker belong to one device each: a device with a valid key that
 * connects with another device's client id is refused (CONNACK 2), and the other device's
 * connection stays up and keeps publishing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { TestPortal } from '../helpers';
import { randomDeviceId } from '../device-helpers';
import { connectDevice, makeDevice } from '../ingest-helpers';
import { after, startBrokerPortal } from './broker-helpers';

describe('embedded broker client ids', () => {
  let tp: TestPortal;
  let url: string;

  beforeAll(async () => {
    tp = await startBrokerPortal({});
    url = `mqtt://127.0.0.1:${tp.portal.mqttPort}`;
  });
  afterAll(async () => {
    await tp?.close();
  });

  const recordCount = async (deviceId: string) =>
    (
      await tp.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM records WHERE device_id = $1', [deviceId])
    )[0]!.n;

  /** The CONNACK return code a connection attempt got (0: accepted, then closed again). */
  async function connackCode(id: string, key: string, clientId: string): Promise<number> {
    try {
      const client = await connectDevice(url, id, key, { clientId });
      await client.endAsync();
      return 0;
    } catch (error) {
      return (error as { code?: number }).code ?? -1;
    }
  }

  it("refuses a device that connects with another device's client id, and the other device stays connected", async () => {
    const a = await makeDevice(tp, randomDeviceId('A'));
    const b = await makeDevice(tp, randomDeviceId('B'));
    // A connects as the simulator does: its id as client id.
    const deviceA: MqttClient = await connectDevice(url, a.id, a.key, { clientId: a.id });
    let aClosed = 0;
    deviceA.on('close', () => (aClosed += 1));
    const ts = Math.floor(tp.clock.now().getTime() / 1000);
    try {
      await deviceA.publishAsync(`dev/${a.id}/data`, JSON.stringify({ ts: ts - 2, level: 1 }), { qos: 1 });

      // B has a valid key, but not for these client ids; a wrong key is refused as such.
      expect(await connackCode(b.id, b.key, a.id)).toBe(2);
      expect(await connackCode(b.id, b.key, `${a.id}-x`)).toBe(2);
      expect(await connackCode(b.id, b.key, '')).toBe(2);
      expect(await connackCode(b.id, b.key, `${b.id}${a.id}`)).toBe(2);
      expect(await connackCode(b.id, 'not-the-key', a.id)).toBe(4);

      await after(200, null);
      expect(aClosed).toBe(0);
      expect(deviceA.connected).toBe(true);
      await deviceA.publishAsync(`dev/${a.id}/data`, JSON.stringify({ ts: ts - 1, level: 2 }), { qos: 1 });
      expect(await recordCount(a.id)).toBe(2);
      expect(await recordCount(b.id)).toBe(0);
    } finally {
      await deviceA.endAsync();
    }
  });

  it('accepts a device with its own id as client id, or its id, "-" and a suffix', async () => {
    const b = await makeDevice(tp, randomDeviceId('B'));
    expect(await connackCode(b.id, b.key, b.id)).toBe(0);
    expect(await connackCode(b.id, b.key, `${b.id}-tool-1`)).toBe(0);
  });
});
