/**
 * Brings an external Mosquitto's device accounts (dynamic security plugin) in line with the
 * database (issue 17):
 *
 *   MQTT_URL=mqtt://admin:secret@broker:1883 DATABASE_URL=postgres://... npm run broker-sync -- [--keys batch.csv ...]
 *
 * Removes the device clients of devices that are gone, makes every device's role exactly its own
 * topics, and gives the devices listed in the CSV files (the provisioning page's batch CSV:
 * columns 'Device ID' and 'Device key'; keys are checked against the stored hashes) their client
 * and password. Devices with no client and no key are listed: the portal keeps only key hashes.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../config';
import { openDatabase } from '../db/db';
import { migrate } from '../db/migrate';
import { systemClock } from '../clock';
import { createDeviceRegistry } from '../modules/devices/devices.registry';
import { listDeviceIds } from '../modules/devices/devices.repository';
import { connectDynsec } from '../modules/broker/broker-accounts.service';
import { syncDeviceAccounts } from '../modules/broker/broker-sync';
import { brokerUrlUser } from '../modules/broker/broker-check';

const USAGE = 'Usage: MQTT_URL=mqtt://admin:password@broker:1883 npm run broker-sync -- [--keys file.csv ...]';

/** Device id -> key from CSV text with a header naming the id and key columns. */
export function keysFromCsv(text: string): Map<string, string> {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const cells = (line: string) => line.split(',').map((cell) => cell.trim().replace(/^"(.*)"$/, '$1'));
  const header = cells(lines[0] ?? '').map((name) => name.toLowerCase().replace(/[\s_-]/g, ''));
  const idColumn = header.findIndex((name) => name === 'deviceid' || name === 'id');
  const keyColumn = header.findIndex((name) => name === 'devicekey' || name === 'key');
  if (idColumn < 0 || keyColumn < 0) throw new Error("The CSV needs the columns 'Device ID' and 'Device key'.");
  const keys = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const row = cells(line);
    if (row[idColumn] && row[keyColumn]) keys.set(row[idColumn], row[keyColumn]);
  }
  return keys;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { keys: { type: 'string', multiple: true }, help: { type: 'boolean' } } });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  if (!config.mqttUrl) throw new Error(`MQTT_URL is not set.\n${USAGE}`);
  const user = brokerUrlUser(config.mqttUrl).username;
  if (!user) throw new Error("MQTT_URL must name the dynamic security plugin's admin user.");
  const keys = new Map<string, string>();
  for (const file of values.keys ?? [])
    for (const [id, key] of keysFromCsv(readFileSync(file, 'utf8'))) keys.set(id, key);

  const db = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const dynsec = await connectDynsec(config.mqttUrl);
  try {
    await migrate(db);
    await dynsec.ensureServerRole(user);
    const registry = createDeviceRegistry({ db, clock: systemClock });
    const report = await syncDeviceAccounts({
      dynsec,
      deviceIds: await listDeviceIds(db),
      keys,
      verify: (id, key) => registry.verifyDeviceKey(id, key),
    });
    const list = (ids: string[]) =>
      ids.length > 10 ? `${ids.slice(0, 10).join(', ')} and ${ids.length - 10} more` : ids.join(', ');
    console.log(
      `Device accounts at the broker: ${report.keyed.length} given their key, ${report.checked.length} checked, ${report.removed.length} removed.`,
    );
    if (report.removed.length) console.log(`  Removed (no such device): ${list(report.removed)}`);
    if (report.refused.length)
      console.log(`  Keys not used (not the device's key, or no such device): ${list(report.refused)}`);
    if (report.missing.length)
      console.log(
        `  ${report.missing.length} device(s) have no account at the broker and no key was given (--keys): ${list(report.missing)}`,
      );
  } finally {
    await dynsec.close();
    await db.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
