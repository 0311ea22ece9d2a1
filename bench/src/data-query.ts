/**
 * GET /api/device/{id}/data?dataPoints=600 (records of 20 keys: 600 x 20 points), p95 latency
 * over 200 sequential requests across random devices, loopback HTTP with a signed-in user, the
 * median of 3 runs after a warm-up, and the answer's size. Target p95 < 20 ms.
 *
 * Data: records of 20 keys, one a minute per device, written straight into the records table by
 * multi-row INSERT ... SELECT generated in the database (two connections on PostgreSQL; time-major, as devices interleave in
 * real ingest, so one device's 600 newest records sit on ~600 different pages). The issue asks
 * 10 million records of 1,000 devices in PostgreSQL; loading stops after LOAD_BUDGET_S seconds and
 * the result names the count actually loaded. PGlite: up to 1 million records of 1,000 devices
 * (also time-bounded).
 */
import type { BenchResult } from './run';
import { median } from './stats';
import {
  RECORD_KEYS,
  percentile,
  progress,
  provisionDevices,
  round1,
  round2,
  signedInAdmin,
  startBenchPortal,
  type BenchPortal,
  type Store,
  onEachStore,
} from './telemetry-kit';

const DEVICES = 1000;
const REQUESTS = 200;
const WARMUP = 100;
const RUNS = 3;
const INTERVAL_S = 60;
const LIMITS: Record<Store, { records: number; budgetS: number }> = {
  postgres: { records: 10_000_000, budgetS: Number(process.env.BENCH_PG_LOAD_S ?? 240) },
  pglite: { records: 1_000_000, budgetS: Number(process.env.BENCH_PGLITE_LOAD_S ?? 80) },
};

/** jsonb_build_object arguments for the 20 keys: plausible values of an ORB-C1. */
const VALUES: Record<(typeof RECORD_KEYS)[number], string> = {
  vsys: 'round((12.2 + random() * 1.8)::numeric, 2)',
  batt: 'round((3.9 + random() * 0.2)::numeric, 2)',
  ambient_temp: 'round((5 + random() * 20)::numeric, 1)',
  ambient_hum: 'round((30 + random() * 60)::numeric, 1)',
  gps_lat: 'round((51.45 + random() * 0.02)::numeric, 6)',
  gps_lon: 'round((-2.6 + random() * 0.02)::numeric, 6)',
  gps_nsat: '(5 + floor(random() * 10))::integer',
  gps_hdop: 'round((0.7 + random() * 1.7)::numeric, 1)',
  gps_cog: 'round((random() * 360)::numeric, 1)',
  gps_altitude: 'round((20 + random() * 5)::numeric, 1)',
  gps_speed: 'round((random() * 18)::numeric, 1)',
  accel_x: 'round(((random() - 0.5) * 0.2)::numeric, 3)',
  accel_y: 'round(((random() - 0.5) * 0.2)::numeric, 3)',
  accel_z: 'round((1 + (random() - 0.5) * 0.1)::numeric, 3)',
  gsm_rssi: '(-105 + floor(random() * 45))::integer',
  analog1: 'round((0.5 + random() * 4)::numeric, 3)',
  analog2: 'round((random() * 10)::numeric, 3)',
  digital1: 'floor(random() * 2)::integer',
  hourmeter_hrs: 'round((1000 + s.step / 60.0)::numeric, 3)',
  coolant_temp: 'round((80 + random() * 15)::numeric, 1)',
};

const INSERT_SQL = `INSERT INTO records (device_id, ts, received_at, source, data)
  SELECT d.id, d.ts, to_timestamp(d.ts + 0.25), 'mqtt', jsonb_build_object('ts', d.ts, ${RECORD_KEYS.map((k) => `'${k}', ${VALUES[k]}`).join(', ')})
    FROM generate_series($1::integer, $2::integer) AS s(step)
   CROSS JOIN LATERAL (SELECT id, $3::double precision + s.step * ${INTERVAL_S} AS ts FROM unnest($4::text[]) AS id) AS d`;

/**
 * Loads time steps of all devices until the record limit or the time budget; returns the count.
 * PostgreSQL loads with two connections (chunks interleaved, still in time order); PGlite with one.
 */
