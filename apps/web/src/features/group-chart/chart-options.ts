/**
 * The uPlot options of a group chart from its settings (spec 2 section 3): each series' colour,
 * line type, width and axis, the goal series drawn distinctly, the two y axes with their names,
 * units, bounds (core chartAxisBounds), decimals, tick and colour, the x axis's name and colour,
 * and data labels in dataLabelColor. Kept apart from the component so it reads as settings in,
 * options out.
 */
import uPlot from 'uplot';
import {
  DEFAULT_CHART_LINE_WIDTH,
  chartAxisBounds,
  type AlignedChartData,
  type ChartAxisBounds,
  type ChartSettings,
} from '@portal/core';

/** Okabe-Ito, colour-blind safe (UI.md), without its yellow (too faint on white); cycled past 7 series. */
export const CHART_PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#000000'];

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

/** A y scale's range: the fixed bounds, the data's (padded) for the others. */
function scaleRange(bounds: ChartAxisBounds, pad: number): uPlot.Scale.Range {
  return (_u, dataMin, dataMax) => {
    const hasData = Number.isFinite(dataMin) && Number.isFinite(dataMax);
    const [autoMin, autoMax] = hasData ? uPlot.rangeNum(dataMin, dataMax, pad, true) : [null, null];
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
}

/** The uPlot options of a chart (the caller adds the cursor, hooks and legend mount). */
export function chartOptions({ settings, labels, data, width, height, ink, grid }: ChartOptionsInput): uPlot.Options {
  const ax1 = settings.axis?.ax1;
  const ax2 = settings.axis?.ax2;
  const bounds: Record<ChartAxisKey, ChartAxisBounds> = { ax1: chartAxisBounds(ax1), ax2: chartAxisBounds(ax2) };
  const usesAx2 = settings.series.some((s) => s.axisBind === 'ax2');
  const xa1 = settings.xAxis?.xa1;

  const series: uPlot.Series[] = [{}];
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
    const dash = s.goalSeries ? GOAL_DASH : DASHES[s.lineType ?? 'solid'];
    if (dash) line.dash = dash;
    if (s.lineType === 'step') line.paths = uPlot.paths.stepped!({ align: 1 });
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

  const axes: uPlot.Axis[] = [
    {
      stroke: xa1?.colour ?? ink,
      label: xa1?.name ?? '',
      labelSize: xa1?.name ? 20 : 0,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1 },
    },
    yAxis('ax1', 3),
  ];
  if (usesAx2) axes.push(yAxis('ax2', 1));

  // Data labels sit above their points: more room at the top so the highest ones are not cut off.
  const pad = settings.dataLabels ? 0.25 : 0.1;
  const scales: uPlot.Scales = {
    // The x range is the data's: the view's range ends are in x (core alignChartData).
    x: { time: true, range: (_u, min, max) => [min, max] },
    y: { range: scaleRange(bounds.ax1, pad) },
  };
  if (usesAx2) scales.y2 = { range: scaleRange(bounds.ax2, pad) };

  const plugins: uPlot.Plugin[] = [];
  if (settings.dataLabels) plugins.push(dataLabelsPlugin(settings, data, bounds, settings.dataLabelColor ?? ink));

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
              const px = u.valToPos(data.x[i]!, 'x', true);
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
