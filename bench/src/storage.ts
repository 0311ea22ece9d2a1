/**
 * Storage density on PostgreSQL: data points (key values) per GiB of the telemetry tables
 * (records, latest, events and every rollup table, with their indexes and TOAST:
 * pg_total_relation_size) after VACUUM ANALYZE. Records of 20 keys (the simulator's ORB-C1
 * model), one a minute from each of DEVICES devices, fed through the telemetry service's ingest
 * path in time order. Measured after each of 3 equal loads (the runs; the value is their
 * median). ThingsBoard publishes about 7 million data points per GiB on PostgreSQL; the target
 * is 3 times that, 21 million.
 */
import type { BenchResult } from './run';
import { median } from './stats';
import {
  RECORD_KEYS,
  RecordSource,
  ingestHistory,
  progress,
  provisionDevices,
  round1,
  startBenchPortal,
} from './telemetry-kit';

const DEVICES = 100;
const RECORDS_PER_DEVICE_PER_LOAD = 1200;
const LOADS = 3;
const INTERVAL_S = 60;
const GIB = 2 ** 30;

export async function storage(): Promise<BenchResult[]> {
  const bp = await startBenchPortal('postgres');
  const densities: number[] = [];
  const recordBytes: number[] = [];
  let total = 0;
  let tables: string[] = [];
  try {
    const db = bp.portal.db;
    const devices = await provisionDevices(bp, DEVICES, 'G');
    const sources = new Map(devices.map((d) => [d.id, new RecordSource(d.id)]));
    const span = RECORDS_PER_DEVICE_PER_LOAD * INTERVAL_S;
    const start = Math.floor(Date.now() / 1000) - LOADS * span - 3600;
    tables = (
      await db.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = current_schema() AND (table_name IN ('records', 'latest', 'events') OR table_name LIKE 'rollup%')
          ORDER BY table_name`,
      )
    ).map((r) => r.name);
    for (let load = 0; load < LOADS; load += 1) {
      const t0 = performance.now();
      const from = start + load * span;
      total += await ingestHistory(bp, devices, {
        from,
        to: from + span,
        intervalS: INTERVAL_S,
        perMessage: 60,
        sources,
      });
      const seconds = (performance.now() - t0) / 1000;
      for (const table of tables) await db.exec(`VACUUM ANALYZE ${table}`);
      const sizes = await db.query<{ name: string; bytes: number }>(
        `SELECT t AS name, pg_total_relation_size(t::regclass)::double precision AS bytes FROM unnest($1::text[]) AS t`,
        [tables],
      );
      const bytes = sizes.reduce((n, s) => n + s.bytes, 0);
      const records = sizes.find((s) => s.name === 'records')?.bytes ?? 0;
      densities.push((total * RECORD_KEYS.length) / (bytes / GIB));
      recordBytes.push(bytes / total);
      progress(
        `storage: ${total} records (${round1(seconds)} s): ${sizes.map((s) => `${s.name} ${round1(s.bytes / 2 ** 20)} MiB`).join(', ')}; ` +
          `${Math.round(bytes / total)} B/record (records table ${Math.round(records / total)} B), ${round1(densities.at(-1)! / 1e6)} M points/GiB`,
      );
    }
  } finally {
    await bp.close();
  }
  return [
    {
      name: `storage-pg-points-per-GiB-${DEVICES}dev-${Math.round(total / 1000)}k-records-20keys-1min (${tables.join('+')})`,
      value: Math.round(median(densities)),
      unit: 'key values/GiB',
      better: 'higher',
      target: 21_000_000,
      runs: densities.map(Math.round),
    },
    {
      name: 'storage-pg-bytes-per-record-20keys',
      value: Math.round(median(recordBytes)),
      unit: 'B',
      better: 'lower',
      runs: recordBytes.map(Math.round),
    },
  ];
}
