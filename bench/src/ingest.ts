/**
 * Sustained ingest (issue 3): records of 20 keys from the simulator's ORB-C1 model, 200 devices
 * provisioned through the devices service, one MQTT connection per device at QoS 1 with at most
 * WINDOW unacknowledged publishes each (publishers in a child process). Measured from the first
 * publish to the last PUBACK (embedded Aedes: the PUBACK is written only after the record is
 * committed), in records/s.
 *
 * Next to it, in the same run and with the same records and publishers, the CEILING: a bare
 * pipeline (an Aedes broker whose authorizePublish batches up to BATCH records into one INSERT
 * into a plain table `bare_records(device_id, ts, data jsonb, primary key (device_id, ts))`
 * through the same database handle, and releases the PUBACKs after the commit; nothing else).
 *
 * Through Mosquitto (MQTT_URL=mqtt://127.0.0.1:1883): the broker answers PUBACK on receipt, so
 * both sides are measured from the first publish to the moment the last record is committed
 * (the portal's writer reports committed records; the count is checked in the database after).
 * The ceiling there is as many mqtt.js connections on one shared subscription as the portal's
 * default (MQTT_SHARED_CONNECTIONS) batching BATCH records per INSERT (their PUBACK to the broker
 * goes on receipt). Records
 * the broker dropped (Mosquitto's default max_queued_messages is 1000 per subscriber) are
 * counted: `...-lost-records`, target 0. Mosquitto on this machine allows anonymous clients, so the devices
 * connect without their keys (the broker, not the portal, authenticates in this mode).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import type { Db } from '../../apps/server/src/db/db';
import type { IngestOutcome } from '../../apps/server/src/modules/telemetry/ingest-batch';
import { loadConfig } from '../../apps/server/src/config';
import { DEFAULT_TELEMETRY_OPTIONS } from '../../apps/server/src/modules/telemetry/telemetry.service';
import type { BenchResult } from './run';
import { median } from './stats';
import {
  progress,
  provisionDevices,
  round1,
  startBenchPortal,
  type BenchDevice,
  type BenchPortal,
  type Store,
} from './telemetry-kit';
import type { PublisherDone, PublisherSetup } from './ingest-publisher';

const DEVICES = 200;
/** Records per device and run: long enough (about 5 s or more) to include the writes of held derived rows. */
const RECORDS_PER_DEVICE = Number(process.env.BENCH_INGEST_RECORDS ?? 500);
const WINDOW = 10;
const RUNS = 3;
/** The bare pipeline's batches are as large as the portal's. */
const BATCH = DEFAULT_TELEMETRY_OPTIONS.batchSize;
const MOSQUITTO_URL = process.env.BENCH_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
/** Through Mosquitto: give up when nothing was stored for this long (messages the broker dropped). */
const STALL_MS = 5000;

const nowMs = () => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------- publisher process

/** The publisher child process (ingest-publisher.ts), driven over IPC. */
export class Publisher {
  private readonly child: ChildProcess;
  private readonly waiting: ((message: { type: string } & Record<string, unknown>) => void)[] = [];
  constructor() {
    this.child = fork(fileURLToPath(new URL('./ingest-publisher.ts', import.meta.url)), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (message: { type: string } & Record<string, unknown>) => {
      if (message.type === 'error') progress(`publisher error: ${String(message.message)}`);
      this.waiting.shift()?.(message);
    });
  }
  private request<T>(message: unknown): Promise<T> {
    return new Promise((resolve) => {
      this.waiting.push(resolve as (m: unknown) => void);
      this.child.send(message as object);
    });
  }
  async setup(setup: Omit<PublisherSetup, 'type'>): Promise<void> {
    const answer = await this.request<{ type: string; message?: string }>({ type: 'setup', ...setup });
    if (answer.type !== 'ready') throw new Error(`publisher setup failed: ${answer.message}`);
  }
  async go(): Promise<PublisherDone> {
    const answer = await this.request<PublisherDone | { type: 'error'; message: string }>({ type: 'go' });
    if (answer.type !== 'done') throw new Error(`publisher failed: ${answer.message}`);
    return answer;
  }
  /** Ends a running go() early: it resolves once the publishes in flight are acknowledged. */
  stop(): void {
    this.child.send({ type: 'stop' });
  }
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.send({ type: 'close' });
      setTimeout(() => this.child.kill(), 10_000).unref();
    });
  }
}

