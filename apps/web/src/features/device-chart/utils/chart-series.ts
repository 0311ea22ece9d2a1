/**
 * Which of a device chart's series are drawn, and their names: a bar chart (its first series' key
 * holds a numeric array, core isBarChart) draws the series whose keys hold arrays, a line chart
 * the others; each series is named by its key's display name ('Battery Voltage'), '(goal)' after
 * a goal series.
 */
import { isBarChart, keyDisplayName, type ChartKeyKind, type ChartSettings } from '@portal/core';

export interface DrawnChart {
  /** The chart with only the series it draws. */
  chart: ChartSettings;
  bars: boolean;
  /** The series left out (their keys do not hold what this chart draws). */
  leftOut: number;
}

/** The series a chart draws, by the kind of each key's newest value (unknown keys draw lines). */
export function drawnChart(chart: ChartSettings, kinds: ReadonlyMap<string, ChartKeyKind>): DrawnChart {
  const bars = isBarChart(chart, kinds);
  const series = chart.series.filter((s) => (kinds.get(s.key) === 'bars') === bars);
  return { chart: { ...chart, series }, bars, leftOut: chart.series.length - series.length };
}

/** A series' name in the legend and the export: its key's display name, '(goal)' after a goal. */
export function seriesLabel(key: string, displaySettings: Record<string, unknown>, goal?: boolean): string {
  const name = keyDisplayName(key, displaySettings[key]);
  return goal ? `${name} (goal)` : name;
}
