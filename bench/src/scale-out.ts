/**
 * Scale out safely (issue 17): real portal processes (`node --import tsx apps/server/src/main.ts`,
 * as apps/server/test/ingest/several-instances.test.ts starts them) on one fresh PostgreSQL
 * database behind a private Mosquitto (apps/server/test/private-broker.ts: ephemeral port,
 * anonymous clients refused, devices authenticated by the dynamic security plugin the portal
 * keeps). Each instance has an INSTANCE_ID (persistent subscriber sessions), INGEST_HOLD_MS=0 and
 * the default MQTT_SHARED_CONNECTIONS. DEVICES devices are provisioned through the staff API
 * and connect with their keys from the ingest benchmark's publisher process (QoS 1, at most
 * WINDOW unacknowledged publishes per device, records of 20 keys).
 *
 * - `scale-out-one-instance-records-per-s` and `scale-out-two-instances-records-per-s`: each
 *   device publishes RECORDS_PER_DEVICE records as fast as its window allows, first to one
 *   instance (a), then to two (a and b, the same share group). Mosquitto answers PUBACK on
 *   receipt, so a run is measured from the first publish to the moment the last record is
 *   committed (the records of the run counted in the database every 20 ms), in records/s. Every
 *   run has its own record times. The one-instance runs come first (instance b is started after
 *   them), so the two-instance runs have a larger records table under them.
 *   Both carry the `ceiling`: `scale-out-ceiling-bare-pipeline`, the same devices and publishes
 *   through the same broker to the ingest benchmark's bare pipeline (as many connections as
 *   MQTT_SHARED_CONNECTIONS on a shared subscription of their own, PUBACK on receipt, group
 *   commits of plain rows into one table), measured while no portal is subscribed (instance a
 *   stops gracefully before it and starts again after).
 * - `scale-out-kill-restart-lost-records`: with both instances taking the load, instance a is
 *   killed (SIGKILL) a second in and restarted with the same INSTANCE_ID a second after it died;
 *   the devices publish until a second after it is ready again or their records run out: about
 *   10 s of them at the two-instance commit rate, which the broker acknowledges (on receipt) in
 *   about 2 s on 2 cores, so the kill lands while the devices still publish and with a backlog
 *   queued at the broker, and the restarted instance comes back to that backlog rather than to
 *   devices still publishing (more records would only grow a backlog the settle might not
 *   drain). Lost = records the broker
 *   acknowledged to the devices minus those of the run in the database once it settles (waited
 *   for up to 30 s). Target 0.
 *
 * Medians of RUNS runs each (after a short unmeasured warm-up). About 2 minutes on 2 cores.
 */
import pg from 'pg';
import type { BenchResult } from './run';
import { median } from './stats';
import { findPostgres, progress, round1 } from './telemetry-kit';
import { BARE_RECORDS_TABLE, Publisher, bareSubscriber, waitStored } from './ingest';
import { openDatabase } from '../../apps/server/src/db/db';
import { startPrivateBroker, type PrivateBroker } from '../../apps/server/test/private-broker';
import {
  createDatabase,
  killInstance,
  provisionDevice,
  signIn,
  STAFF,
  startInstance,
  type Instance,
  type ProvisionedDevice,
  type TempDatabase,
} from '../../apps/server/test/instances';

const DEVICES = Number(process.env.BENCH_SCALE_OUT_DEVICES ?? 50);
const RECORDS_PER_DEVICE = Number(process.env.BENCH_SCALE_OUT_RECORDS ?? 200);
const WINDOW = 10;
const RUNS = 3;
/** Give up waiting for a run's records when none was stored for this long. */
const STALL_MS = 10_000;
/** After a kill and restart, wait this long at most for the acknowledged records. */
const SETTLE_MS = 30_000;

const nowMs = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Run {
  rate: number;
  /** Acknowledged by the broker to the devices, first publish to last PUBACK. */
  ackRate: number;
  stored: number;
  expected: number;
}

class Bench {
  readonly instances = new Map<string, Instance>();
  /** Every process started, for the cleanup (a restart replaces its map entry). */
  readonly started: Instance[] = [];
  devices: ProvisionedDevice[] = [];
  /** Record times of the next run start here (each run takes the next range). */
  private nextTs = Math.floor(Date.now() / 1000) - 3 * 86_400;

  constructor(
    readonly broker: PrivateBroker,
    readonly database: TempDatabase,
    readonly db: pg.Client,
  ) {}

  async start(name: string): Promise<Instance> {
    const instance = await startInstance({
      name,
      databaseUrl: this.database.url,
      mqttUrl: this.broker.portalUrl,
      env: { LOG_LEVEL: 'warn', MQTT_SHARED_CONNECTIONS: undefined, RATE_LIMIT_PER_MINUTE: '100000' },
    });
    this.instances.set(name, instance);
    this.started.push(instance);
    return instance;
  }

