/**
 * Two instances on one PostgreSQL behind one external broker (issue 17): the devices' messages
 * are shared between them, and an instance that stops gracefully while a device publishes hands
 * what it had been sent over to the store before it leaves: every message the broker accepted is
 * stored once.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { provision } from '../device-helpers';
import {
  describeWhenPostgres,
  dropSchema,
  findPostgres,
  newSchemaName,
  quietTestConfig,
  startPortalForTest,
  type TestPortal,
} from '../helpers';
import { EXTERNAL_MQTT_URL, brokerReachable, until } from '../ingest-helpers';

const EXTERNAL_URL = EXTERNAL_MQTT_URL;
const MESSAGES = 600;

const withBroker = await brokerReachable(EXTERNAL_URL);

await describeWhenPostgres('two instances behind one external broker', () => {
  let url: string;
  const schema = newSchemaName();
  const shareGroup = `scale${randomBytes(4).toString('hex')}`;
  let first: TestPortal;
  let second: TestPortal;

  beforeAll(async () => {
    if (!withBroker) return;
    url = (await findPostgres())!;
    const config = quietTestConfig({ DATABASE_URL: url, MQTT_URL: EXTERNAL_URL, MQTT_ALLOW_ANONYMOUS: 'true' });
    first = await startPortalForTest(config, { dbSchema: schema, mqttShareGroup: shareGroup, mqttConnections: 2 });
    second = await startPortalForTest(config, { dbSchema: schema, mqttShareGroup: shareGroup, mqttConnections: 2 });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    if (url) await dropSchema(url, schema);
  });

  it.skipIf(!withBroker)(
    'an instance stopped while a device publishes stores what it was sent before it leaves: 0 lost, 0 twice',
    async () => {
      const { deviceid } = await provision(first);
      const device = await mqtt.connectAsync(EXTERNAL_URL, { clientId: `dev-${deviceid}`, reconnectPeriod: 0 });
      try {
        const base = Math.floor(Date.now() / 1000) - 3600;
        const sent: Promise<unknown>[] = [];
        let stopping: Promise<void> | undefined;
        for (let i = 0; i < MESSAGES; i += 1) {
          sent.push(device.publishAsync(`dev/${deviceid}/data`, JSON.stringify({ ts: base + i, n: i }), { qos: 1 }));
          // A third of the way in, the first instance is told to stop (SIGTERM's path).
          if (i === MESSAGES / 3) stopping = first.close();
          if (i % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await Promise.all(sent);
        await stopping;
        const rows = await until(async () => {
          const found = await second.portal.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM records WHERE device_id = $1',
            [deviceid],
          );
          return found[0]!.n >= MESSAGES ? found : undefined;
        }, 100);
        expect(rows[0]!.n).toBe(MESSAGES);
      } finally {
        await device.endAsync();
      }
    },
  );
});
