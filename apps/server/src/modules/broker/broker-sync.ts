/**
 * Brings an external Mosquitto's device accounts in line with the database (`npm run broker-sync`,
 * MQTT_DEVICE_AUTH=dynsec): removes the clients of devices that are gone, makes each device's role
 * exact and gives keyed devices their client and password, through broker-accounts.service.ts.
 */
import { DEVICE_CLIENT_TEXT, type DynsecClient } from './broker-accounts.service';

/** What `syncDeviceAccounts` did. */
export interface SyncReport {
  /** Devices whose client was made or whose password was set from a given key. */
  keyed: string[];
  /** Device clients whose role was brought in line (their password left as it is). */
  checked: string[];
  /** Device clients removed: their device is no longer in the database. */
  removed: string[];
  /** Devices with no client at the broker and no key given: they cannot connect through it. */
  missing: string[];
  /** Keys given that are not the device's key (or of no device): not used. */
  refused: string[];
}

/**
 * Brings the broker's device accounts in line with the database (`npm run broker-sync`): a device
 * client of a device that is gone is removed; every device's role is made exact; a device given
 * with its key (a provisioning CSV) gets its client and password. The portal keeps only hashes of
 * keys, so a device missing at the broker without a key is reported, not invented.
 */
export async function syncDeviceAccounts(options: {
  dynsec: DynsecClient;
  deviceIds: readonly string[];
  keys: ReadonlyMap<string, string>;
  /** True when `key` is the device's key (the registry's check against the stored hash). */
  verify: (id: string, key: string) => Promise<boolean>;
}): Promise<SyncReport> {
  const { dynsec } = options;
  const report: SyncReport = { keyed: [], checked: [], removed: [], missing: [], refused: [] };
  const known = new Set(options.deviceIds);
  const clients = await dynsec.listClients();
  const deviceClients = new Set(clients.filter((c) => c.textname === DEVICE_CLIENT_TEXT).map((c) => c.username));
  const anyClient = new Set(clients.map((c) => c.username));
  for (const id of deviceClients) {
    if (known.has(id)) continue;
    await dynsec.removeDevice(id);
    report.removed.push(id);
  }
  for (const [id, key] of options.keys) {
    if (!known.has(id) || !(await options.verify(id, key))) report.refused.push(id);
  }
  for (const id of options.deviceIds) {
    const key = options.keys.get(id);
    if (key !== undefined && !report.refused.includes(id)) {
      await dynsec.addDevice(id, key);
      report.keyed.push(id);
    } else if (anyClient.has(id)) {
      await dynsec.ensureDeviceRole(id);
      report.checked.push(id);
    } else report.missing.push(id);
  }
  return report;
}
