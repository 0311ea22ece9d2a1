/**
 * A device's custom charts (spec 2 sections 2, 3, 5, 8 and 9; ledger CHT-19 - CHT-24, WGT-17 -
 * WGT-22): the relative ranges and their defaults, the chart{n} keys a device's charts are stored
 * under and the next free one, a saved chart read without the schema, the bar chart of a
 * numeric-array value with its xa1 axis, and the utilisation chart built from the hour meters of
 * the work-hour states. The web draws what these give; the group chart's rules (chart.ts) do the
 * axes, the data calls and the aligned columns of the line charts.
 */
import { CHART_KEY_PATTERN, authoredCount } from '../contracts/device-authoring';
import type { ChartSettings } from '../contracts/views';
import type { ExportTable } from './table-export';
import type { EpochRange } from './view-range';
import { chartDataQuery, chartSettingsOf, chartValue, type AlignedChartData, type ChartDataQuery } from './chart';
import { CHART_RANGES_MS, CUSTOM_CHART_LIMIT, type ChartRange } from './constants';
import { MACHINE_STATES, isWorkingState } from './measurements';
import { widgetLimitMessage } from './screen-messages';

// ---- Relative ranges (spec 2 section 9; CHT-19 - CHT-21) -----------------------------------------

/** The relative ranges in the order the range buttons show them: 10m, 30m, 1h, 6h, 1d, 1w, 1M. */
export const CHART_RANGE_NAMES = Object.keys(CHART_RANGES_MS) as ChartRange[];

/** What each range button says to assistive technology and in the chart's text equivalent. */
export const CHART_RANGE_LABELS: Record<ChartRange, string> = {
  '10m': 'Last 10 minutes',
  '30m': 'Last 30 minutes',
  '1h': 'Last hour',
  '6h': 'Last 6 hours',
  '1d': 'Last day',
  '1w': 'Last week',
  '1M': 'Last month',
};

/** The range's span in epoch seconds, ending at `nowMs` (whole seconds). */
export function relativeChartRange(range: ChartRange, nowMs: number): EpochRange {
  const to = Math.floor(nowMs / 1000);
  return { from: to - CHART_RANGES_MS[range] / 1000, to };
}

// ---- chart{n} keys (spec 2 sections 3 and 5; WGT-17, WGT-18, WGT-22) -------------------------------

/** 'Maximum number of charts reached [5]' (WGT-18). */
export const CHART_LIMIT_MESSAGE = widgetLimitMessage('chart', CUSTOM_CHART_LIMIT);

const chartNumber = (key: string): number => Number(CHART_KEY_PATTERN.exec(key)?.[1] ?? Number.NaN);

/** The chart{n} keys of a PORTAL_displaySettings record that hold a chart, by n (chart2 before chart10). */
export function deviceChartKeys(displaySettings: Record<string, unknown>): string[] {
  return Object.keys(displaySettings)
    .filter((key) => CHART_KEY_PATTERN.test(key) && displaySettings[key] != null)
    .sort((a, b) => chartNumber(a) - chartNumber(b));
}

/**
 * The key a new chart is saved under: the lowest chart{n} not in use; null once the device has
 * CUSTOM_CHART_LIMIT (5) charts, when CHART_LIMIT_MESSAGE says why (WGT-17).
 */
export function nextChartKey(displaySettings: Record<string, unknown>): string | null {
  if (authoredCount(displaySettings, 'chart') >= CUSTOM_CHART_LIMIT) return null;
  for (let n = 1; ; n += 1) if (displaySettings[`chart${n}`] == null) return `chart${n}`;
}

/** A new chart before it is saved: named after its key ('Chart 3'), no series. */
export function newDeviceChart(key: string): ChartSettings {
  const n = chartNumber(key);
  return { name: Number.isFinite(n) ? `Chart ${n}` : 'Chart', series: [] };
}

/**
 * A saved device chart read without the schema (as chartSettingsOf reads a group chart): every
 * series plots one of this device's keys, so its source is the device whatever was stored.
 */
export function deviceChartOf(settings: unknown, deviceid: string): ChartSettings {
  const chart = chartSettingsOf(settings);
  return { ...chart, series: chart.series.map((s) => ({ ...s, source: deviceid })) };
}

// ---- Keys a chart can plot --------------------------------------------------------------------

/** A value that is a non-empty array of finite numbers, as a bar chart draws it (WGT-20); else null. */
export function numericArrayOf(value: unknown): number[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  return value.every((v) => typeof v === 'number' && Number.isFinite(v)) ? (value as number[]) : null;
}

/** What a key's newest value lets a chart draw: a line (numbers, booleans, numeric text) or bars (a numeric array). */
export type ChartKeyKind = 'line' | 'bars';

/** The kind of a key from its newest value, or null when it cannot be charted (text, objects). */
export function chartKeyKind(value: unknown): ChartKeyKind | null {
  if (numericArrayOf(value) !== null) return 'bars';
  return chartValue(value) !== null ? 'line' : null;
}

