/**
 * The uPlot options of a chart from its settings (spec 2 section 3), shared by the group chart and
 * a device's custom charts: each series' colour, line type, width and axis, the goal series drawn
 * distinctly, the two y axes with their names, units, bounds (core chartAxisBounds), decimals, tick
 * and colour, the x axis's name and colour, and data labels in dataLabelColor. A bar chart (a
 * numeric-array value, WGT-20) draws its series as grouped bars over the xa1 axis (core BarAxis:
 * label i at offset + i x scale). Kept apart from the component so it reads as settings in,
 * options out.
 */
import uPlot from 'uplot';
import {
  DEFAULT_CHART_LINE_WIDTH,
  barLabel,
  chartAxisBounds,
  formatDateTime,
  timeAxisLabels,
  type AlignedChartData,
  type BarAxis,
  type ChartAxisBounds,
  type ChartSettings,
} from '@portal/core';
import { CHART_PALETTE } from './chart-palette';

export { CHART_PALETTE };

const DASHES: Record<string, number[] | undefined> = { dashed: [8, 4], dotted: [2, 4] };
/** A goal series: a long dash, one pixel wider than its width, so it reads as a target line. */
const GOAL_DASH = [14, 6];
/** At most this many data labels per series are drawn (every n-th point beyond), so they stay legible. */
const MAX_LABELS_PER_SERIES = 40;

export type ChartAxisKey = 'ax1' | 'ax2';
export const SCALE_OF: Record<ChartAxisKey, string> = { ax1: 'y', ax2: 'y2' };

/** Numbers with the axis's decimals (automatic: up to 2, trailing zeros dropped). */
export function formatChartValue(v: number | null | undefined, dp: number | null): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '--';
  if (dp !== null) return v.toFixed(Math.min(dp, 20));
  return String(Math.round(v * 100) / 100);
}

/** An axis's title: its name with the unit in brackets, or either alone. */
export function axisTitle(name: string | undefined, unit: string | undefined): string {
  if (name && unit) return `${name} (${unit})`;
  return name || (unit ? `(${unit})` : '');
}

/** Tick steps uPlot may pick from: the tick and its multiples (1, 2, 5, 10, ...). */
function tickIncrs(tick: number): number[] {
  const out: number[] = [];
  for (let m = 1; m <= 1e9; m *= 10) out.push(tick * m, tick * 2 * m, tick * 5 * m);
  return out;
}

/** A y scale's range: the fixed bounds, the data's (padded) for the others; bars always include 0. */
function scaleRange(bounds: ChartAxisBounds, pad: number, zero = false): uPlot.Scale.Range {
  return (_u, dataMin, dataMax) => {
    const hasData = Number.isFinite(dataMin) && Number.isFinite(dataMax);
    const low = zero && hasData ? Math.min(0, dataMin) : dataMin;
    const high = zero && hasData ? Math.max(0, dataMax) : dataMax;
    const [autoMin, autoMax] = hasData ? uPlot.rangeNum(low, high, pad, true) : [null, null];
    const fallback = bounds.min ?? 0;
    let min = bounds.min ?? autoMin ?? fallback;
    let max = bounds.max ?? autoMax ?? min + 1;
    // One fixed bound beyond all the data: the automatic one moves to stay a unit on its side.
    if (max <= min) {
      if (bounds.max !== null) min = max - 1;
      else max = min + 1;
    }
    return [min, max];
  };
}

export interface ChartOptionsInput {
  settings: ChartSettings;
  labels: readonly string[];
  /** The chart's current data (read when drawn: new data arrives through setData). */
  data: () => AlignedChartData;
  width: number;
  height: number;
  /** Text colour of axes without a colour of their own. */
  ink: string;
  grid: string;
  /** A bar chart: the series are drawn as grouped bars over this x axis (xa1), not lines over time. */
  bars?: BarAxis | undefined;
  /**
   * A 'step' line's value covers the interval before its point (the utilisation chart's shares),
   * not the one after it.
   */
  stepsCoverBefore?: boolean | undefined;
}

/** The share of a bar's slot (scale) its group of bars takes; the rest is the gap between groups. */
const BAR_GROUP_WIDTH = 0.8;
/** The least room in px between two x labels of a bar chart. */
const BAR_LABEL_SPACE_PX = 44;

/** Canvas px of one bar slot (xa1's scale) at the current x scale. */
function barSlotPx(u: uPlot, scale: number): number {
  return Math.abs(u.valToPos(scale, 'x', true) - u.valToPos(0, 'x', true));
}

/** The middle of bar `k` of `count` in the group at x (canvas px). */
function barCentre(u: uPlot, x: number, k: number, count: number, scale: number): number {
  const group = barSlotPx(u, scale) * BAR_GROUP_WIDTH;
  return u.valToPos(x, 'x', true) - group / 2 + (k + 0.5) * (group / count);
}

