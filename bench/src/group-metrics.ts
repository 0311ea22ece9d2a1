/**
 * The headline and chart reads of a dashboard (issue 13):
 *
 * - `GET /api/group/{groupid}/metrics` over HTTP (the real route: membership, one statement over
 *   the rollups, the answer through its schema) for a group of DEVICES devices, one key, each
 *   operator (avg, sum, max, min, latest), the current period the last 7 days to now (not on an
 *   hour or day boundary: whole days from the daily rollups, the hours of both edges from the
 *   hourly ones) and the previous period the 7 days before; 20 sequential calls a run, p95 of
 *   each run, the median of 3 runs. The issue sets no target of its own for it (a dashboard with
 *   4 headlines drawn within 2 s).
 * - A 15-series, 7-day group chart's data: 15 devices x one key, asked as the group chart asks
 *   (core chartDataQuery), one `GET /api/device/{id}/data?fromTime&toTime&dataKeys&dataPoints=600
 *   &downsample=...&events=false` per series, all 15 at once; the time until the last answer, p95
 *   of 20 such charts a run, the median of 3 runs. Target < 150 ms on PostgreSQL (issue 13: 600
 *   points a series). Three ways: downsample=true (the chart's own call: 7 days in 600 buckets
 *   is 1,008 s, under 20 minutes, so 600 points from the records), downsample=3600 (whole hours
 *   from the hourly rollups: 169 points) and downsample=1008 (the same width as the first, asked
 *   by width). None carries events.
 *
 * Data: DEVICES devices each with a 20-key record (the simulator's ORB-C1 model) every
 * INTERVAL_S for 14 days, and the 15 chart devices one a minute for 7 days, fed through the
 * telemetry service's ingest path (records, rollups, latest values), the portal's clock moved
 * along with the records. BENCH_GROUP_DEVICES sets a smaller fleet for a quick try (the figures
 * are for 10,000), BENCH_STORES the stores.
 */
import { COLUMN_OPERATORS, GroupMetricsResponseSchema, type MetricsOperator } from '@portal/core';
import type { BenchResult } from './run';
import { median } from './stats';
import {
  RecordSource,
  ingestHistory,
  progress,
  p95Runs,
  provisionDevices,
  round1,
  round2,
  signedInAdmin,
  startBenchPortal,
  type Store,
  onEachStore,
} from './telemetry-kit';
import { groupMember } from './group-data';

const DEVICES = Number(process.env.BENCH_GROUP_DEVICES ?? 10_000);
const DAYS = 7;
/** One record every 6 hours (as the group data bench): each day of each device has a daily row and 4 hourly ones. */
const INTERVAL_S = Number(process.env.BENCH_METRICS_INTERVAL_S ?? 6 * 3600);
const KEY = 'batt';
const CALLS = 20;
const CHART_SERIES = 15;
const CHART_KEYS = ['batt', 'vsys', 'ambient_temp'];
const CHART_TARGET_POSTGRES = 150;

