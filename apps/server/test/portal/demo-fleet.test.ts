/**
 * The demo fleet of `npm start` (scripts/demo-fleet.ts): provisioned, added and set up through the
 * public API, run over the embedded broker, and the same fleet again from its kept keys.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fleet } from '@portal/simulator';
import { startDemoFleet } from '../../../../scripts/demo-fleet';
import { DEMO_USER } from '../../src/seed';
import { signedIn, startTestPortal, type TestPortal } from '../helpers';
import { until } from '../ingest-helpers';

const DEMO_IDS = ['DEMO00001', 'DEMO00002', 'DEMO00003', 'DEMO00004', 'DEMO00005', 'DEMO00006'];

type StoredFleet = { devices: { id: string; key: string; model: string }[] };

describe('demo fleet', () => {
  let tp: TestPortal;
  let dir: string;
  let fleet: Fleet | null = null;
  const options = () => ({
    httpUrl: tp.base,
    mqttUrl: `mqtt://127.0.0.1:${tp.portal.mqttPort}`,
    file: join(dir, 'demo-fleet.json'),
    staggerMs: 0,
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-demo-'));
    tp = await startTestPortal({ db: 'pglite' });
  });
  afterAll(async () => {
    await fleet?.stop();
    await tp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the demo account six devices with triggers, custom settings and display settings, reporting over MQTT', async () => {
    fleet = await startDemoFleet(options());
    expect(fleet?.devices.map((d) => d.id)).toEqual(DEMO_IDS);
    const stored = JSON.parse(readFileSync(options().file, 'utf8')) as StoredFleet;
    expect(stored.devices.map((d) => d.id)).toEqual(DEMO_IDS);

    const demo = await signedIn(tp, DEMO_USER);
    for (const id of DEMO_IDS) expect((await demo.get(`/api/device/${id}/settings`)).status).toBe(200);

    // Home is filled in: two groups holding the six devices.
    const groups = (await demo.get('/api/groups')).body as { groupid: string; groupName: string }[];
    expect(groups.map((g) => g.groupName)).toEqual(['North Yard', 'Vehicles']);
    const inGroups = [];
    for (const g of groups) {
      const group = (await demo.get(`/api/group/${g.groupid}`)).body as {
        deviceSummaries: Record<string, { type: string; machineMake: string }>;
      };
      inGroups.push(...Object.keys(group.deviceSummaries));
      // The group table's summary columns are filled in from the asset notes.
      for (const summary of Object.values(group.deviceSummaries)) {
        expect(summary.type).not.toBe('');
        expect(summary.machineMake).not.toBe('');
      }
    }
    expect(inGroups.sort()).toEqual(DEMO_IDS);

    // Names and asset types belong together (issue 32): each name holds its type's last word.
    for (const id of DEMO_IDS) {
      const record = (await demo.get(`/api/device/${id}/settings`)).body as {
        deviceSettings: { PORTAL_deviceName: string; PORTAL_deviceNotes: { asset_type?: string } };
      };
      const type = record.deviceSettings.PORTAL_deviceNotes.asset_type ?? '';
      expect(record.deviceSettings.PORTAL_deviceName, `${id} is a ${type}`).toContain(type.split(' ').at(-1));
    }

    // Records arrive, and the device applies the configuration the demo user queued.
    const data = await until(async () => {
      const body = (await demo.get('/api/device/DEMO00001/data')).body as { data: Record<string, unknown[]> };
      return Object.keys(body.data).length > 0 && body.data;
    }, 100);
    expect(data.vsys?.length).toBeGreaterThan(0);
    const config = await until(async () => {
      const body = (await demo.get('/api/device/DEMO00001/config')).body as {
        config: { settings?: { script?: Record<string, unknown> } };
        pending: unknown;
      };
      return body.pending === null && body.config;
    }, 100);
    expect(config.settings?.script).toMatchObject({
      triggers: [
        { index: 1, name: 'Sound Horn' },
        { index: 2, name: 'Beacon On' },
        { index: 3, name: 'Stop Engine' },
      ],
      numSpeedLimit: 80,
      numIdleMinutes: 10,
      strSiteName: 'North Yard',
    });
    // The interval the devices run (15 s) is the one their applied config holds: they report it in
    // their diagnostics (issue 32 item 2, TL-15), so Settings and the Data page's polling agree with them.
    const device = await until(async () => {
      const body = (await demo.get('/api/device/DEMO00002/config')).body as {
        config: { settings?: { device?: Record<string, unknown> } };
      };
      const section = body.config.settings?.device;
      return section?.base_interval === 15 && section;
    }, 100);
    expect(device).toMatchObject({ base_interval: 15, transmit_interval: 1 });

    // A trigger's event names the trigger (issue 32 item 17): 'Sound Horn activated', not 'Trigger 1 activated'.
    expect((await demo.post('/api/device/DEMO00001/rpc', { method: 'Admin.Trigger', args: { index: 1 } })).status).toBe(
      200,
    );
    const event = await until(async () => {
      const body = (await demo.get('/api/device/DEMO00001/data?dataPoints=50')).body as {
        events: { msg: string; topic: string | null }[];
      };
      return body.events.find((e) => e.topic === 'trigger');
    }, 100);
    expect(event.msg).toBe('Sound Horn activated');

    const settings = (await demo.get('/api/device/DEMO00003/settings')).body as {
      deviceSettings: { PORTAL_displaySettings: Record<string, unknown> };
    };
    expect(settings.deviceSettings.PORTAL_displaySettings).toMatchObject({
      vsys: { displayType: 'gauge' },
      digital1: { displayType: 'digital' },
      trigger3: { confirmEnabled: true },
    });
  });

  it('runs the same devices again from the kept keys, provisioning nothing', async () => {
    await fleet?.stop();
    const before = readFileSync(options().file, 'utf8');
    fleet = await startDemoFleet(options());
    expect(readFileSync(options().file, 'utf8')).toBe(before);
    expect(fleet?.devices.map((d) => d.id)).toEqual(DEMO_IDS);
    // The kept keys still sign in: every restarted device reports again.
    await until(() => fleet!.devices.every((d) => d.stats.records > 0), 100);
    expect(fleet!.stats.lastError).toBeNull();
  });

  it('leaves out devices that exist without kept keys (another data folder made them)', async () => {
    expect(await startDemoFleet({ ...options(), file: join(dir, 'elsewhere.json') })).toBeNull();
  });
});