/** Series k of `count` as bars: side by side in each x's slot, from 0 (or the plot's edge) to the value. */
function groupedBars(k: number, count: number, scale: number): uPlot.Series.PathBuilder {
  return (u, seriesIdx, idx0, idx1) => {
    const xs = u.data[0];
    const ys = u.data[seriesIdx] ?? [];
    const scaleKey = u.series[seriesIdx]?.scale ?? 'y';
    const width = (barSlotPx(u, scale) * BAR_GROUP_WIDTH) / count;
    const { top, height } = u.bbox;
    const base = Math.min(top + height, Math.max(top, u.valToPos(0, scaleKey, true)));
    const path = new Path2D();
    for (let i = idx0; i <= idx1; i++) {
      const v = ys[i];
      const x = xs[i];
      if (v === null || v === undefined || x === undefined) continue;
      const y = u.valToPos(v, scaleKey, true);
      path.rect(barCentre(u, x, k, count, scale) - width / 2, Math.min(y, base), width, Math.abs(base - y));
    }
    return { stroke: path, fill: path };
  };
}

/** The x labels of a bar chart: at the bars in view, every tick-th x unit from the offset, or as many as fit. */
function barSplits(axis: BarAxis): uPlot.Axis.Splits {
  return (u) => {
    const xs = (u.data[0] ?? []) as number[];
    const min = u.scales.x?.min ?? -Infinity;
    const max = u.scales.x?.max ?? Infinity;
    const inView = xs.filter((x) => x >= min && x <= max);
    if (axis.tick !== null) {
      const tick = axis.tick;
      return inView.filter((x) => {
        const steps = (x - axis.offset) / tick;
        return Math.abs(steps - Math.round(steps)) < 1e-9;
      });
    }
    const every = Math.max(1, Math.ceil((BAR_LABEL_SPACE_PX * uPlot.pxRatio) / Math.max(1, barSlotPx(u, axis.scale))));
    return inView.filter((_, i) => i % every === 0);
  };
}

/** The uPlot options of a chart (the caller adds the cursor, hooks and legend mount). */
export function chartOptions(input: ChartOptionsInput): uPlot.Options {
  const { settings, labels, data, width, height, ink, grid, bars } = input;
  const ax1 = settings.axis?.ax1;
  const ax2 = settings.axis?.ax2;
  const bounds: Record<ChartAxisKey, ChartAxisBounds> = { ax1: chartAxisBounds(ax1), ax2: chartAxisBounds(ax2) };
  const usesAx2 = settings.series.some((s) => s.axisBind === 'ax2');
  const xa1 = settings.xAxis?.xa1;

  const series: uPlot.Series[] = [
    bars
      ? { label: bars.name || 'Index', value: (_u, v) => (v === null ? '--' : barLabel(v, bars)) }
      : // the cursor's time in the legend, in full with its zone (core formatDateTime)
        { value: (_u, v) => (v === null ? '--' : formatDateTime(v * 1000)) },
  ];
  settings.series.forEach((s, i) => {
    const axis: ChartAxisKey = s.axisBind === 'ax2' ? 'ax2' : 'ax1';
    const dp = bounds[axis].dp;
    const width = s.lineWidth ?? DEFAULT_CHART_LINE_WIDTH;
    const line: uPlot.Series = {
      label: labels[i] ?? `Series ${i + 1}`,
      scale: SCALE_OF[axis],
      stroke: s.colour ?? CHART_PALETTE[i % CHART_PALETTE.length],
      width: s.goalSeries ? width + 1 : width,
      spanGaps: true,
      // The legend shows each series' own reading, also when the line is drawn stacked.
      value: (_u, _v, _si, idx) => formatChartValue(idx === null ? null : data().values[i]?.[idx], dp),
    };
    if (bars) {
      line.paths = groupedBars(i, settings.series.length, bars.scale);
      line.fill = line.stroke;
      line.width = 1;
      line.points = { show: false };
      series.push(line);
      return;
    }
    const dash = s.goalSeries ? GOAL_DASH : DASHES[s.lineType ?? 'solid'];
    if (dash) line.dash = dash;
    if (s.lineType === 'step') line.paths = uPlot.paths.stepped!({ align: input.stepsCoverBefore ? -1 : 1 });
    if (s.goalSeries) line.points = { show: false };
    series.push(line);
  });

  const yAxis = (key: ChartAxisKey, side: 1 | 3): uPlot.Axis => {
    const conf = key === 'ax1' ? ax1 : ax2;
    const b = bounds[key];
    const colour = conf?.colour ?? ink;
    const axis: uPlot.Axis = {
      scale: SCALE_OF[key],
      side,
      stroke: colour,
      label: axisTitle(conf?.name, conf?.unit),
      labelSize: 20,
      grid: { show: key === 'ax1', stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1 },
      values: (_u, splits) => splits.map((v) => formatChartValue(v, b.dp)),
      size: 56,
    };
    if (b.tick !== null) axis.incrs = tickIncrs(b.tick);
    return axis;
  };

  const xAxis: uPlot.Axis = {
    stroke: xa1?.colour ?? ink,
    label: xa1?.name ?? '',
    labelSize: xa1?.name ? 20 : 0,
    grid: { stroke: grid, width: 1 },
    ticks: { stroke: grid, width: 1 },
  };
  if (bars) {
    xAxis.splits = barSplits(bars);
    xAxis.values = (_u, splits) => splits.map((v) => barLabel(v, bars));
    xAxis.grid = { show: false };
  } else {
    // Times in the viewer's locale and zone (core timeAxisLabels), the day where it changes.
    xAxis.values = (_u, splits, _axis, _space, incr) => timeAxisLabels(splits, incr);
  }
  const axes: uPlot.Axis[] = [xAxis, yAxis('ax1', 3)];
  if (usesAx2) axes.push(yAxis('ax2', 1));

  // Data labels sit above their points: more room at the top so the highest ones are not cut off.
  const pad = settings.dataLabels ? 0.25 : 0.1;
  const scales: uPlot.Scales = {
    // The x range is the data's: the view's range ends are in x (core alignChartData); a bar chart's
    // has half a slot beside its outer bars.
    x: bars
      ? { time: false, range: (_u, min, max) => [min - Math.abs(bars.scale) / 2, max + Math.abs(bars.scale) / 2] }
      : { time: true, range: (_u, min, max) => [min, max] },
    y: { range: scaleRange(bounds.ax1, pad, Boolean(bars)) },
  };
  if (usesAx2) scales.y2 = { range: scaleRange(bounds.ax2, pad, Boolean(bars)) };

  const plugins: uPlot.Plugin[] = [];
  if (settings.dataLabels)
    plugins.push(dataLabelsPlugin(settings, data, bounds, settings.dataLabelColor ?? ink, bars ?? null));

  return { width, height, series, axes, scales, plugins };
}