/**
 * The keys of a device's newest values (DATA_latest) a chart can plot, with their kind, in the
 * keys' order (code units); events, CAN frames and text are left out.
 */
export function chartableKeys(latest: Record<string, { v: unknown } | null | undefined>): {
  key: string;
  kind: ChartKeyKind;
}[] {
  return Object.keys(latest)
    .sort()
    .flatMap((key) => {
      const kind = chartKeyKind(latest[key]?.v);
      return kind === null ? [] : [{ key, kind }];
    });
}

/**
 * Whether a chart is a bar chart: its first series' key holds a numeric array (by the device's
 * newest values), so it draws the series whose keys hold arrays as bars over the xa1 axis; other
 * charts draw lines of the series whose keys do not.
 */
export function isBarChart(chart: ChartSettings, kinds: ReadonlyMap<string, ChartKeyKind>): boolean {
  const first = chart.series[0];
  return first !== undefined && kinds.get(first.key) === 'bars';
}

// ---- Bar chart of a numeric array (spec 2 sections 2 and 3; WGT-20, CHT-12) -------------------------

/** The bar chart's x axis as xa1 gives it: label i is offset + i x scale (0 and 1 when missing; a scale of 0 is 1). */
export interface BarAxis {
  offset: number;
  scale: number;
  /** Decimals of the labels, 0 or more; null: as the number is. */
  dp: number | null;
  /** Label every tick-th x unit from the offset; null: every bar that fits. */
  tick: number | null;
  name: string;
}

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** The bar axis of a chart's xa1 (CHT-12): offset, scale, dp (negative is 0), tick (not positive: automatic) and name. */
export function barAxisOf(xa1: NonNullable<ChartSettings['xAxis']>['xa1'] | undefined): BarAxis {
  return {
    offset: finite(xa1?.offset) ? xa1.offset : 0,
    scale: finite(xa1?.scale) && xa1.scale !== 0 ? xa1.scale : 1,
    dp: finite(xa1?.dp) ? Math.max(0, Math.trunc(xa1.dp)) : null,
    tick: finite(xa1?.tick) && xa1.tick > 0 ? xa1.tick : null,
    name: xa1?.name?.trim() ?? '',
  };
}

/** A bar's x label: the axis's value at that bar with its decimals ('0.5', '10'). */
export function barLabel(x: number, axis: Pick<BarAxis, 'dp'>): string {
  if (axis.dp !== null) return x.toFixed(Math.min(axis.dp, 20));
  return String(Math.round(x * 1e9) / 1e9);
}

/** The bar chart's columns: one x per array element, each series' element there (null past its end). */
export interface BarChartData extends AlignedChartData {
  /** The time of the newest array drawn (epoch seconds), null without one. */
  ts: number | null;
}

/**
 * A bar chart of numeric arrays (WGT-20): each series draws its key's newest array in the range
 * (points in any order; values that are not numeric arrays are passed over), element i at
 * x = offset + i x scale of xa1. The x run to the longest array.
 */
export function barChartData(
  points: readonly (readonly { v: unknown; ts: number }[] | null | undefined)[],
  axis: Pick<BarAxis, 'offset' | 'scale'>,
  range?: EpochRange,
): BarChartData {
  let ts: number | null = null;
  const arrays = points.map((list) => {
    let newest: { values: number[]; ts: number } | null = null;
    for (const p of list ?? []) {
      if (!finite(p.ts) || (range && (p.ts < range.from || p.ts > range.to))) continue;
      if (newest !== null && p.ts <= newest.ts) continue;
      const values = numericArrayOf(p.v);
      if (values) newest = { values, ts: p.ts };
    }
    if (newest && (ts === null || newest.ts > ts)) ts = newest.ts;
    return newest?.values ?? [];
  });
  const length = Math.max(0, ...arrays.map((a) => a.length));
  const x = Array.from({ length }, (_, i) => axis.offset + i * axis.scale);
  const values = arrays.map((a) => x.map((_, i) => a[i] ?? null));
  return { x, values, plotted: values, hasData: length > 0, ts };
}

/** A bar chart as a table for the CSV export: the x axis's name (else 'Index') and each series' value per bar. */
export function barExportTable(
  labels: readonly string[],
  data: Pick<BarChartData, 'x' | 'values'>,
  axis: BarAxis,
): ExportTable {
  const columns = [axis.name || 'Index', ...labels];
  const rows = data.x.map((x, i) => [barLabel(x, axis), ...labels.map((_, s) => data.values[s]?.[i] ?? null)]);
  return { columns, rows };
}

// ---- Data calls of a device chart ------------------------------------------------------------------

/**
 * The data call of a device chart's line series over a range: one call for all its keys (they are
 * one device's), 600 points, downsampled beyond 6 hours, without events (core chartDataQuery).
 */
export function deviceChartDataQuery(range: EpochRange, keys: readonly string[]): ChartDataQuery {
  return chartDataQuery(range, [...new Set(keys)].join(','));
}

