/**
 * A small bar chart drawn with uPlot (the portal's chart library; palette of components/chart):
 * one value per labelled slot (a month, a minute), sized to its box, with its text equivalent
 * (UI.md: charts carry a title and a description); the figures are also in a table beside it.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CHART_PALETTE } from '@/components/chart/chart-options';

export interface BarChartProps {
  title: string;
  labels: readonly string[];
  values: readonly number[];
  /** How a value is written on the axis and in the tooltip legend. */
  format?: (v: number) => string;
  /** The colour of the bars (a palette colour by default). */
  colour?: string;
  /** Show every n-th label on the x axis (1: all). */
  labelEvery?: number;
  height?: number;
  /** Whole numbers (counts): no fractional ticks. */
  integer?: boolean;
  /** The text equivalent; by default every label with its value. */
  description?: string;
}

const plain = (v: number) => String(v);
/** The least room of an x label, px. */
const LABEL_PX = 52;
/** Tick steps of a count axis. */
const INTEGER_INCRS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000];

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

export function BarChart({
  title,
  labels,
  values,
  format = plain,
  colour = CHART_PALETTE[0]!,
  labelEvery = 1,
  height = 220,
  description,
  integer = false,
}: BarChartProps) {
  const hostRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const ink = cssVar('--text-muted', '#6b7280');
    const grid = cssVar('--border', '#e5e7eb');
    const xs = labels.map((_, i) => i);
    const opts: uPlot.Options = {
      width: Math.max(200, host.clientWidth),
      height,
      legend: { show: false },
      cursor: { y: false, points: { show: false } },
      scales: {
        x: { time: false, range: () => [-0.5, labels.length - 0.5] },
        y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
      },
      axes: [
        {
          stroke: ink,
          grid: { show: false },
          ticks: { show: false },
          // every n-th label from the last, n growing until the labels have room (48 px each)
          splits: (u) => {
            const slot = u.bbox.width / uPlot.pxRatio / Math.max(1, labels.length);
            const every = Math.max(labelEvery, Math.ceil(LABEL_PX / Math.max(1, slot)));
            return xs.filter((i) => (labels.length - 1 - i) % every === 0);
          },
          values: (_u, splits) => splits.map((i) => labels[i] ?? ''),
        },
        {
          stroke: ink,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid, width: 1 },
          values: (_u, splits) => splits.map(format),
          size: 64,
          ...(integer ? { incrs: INTEGER_INCRS } : {}),
        },
      ],
      series: [
        {},
        {
          label: title,
          stroke: colour,
          fill: colour,
          width: 0,
          points: { show: false },
          paths: uPlot.paths.bars!({ size: [0.7, 48], align: 0 }),
        },
      ],
    };
    const plot = new uPlot(opts, [xs, [...values]], host);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(200, host.clientWidth), height }));
    resize.observe(host);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [labels, values, format, colour, labelEvery, height, title, integer]);

  const text = description ?? `${title}: ${labels.map((l, i) => `${l} ${format(values[i] ?? 0)}`).join(', ')}`;
  return <div ref={hostRef} className="staff-chart" role="img" aria-label={text} />;
}