async function measure(store: Store): Promise<BenchResult[]> {
  const bp = await startBenchPortal(store);
  const results: BenchResult[] = [];
  try {
    let t0 = performance.now();
    const devices = await provisionDevices(bp, DEVICES, 'M');
    const chartDevices = await provisionDevices(bp, CHART_SERIES, 'C');
    progress(
      `group-metrics ${store}: ${DEVICES} + ${CHART_SERIES} devices in ${round1((performance.now() - t0) / 1000)} s`,
    );
    // Half past an hour, a few hours into the day: both periods start and end inside a day.
    const now = Math.floor(Date.now() / 1000 / 3600) * 3600 - 1800;
    t0 = performance.now();
    const stored = await ingestHistory(bp, devices, {
      from: now - 2 * DAYS * 86_400,
      to: now,
      intervalS: INTERVAL_S,
      perMessage: Math.max(1, Math.round(86_400 / INTERVAL_S)),
      sources: new Map(devices.map((d) => [d.id, new RecordSource(d.id)])),
    });
    progress(`group-metrics ${store}: ${stored} records in ${round1((performance.now() - t0) / 1000)} s`);
    t0 = performance.now();
    const chartStored = await ingestHistory(bp, chartDevices, {
      from: now - DAYS * 86_400,
      to: now,
      intervalS: 60,
      perMessage: 360,
      sources: new Map(chartDevices.map((d) => [d.id, new RecordSource(d.id)])),
    });
    progress(`group-metrics ${store}: ${chartStored} chart records in ${round1((performance.now() - t0) / 1000)} s`);

    const { cookie, groupid } = await groupMember(
      bp,
      devices.map((d) => d.id),
    );
    const base = `http://127.0.0.1:${bp.portal.port}`;
    const range = `currentStartTime=${now - DAYS * 86_400}&currentEndTime=${now}`;
    const ask = async (operator: MetricsOperator) => {
      const start = performance.now();
      const res = await fetch(`${base}/api/group/${groupid}/metrics?key=${KEY}&operator=${operator}&${range}`, {
        headers: { cookie, 'x-requested-with': 'portal' },
      });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`group metrics answered ${res.status}: ${body.slice(0, 300)}`);
      return { ms: performance.now() - start, body };
    };
    for (const operator of COLUMN_OPERATORS) {
      const answer = GroupMetricsResponseSchema.parse(JSON.parse((await ask(operator)).body));
      const { currentPeriod: c, previousPeriod: p } = answer;
      progress(
        `group-metrics ${store} ${operator}: current ${round2(c.value ?? NaN)} over ${c.devices} devices (${c.count} values), previous ${round2(p.value ?? NaN)} over ${p.devices}`,
      );
      if (c.devices !== DEVICES || p.devices !== DEVICES)
        throw new Error(`group metrics counted ${c.devices} / ${p.devices} devices`);
      const p95s = await p95Runs(`group-metrics ${store} ${operator}`, CALLS, async () => (await ask(operator)).ms);
      results.push({
        name: `group-metrics-${operator}-${store}-${DEVICES}dev-7d-p95`,
        value: round2(median(p95s)),
        unit: 'ms',
        better: 'lower',
        runs: p95s.map(round2),
      });
    }

    // The chart: 15 series (device x key), one data call each, all at once.
    const get = await signedInAdmin(
      bp,
      chartDevices.map((d) => d.id),
    );
    const fromTime = now - DAYS * 86_400;
    for (const [label, downsample] of [
      ['600pt', 'true'],
      ['hourly', '3600'],
      ['records-1008s', '1008'],
    ] as const) {
      const chart = async () => {
        const start = performance.now();
        const answers = await Promise.all(
          chartDevices.map((d, i) =>
            get(
              `/api/device/${d.id}/data?fromTime=${fromTime}&toTime=${now}&dataKeys=${CHART_KEYS[i % CHART_KEYS.length]}&dataPoints=600&downsample=${downsample}&events=false`,
            ),
          ),
        );
        for (const a of answers) if (a.status !== 200) throw new Error(`GET /data answered ${a.status}`);
        return { ms: performance.now() - start, answers };
      };
      const first = await chart();
      const points = first.answers.map(
        (a) => Object.values((JSON.parse(a.body) as { data: Record<string, unknown[]> }).data)[0]?.length ?? 0,
      );
      progress(
        `chart ${store} ${label}: ${CHART_SERIES} series of ${Math.min(...points)}-${Math.max(...points)} points, ${round1(first.answers.reduce((n, a) => n + a.bytes, 0) / 1024)} KiB`,
      );
      const p95s = await p95Runs(`chart ${store} ${label}`, CALLS, async () => (await chart()).ms);
      results.push({
        name: `chart-15series-7d-${label}-${store}-p95`,
        value: round2(median(p95s)),
        unit: 'ms',
        better: 'lower',
        ...(store === 'postgres' ? { target: CHART_TARGET_POSTGRES } : {}),
        runs: p95s.map(round2),
      });
    }
    return results;
  } finally {
    await bp.close();
  }
}

export async function groupMetrics(): Promise<BenchResult[]> {
  return onEachStore(measure);
}
