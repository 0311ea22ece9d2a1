/**
 * Durability: the real server process (main.ts) takes a stream of QoS 1 records over MQTT and is
 * killed with SIGKILL in the middle of it; after a restart on the same data, every record whose
 * PUBACK the device received is stored, and none is stored twice. Records never acknowledged may
 * or may not be there. On PGlite (DATA_DIR files) and on PostgreSQL when reachable.
 */
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import type { MqttClient } from 'mqtt';
import { openDatabase, type Db } from '../../src/db/db';
import { dropSchema, findPostgres, newSchemaName } from '../helpers';
import { connectDevice, expectDerivedMatchRecords } from '../ingest-helpers';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** Acknowledged records before the kill. */
const ACKED_BEFORE_KILL = 600;
/** Publishes in flight at a time (enough load that the writer holds derived rows back, so the restart rebuilds them). */
const IN_FLIGHT = 64;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Target {
  env: Record<string, string>;
  /** Arguments of the provisioning CLI that name the database. */
  cliArgs: string[];
  /** Record times stored for the device. */
  storedTimes(deviceId: string): Promise<number[]>;
  /** Opens the database (after the server stopped) for further checks. */
  open(): Promise<Db>;
  cleanup(): Promise<void>;
}

function runCli(target: Target): Promise<{ deviceid: string; deviceKey: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'apps/server/src/cli/provision.ts',
        '--model',
        'ORB-C1',
        '--prefix',
        'DUR',
        '--json',
        ...target.cliArgs,
      ],
      {
        cwd: ROOT,
        env: { ...process.env, ...target.env },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`provision exited ${code}: ${stderr}`));
      const [device] = JSON.parse(stdout.trim()) as { deviceid: string; deviceKey: string }[];
      resolve(device!);
    });
  });
}

interface Server {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts main.ts and resolves once it prints its address (everything is listening then). */
function startServer(target: Target, httpPort: number, mqttPort: number): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(httpPort),
      MQTT_PORT: String(mqttPort),
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent-web-dist',
      MQTT_URL: '',
      ...target.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('API reference')) resolve({ child, output: () => output, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`server exited (${code}) before it was ready:\n${output}`)));
  });
}

/**
 * Publishes records with unique times until `ACKED_BEFORE_KILL` are acknowledged, then kills the
 * server while publishes are in flight. Returns the times sent and the times acknowledged.
 */
async function streamAndKill(
  client: MqttClient,
  deviceId: string,
  server: Server,
): Promise<{ sent: number[]; acked: number[] }> {
  const base = Math.floor(Date.now() / 1000) - 3600;
  const sent: number[] = [];
  const acked: number[] = [];
  let killed = false;
  let next = 0;
  await new Promise<void>((resolve) => {
    let inFlight = 0;
    const pump = () => {
      while (!killed && inFlight < IN_FLIGHT && client.connected) {
        const ts = base + next * 0.25;
        next += 1;
        sent.push(ts);
        inFlight += 1;
        client.publish(
          `dev/${deviceId}/data`,
          JSON.stringify({ ts, seq: next, temp: 20 + (next % 10) }),
          { qos: 1 },
          (error) => {
            inFlight -= 1;
            if (!error) acked.push(ts);
            if (!killed && acked.length >= ACKED_BEFORE_KILL) {
              killed = true;
              server.child.kill('SIGKILL');
              resolve();
              return;
            }
            pump();
          },
        );
      }
    };
    pump();
  });
  await server.exited;
  return { sent, acked };
}

