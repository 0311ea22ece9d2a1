/**
 * Every instance hears at once of a device added, removed or moved to another plan (issue 17):
 * the database's notifications (Db.listen, migration 027's trigger) on PGlite and PostgreSQL, and
 * ingest through an external broker that takes a device provisioned on another instance a moment
 * after its first, ignored, message.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { openDatabase, type Db } from '../../src/db/db';
import { pgliteTemplate } from '../suite-setup';
import { migrate } from '../../src/db/migrate';
import { DEVICE_CHANNEL } from '../../src/ingest/mqtt-external';
import { provision, randomDeviceId } from '../device-helpers';
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

/** Collects what a channel says. */
async function heard(db: Db): Promise<{ payloads: (string | null)[]; stop: () => Promise<void> }> {
  const payloads: (string | null)[] = [];
  const stop = await db.listen(DEVICE_CHANNEL, (payload) => payloads.push(payload));
  return { payloads, stop };
}

async function addDevice(db: Db, id: string): Promise<void> {
  await db.query(
    `INSERT INTO devices (id, model, family, fw, key_hash, setup_password) VALUES ($1, 'ORB-C1', 'ORB', '1.0', 'x', 'x')`,
    [id],
  );
}

describe('device notifications on PGlite', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDatabase({ dataDir: 'memory://', pgliteTemplate: pgliteTemplate() });
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('names a device when it is added, changes plan or is removed, after the commit; not on a rollback', async () => {
    const { payloads, stop } = await heard(db);
    const id = randomDeviceId('N');
    await addDevice(db, id);
    await db.query(`UPDATE devices SET tier = 'PREMIUM' WHERE id = $1`, [id]);
    await db.query(`UPDATE devices SET notes = '{"a":1}' WHERE id = $1`, [id]);
    await db
      .transaction(async (tx) => {
        await tx.query(`UPDATE devices SET tier = 'BASIC' WHERE id = $1`, [id]);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await db.query('DELETE FROM devices WHERE id = $1', [id]);
    await until(() => payloads.length >= 3);
    expect(payloads).toEqual([id, id, id]);
    await stop();
    await addDevice(db, randomDeviceId('N'));
    await db.query('SELECT 1');
    expect(payloads).toHaveLength(3);
  });

  it('refuses a channel name that is not a plain identifier', async () => {
    await expect(db.listen('portal devices; drop', () => undefined)).rejects.toThrow(/channel/);
  });
});

await describeWhenPostgres('device notifications across instances on PostgreSQL', () => {
  let url: string;
  const schema = newSchemaName();
  let one: Db;
  let other: Db;
  beforeAll(async () => {
    url = (await findPostgres())!;
    one = await openDatabase({ dataDir: 'memory://', databaseUrl: url, schema });
    other = await openDatabase({ dataDir: 'memory://', databaseUrl: url, schema });
    await migrate(one);
  });
  afterAll(async () => {
    await one?.close();
    await other?.close();
    if (url) await dropSchema(url, schema);
  });

  it("one instance's change is heard by the other", async () => {
    const { payloads, stop } = await heard(other);
    const id = randomDeviceId('N');
    await addDevice(one, id);
    await until(() => payloads.includes(id));
    await stop();
  });
});

const withBroker = await brokerReachable(EXTERNAL_URL);

await describeWhenPostgres('a device provisioned on one instance is taken at once by the other', () => {
  let url: string;
  const schema = newSchemaName();
  let ingesting: TestPortal;
  let provisioning: TestPortal;

  beforeAll(async () => {
    if (!withBroker) return;
    url = (await findPostgres())!;
    // One instance takes the devices' messages from the broker; the other (with an embedded
    // broker of its own on a free port) provisions.
    // Debug logs: the test waits for the line saying the early message was ignored.
    ingesting = await startPortalForTest(
      quietTestConfig({ DATABASE_URL: url, MQTT_URL: EXTERNAL_URL, MQTT_ALLOW_ANONYMOUS: 'true', LOG_LEVEL: 'debug' }),
      {
        dbSchema: schema,
        mqttShareGroup: `notify${randomBytes(4).toString('hex')}`,
        mqttConnections: 2,
      },
    );
    provisioning = await startPortalForTest(quietTestConfig({ DATABASE_URL: url }), { dbSchema: schema });
  });
  afterAll(async () => {
    await ingesting?.close();
    await provisioning?.close();
    if (url) await dropSchema(url, schema);
  });

  it.skipIf(!withBroker)(
    'the record published right after provisioning is stored, not dropped as unknown',
    async () => {
      const id = randomDeviceId('N');
      const base = Math.floor(Date.now() / 1000) - 60;
      const device = await mqtt.connectAsync(EXTERNAL_URL, { clientId: `dev-${id}`, reconnectPeriod: 0 });
      try {
        // Before the device exists: ignored (and remembered as unknown by the ingesting instance).
        await device.publishAsync(`dev/${id}/data`, JSON.stringify({ ts: base, early: 1 }), { qos: 1 });
        await until(() =>
          ingesting.logs.lines.some(
            (l) => l.msg === 'MQTT message from an unknown device ignored' && l.deviceId === id,
          ),
        );
        await provision(provisioning, 'ORB-C1', id);
        await device.publishAsync(`dev/${id}/data`, JSON.stringify({ ts: base + 1, late: 2 }), { qos: 1 });
        const rows = await until(async () => {
          const found = await provisioning.portal.db.query<{ ts: number }>(
            'SELECT ts FROM records WHERE device_id = $1',
            [id],
          );
          return found.length > 0 ? found : undefined;
        });
        expect(rows.map((r) => r.ts)).toEqual([base + 1]);
      } finally {
        await device.endAsync();
      }
    },
  );
});