/** What a key does to the x range when the plot has focus: arrows pan, + and - zoom, Home resets. */
export const CHART_KEYS_HELP =
  'Left and Right arrows pan (with Shift, by half the range), + and - zoom, Home resets the zoom';

/**
 * The x range after a key (null: the key does nothing): ArrowLeft/ArrowRight move it by a tenth
 * of its length (half with Shift), '+' halves it and '-' doubles it around its middle (never
 * beyond the whole range's length), Home returns the whole range.
 */
export function keyboardRange(
  key: string,
  shift: boolean,
  [min, max]: [number, number],
  [wholeMin, wholeMax]: [number, number],
): [number, number] | null {
  const length = max - min;
  const mid = (min + max) / 2;
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowRight': {
      const step = (shift ? 0.5 : 0.1) * length * (key === 'ArrowLeft' ? -1 : 1);
      return [min + step, max + step];
    }
    case '+':
    case '=':
      return [mid - length / 4, mid + length / 4];
    case '-':
      return 2 * length >= wholeMax - wholeMin ? [wholeMin, wholeMax] : [mid - length, mid + length];
    case 'Home':
      return [wholeMin, wholeMax];
    default:
      return null;
  }
}

/** Writes each series' value above its points (the visible ones, at most 40 a series) in the label colour. */
function dataLabelsPlugin(
  settings: ChartSettings,
  getData: () => AlignedChartData,
  bounds: Record<ChartAxisKey, ChartAxisBounds>,
  colour: string,
  bars: BarAxis | null,
): uPlot.Plugin {
  return {
    hooks: {
      draw: [
        (u) => {
          const { ctx } = u;
          const data = getData();
          const ratio = uPlot.pxRatio;
          const [i0, i1] = u.series[0]!.idxs ?? [0, data.x.length - 1];
          ctx.save();
          ctx.beginPath();
          ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
          ctx.clip();
          ctx.fillStyle = colour;
          ctx.font = `${Math.round(11 * ratio)}px system-ui, sans-serif`;
          ctx.textAlign = 'center';
          ctx.textBaseline = 'bottom';
          settings.series.forEach((s, si) => {
            if (!u.series[si + 1]?.show) return;
            const axis: ChartAxisKey = s.axisBind === 'ax2' ? 'ax2' : 'ax1';
            const own = data.values[si] ?? [];
            const drawn = data.plotted[si] ?? [];
            let visible = 0;
            for (let i = i0; i <= i1; i++) if (drawn[i] != null) visible++;
            const every = Math.max(1, Math.ceil(visible / MAX_LABELS_PER_SERIES));
            let n = 0;
            for (let i = i0; i <= i1; i++) {
              const y = drawn[i];
              if (y === null || y === undefined) continue;
              if (n++ % every !== 0) continue;
              const px = bars
                ? barCentre(u, data.x[i]!, si, settings.series.length, bars.scale)
                : u.valToPos(data.x[i]!, 'x', true);
              const py = u.valToPos(y, SCALE_OF[axis], true) - 4 * ratio;
              ctx.fillText(formatChartValue(own[i], bounds[axis].dp), px, py);
            }
          });
          ctx.restore();
        },
      ],
    },
  };
}