/** The call of a bar chart: the newest record in the range holding its keys (raw: buckets average numbers only). */
export function barChartDataQuery(range: EpochRange, keys: readonly string[]): ChartDataQuery {
  const { downsample: _raw, ...query } = deviceChartDataQuery(range, keys);
  return { ...query, dataPoints: 1 };
}

// ---- Utilisation (spec 2 section 9; CHT-22, CHT-23) ----------------------------------------------

/** The utilisation chart is asked for again every 10 minutes (CHT-22). */
export const UTILISATION_REFETCH_MS = 600_000;
/** ... and downsampled by 2 (CHT-22): the data call's `downsample=2`. */
export const UTILISATION_DOWNSAMPLE = '2';

/** The hour meters of the states that count as working (4 to 6, CHT-23): state4_hrs, state5_hrs, state6_hrs. */
export const UTILISATION_KEYS: readonly string[] = Array.from({ length: MACHINE_STATES }, (_, i) => i + 1)
  .filter(isWorkingState)
  .map((n) => `state${n}_hrs`);

/** Whether a device reports a working state's hour meter (among its keys): it has a utilisation chart. */
export function reportsUtilisation(keys: Iterable<string>): boolean {
  for (const key of keys) if (UTILISATION_KEYS.includes(key)) return true;
  return false;
}

/** The utilisation chart's data call: the working states' hour meters over the range, downsample=2, without events. */
export function utilisationDataQuery(range: EpochRange): Omit<ChartDataQuery, 'downsample'> & { downsample: string } {
  return { ...chartDataQuery(range, UTILISATION_KEYS.join(',')), downsample: UTILISATION_DOWNSAMPLE };
}

/** The utilisation chart's data: one series, the share of time working (%) per interval, and the totals. */
export interface UtilisationData extends AlignedChartData {
  /** Hours in a working state over the intervals measured. */
  workingHours: number;
  /** Hours those intervals span. */
  elapsedHours: number;
  /** workingHours / elapsedHours in %, null without an interval. */
  share: number | null;
}

/**
 * The utilisation of a device from the hour meters of its working states (states 4-6, CHT-23;
 * the keys it reports of state4_hrs .. state6_hrs, points in any order): between two readings
 * that have every reported working meter, the hours they gained together over the hours that
 * passed, in % (0 to 100). The value sits at the later reading and covers the interval before it
 * (`values`); `plotted` also carries the first interval's value at its start, so a step drawn
 * backwards covers every interval. An interval whose meters went back (a reset) is left out. x
 * holds the readings' times and the range's ends.
 */
export function utilisationSeries(
  data: Record<string, readonly { v: unknown; ts: number }[] | undefined>,
  range?: EpochRange,
): UtilisationData {
  const reported = UTILISATION_KEYS.filter((key) => (data[key]?.length ?? 0) > 0);
  const meters = reported.map((key) => {
    const byTime = new Map<number, number>();
    for (const p of data[key] ?? []) {
      const v = chartValue(p.v);
      if (v !== null && finite(p.ts) && (!range || (p.ts >= range.from && p.ts <= range.to))) byTime.set(p.ts, v);
    }
    return byTime;
  });
  // The times at which every reported working meter has a reading, and their sum then.
  const readings: { ts: number; working: number }[] = [];
  for (const ts of [...(meters[0]?.keys() ?? [])].sort((a, b) => a - b)) {
    let working = 0;
    let complete = true;
    for (const m of meters) {
      const v = m.get(ts);
      if (v === undefined) complete = false;
      else working += v;
    }
    if (complete) readings.push({ ts, working });
  }

  const share = new Map<number, number>();
  let workingHours = 0;
  let elapsedHours = 0;
  let firstInterval: { start: number; value: number } | null = null;
  for (let i = 1; i < readings.length; i += 1) {
    const before = readings[i - 1]!;
    const after = readings[i]!;
    const hours = (after.ts - before.ts) / 3600;
    const gained = after.working - before.working;
    if (hours <= 0 || gained < 0) continue;
    const worked = Math.min(gained, hours);
    const value = Math.round((worked / hours) * 1000) / 10;
    share.set(after.ts, value);
    firstInterval ??= { start: before.ts, value };
    workingHours += worked;
    elapsedHours += hours;
  }

  const times = new Set(readings.map((r) => r.ts));
  if (range) {
    times.add(range.from);
    times.add(range.to);
  }
  const x = [...times].sort((a, b) => a - b);
  const values = [x.map((ts) => share.get(ts) ?? null)];
  const plotted = [x.map((ts) => share.get(ts) ?? (firstInterval?.start === ts ? firstInterval.value : null))];
  return {
    x,
    values,
    plotted,
    hasData: share.size > 0,
    workingHours,
    elapsedHours,
    share: elapsedHours > 0 ? Math.round((workingHours / elapsedHours) * 1000) / 10 : null,
  };
}
