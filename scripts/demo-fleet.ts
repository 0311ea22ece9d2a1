/**
 * The demo fleet of `npm start` (scripts/start.mjs runs this once the portal listens): six ORB and
 * QUAD devices provisioned by the staff account and added by the demo account into its two groups
 * (a site and its vehicles) through the portal's public API, then run by the simulator over the portal's MQTT broker. Device keys are answered only
 * once, so they are kept in DATA_DIR/demo-fleet.json to run the same fleet again after a restart.
 * The server knows nothing of the simulator: this is an ordinary API client and a fleet of devices.
 *
 *   PORT=8080 [MQTT_PORT=1883 | MQTT_URL=mqtt://...] [DATA_DIR=./data] npm run demo-fleet
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AssetType, DeviceModel } from '@portal/core';
import { startFleet, type Fleet, type FleetDevice } from '@portal/simulator';
import { loadConfig } from '../apps/server/src/config';
import { DEMO_USER, STAFF_USER } from '../apps/server/src/seed';

/** The demo account's groups (created through POST /api/group); each demo device is added into one. */
export const DEMO_GROUPS = ['North Yard', 'Vehicles'] as const;

/**
 * The demo devices: engine-driven plant and trucks (the simulator's machines start, idle, work and
 * drive about; the display settings name cp1 Engine Speed and cp2 Hydraulic Oil, and the triggers
 * sound the horn, light the beacon and stop the engine), each named for what its asset notes say it
 * is: the name holds the asset type's last word.
 */
export const DEMO_DEVICES: readonly {
  id: string;
  model: DeviceModel;
  name: string;
  group: (typeof DEMO_GROUPS)[number];
  notes: { asset_type: AssetType; make: string; model: string; status: string };
}[] = [
  {
    id: 'DEMO00001',
    model: 'ORB-C1',
    name: 'Yard Loader 1',
    group: 'North Yard',
    notes: { asset_type: 'Loader', make: 'Caterpillar', model: '950M', status: 'In service' },
  },
  {
    id: 'DEMO00002',
    model: 'ORB-X1',
    name: 'Telehandler 4',
    group: 'North Yard',
    notes: { asset_type: 'Telehandler', make: 'JCB', model: '540-180', status: 'In service' },
  },
  {
    id: 'DEMO00003',
    model: 'QUAD-C2',
    name: 'Excavator 12',
    group: 'North Yard',
    notes: { asset_type: 'Excavator', make: 'Komatsu', model: 'PC210', status: 'In service' },
  },
  {
    id: 'DEMO00004',
    model: 'QUAD-X2',
    name: 'Haul Truck 7',
    group: 'Vehicles',
    notes: { asset_type: 'Dump Truck', make: 'Volvo', model: 'A40G', status: 'On hire' },
  },
  {
    id: 'DEMO00005',
    model: 'QUAD-C2',
    name: 'Tipper Truck 5',
    group: 'Vehicles',
    notes: { asset_type: 'Truck', make: 'Isuzu', model: 'NPR 75', status: 'In service' },
  },
  {
    id: 'DEMO00006',
    model: 'ORB-C1',
    name: 'Forklift 3',
    group: 'North Yard',
    notes: { asset_type: 'Forklift', make: 'Toyota', model: '8FD25', status: 'Maintenance' },
  },
];

/**
 * Seconds between the demo devices' contacts: the interval the simulator runs and reports in its
 * diagnostics, which the portal's applied config then holds (a delivered config may change it).
 */
const DEMO_INTERVAL_S = 15;

/** Trigger buttons of the demo devices' scripts (config.settings.script.triggers). */
export const DEMO_TRIGGERS = [
  { index: 1, name: 'Sound Horn', colour: '#0284c7' },
  { index: 2, name: 'Beacon On', colour: '#16a34a' },
  { index: 3, name: 'Stop Engine', colour: '#d32f2f' },
];

