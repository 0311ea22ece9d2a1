/**
 * The dashboard's group chart (spec 2 sections 3, 5, 8 and 9; ledger CHT-09 - CHT-18, CHT-24,
 * CHT-26, CHT-27): up to 15 series (a device and one of its keys) over the view's range, one data
 * call per series asked together. The rules are core's (alignChartData, chartAxisBounds,
 * chartDataQuery); the drawing is the shared ChartPlot (components/chart: uPlot, the toolbar with
 * selection zoom or pan and reset, double-click to reset, the crosshair legend, sizing to the grid
 * cell) with its loading, error and 'No Data' states.
 */
import { useImperativeHandle, useMemo, type ReactNode, type RefObject } from 'react';
import {
  STALE_TIMES_MS,
  alignChartData,
  chartExportTable,
  chartSettingsOf,
  measurementOf,
  resolveTimeRange,
  timeRangeLabel,
  type ChartSettings,
  type ExportTable,
  type TimeRange,
} from '@portal/core';
import { ChartError, ChartLoading, ChartNoData, ChartPlot, plotDescription } from '@/components/chart/chart-plot';
import { useNow } from '@/lib/use-now';
import { useChartData } from '../api/get-chart-data';

/** The group chart's own class beside the shared chart's (tools and tests find a group chart by it). */
const GROUP_CHART_CLASS = 'group-chart';

export interface GroupChartWidgetProps {
  /** The widget's settings as the view carries them. */
  settings: Record<string, unknown>;
  /** The range the view shows (its own, or the viewer's choice for the session). */
  range: TimeRange;
  /** The group's devices, for the series' names (a device not listed shows its id). */
  devices: readonly { deviceid: string; name: string }[];
  /** The card around the chart, given its title (the chart's name, else 'Chart'). */
  frame: (title: string, body: ReactNode) => ReactNode;
  /** Where the chart puts what it exports: the series as plotted (the export menu reads it). */
  exportRef?: RefObject<(() => ExportTable | null) | null> | undefined;
}

/** A series' name: its device's name and its key's name, 'Pump A · Battery Voltage', marked when it is a goal. */
export function chartSeriesLabel(deviceName: string, key: string, goal: boolean | undefined): string {
  const label = `${deviceName} · ${measurementOf(key).name}`;
  return goal ? `${label} (goal)` : label;
}

export function GroupChartWidget({ settings, range, devices, frame, exportRef }: GroupChartWidgetProps) {
  const chart = useMemo(() => chartSettingsOf(settings), [settings]);
  const names = useMemo(() => new Map(devices.map((d) => [d.deviceid, d.name])), [devices]);
  const labelText = chart.series
    .map((s) => chartSeriesLabel(names.get(s.source) || s.source, s.key, s.goalSeries))
    .join('\n');
  // Kept while the names stay the same: the group's devices come again with every group data refresh,
  // and new labels would draw the chart anew (losing a zoom).
  const labels = useMemo(() => (labelText === '' ? [] : labelText.split('\n')), [labelText]);
  const title = chart.name?.trim() || 'Chart';
  return (
    <>{frame(title, <ChartBody chart={chart} labels={labels} range={range} title={title} exportRef={exportRef} />)}</>
  );
}

interface ChartBodyProps {
  chart: ChartSettings;
  labels: string[];
  range: TimeRange;
  title: string;
  exportRef: GroupChartWidgetProps['exportRef'];
}

function ChartBody({ chart, labels, range, title, exportRef }: ChartBodyProps) {
  // The range end moves with the time, every 5 minutes (the metrics' freshness). Whole minutes: the
  // charts of a view mounted together ask the same range, so a series two charts show is one call.
  const nowMs = Math.floor(useNow(STALE_TIMES_MS.metrics) / 60_000) * 60_000;
  const epoch = useMemo(
    () => resolveTimeRange(range, nowMs, Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
    [range, nowMs],
  );
  const results = useChartData(chart.series, epoch);
  const pending = results.some((r) => r.isPending);
  const failed = results.filter((r) => r.isError);
  const answers = results.map((r) => r.data);

  const data = useMemo(() => {
    if (pending) return null;
    const points = chart.series.map((s, i) => answers[i]?.data[s.key] ?? []);
    return alignChartData(chart.series, points, { stack: chart.stack, range: epoch });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the answers change when a query's data does.
  }, [pending, chart, epoch, ...answers]);
  useImperativeHandle(exportRef, () => () => (data?.hasData ? chartExportTable(labels, data) : null), [data, labels]);

  if (chart.series.length > 0 && pending) return <ChartLoading title={title} className={GROUP_CHART_CLASS} />;
  if (failed.length > 0)
    return <ChartError className={GROUP_CHART_CLASS} onRetry={() => failed.forEach((r) => void r.refetch())} />;
  if (!data || !data.hasData) return <ChartNoData className={GROUP_CHART_CLASS} />;
  return (
    <ChartPlot
      chart={chart}
      labels={labels}
      data={data}
      title={title}
      description={plotDescription(chart, labels.length, title, timeRangeLabel(range))}
      className={GROUP_CHART_CLASS}
    />
  );
}

export default GroupChartWidget;
