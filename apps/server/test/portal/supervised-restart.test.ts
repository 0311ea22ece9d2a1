/**
 * The portal comes back by itself (issue 30): what `npm start` runs once its builds are current
 * (scripts/run-portal.mjs: the compiled server under supervision) on PORT=0 and MQTT_PORT=0 with a
 * PGlite DATA_DIR; its server process, not the supervisor, is killed with SIGKILL while a device
 * publishes QoS 1 records and a simulated device reports. The portal answers again on the same
 * ports, every record whose PUBACK arrived is stored once, and the simulator reconnects on its own.
 * Prints the time from the kill to the first 200 of /api/health (not asserted: only that it comes
 * back within a minute).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { startFleet, type Fleet } from '@portal/simulator';
import { buildServer, whyServerBuildIsStale } from '../../../../scripts/build-server.mjs';
import { openDatabase } from '../../src/db/db';

const ROOT = join(import.meta.dirname, '../../../..');
/** Records acknowledged after the restart before the stream stops. */
const ACKED_AFTER_RESTART = 100;

interface PortalReady {
  type: 'portal-ready';
  port: number;
  mqttPort: number;
}

/** Devices made by the provisioning CLI in `dataDir` (before the portal opens it). */
function provision(dataDir: string, count: number): { deviceid: string; deviceKey: string }[] {
  const args = ['--import', 'tsx', 'apps/server/src/cli/provision.ts', '--model', 'ORB-C1', '--prefix', 'SUP'];
  const stdout = execFileSync(process.execPath, [...args, '--count', String(count), '--json', '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', MQTT_URL: '' },
    encoding: 'utf8',
  });
  return JSON.parse(stdout.trim()) as { deviceid: string; deviceKey: string }[];
}

/** The pid of the supervisor's server child (the compiled bundle). */
function serverPid(supervisorPid: number): number {
  const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(supervisorPid)], { encoding: 'utf8' });
  const line = children.split('\n').find((l) => l.includes('apps/server/dist/main.mjs'));
  if (!line) throw new Error(`no server among the supervisor's children:\n${children}`);
  return Number(line.trim().split(/\s+/)[0]);
}

