/**
 * The demo fleet of `npm start`: six ORB and QUAD devices provisioned and claimed for the demo
 * account through the same services a person uses, then run by the simulator over the portal's
 * own MQTT broker. Device keys are shown only once, so they are kept in DATA_DIR/demo-fleet.json
 * to run the same fleet again after a restart.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEVICE_MODELS, type DeviceModel } from '@portal/core';
import { startFleet, type Fleet, type FleetDevice } from '@portal/simulator';
import type { Portal } from './portal';
import { DEMO_USER } from './seed';

const DEMO_DEVICES: readonly { id: string; model: DeviceModel; name: string }[] = [
  { id: 'DEMO00001', model: 'ORB-C1', name: 'Yard Pump 1' },
  { id: 'DEMO00002', model: 'ORB-X1', name: 'Cold Store' },
  { id: 'DEMO00003', model: 'QUAD-C2', name: 'Excavator 12' },
  { id: 'DEMO00004', model: 'QUAD-X2', name: 'Haul Truck 7' },
  { id: 'DEMO00005', model: 'QUAD-C2', name: 'Generator North' },
  { id: 'DEMO00006', model: 'ORB-C1', name: 'Tank Farm 3' },
];

/** Seconds between the demo devices' contacts (their delivered config may change it). */
const DEMO_INTERVAL_S = 15;

interface StoredFleet {
  devices: FleetDevice[];
}

/** Provisions and claims the demo devices when missing; returns their credentials, or null. */
async function ensureDemoDevices(portal: Portal, file: string | null): Promise<FleetDevice[] | null> {
  if (file && existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as StoredFleet).devices;
  const { auth, devices } = portal.app.services;
  const owner = await auth.findUserByEmail(DEMO_USER.email);
  if (!owner) return null;
  const fleet: FleetDevice[] = [];
  for (const spec of DEMO_DEVICES) {
    if (!DEVICE_MODELS.includes(spec.model)) continue;
    const created = await devices.createDevice(spec.id, { model: spec.model, name: spec.name }, 'demo');
    // A device that exists without stored credentials (another data folder) is left out.
    if (!created) continue;
    await devices.claim(owner, spec.id, { setupPassword: created.setupPassword });
    fleet.push({ id: spec.id, key: created.deviceKey, model: spec.model, seed: spec.id });
  }
  if (file) writeFileSync(file, JSON.stringify({ devices: fleet } satisfies StoredFleet, null, 2), { mode: 0o600 });
  return fleet;
}

/** Starts the demo fleet against the portal's MQTT broker (or MQTT_URL); null when there is nothing to run. */
export async function startDemoFleet(
  portal: Portal,
  options: { dataDir: string; mqttUrl?: string },
): Promise<Fleet | null> {
  const mqttUrl = options.mqttUrl ?? (portal.mqttPort === null ? null : `mqtt://127.0.0.1:${portal.mqttPort}`);
  if (!mqttUrl) return null;
  let file: string | null = null;
  if (options.dataDir !== 'memory://') {
    mkdirSync(options.dataDir, { recursive: true });
    file = join(options.dataDir, 'demo-fleet.json');
  }
  const devices = await ensureDemoDevices(portal, file);
  if (!devices || devices.length === 0) return null;
  return startFleet({
    devices,
    transport: 'mqtt',
    mqttUrl,
    // Files queued for a device are downloaded over HTTP from the portal itself.
    httpUrl: `http://127.0.0.1:${portal.port}`,
    baseInterval: DEMO_INTERVAL_S,
    log: (line) => portal.app.log.debug(line),
  });
}
