/**
 * Device accounts in Mosquitto's dynamic security plugin (issue 17), against a private broker:
 * what `npm run broker-sync` does, the CSV it reads, and a provisioning the broker cannot take.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { connectDynsec, deviceRole, type DynsecClient } from '../../src/modules/broker/broker-accounts.service';
import { syncDeviceAccounts } from '../../src/modules/broker/broker-sync';
import { keysFromCsv } from '../../src/cli/broker-sync';
import { createDeviceRegistry } from '../../src/modules/devices/devices.registry';
import { openDatabase, type Db } from '../../src/db/db';
import { pgliteTemplate } from '../suite-setup';
import { migrate } from '../../src/db/migrate';
import { TestClock } from '../helpers';
import { privateBrokerAvailable, startPrivateBroker, type PrivateBroker } from '../private-broker';

const usable = privateBrokerAvailable();
if (!usable && process.env.REQUIRE_SERVICES === '1')
  throw new Error('mosquitto with its dynamic security plugin is needed (apt-get install mosquitto mosquitto-clients)');

describe.skipIf(!usable)('device accounts at a Mosquitto with the dynamic security plugin', () => {
  let broker: PrivateBroker;
  let dynsec: DynsecClient;
  let db: Db;

  beforeAll(async () => {
    broker = await startPrivateBroker();
    dynsec = await connectDynsec(broker.portalUrl);
    await dynsec.ensureServerRole('portal');
    db = await openDatabase({ dataDir: 'memory://', pgliteTemplate: pgliteTemplate() });
    await migrate(db);
  }, 60_000);
  afterAll(async () => {
    await dynsec?.close();
    await db?.close();
    await broker?.stop();
  });

  const connects = (id: string, key: string) =>
    mqtt.connectAsync(broker.url, { clientId: id, username: id, password: key, reconnectPeriod: 0 }).then(
      (client) => client.endAsync().then(() => true),
      () => false,
    );

  it('gives a provisioned device its account, and a broker that refuses leaves no device behind', async () => {
    const registry = createDeviceRegistry({ db, clock: new TestClock(), brokerAccounts: dynsec });
    const made = await registry.createDevice('ACC000001', { model: 'ORB-C1' }, 'test');
    expect(await connects('ACC000001', made!.deviceKey)).toBe(true);
    expect(await connects('ACC000001', 'wrong')).toBe(false);

    const refusing = createDeviceRegistry({
      db,
      clock: new TestClock(),
      brokerAccounts: { addDevice: () => Promise.reject(new Error('no answer')), close: () => Promise.resolve() },
    });
    await expect(refusing.createDevice('ACC000002', { model: 'ORB-C1' }, 'test')).rejects.toMatchObject({
      statusCode: 503,
      code: 'UNAVAILABLE',
    });
    expect(await registry.getDevice('ACC000002')).toBeNull();
  });

  it('brings the broker in line: removes gone devices, makes roles exact, keys devices from a CSV', async () => {
    const registry = createDeviceRegistry({ db, clock: new TestClock() });
    // Made without the broker (as before dynsec was on): no account yet.
    const unkeyed = await registry.createDevice('ACC000003', { model: 'ORB-C1' }, 'test');
    const alsoUnkeyed = await registry.createDevice('ACC000004', { model: 'ORB-C1' }, 'test');
    // An account whose device is gone, and a role widened by hand.
    await dynsec.addDevice('GONE00001', 'old-key');
    await dynsec.run([
      {
        command: 'addRoleACL',
        rolename: deviceRole('ACC000001'),
        acltype: 'publishClientSend',
        topic: '#',
        allow: true,
      },
    ]);
    const csv = `Device ID,Model,Firmware,Name,Setup password,Device key,Result\nACC000003,ORB-C1,,,x,${unkeyed!.deviceKey},Created\nACC000004,ORB-C1,,,x,not-its-key,Created\n`;
    const report = await syncDeviceAccounts({
      dynsec,
      deviceIds: ['ACC000001', 'ACC000003', 'ACC000004'],
      keys: keysFromCsv(csv),
      verify: (id, key) => registry.verifyDeviceKey(id, key),
    });
    expect(report).toEqual({
      keyed: ['ACC000003'],
      checked: ['ACC000001'],
      removed: ['GONE00001'],
      missing: ['ACC000004'],
      refused: ['ACC000004'],
    });
    expect(await connects('ACC000003', unkeyed!.deviceKey)).toBe(true);
    expect(await connects('ACC000004', alsoUnkeyed!.deviceKey)).toBe(false);
    expect(await connects('GONE00001', 'old-key')).toBe(false);
    const [role] = await dynsec.run([{ command: 'getRole', rolename: deviceRole('ACC000001') }]);
    const topics = (role!.data as { role: { acls: { topic: string }[] } }).role.acls.map((a) => a.topic);
    expect(topics).not.toContain('#');
    expect(new Set(topics)).toEqual(
      new Set(['dev/ACC000001/data', 'dev/ACC000001/diag', 'dev/ACC000001/ack', 'dev/ACC000001/cmd']),
    );
  });

  it('reads the provisioning CSV by its column names', () => {
    expect([...keysFromCsv('"Device ID","Device key"\r\nABC123DEF,"k1"\r\n\r\n')]).toEqual([['ABC123DEF', 'k1']]);
    expect(() => keysFromCsv('id,model\nA,B\n')).toThrow(/Device key/);
  });
});