describe('npm start after a SIGKILL of its server', () => {
  let dir: string;
  const stopLater: (() => unknown)[] = [];

  beforeAll(async () => {
    // As npm start does before it runs the portal: the server is compiled when a source is newer.
    if (whyServerBuildIsStale()) await buildServer();
    dir = mkdtempSync(join(tmpdir(), 'portal-restart-'));
  });
  afterAll(async () => {
    // Bounded: a client closing gracefully towards a portal that is gone would wait for ever.
    for (const stop of stopLater.reverse()) await Promise.race([stop(), sleep(5_000)]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers again on the same ports, keeps every acknowledged record, and the simulator reconnects', async () => {
    const [publisher, simulated] = provision(dir, 2);
    let output = '';
    const supervisor = spawn(process.execPath, ['scripts/run-portal.mjs'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: {
        ...process.env,
        PORT: '0',
        MQTT_PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dir,
        DATABASE_URL: '',
        MQTT_URL: '',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        WEB_DIST: '/nonexistent-web-dist',
      },
    });
    supervisor.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    supervisor.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => supervisor.once('exit', (code) => resolve(code)));
    stopLater.push(async () => {
      if (supervisor.exitCode === null && supervisor.signalCode === null) process.kill(-supervisor.pid!, 'SIGKILL');
      await exited;
    });
    const readies: PortalReady[] = [];
    supervisor.on('message', (message: PortalReady) => readies.push(message));
    /** Waits for `check` while the supervisor runs; its end is a failure with its output. */
    const whileRunning = async <T>(check: () => T | undefined | false, intervalMs: number): Promise<T> => {
      for (;;) {
        const value = check();
        if (value !== undefined && value !== false) return value;
        if (supervisor.exitCode !== null || supervisor.signalCode !== null)
          throw new Error(`the supervisor exited (${supervisor.exitCode ?? supervisor.signalCode}):\n${output}`);
        await sleep(intervalMs);
      }
    };

    const first = await whileRunning(() => readies[0], 100);
    const http = `http://127.0.0.1:${first.port}`;
    const broker = `mqtt://127.0.0.1:${first.mqttPort}`;
    const killed = serverPid(supervisor.pid!);

    // A device publishing QoS 1 records throughout, reconnecting by itself; each record has its own time.
    const device = mqtt.connect(broker, {
      username: publisher!.deviceid,
      password: publisher!.deviceKey,
      clientId: publisher!.deviceid,
      clean: true,
      reconnectPeriod: 200,
      connectTimeout: 5_000,
    });
    device.on('error', () => undefined);
    stopLater.push(() => device.endAsync(true));
    const base = Math.floor(Date.now() / 1000) - 3600;
    const sent: number[] = [];
    const acked: number[] = [];
    let inFlight = 0;
    let publishing = true;
    const stream = (async () => {
      while (publishing) {
        if (device.connected && inFlight < 16) {
          const ts = base + sent.length * 0.25;
          sent.push(ts);
          inFlight += 1;
          device.publish(`dev/${publisher!.deviceid}/data`, JSON.stringify({ ts, temp: 20 }), { qos: 1 }, (error) => {
            inFlight -= 1;
            if (!error) acked.push(ts);
          });
        }
        await sleep(20);
      }
    })();
    stopLater.push(() => (publishing = false));
    const fleet: Fleet = startFleet({
      devices: [{ id: simulated!.deviceid, key: simulated!.deviceKey, model: 'ORB-C1' }],
      transport: 'mqtt',
      mqttUrl: broker,
      httpUrl: http,
      baseInterval: 1,
      staggerMs: 0,
    });
    stopLater.push(() => fleet.stop());
    const [sim] = fleet.devices;
    await whileRunning(() => acked.length >= 50 && sim!.stats.records > 0, 50);

    const killedAt = performance.now();
    process.kill(killed, 'SIGKILL');
    const ackedAtKill = acked.length;
    const deadline = killedAt + 60_000;
    let health = 0;
    while (health !== 200 && performance.now() < deadline) {
      health = await fetch(`${http}/api/health`).then(
        (answer) => answer.status,
        () => 0,
      );
      if (health !== 200) await sleep(50);
    }
    const restartMs = Math.round(performance.now() - killedAt);
    expect(health).toBe(200);

    // The same server ports, through a new server process the supervisor announced.
    const second = await whileRunning(() => readies[1], 50);
    expect(second).toEqual(first);
    expect(serverPid(supervisor.pid!)).not.toBe(killed);
    expect(output).toContain('The portal server was killed by SIGKILL; starting it again in 1 s.');

    // It takes device data again: HTTP ingest, the MQTT stream, and the simulator once it reconnected.
    const posted = await fetch(`${http}/api/ingest/${publisher!.deviceid}`, {
      method: 'POST',
      headers: { authorization: `Device ${publisher!.deviceKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ts: base - 1, temp: 19 }),
    });
    expect(posted.status).toBe(200);
    const simRecordsAtRestart = sim!.stats.records;
    await whileRunning(() => acked.length >= ackedAtKill + ACKED_AFTER_RESTART, 50);
    await whileRunning(() => sim!.stats.reconnects >= 1 && sim!.stats.records > simRecordsAtRestart, 100);
    publishing = false;
    await stream;
    await whileRunning(() => inFlight === 0, 20);
    await device.endAsync();
    const simAcked = sim!.stats.records;
    await fleet.stop();

    // SIGTERM stops the portal for good (it drains and is not restarted).
    supervisor.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(readies).toHaveLength(2);

    const db = await openDatabase({ dataDir: dir });
    try {
      const timesOf = async (id: string) =>
        (await db.query<{ ts: number }>('SELECT ts FROM records WHERE device_id = $1', [id])).map((r) => r.ts);
      const stored = await timesOf(publisher!.deviceid);
      const storedSet = new Set(stored);
      const missing = acked.filter((ts) => !storedSet.has(ts));
      const simStored = (await timesOf(simulated!.deviceid)).length;
      console.log(
        `supervised restart: SIGKILL to the first 200 of /api/health in ${restartMs} ms; ` +
          `published ${sent.length}, acknowledged ${acked.length} (${ackedAtKill} before the kill), stored ${stored.length} (one of them by HTTP), ` +
          `acknowledged missing ${missing.length}; simulator acknowledged ${simAcked}, stored ${simStored}, ` +
          `reconnects ${sim!.stats.reconnects}`,
      );
      expect(missing).toEqual([]);
      expect(storedSet.size).toBe(stored.length);
      expect(storedSet.has(base - 1)).toBe(true);
      expect(simStored).toBeGreaterThanOrEqual(simAcked);
    } finally {
      await db.close();
    }
  }, 180_000);
});