async function load(
  bp: BenchPortal,
  deviceIds: string[],
  limit: number,
  budgetS: number,
  startTs: number,
): Promise<number> {
  const stepsPerChunk = 50;
  const maxSteps = Math.floor(limit / deviceIds.length);
  const t0 = performance.now();
  let next = 0;
  let loadedSteps = 0;
  const loader = async () => {
    while (next < maxSteps && (performance.now() - t0) / 1000 < budgetS) {
      const first = next;
      const last = Math.min(maxSteps, first + stepsPerChunk) - 1;
      next = last + 1;
      await bp.portal.db.query(INSERT_SQL, [first, last, startTs, deviceIds]);
      loadedSteps += last - first + 1;
      if (next % 1000 === 0)
        progress(
          `data-query ${bp.store}: ${next * deviceIds.length} records loading, ${Math.round((performance.now() - t0) / 1000)} s`,
        );
    }
  };
  await Promise.all(Array.from({ length: bp.store === 'postgres' ? 2 : 1 }, loader));
  await bp.portal.db.query('ANALYZE records');
  const seconds = (performance.now() - t0) / 1000;
  const count = loadedSteps * deviceIds.length;
  progress(`data-query ${bp.store}: ${count} records in ${round1(seconds)} s (${Math.round(count / seconds)}/s)`);
  return count;
}

/** A small seeded generator, so every run asks the same sequence of devices. */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

async function measure(store: Store): Promise<BenchResult[]> {
  const bp = await startBenchPortal(store);
  const p95s: number[] = [];
  const p50s: number[] = [];
  let loaded = 0;
  let bytes = 0;
  try {
    const devices = await provisionDevices(bp, DEVICES, 'Q');
    const ids = devices.map((d) => d.id);
    const get = await signedInAdmin(bp, ids);
    const now = Math.floor(Date.now() / 1000);
    const { records, budgetS } = LIMITS[store];
    // Newest record a minute ago; the series runs back from there.
    const steps = Math.floor(records / DEVICES);
    loaded = await load(bp, ids, records, budgetS, now - steps * INTERVAL_S);
    const random = lcg(42);
    const ask = async () => {
      const id = ids[Math.floor(random() * ids.length)]!;
      const res = await get(`/api/device/${id}/data?dataPoints=600`);
      if (res.status !== 200) throw new Error(`GET /data answered ${res.status}: ${res.body.slice(0, 200)}`);
      bytes = res.bytes;
      return res;
    };
    const first = await ask();
    const body = JSON.parse(first.body) as { data: Record<string, unknown[]> };
    const points = Object.values(body.data).reduce((n, list) => n + list.length, 0);
    const keys = Object.keys(body.data).length;
    if (keys !== 20 || points < 600 * 20 * 0.9)
      progress(`data-query ${store}: WARNING answer holds ${keys} keys, ${points} points`);
    for (let i = 0; i < WARMUP; i += 1) await ask();
    for (let run = 0; run < RUNS; run += 1) {
      const ms: number[] = [];
      for (let i = 0; i < REQUESTS; i += 1) ms.push((await ask()).ms);
      p95s.push(percentile(ms, 95));
      p50s.push(percentile(ms, 50));
      progress(`data-query ${store} run ${run + 1}: p50 ${round2(p50s.at(-1)!)} ms, p95 ${round2(p95s.at(-1)!)} ms`);
    }
  } finally {
    await bp.close();
  }
  const size = `${DEVICES}dev-${loaded >= 1_000_000 ? `${round2(loaded / 1_000_000)}M` : `${Math.round(loaded / 1000)}k`}records-20keys`;
  progress(`data-query ${store}: answer ${Math.round(bytes / 1000)} kB`);
  return [
    {
      name: `data-600pts-${store}-${size}-p95`,
      value: round2(median(p95s)),
      unit: 'ms',
      better: 'lower',
      target: 20,
      runs: p95s.map(round2),
    },
    {
      name: `data-600pts-${store}-${size}-p50`,
      value: round2(median(p50s)),
      unit: 'ms',
      better: 'lower',
      runs: p50s.map(round2),
    },
    {
      // The answer's size: every point carries v, ts, source and aws_ts (CARD-28).
      name: `data-600pts-${store}-${size}-answer`,
      value: round1(bytes / 1000),
      unit: 'kB',
      better: 'lower',
      runs: [round1(bytes / 1000)],
    },
  ];
}

export async function dataQuery(): Promise<BenchResult[]> {
  return onEachStore(measure);
}
