/**
 * A downsampled 90-day chart of 10 keys: GET /api/device/{id}/data?fromTime&toTime (90 days)
 * &dataKeys (10 keys)&downsample=true (dataPoints default 600, so the server picks the bucket
 * width: 90 days in 600 points is 3.6 hours a bucket, more than two hours, so whole days, read from
 * the daily rollups), sequential loopback requests by a signed-in user; p95 of each run, the
 * median of 3 runs (40 requests a run for 90 days, 15 for 7 days). Target < 100 ms on both
 * stores. Next to it, the same over 7 days (buckets under an hour, which the server computes from
 * raw records), without a target.
 *
 * Data: DEVICES devices sending a 20-key record (the simulator's ORB-C1 model) every minute for
 * 90 days, fed through the telemetry service's ingest path (the writer behind MQTT and HTTP:
 * records, events, rollups, latest values) in time order, with the portal's clock moved along
 * the records so the 7-day age rule accepts them.
 */
import type { BenchResult } from './run';
import { median } from './stats';
import {
  RECORD_KEYS,
  RecordSource,
  ingestHistory,
  percentile,
  progress,
  provisionDevices,
  round1,
  round2,
  signedInAdmin,
  startBenchPortal,
  type Store,
  onEachStore,
} from './telemetry-kit';

const DEVICES = 2;
const DAYS = 90;
const INTERVAL_S = 60;
/** Requests per run (and warm-up requests) of each range: the 7-day one reads raw records and is slow. */
const REQUESTS = { '90d': 40, '7d': 15 } as const;
const WARMUP = { '90d': 10, '7d': 3 } as const;
const RUNS = 3;
const KEYS = RECORD_KEYS.slice(0, 10).join(',');

async function measure(store: Store): Promise<BenchResult[]> {
  const bp = await startBenchPortal(store);
  const p95s: Record<'90d' | '7d', number[]> = { '90d': [], '7d': [] };
  let stored = 0;
  try {
    const devices = await provisionDevices(bp, DEVICES, 'S');
    const get = await signedInAdmin(
      bp,
      devices.map((d) => d.id),
    );
    const to = Math.floor(Date.now() / 1000 / 3600) * 3600 - 3600;
    const from = to - DAYS * 86_400;
    const t0 = performance.now();
    let reported = 0;
    stored = await ingestHistory(bp, devices, {
      from,
      to,
      intervalS: INTERVAL_S,
      perMessage: 360,
      sources: new Map(devices.map((d) => [d.id, new RecordSource(d.id)])),
      onProgress: (n) => {
        if (n - reported >= 50_000) {
          reported = n;
          progress(`downsample ${store}: ${n} records ingested, ${Math.round((performance.now() - t0) / 1000)} s`);
        }
      },
    });
    progress(
      `downsample ${store}: ${stored} records through the ingest path in ${round1((performance.now() - t0) / 1000)} s`,
    );
    const ranges = { '90d': { fromTime: from, toTime: to }, '7d': { fromTime: to - 7 * 86_400, toTime: to } } as const;
    for (const span of ['90d', '7d'] as const) {
      const { fromTime, toTime } = ranges[span];
      let i = 0;
      const ask = async () => {
        const id = devices[i++ % devices.length]!.id;
        const res = await get(
          `/api/device/${id}/data?fromTime=${fromTime}&toTime=${toTime}&dataKeys=${KEYS}&downsample=true`,
        );
        if (res.status !== 200) throw new Error(`GET /data answered ${res.status}: ${res.body.slice(0, 200)}`);
        return res;
      };
      const first = JSON.parse((await ask()).body) as { data: Record<string, unknown[]>; bucketSeconds?: number };
      const perKey = Object.values(first.data).map((l) => l.length);
      progress(
        `downsample ${store} ${span}: ${perKey.length} keys, ${Math.min(...perKey)}-${Math.max(...perKey)} points each, buckets of ${first.bucketSeconds} s`,
      );
      for (let w = 0; w < WARMUP[span]; w += 1) await ask();
      for (let run = 0; run < RUNS; run += 1) {
        const ms: number[] = [];
        for (let r = 0; r < REQUESTS[span]; r += 1) ms.push((await ask()).ms);
        p95s[span].push(percentile(ms, 95));
        progress(
          `downsample ${store} ${span} run ${run + 1}: p50 ${round2(percentile(ms, 50))} ms, p95 ${round2(percentile(ms, 95))} ms`,
        );
      }
    }
  } finally {
    await bp.close();
  }
  const size = `${DEVICES}dev-${Math.round(stored / 1000)}k-records-1min`;
  return [
    {
      name: `downsample-90d-10keys-${store}-${size}-p95`,
      value: round2(median(p95s['90d'])),
      unit: 'ms',
      better: 'lower',
      target: 100,
      runs: p95s['90d'].map(round2),
    },
    {
      name: `downsample-7d-10keys-${store}-${size}-p95`,
      value: round2(median(p95s['7d'])),
      unit: 'ms',
      better: 'lower',
      runs: p95s['7d'].map(round2),
    },
  ];
}

export async function downsample(): Promise<BenchResult[]> {
  return onEachStore(measure);
}
