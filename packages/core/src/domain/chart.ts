/**
 * The group chart (spec 2 sections 3, 5, 8 and 9; ledger CHT-09 - CHT-18, CHT-24, CHT-26, CHT-27):
 * the axis bound rules, which data call each series makes, and the fetched series turned into the
 * time-aligned columns uPlot draws (one x of epoch seconds, one y per series, stacked when the
 * chart stacks). The web widget only draws what these give.
 */
import type { ExportTable } from './table-export';
import type { ChartSettings } from '../contracts/views';
import { DEFAULT_CHART_LINE_WIDTH } from './widget-kinds';
import { DEFAULT_DATA_POINTS, MAX_GROUP_CHART_SERIES } from './constants';

// ---- Settings as a view carries them ---------------------------------------------------------

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A saved chart's settings as the view carries them (a plain record, checked by ChartSettingsSchema
 * when the view was saved), read without the schema (the dashboard's first load stays free of
 * zod): series without a source or key are left out, at most 15 are kept, a series' axis is ax1
 * unless it names ax2 and its lineWidth 2 unless it has one (CHT-11).
 */
export function chartSettingsOf(settings: unknown): ChartSettings {
  const s = isRecord(settings) ? settings : {};
  const series = (Array.isArray(s.series) ? s.series : [])
    .filter(
      (x): x is Record<string, unknown> => isRecord(x) && typeof x.source === 'string' && typeof x.key === 'string',
    )
    .slice(0, MAX_GROUP_CHART_SERIES)
    .map((x) => ({
      ...(x as unknown as ChartSettings['series'][number]),
      axisBind: x.axisBind === 'ax2' ? ('ax2' as const) : ('ax1' as const),
      lineWidth: typeof x.lineWidth === 'number' && x.lineWidth > 0 ? x.lineWidth : DEFAULT_CHART_LINE_WIDTH,
    }));
  return { ...(s as Partial<ChartSettings>), series };
}

// ---- Axis bounds (spec 2 section 5) --------------------------------------------------------

/** An axis's bound fields as a saved chart carries them (ChartAxisSchema; any may be missing). */
export interface ChartAxisBoundsInput {
  min?: number | null | undefined;
  max?: number | null | undefined;
  dp?: number | null | undefined;
  tick?: number | null | undefined;
}

/** An axis's bounds as drawn: null means automatic (from the data). */
export interface ChartAxisBounds {
  min: number | null;
  max: number | null;
  /** Decimal places of the axis labels and values, 0 or more. */
  dp: number | null;
  /** The step between ticks, positive. */
  tick: number | null;
}

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/**
 * Applies the axis bound rules of spec 2 section 5: min equal to max widens by 1 on each side
 * (min = max = 5 gives 4 and 6, CHT-13); min above max swaps them (10 and 2 give 2 and 10,
 * CHT-14); negative decimals become 0 (CHT-15, fractions drop); a negative tick becomes 1
 * (CHT-16). A bound that is missing stays automatic; a tick of 0 is no tick (automatic).
 */
export function chartAxisBounds(axis: ChartAxisBoundsInput | null | undefined): ChartAxisBounds {
  let min = finite(axis?.min) ? axis.min : null;
  let max = finite(axis?.max) ? axis.max : null;
  if (min !== null && max !== null) {
    if (min === max) {
      min -= 1;
      max += 1;
    } else if (min > max) [min, max] = [max, min];
  }
  const dp = finite(axis?.dp) ? Math.max(0, Math.trunc(axis.dp)) : null;
  let tick = finite(axis?.tick) ? axis.tick : null;
  if (tick !== null && tick < 0) tick = 1;
  if (tick === 0) tick = null;
  return { min, max, dp, tick };
}

// ---- The data calls --------------------------------------------------------------------------

/**
 * Longest range read as raw records: longer ranges are read downsampled (the server's bucket
 * width for 600 points, from the hourly or daily rollups once it is an hour or more), so every
 * series covers the whole range instead of its newest 600 records, and every device's buckets
 * start at the same times (aligned x for the crosshair and stacking).
 */
export const CHART_RAW_MAX_RANGE_S = 6 * 3600;

/** The query of one series' GET /device/{id}/data call. */
export interface ChartDataQuery {
  fromTime: number;
  toTime: number;
  dataKeys: string;
  /** Always 600 (CHT-18). */
  dataPoints: number;
  /** 'true' for ranges longer than CHART_RAW_MAX_RANGE_S; absent for raw reads. */
  downsample?: 'true';
  /** Always 'false': a chart draws no events, so the call leaves them out. */
  events: 'false';
}

/**
 * The data call of one series over a range (epoch seconds): the series' key, 600 points (spec 2
 * section 9), downsampled when the range is longer than 6 hours (the server's width: from the
 * records below 15-minute buckets, whole hours from the hourly rollups up to two hours, whole
 * days beyond), without events.
 */