async function durabilityRun(target: Target): Promise<void> {
  const [httpPort, mqttPort] = [await freePort(), await freePort()];
  const device = await runCli(target);
  let server = await startServer(target, httpPort, mqttPort);
  let client: MqttClient | undefined;
  try {
    client = await connectDevice(`mqtt://127.0.0.1:${mqttPort}`, device.deviceid, device.deviceKey, { clean: true });
    client.on('error', () => undefined);
    const { sent, acked } = await streamAndKill(client, device.deviceid, server);
    client.end(true);
    expect(acked.length).toBeGreaterThanOrEqual(ACKED_BEFORE_KILL);
    expect(sent.length).toBeGreaterThan(acked.length);

    // Restart on the same data and ports; the device resends a few acknowledged records (a
    // device cannot know what survived) and they must not be stored twice.
    server = await startServer(target, httpPort, mqttPort);
    client = await connectDevice(`mqtt://127.0.0.1:${mqttPort}`, device.deviceid, device.deviceKey, { clean: true });
    const resent = acked.slice(0, 10);
    for (const ts of resent)
      await client.publishAsync(`dev/${device.deviceid}/data`, JSON.stringify({ ts, temp: 1 }), { qos: 1 });
    await client.endAsync();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const stored = await target.storedTimes(device.deviceid);
    const counts = new Map<number, number>();
    for (const ts of stored) counts.set(ts, (counts.get(ts) ?? 0) + 1);
    const duplicates = [...counts.values()].filter((n) => n > 1).length;
    const missing = acked.filter((ts) => !counts.has(ts));
    const unacked = sent.length - acked.length;
    const strays = stored.filter((ts) => !sent.includes(ts));
    console.log(
      `durability (${target.env.DATABASE_URL ? 'postgres' : 'pglite'}): sent ${sent.length}, acknowledged ${acked.length}, stored ${stored.length}, ` +
        `acknowledged missing ${missing.length}, duplicates ${duplicates}, unacknowledged ${unacked} (stored anyway ${stored.length - acked.length}), ` +
        `derived rows rebuilt at the restart: ${server.output().includes('Rebuilt rollups') ? 'yes' : 'no (none held at the kill)'}`,
    );
    expect(missing).toEqual([]);
    expect(duplicates).toBe(0);
    expect(strays).toEqual([]);
    // Rollups and latest values held back at the kill were rebuilt at the restart (or written
    // there): they equal a recomputation from the records. Contact times moved on with the resends.
    const db = await target.open();
    try {
      await expectDerivedMatchRecords(db, [device.deviceid], { contacts: false });
      expect(
        (
          await db.query<{ n: number }>('SELECT count(*)::integer AS n FROM rollup_hour WHERE device_id = $1', [
            device.deviceid,
          ])
        )[0]!.n,
      ).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  } finally {
    client?.end(true);
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await target.cleanup();
  }
}

const pgUrl = await findPostgres();

describe('durability of acknowledged records across a SIGKILL', () => {
  it('PGlite (DATA_DIR): every acknowledged record survives, none twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durability-'));
    await durabilityRun({
      env: { DATA_DIR: dir, DATABASE_URL: '' },
      cliArgs: ['--data-dir', dir],
      async storedTimes(deviceId) {
        const db = await openDatabase({ dataDir: dir });
        try {
          return (await db.query<{ ts: number }>('SELECT ts FROM records WHERE device_id = $1', [deviceId])).map(
            (r) => r.ts,
          );
        } finally {
          await db.close();
        }
      },
      open: () => openDatabase({ dataDir: dir }),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    });
  }, 120_000);

  it.runIf(pgUrl !== null)(
    'PostgreSQL: every acknowledged record survives, none twice',
    async () => {
      const base = pgUrl!;
      const schema = newSchemaName();
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      // The schema reaches the child process through the connection string's options.
      const url = new URL(base);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const databaseUrl = url.toString();
      await durabilityRun({
        env: { DATABASE_URL: databaseUrl, DATA_DIR: 'memory://' },
        cliArgs: ['--database-url', databaseUrl],
        async storedTimes(deviceId) {
          const client = new pg.Client({ connectionString: base });
          await client.connect();
          try {
            return (
              await client.query<{ ts: number }>(`SELECT ts FROM ${schema}.records WHERE device_id = $1`, [deviceId])
            ).rows.map((r) => r.ts);
          } finally {
            await client.end();
          }
        },
        open: () => openDatabase({ dataDir: 'memory://', databaseUrl, schema }),
        cleanup: () => dropSchema(base, schema),
      });
    },
    120_000,
  );
});
