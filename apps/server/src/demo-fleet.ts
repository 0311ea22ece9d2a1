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
  await presentDemoDevices(portal, fleet);
  if (file) writeFileSync(file, JSON.stringify({ devices: fleet } satisfies StoredFleet, null, 2), { mode: 0o600 });
  return fleet;
}

/** Trigger buttons of the demo devices' scripts (config.settings.script.triggers). */
const DEMO_TRIGGERS = [
  { index: 1, name: 'Sound Horn', colour: '#0284c7' },
  { index: 2, name: 'Beacon On', colour: '#16a34a' },
  { index: 3, name: 'Stop Engine', colour: '#d32f2f' },
];

/** Custom settings of the demo devices' scripts (num* numbers, str* text). */
const DEMO_CUSTOM_SETTINGS = { numSpeedLimit: 80, numIdleMinutes: 10, strSiteName: 'North Yard' };

/** Display settings that show the Data page's kinds of card on the demo devices. */
const DEMO_DISPLAY_SETTINGS = {
  vsys: {
    displayType: 'gauge',
    sort: 1,
    gaugeSettings: { min: 0, max: 32, warnLow: 10, warnHigh: 15, alarmLow: 9, alarmHigh: 16 },
  },
  ambient_temp: { displayType: 'trendline', sort: 2 },
  ambient_hum: { sort: 3 },
  digital1: {
    displayType: 'digital',
    sort: 4,
    digitalSettings: { lowThreshold: 0.5, lowString: 'Stopped', highString: 'Running' },
  },
  hourmeter_hrs: { displayType: 'hours', sort: 5 },
  cp1: { name: 'Engine Speed', units: 'rpm', dp: 0, sort: 6 },
  cp2: { name: 'Hydraulic Oil', units: '°C', dp: 1, sort: 7 },
  trigger3: { confirmEnabled: true, confirmText: 'Stop the engine now' },
};

/**
 * Gives the new demo devices trigger parameters and display settings, as their owner would:
 * through the portal's own API (PUT config and settings), signed in as the demo user.
 */
async function presentDemoDevices(portal: Portal, fleet: readonly FleetDevice[]): Promise<void> {
  const login = await portal.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'x-requested-with': 'portal' },
    payload: { email: DEMO_USER.email, password: DEMO_USER.password },
  });
  const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const headers = { cookie, 'x-requested-with': 'portal' };
  for (const device of fleet) {
    for (const [url, payload] of [
      [
        `/api/device/${device.id}/config`,
        { config: { settings: { script: { triggers: DEMO_TRIGGERS, ...DEMO_CUSTOM_SETTINGS } } } },
      ],
      [`/api/device/${device.id}/settings`, { PORTAL_displaySettings: DEMO_DISPLAY_SETTINGS }],
    ] as const) {
      const answer = await portal.app.inject({ method: 'PUT', url, headers, payload });
      if (answer.statusCode !== 200)
        portal.app.log.warn({ url, status: answer.statusCode, body: answer.body }, 'Demo device set-up call failed');
    }
  }
  await portal.app.inject({ method: 'POST', url: '/api/auth/logout', headers });
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