  /** A range of record times no earlier run used. */
  takeTs(records: number): number {
    const base = this.nextTs;
    this.nextTs += records + 10;
    return base;
  }

  async storedBetween(from: number, to: number): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM records WHERE device_id = ANY($1) AND ts >= $2 AND ts < $3',
      [this.devices.map((d) => d.id), from, to],
    );
    return rows[0]?.n ?? 0;
  }

  async publisher(records: number, tsBase: number): Promise<Publisher> {
    const publisher = new Publisher();
    try {
      await publisher.setup({
        url: this.broker.url,
        topicPrefix: 'dev',
        authenticate: true,
        devices: this.devices.map(({ id, key }) => ({ id, key })),
        window: WINDOW,
        recordsPerDevice: records,
        tsBase,
        intervalS: 1,
      });
    } catch (error) {
      await publisher.close();
      throw error;
    }
    return publisher;
  }

  /** Fixed records per device as fast as the windows allow; first publish to last commit. */
  async throughputRun(records = RECORDS_PER_DEVICE): Promise<Run> {
    const tsBase = this.takeTs(records);
    const expected = this.devices.length * records;
    const publisher = await this.publisher(records, tsBase);
    try {
      const going = publisher.go();
      let stored = 0;
      let lastChangeAt = nowMs();
      let settled = false;
      void going.finally(() => (settled = true)).catch(() => undefined);
      while (stored < expected) {
        await sleep(20);
        const now = await this.storedBetween(tsBase, tsBase + records);
        if (now !== stored) {
          stored = now;
          lastChangeAt = nowMs();
        } else if (settled && nowMs() - lastChangeAt > STALL_MS) {
          break;
        }
      }
      const done = await going;
      if (done.errors > 0) throw new Error(`${done.errors} publishes failed: ${done.firstError}`);
      return {
        rate: stored / ((lastChangeAt - done.firstPublishAt) / 1000),
        ackRate: done.acked / ((done.lastAckAt - done.firstPublishAt) / 1000),
        stored,
        expected,
      };
    } finally {
      await publisher.close();
    }
  }

  /**
   * The ceiling: the same devices and publishes through the same broker to a bare pipeline (the
   * ingest benchmark's: MQTT_SHARED_CONNECTIONS connections on a shared subscription of their
   * own, PUBACK on receipt, group commits into a plain table), first publish to last commit.
   */
  async ceilingRuns(runs: number): Promise<number[]> {
    const db = await openDatabase({ dataDir: 'memory://', databaseUrl: this.database.url });
    const bare = await bareSubscriber(db, { url: this.broker.portalUrl, share: 'bare', topic: 'dev/+/data' });
    const rates: number[] = [];
    try {
      await db.exec(BARE_RECORDS_TABLE);
      for (let run = -1; run < runs; run += 1) {
        const records = run < 0 ? Math.max(20, Math.round(RECORDS_PER_DEVICE / 5)) : RECORDS_PER_DEVICE;
        const publisher = await this.publisher(records, this.takeTs(records));
        try {
          const before = bare.writer.state.stored;
          const done = await publisher.go();
          if (done.errors > 0) throw new Error(`${done.errors} publishes failed: ${done.firstError}`);
          const mine = {
            get stored() {
              return bare.writer.state.stored - before;
            },
          };
          await waitStored(mine, this.devices.length * records);
          // The first run warms up and is not counted.
          if (run >= 0) rates.push(mine.stored / ((bare.writer.state.lastStoredAt - done.firstPublishAt) / 1000));
        } finally {
          await publisher.close();
        }
      }
    } finally {
      await bare.close();
      await db.close();
    }
    return rates;
  }

  /** Two instances under load, a killed and restarted; answers acknowledged and stored records. */
  async killRestartRun(
    recordsPerDevice: number,
  ): Promise<{ acked: number; stored: number; loadS: number; publishedS: number }> {
    const tsBase = this.takeTs(recordsPerDevice);
    const publisher = await this.publisher(recordsPerDevice, tsBase);
    try {
      const t0 = nowMs();
      const going = publisher.go();
      await sleep(1000);
      await killInstance(this.instances.get('a')!);
      await sleep(1000);
      await this.start('a');
      await sleep(1000);
      publisher.stop();
      const done = await going;
      const loadS = (nowMs() - t0) / 1000;
      const deadline = Date.now() + SETTLE_MS;
      let stored = 0;
      for (;;) {
        stored = await this.storedBetween(tsBase, tsBase + recordsPerDevice);
        if (stored >= done.acked || Date.now() > deadline) break;
        await sleep(100);
      }
      return { acked: done.acked, stored, loadS, publishedS: (done.lastAckAt - t0) / 1000 };
    } finally {
      await publisher.close();
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.started.map((instance) => killInstance(instance)));
  }
}

