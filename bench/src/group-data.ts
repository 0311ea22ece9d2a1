/**
 * The group data reads for 10,000 devices (what `GET /api/group/{groupid}/data` answers from):
 * telemetry groupDataRows for all of them over the default 7-day range, with the default view's
 * keys and the position, 20 sequential calls a run, p95 of each run, the median of 3 runs.
 * Targets are the whole call's (< 400 ms PGlite, < 150 ms PostgreSQL); this is the read alone.
 *
 * Data: DEVICES devices, each with a 20-key record (the simulator's ORB-C1 model) every 6 hours
 * for 7 days, every record carrying events of each level in turn, fed through the telemetry
 * service's ingest path (the writer behind MQTT and HTTP: records, events and their counts,
 * rollups, latest values, contact times), the portal's clock moved along with the records.
 */
import type { DeviceRecord } from '@portal/core';
import type { BenchResult } from './run';
import { median } from './stats';
import {
  RecordSource,
  ingestHistory,
  percentile,
  progress,
  provisionDevices,
  round1,
  round2,
  startBenchPortal,
  type Store,
} from './telemetry-kit';

const DEVICES = 10_000;
const DAYS = 7;
const INTERVAL_S = 6 * 3600;
const CALLS = 20;
const WARMUP = 3;
const RUNS = 3;
/** The default view's table columns read no measurement keys; a configured table asks for a few. */
const KEYS = ['batt', 'ambient_temp', 'vsys'];
const TARGETS: Record<Store, number> = { pglite: 400, postgres: 150 };
const LVS = [5, 15, 25, 35];

/** The model's records with one or two events of each level in turn. */
class EventfulSource extends RecordSource {
  private n = 0;
  override at(ts: number): DeviceRecord {
    const record = super.at(ts);
    const n = (this.n += 1);
    const events = [...(record.events ?? []), { msg: `bench event ${n}`, lv: LVS[n % LVS.length]! }];
    if (n % 3 === 0) events.push({ msg: `bench event ${n}b`, lv: LVS[(n + 1) % LVS.length]! });
    record.events = events;
    return record;
  }
}

async function measure(store: Store): Promise<BenchResult[]> {
  const bp = await startBenchPortal(store);
  const p95s: number[] = [];
  let stored = 0;
  try {
    let t0 = performance.now();
    const devices = await provisionDevices(bp, DEVICES, 'G');
    progress(`group-data ${store}: ${DEVICES} devices in ${round1((performance.now() - t0) / 1000)} s`);
    const to = Math.floor(Date.now() / 1000 / 3600) * 3600;
    const from = to - DAYS * 86_400 + 3600;
    t0 = performance.now();
    stored = await ingestHistory(bp, devices, {
      from,
      to,
      intervalS: INTERVAL_S,
      perMessage: 4,
      sources: new Map(devices.map((d) => [d.id, new EventfulSource(d.id)])),
    });
    const [events] = await bp.portal.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM events');
    progress(
      `group-data ${store}: ${stored} records, ${events?.n} events through the ingest path in ${round1((performance.now() - t0) / 1000)} s`,
    );
    const telemetry = bp.portal.app.services.telemetry;
    const ids = devices.map((d) => d.id);
    const call = async () => {
      const start = performance.now();
      const rows = await telemetry.groupDataRows(ids, { fromS: to - DAYS * 86_400, toS: to, keys: KEYS });
      const ms = performance.now() - start;
      if (rows.length !== DEVICES) throw new Error(`groupDataRows answered ${rows.length} rows`);
      return { ms, rows };
    };
    const { rows } = await call();
    const sample = rows[0]!;
    progress(
      `group-data ${store}: a row has ${Object.keys(sample.latest).length} keys, ${sample.messages.length} messages, counts ${JSON.stringify(sample.counts)}, marker ${sample.marker}; JSON ${Math.round(JSON.stringify(rows).length / 1024)} KiB`,
    );
    for (let w = 0; w < WARMUP; w += 1) await call();
    for (let run = 0; run < RUNS; run += 1) {
      const ms: number[] = [];
      for (let c = 0; c < CALLS; c += 1) ms.push((await call()).ms);
      p95s.push(percentile(ms, 95));
      progress(
        `group-data ${store} run ${run + 1}: p50 ${round2(percentile(ms, 50))} ms, p95 ${round2(percentile(ms, 95))} ms`,
      );
    }
  } finally {
    await bp.close();
  }
  return [
    {
      name: `group-data-read-${store}-${DEVICES}dev-7d-p95`,
      value: round2(median(p95s)),
      unit: 'ms',
      better: 'lower',
      target: TARGETS[store],
      runs: p95s.map(round2),
    },
  ];
}

export async function groupData(): Promise<BenchResult[]> {
  const stores = (process.env.BENCH_STORES ?? 'postgres,pglite').split(',') as Store[];
  const results: BenchResult[] = [];
  for (const store of stores) results.push(...(await measure(store)));
  return results;
}