// ---------------------------------------------------------------- the bare pipeline

interface Pending {
  row: { device_id: string; ts: number; data: unknown };
  done: (error: Error | null) => void;
}

/** Group commit of up to BATCH rows per INSERT, one writer; `stored` counts committed rows. */
function bareWriter(db: Db) {
  const pending: Pending[] = [];
  let running: Promise<void> | null = null;
  const state = { stored: 0, lastStoredAt: 0 };
  const drain = async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (pending.length > 0) {
      const batch = pending.splice(0, BATCH);
      try {
        await db.query(
          `INSERT INTO bare_records (device_id, ts, data)
           SELECT device_id, ts, data FROM jsonb_to_recordset($1::jsonb) AS x(device_id text, ts double precision, data jsonb)
           ON CONFLICT (device_id, ts) DO NOTHING`,
          [JSON.stringify(batch.map((p) => p.row))],
        );
        state.stored += batch.length;
        state.lastStoredAt = nowMs();
        for (const p of batch) p.done(null);
      } catch (error) {
        for (const p of batch) p.done(error instanceof Error ? error : new Error(String(error)));
      }
    }
  };
  return {
    state,
    push(deviceId: string, payload: Buffer, done: (error: Error | null) => void) {
      let data: { ts?: unknown };
      try {
        data = JSON.parse(payload.toString('utf8')) as { ts?: unknown };
      } catch {
        return done(new Error('bad JSON'));
      }
      pending.push({ row: { device_id: deviceId, ts: Number(data.ts), data }, done });
      running ??= drain().finally(() => {
        running = null;
      });
    },
  };
}