/** Custom settings of the demo devices' scripts (num* numbers, str* text). */
export const DEMO_CUSTOM_SETTINGS = { numSpeedLimit: 80, numIdleMinutes: 10, strSiteName: 'North Yard' };

/** Display settings that show the Data page's kinds of card on the demo devices. */
export const DEMO_DISPLAY_SETTINGS = {
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

interface StoredFleet {
  devices: FleetDevice[];
}

/** A signed-in client of the portal's public API (session cookie and the CSRF header). */
async function signIn(httpUrl: string, account: { email: string; password: string }) {
  const call = async (method: string, path: string, body?: unknown, cookie = ''): Promise<Response> =>
    fetch(`${httpUrl}${path}`, {
      method,
      headers: {
        'x-requested-with': 'portal',
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const login = await call('POST', '/api/auth/login', { email: account.email, password: account.password });
  if (login.status !== 200)
    throw new Error(`Sign-in of ${account.email} answered ${login.status}: ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return {
    async status(method: string, path: string): Promise<number> {
      const answer = await call(method, path, undefined, cookie);
      await answer.body?.cancel();
      return answer.status;
    },
    /** The call's JSON answer; any status outside `ok` is an error naming the call. */
    async json<T>(method: string, path: string, body?: unknown, ok: readonly number[] = [200]): Promise<T> {
      const answer = await call(method, path, body, cookie);
      const text = await answer.text();
      if (!ok.includes(answer.status)) throw new Error(`${method} ${path} answered ${answer.status}: ${text}`);
      return (text ? JSON.parse(text) : null) as T;
    },
    async signOut(): Promise<void> {
      await call('POST', '/api/auth/logout', undefined, cookie);
    },
  };
}

/**
 * Provisions the demo devices (staff) and adds them to the demo account with their setup passwords,
 * as people would. A device that already exists has no credentials to give (another data folder
 * made it): left out.
 */
async function provisionDemoDevices(httpUrl: string): Promise<FleetDevice[]> {
  const staff = await signIn(httpUrl, STAFF_USER);
  const made: { device: FleetDevice; setupPassword: string; group: (typeof DEMO_GROUPS)[number] }[] = [];
  try {
    for (const spec of DEMO_DEVICES) {
      const known = await staff.status('GET', `/api/prov-portal-get-device/${spec.id}`);
      if (known === 200) continue;
      if (known !== 404) throw new Error(`GET /api/prov-portal-get-device/${spec.id} answered ${known}`);
      const created = await staff.json<{ setupPassword?: string; deviceKey?: string }>(
        'POST',
        `/api/prov-portal-edit-device/${spec.id}`,
        // The demo account signs up on the default brand's host: its devices are the default brand's.
        { model: spec.model, name: spec.name, brand: 'default' },
        [201],
      );
      if (!created.setupPassword || !created.deviceKey) throw new Error(`${spec.id} was created without credentials`);
      made.push({
        device: { id: spec.id, key: created.deviceKey, model: spec.model, seed: spec.id },
        setupPassword: created.setupPassword,
        group: spec.group,
      });
    }
  } finally {
    await staff.signOut();
  }
  const demo = await signIn(httpUrl, DEMO_USER);
  try {
    // The demo account's groups, made once (with the first devices), then each device added into its group.
    const groupids = new Map<string, string>();
    if (made.length > 0) {
      const existing = await demo.json<{ groupid: string; groupName: string }[]>('GET', '/api/groups');
      for (const name of DEMO_GROUPS) {
        const found = existing.find((g) => g.groupName === name);
        const groupid =
          found?.groupid ?? (await demo.json<{ groupid: string }>('POST', '/api/group', { groupName: name })).groupid;
        groupids.set(name, groupid);
      }
    }
    for (const { device, setupPassword, group } of made)
      await demo.json('POST', `/api/device/${device.id}/user`, { setupPassword, groupid: groupids.get(group) });
  } finally {
    await demo.signOut();
  }
  return made.map((m) => m.device);
}

/**
 * Gives the new demo devices trigger buttons, custom settings, display settings and asset notes, as their owner
 * would (PUT config and settings, signed in as the demo user). A refused call is reported, not fatal:
 * the devices run without that setting.
 */
async function presentDemoDevices(httpUrl: string, devices: readonly FleetDevice[]): Promise<void> {
  const demo = await signIn(httpUrl, DEMO_USER);
  try {
    for (const device of devices) {
      const notes = DEMO_DEVICES.find((d) => d.id === device.id)?.notes;
      for (const [path, body] of [
        [
          `/api/device/${device.id}/config`,
          { config: { settings: { script: { triggers: DEMO_TRIGGERS, ...DEMO_CUSTOM_SETTINGS } } } },
        ],
        [
          `/api/device/${device.id}/settings`,
          { PORTAL_displaySettings: DEMO_DISPLAY_SETTINGS, ...(notes ? { PORTAL_deviceNotes: notes } : {}) },
        ],
      ] as const) {
        await demo
          .json('PUT', path, body)
          .catch((error: unknown) =>
            console.error(`Demo fleet: ${error instanceof Error ? error.message : String(error)}`),
          );
      }
    }
  } finally {
    await demo.signOut();
  }
}

export interface DemoFleetOptions {
  /** The portal's HTTP address (API calls, and the devices' file downloads). */
  httpUrl: string;
  /** The broker the devices publish to. */
  mqttUrl: string;
  /** Where the device keys are kept between runs; null keeps them nowhere (an in-memory portal). */
  file: string | null;
  /** Spread of the first contacts in ms (the simulator's default: up to 10 s). */
  staggerMs?: number;
  log?: (line: string) => void;
}

/** Provisions the demo devices on the first run (keys kept in `file`), then runs them; null when there are none. */
export async function startDemoFleet(options: DemoFleetOptions): Promise<Fleet | null> {
  let devices: FleetDevice[];
  if (options.file && existsSync(options.file)) {
    devices = (JSON.parse(readFileSync(options.file, 'utf8')) as StoredFleet).devices;
  } else {
    devices = await provisionDemoDevices(options.httpUrl);
    // The keys are answered only once: kept before anything else can fail.
    if (options.file)
      writeFileSync(options.file, JSON.stringify({ devices } satisfies StoredFleet, null, 2), { mode: 0o600 });
    await presentDemoDevices(options.httpUrl, devices);
  }
  if (devices.length === 0) return null;
  return startFleet({
    devices,
    transport: 'mqtt',
    mqttUrl: options.mqttUrl,
    httpUrl: options.httpUrl,
    baseInterval: DEMO_INTERVAL_S,
    // What the devices' scripts hold (the portal delivered it on the first run): a restarted device
    // still knows its triggers' names.
    settings: { script: { triggers: DEMO_TRIGGERS, ...DEMO_CUSTOM_SETTINGS } },
    staggerMs: options.staggerMs,
    log: options.log,
  });
}

/** A listening address to connect to: loopback for a wildcard one. */
function connectHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

async function main(): Promise<void> {
  // The portal's own configuration (scripts/start.mjs passes the ports it actually listens on).
  const config = loadConfig();
  if (!config.seedDemo) return;
  const host = connectHost(config.host);
  let file: string | null = null;
  if (config.dataDir !== 'memory://') {
    mkdirSync(config.dataDir, { recursive: true });
    file = join(config.dataDir, 'demo-fleet.json');
  }
  const fleet = await startDemoFleet({
    httpUrl: `http://${host}:${config.port}`,
    mqttUrl: config.mqttUrl ?? `mqtt://${host}:${config.mqttPort}`,
    file,
  });
  if (!fleet) return;
  console.log(`  Demo fleet: ${fleet.devices.length} simulated devices report to the demo account over MQTT.`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    fleet.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`Demo fleet not started: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