export function chartDataQuery(range: { from: number; to: number }, key: string): ChartDataQuery {
  const query: ChartDataQuery = {
    fromTime: Math.floor(range.from),
    toTime: Math.ceil(range.to),
    dataKeys: key,
    dataPoints: DEFAULT_DATA_POINTS,
    events: 'false',
  };
  if (range.to - range.from > CHART_RAW_MAX_RANGE_S) query.downsample = 'true';
  return query;
}

// ---- Aligned data ----------------------------------------------------------------------------

/** A series as the chart needs it: which axis it is drawn against and whether it is a goal. */
export interface ChartSeriesShape {
  axisBind?: 'ax1' | 'ax2' | undefined;
  goalSeries?: boolean | undefined;
}

/** One fetched point, as GET /data answers it (any order; v numeric or not). */
export interface ChartPointInput {
  v: unknown;
  ts: number;
}

/** The chart's columns: uPlot's data is [x, ...plotted]. */
export interface AlignedChartData {
  /** Epoch seconds, ascending and distinct: every point's time, and the range's ends when given. */
  x: number[];
  /** Each series' own value at each x (null: none there), in the chart's series order. */
  values: (number | null)[][];
  /** What is drawn: the values, or with stacking each value plus those below it (see alignChartData). */
  plotted: (number | null)[][];
  /** True when at least one series has a value (false: the chart shows 'No Data', CHT-24). */
  hasData: boolean;
}

/** A point's value as a number: finite numbers, booleans as 1 and 0, numeric text; anything else is none. */
export function chartValue(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/**
 * The fetched series of a chart as uPlot columns (at most 15 series are read, spec 2 section 9):
 * x is the union of every series' times (plus the range's ends, so an unzoomed chart spans the
 * view's range); each series has its value at each x or null. Points outside the range, and a
 * second point at the same time, are dropped.
 *
 * With `stack`, the series bound to one axis stack in their order: each is drawn at its value plus
 * the drawn value of the stacked series before it on that axis at that time (a missing value adds
 * nothing and is not drawn itself). Goal series never stack: they are targets to compare with.
 */
export function alignChartData(
  series: readonly ChartSeriesShape[],
  points: readonly (readonly ChartPointInput[] | null | undefined)[],
  options: { stack?: boolean | undefined; range?: { from: number; to: number } | undefined } = {},
): AlignedChartData {
  const shown = series.slice(0, MAX_GROUP_CHART_SERIES);
  const range = options.range;
  const inRange = (ts: number) => Number.isFinite(ts) && (!range || (ts >= range.from && ts <= range.to));
  const maps = shown.map((_, i) => {
    const byTime = new Map<number, number | null>();
    for (const p of points[i] ?? []) {
      if (!inRange(p.ts) || byTime.has(p.ts)) continue;
      byTime.set(p.ts, chartValue(p.v));
    }
    return byTime;
  });
  const times = new Set<number>();
  for (const m of maps) for (const ts of m.keys()) times.add(ts);
  if (range) {
    times.add(range.from);
    times.add(range.to);
  }
  const x = [...times].sort((a, b) => a - b);
  const values = maps.map((m) => x.map((ts) => m.get(ts) ?? null));
  const hasData = values.some((col) => col.some((v) => v !== null));
  if (!options.stack) return { x, values, plotted: values, hasData };

  const below: Record<string, (number | null)[]> = {};
  const plotted = values.map((col, i) => {
    const s = shown[i]!;
    if (s.goalSeries) return col;
    const axis = s.axisBind ?? 'ax1';
    const base = below[axis];
    const drawn = col.map((v, j) => (v === null ? null : v + (base?.[j] ?? 0)));
    // The next stacked series starts from what this one drew, or from the base where it has no value.
    below[axis] = drawn.map((v, j) => v ?? base?.[j] ?? null);
    return drawn;
  });
  return { x, values, plotted, hasData };
}

// ---- Export ----------------------------------------------------------------------------------

/** The time column's header. */
export const CHART_EXPORT_TIME_COLUMN = 'Time';

/**
 * A chart's data as a table, for the CSV and workbook export (issue 13: 'chart series as
 * plotted'): the time column first (ISO 8601, UTC), then one column per series (its label) with
 * its own value at that time (not the stacked sum: the file holds the readings), one row per time
 * at which at least one series has a value (the range's ends without values are left out).
 */
export function chartExportTable(
  labels: readonly string[],
  data: { x: readonly number[]; values: readonly (readonly (number | null)[])[] },
): ExportTable {
  const columns = [CHART_EXPORT_TIME_COLUMN, ...labels];
  const rows: (string | number | null)[][] = [];
  data.x.forEach((ts, i) => {
    const cells = labels.map((_, s) => data.values[s]?.[i] ?? null);
    if (cells.every((v) => v === null)) return;
    rows.push([new Date(ts * 1000).toISOString(), ...cells]);
  });
  return { columns, rows };
}