/** An Aedes broker that stores every publish through the bare writer before its PUBACK. */
async function bareAedes(
  db: Db,
): Promise<{ url: string; writer: ReturnType<typeof bareWriter>; close(): Promise<void> }> {
  const writer = bareWriter(db);
  const broker = new Aedes({
    concurrency: 1000,
    authenticate: (_client, _username, _password, done) => done(null, true),
    authorizePublish(client, packet, callback) {
      if (!client) return callback(null);
      const deviceId = packet.topic.split('/')[1] ?? '';
      writer.push(deviceId, Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload), callback);
    },
  });
  await broker.listen();
  const server = net.createServer((socket) => broker.handle(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    writer,
    async close() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The table the bare pipeline writes (create it in the database its writer is given). */
export const BARE_RECORDS_TABLE =
  'CREATE TABLE bare_records (device_id text NOT NULL, ts double precision NOT NULL, data jsonb NOT NULL, PRIMARY KEY (device_id, ts))';

/**
 * Subscribers on Mosquitto that store through the bare writer: as many connections as the
 * portal's default (MQTT_SHARED_CONNECTIONS), one shared subscription (`$share/{share}/{topic}`);
 * each PUBACK to the broker goes on receipt.
 */
export async function bareSubscriber(
  db: Db,
  target: { url: string; share: string; topic: string },
): Promise<{ url: string; writer: ReturnType<typeof bareWriter>; close(): Promise<void> }> {
  const writer = bareWriter(db);
  const clients: mqtt.MqttClient[] = [];
  for (let i = 0; i < loadConfig({}).mqttSharedConnections; i += 1) {
    const client = await mqtt.connectAsync(target.url, {
      clientId: `bench-bare-${process.pid}-${i}`,
      clean: true,
      reconnectPeriod: 0,
    });
    client.on('message', (topic, payload) => {
      writer.push(topic.split('/')[1] ?? '', payload, () => undefined);
    });
    await client.subscribeAsync(`$share/${target.share}/${target.topic}`, { qos: 1 });
    clients.push(client);
  }
  return { url: target.url, writer, close: async () => void (await Promise.all(clients.map((c) => c.endAsync()))) };
}

// ---------------------------------------------------------------- measuring

/** Committed records counted at the portal's writer (wraps the telemetry service's ingest). */
function countPortalStores(bp: BenchPortal): { stored: number; lastStoredAt: number } {
  const telemetry = bp.portal.app.services.telemetry;
  const state = { stored: 0, lastStoredAt: 0 };
  const original = telemetry.ingest.bind(telemetry);
  const count = (outcome: IngestOutcome) => {
    state.stored += outcome.stored;
    state.lastStoredAt = nowMs();
    return outcome;
  };
  // No async frame: it would keep each message's text and body alive until its batch commits,
  // which the portal's own path avoids.
  telemetry.ingest = (item) => original(item).then(count);
  return state;
}

/** Waits until `state.stored` reaches `expected` or stops moving for STALL_MS. */
export async function waitStored(state: { stored: number }, expected: number): Promise<void> {
  let last = -1;
  let lastChange = Date.now();
  while (state.stored < expected) {
    if (state.stored !== last) {
      last = state.stored;
      lastChange = Date.now();
    } else if (Date.now() - lastChange > STALL_MS) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Phase {
  rate: number;
  stored: number;
  expected: number;
}

async function runPhase(
  devices: BenchDevice[],
  target: { url: string; topicPrefix: string; authenticate: boolean },
  tsBase: number,
  stores: { stored: number; lastStoredAt: number } | null,
): Promise<Phase> {
  const expected = devices.length * RECORDS_PER_DEVICE;
  const publisher = new Publisher();
  try {
    await publisher.setup({
      ...target,
      devices,
      window: WINDOW,
      recordsPerDevice: RECORDS_PER_DEVICE,
      tsBase,
      intervalS: 1,
    });
    const before = stores?.stored ?? 0;
    const done = await publisher.go();
    if (done.errors > 0) throw new Error(`${done.errors} publishes failed: ${done.firstError}`);
    if (!stores)
      return { rate: done.acked / ((done.lastAckAt - done.firstPublishAt) / 1000), stored: done.acked, expected };
    // Acknowledged by an external broker: wait for the records to be committed.
    const mine = {
      get stored() {
        return stores.stored - before;
      },
    };
    await waitStored(mine, expected);
    return { rate: mine.stored / ((stores.lastStoredAt - done.firstPublishAt) / 1000), stored: mine.stored, expected };
  } finally {
    await publisher.close();
  }
}

async function storedRows(db: Db, table: string, tsFrom: number, tsTo: number): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::integer AS n FROM ${table} WHERE ts >= $1 AND ts < $2`,
    [tsFrom, tsTo],
  );
  return row?.n ?? 0;
}

async function measureMode(store: Store, broker: 'aedes' | 'mosquitto'): Promise<BenchResult[]> {
  const label = `${store}${broker === 'mosquitto' ? '-mosquitto' : ''}`;
  progress(`ingest ${label}: starting`);
  const bp = await startBenchPortal(store, broker === 'mosquitto' ? { mqttUrl: MOSQUITTO_URL } : {});
  const db = bp.portal.db;
  const portalRates: number[] = [];
  const ceilingRates: number[] = [];
  const notes: string[] = [];
  const lostPortal: number[] = [];
  const lostCeiling: number[] = [];
  try {
    await db.exec(BARE_RECORDS_TABLE);
    const devices = await provisionDevices(bp, DEVICES);
    const portalStores = broker === 'mosquitto' ? countPortalStores(bp) : null;
    const prefix = `benchbare${process.pid}`;
    const bare =
      broker === 'aedes'
        ? await bareAedes(db)
        : await bareSubscriber(db, { url: MOSQUITTO_URL, share: prefix, topic: `${prefix}/+/data` });
    const bareTarget = { url: bare.url, topicPrefix: broker === 'aedes' ? 'dev' : prefix, authenticate: false };
    const portalTarget =
      broker === 'aedes'
        ? { url: `mqtt://127.0.0.1:${bp.portal.mqttPort}`, topicPrefix: 'dev', authenticate: true }
        : { url: MOSQUITTO_URL, topicPrefix: 'dev', authenticate: false };
    const day0 = Math.floor(Date.now() / 1000) - 2 * 86_400;
    try {
      // A short warm-up of both paths (JIT, connections, caches), not measured.
      await runPhase(devices.slice(0, 20), portalTarget, day0 - 3600, portalStores);
      await runPhase(devices.slice(0, 20), bareTarget, day0 - 3600, broker === 'aedes' ? null : bare.writer.state);
      for (let run = 0; run < RUNS; run += 1) {
        const tsBase = day0 + run * 1000;
        const order = run % 2 === 0 ? (['ceiling', 'portal'] as const) : (['portal', 'ceiling'] as const);
        for (const side of order) {
          const cpuBefore = process.cpuUsage();
          if (side === 'ceiling') {
            const phase = await runPhase(devices, bareTarget, tsBase, broker === 'aedes' ? null : bare.writer.state);
            const rows = await storedRows(db, 'bare_records', tsBase, tsBase + RECORDS_PER_DEVICE);
            if (rows !== phase.expected) notes.push(`ceiling run ${run + 1}: ${rows} of ${phase.expected} stored`);
            lostCeiling.push(phase.expected - rows);
            ceilingRates.push(phase.rate);
          } else {
            const phase = await runPhase(devices, portalTarget, tsBase, portalStores);
            const rows = await storedRows(db, 'records', tsBase, tsBase + RECORDS_PER_DEVICE);
            if (rows !== phase.expected) notes.push(`portal run ${run + 1}: ${rows} of ${phase.expected} stored`);
            lostPortal.push(phase.expected - rows);
            portalRates.push(phase.rate);
          }
          // CPU of this process (broker, server or bare writer, not the publishers) per record: steadier than rates.
          const cpu = process.cpuUsage(cpuBefore);
          progress(
            `ingest ${label} run ${run + 1} ${side}: ${Math.round(side === 'ceiling' ? ceilingRates.at(-1)! : portalRates.at(-1)!)} records/s, ${round1((cpu.user + cpu.system) / (DEVICES * RECORDS_PER_DEVICE))} µs CPU per record`,
          );
        }
      }
    } finally {
      await bare.close();
    }
  } finally {
    await bp.close();
  }
  const ingest = median(portalRates);
  const ceiling = median(ceilingRates);
  const ratio = ingest / ceiling;
  if (notes.length > 0) progress(`ingest ${label}: ${notes.join('; ')}`);
  progress(
    `ingest ${label}: ${Math.round(ingest)} records/s, ceiling ${Math.round(ceiling)}, ratio ${round1(ratio * 100)}% (target 80%)`,
  );
  const size = `${DEVICES}dev-${DEVICES * RECORDS_PER_DEVICE}rec-20keys-window${WINDOW}`;
  const lost = notes.length > 0 ? '-INCOMPLETE' : '';
  const lostResults: BenchResult[] =
    broker === 'mosquitto'
      ? [
          {
            name: `ingest-${label}-lost-records-of-${DEVICES * RECORDS_PER_DEVICE}`,
            value: median(lostPortal),
            unit: 'records',
            better: 'lower',
            target: 0,
            runs: lostPortal,
          },
          {
            name: `ingest-${label}-ceiling-lost-records-of-${DEVICES * RECORDS_PER_DEVICE}`,
            value: median(lostCeiling),
            unit: 'records',
            better: 'lower',
            target: 0,
            runs: lostCeiling,
          },
        ]
      : [];
  return [
    {
      name: `ingest-${label}-${size}${lost}`,
      value: Math.round(ingest),
      unit: 'records/s',
      better: 'higher',
      target: Math.round(0.8 * ceiling),
      ceiling: Math.round(ceiling),
      runs: portalRates.map(Math.round),
    },
    {
      name: `ingest-${label}-ceiling-bare-pipeline`,
      value: Math.round(ceiling),
      unit: 'records/s',
      better: 'higher',
      runs: ceilingRates.map(Math.round),
    },
    {
      name: `ingest-${label}-ratio-to-ceiling`,
      value: round1(ratio * 100),
      unit: '%',
      better: 'higher',
      target: 80,
      runs: portalRates.map((r, i) => round1((r / ceilingRates[i]!) * 100)),
    },
    ...lostResults,
  ];
}

export async function ingest(): Promise<BenchResult[]> {
  const modes = (process.env.BENCH_INGEST_MODES ?? 'pglite,postgres,postgres-mosquitto').split(',');
  const results: BenchResult[] = [];
  for (const mode of modes) {
    const [store, broker] = mode.split('-') as [Store, string | undefined];
    results.push(...(await measureMode(store, broker === 'mosquitto' ? 'mosquitto' : 'aedes')));
  }
  return results;
}