export async function scaleOut(): Promise<BenchResult[]> {
  progress('scale-out: starting a private Mosquitto and a fresh PostgreSQL database');
  const broker = await startPrivateBroker();
  let database: TempDatabase | undefined;
  let db: pg.Client | undefined;
  let bench: Bench | undefined;
  // The portal processes have their own process groups: no Ctrl-C reaches them.
  const killOnExit = () => bench?.started.forEach((i) => i.child.exitCode === null && i.child.kill('SIGKILL'));
  process.once('exit', killOnExit);
  try {
    database = await createDatabase(await findPostgres(), 'bench_scale');
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    bench = new Bench(broker, database, db);
    const b = bench;
    await b.start('a');
    const staff = await signIn(b.instances.get('a')!, STAFF);
    for (let i = 0; i < DEVICES; i += 1) b.devices.push(await provisionDevice(staff, 'SO'));
    progress(`scale-out: instance a up, ${DEVICES} devices provisioned through the API`);

    // The ceiling with no portal subscribed (a stops gracefully: it unsubscribes), then a again.
    const first = b.instances.get('a')!;
    first.child.kill('SIGTERM');
    await first.exited;
    const ceiling = await b.ceilingRuns(RUNS);
    progress(
      `scale-out ceiling (bare pipeline through the same broker): ${ceiling.map(Math.round).join(', ')} records/s`,
    );
    await b.start('a');

    const label = `${DEVICES} devices x ${RECORDS_PER_DEVICE} records, window ${WINDOW}`;
    const notes: string[] = [];
    const measure = async (name: string): Promise<number[]> => {
      await b.throughputRun(Math.max(20, Math.round(RECORDS_PER_DEVICE / 5))); // warm-up, not measured
      const rates: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const r = await b.throughputRun();
        if (r.stored !== r.expected) notes.push(`${name} run ${run + 1}: ${r.stored} of ${r.expected} stored`);
        rates.push(r.rate);
        progress(
          `scale-out ${name} run ${run + 1}: ${Math.round(r.rate)} records/s committed, ${Math.round(r.ackRate)} acknowledged by the broker (${label})`,
        );
      }
      return rates;
    };
    const one = await measure('one instance');
    await b.start('b');
    progress('scale-out: instance b up (same share group)');
    const two = await measure('two instances');

    // About 10 s of records at the two-instance commit rate: the broker acknowledges faster than
    // the portal commits, so more would only grow a backlog the 30 s settle might not drain.
    const killRecords = Math.max(100, Math.ceil((median(two) * 10) / DEVICES));
    const lost: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const r = await b.killRestartRun(killRecords);
      lost.push(Math.max(0, r.acked - r.stored));
      progress(
        `scale-out kill-restart run ${run + 1}: ${r.acked} acknowledged to the devices (last ${round1(r.publishedS)} s in, restart over ${round1(r.loadS)} s in), ${r.stored} stored, ${r.acked - r.stored} lost`,
      );
    }
    if (notes.length > 0) progress(`scale-out: ${notes.join('; ')}`);
    const incomplete = notes.length > 0 ? '-INCOMPLETE' : '';
    progress(
      `scale-out: one instance ${Math.round(median(one))} records/s, two ${Math.round(median(two))} (x${round1(median(two) / median(one))}), lost ${median(lost)}`,
    );
    return [
      {
        name: `scale-out-one-instance-records-per-s${incomplete}`,
        value: Math.round(median(one)),
        unit: 'records/s',
        better: 'higher',
        ceiling: Math.round(median(ceiling)),
        runs: one.map(Math.round),
      },
      {
        name: `scale-out-two-instances-records-per-s${incomplete}`,
        value: Math.round(median(two)),
        unit: 'records/s',
        better: 'higher',
        ceiling: Math.round(median(ceiling)),
        runs: two.map(Math.round),
      },
      {
        name: 'scale-out-ceiling-bare-pipeline',
        value: Math.round(median(ceiling)),
        unit: 'records/s',
        better: 'higher',
        runs: ceiling.map(Math.round),
      },
      {
        name: 'scale-out-kill-restart-lost-records',
        value: median(lost),
        unit: 'records',
        better: 'lower',
        target: 0,
        runs: lost,
      },
    ];
  } finally {
    await bench?.close().catch(() => undefined);
    process.removeListener('exit', killOnExit);
    await db?.end().catch(() => undefined);
    await database?.drop().catch(() => undefined);
    await broker.stop();
  }
}
