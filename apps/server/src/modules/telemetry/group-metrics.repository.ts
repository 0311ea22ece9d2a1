/**
 * What the group metrics call reads (DESIGN.md section 5): one key over many devices, for a
 * current and a previous period of whole hours, from the rollups kept at ingest (rollup_day for
 * the whole UTC days inside a period, rollup_hour for the hours at its edges, as the group data
 * call plans its ranges: rangePlan), never the records. One statement answers both periods.
 */
import type { Db } from '../../db/db';
import { GROUP_DATA_WORK_MEM, rangePlan } from './group-data.repository';

const HOUR = 3600;

/** A period of whole hours [startTime, endTime), epoch seconds, both multiples of 3600. */
export interface HourPeriod {
  startTime: number;
  endTime: number;
}

/** One period's figures over the devices: the sums and extremes of the rollups, and the newest value. */
export interface GroupKeyAggregate {
  /** Devices with at least one value in the period. */
  devices: number;
  /** Values in the period, over all devices. */
  count: number;
  sum: number | null;
  min: number | null;
  max: number | null;
  /** The newest value of any device in the period, its device and time (ties: the lowest device id). */
  latest: { deviceid: string; value: number; ts: number } | null;
}

/** The bounds one period is read with: hourly rows [start, dayFrom) and [dayTo, end), daily rows [dayFrom, dayTo). */
function periodBounds(period: HourPeriod): [number, number, number, number] {
  if (period.endTime <= period.startTime)
    return [period.startTime, period.startTime, period.startTime, period.startTime];
  const { dayFrom, dayTo } = rangePlan(period.startTime, period.endTime - HOUR);
  return [period.startTime, period.endTime, dayFrom, dayTo];
}

/** The rollup rows of period `p` whose bounds are parameters $a..$a+3 (start, end, dayFrom, dayTo). */
function periodRows(p: number, a: number): string {
  const [start, end, dayFrom, dayTo] = [`$${a}`, `$${a + 1}`, `$${a + 2}`, `$${a + 3}`];
  const columns = `${p} AS p, device_id, count, sum, min, max, last, last_ts`;
  return `SELECT ${columns} FROM rollup_day
           WHERE device_id = ANY($1::text[]) AND key = $2 AND bucket >= ${dayFrom} AND bucket < ${dayTo}
          UNION ALL
          SELECT ${columns} FROM rollup_hour
           WHERE device_id = ANY($1::text[]) AND key = $2
             AND ((bucket >= ${start} AND bucket < ${dayFrom}) OR (bucket >= ${dayTo} AND bucket < ${end}))`;
}

/**
 * The aggregates of `key` over `deviceIds` for each of `periods` (in their order), in one
 * statement. `withLatest` also finds each period's newest value (its device and time), which the
 * other operators do not need.
 */
export async function groupKeyAggregates(
  db: Db,
  deviceIds: readonly string[],
  key: string,
  periods: readonly HourPeriod[],
  withLatest: boolean,
): Promise<GroupKeyAggregate[]> {
  const empty = (): GroupKeyAggregate => ({ devices: 0, count: 0, sum: null, min: null, max: null, latest: null });
  if (deviceIds.length === 0 || periods.length === 0) return periods.map(empty);
  const rows = periods.map((_, p) => periodRows(p, 3 + 4 * p)).join('\nUNION ALL\n');
  const params: unknown[] = [[...deviceIds], key, ...periods.flatMap(periodBounds)];
  // Per device first, then over the devices: counting distinct devices in one aggregate would sort
  // every row. The per-device step sorts or hashes 40,000 rows for 2,000 devices (a week, both
  // periods): at the default 4 MB of work_mem PostgreSQL's sort went to disk.
  const latest = withLatest
    ? `, (SELECT json_build_object('deviceid', device_id, 'value', last, 'ts', last_ts)::text FROM r
          WHERE r.p = a.p ORDER BY last_ts DESC, device_id LIMIT 1) AS latest`
    : ', NULL::text AS latest';
  const found = await db.transaction(async (tx) => {
    await tx.exec(
      `SET LOCAL work_mem = '${GROUP_DATA_WORK_MEM}'; SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL jit = off`,
    );
    return tx.query<{
      p: number;
      devices: number;
      count: number;
      sum: number | null;
      min: number | null;
      max: number | null;
      latest: string | null;
    }>(
      `WITH r AS (${rows}),
       d AS (SELECT p, device_id, sum(count) AS count, sum(sum) AS sum, min(min) AS min, max(max) AS max
               FROM r GROUP BY p, device_id)
       SELECT a.p, a.devices, a.count, a.sum, a.min, a.max${latest}
         FROM (SELECT p, count(*)::integer AS devices, sum(count)::double precision AS count, sum(sum) AS sum,
                      min(min) AS min, max(max) AS max
                 FROM d GROUP BY p) a`,
      params,
    );
  });
  return periods.map((_, p) => {
    const row = found.find((f) => Number(f.p) === p);
    if (!row) return empty();
    const newest = row.latest ? (JSON.parse(row.latest) as { deviceid: string; value: number; ts: number }) : null;
    return {
      devices: row.devices,
      count: Number(row.count),
      sum: row.sum,
      min: row.min,
      max: row.max,
      latest: newest,
    };
  });
}
