/**
 * A device's custom chart over a relative range (spec 2 sections 2, 3, 8 and 9; WGT-19 - WGT-21,
 * CHT-20, CHT-21, CHT-24): the range buttons, 'Export CSV' of what is plotted, and the chart: lines
 * of the device's keys, or bars of a numeric-array value over the xa1 axis; 'No Data' when the
 * range holds nothing to draw. The drawing is the shared ChartPlot (selection zoom and pan, reset,
 * crosshair legend).
 */
import { useMemo, type ReactNode } from 'react';
import {
  CHART_RANGE_LABELS,
  alignChartData,
  barAxisOf,
  barChartData,
  barExportTable,
  chartExportTable,
  exportFileName,
  type ChartKeyKind,
  type ChartRange,
  type ChartSettings,
  type ExportTable,
} from '@portal/core';
import {
  ChartError,
  ChartHead,
  ChartLoading,
  ChartNoData,
  ChartPlot,
  ToolButton,
  plotDescription,
} from '@/components/chart/chart-plot';
import { LocalTime } from '@/components/ui/local-time';
import { csvBlob, downloadBlob } from '@/lib/download';
import { useDeviceChartData } from '../api/device-chart-data';
import { drawnChart, seriesLabel } from '../utils/chart-series';
import { RangeButtons } from './range-buttons';

export interface DeviceChartViewProps {
  deviceid: string;
  /** The device's name: the export file's first part. */
  deviceName: string;
  /** The chart's settings (a draft while it is edited). */
  chart: ChartSettings;
  /** The chart's title: its name, else its key. */
  title: string;
  /** PORTAL_displaySettings: the series' names. */
  displaySettings: Record<string, unknown>;
  /** What each key's newest value lets a chart draw. */
  kinds: ReadonlyMap<string, ChartKeyKind>;
  range: ChartRange;
  onRange: (range: ChartRange) => void;
  /** 'page': the tall chart of the chart page; 'card': a Data page card. */
  size: 'page' | 'card';
}

export function DeviceChartView(props: DeviceChartViewProps) {
  const { deviceid, deviceName, chart, title, displaySettings, kinds, range, onRange, size } = props;
  const drawn = useMemo(() => drawnChart(chart, kinds), [chart, kinds]);
  const series = drawn.chart.series;
  const labelText = series.map((s) => seriesLabel(s.key, displaySettings, s.goalSeries)).join('\n');
  const labels = useMemo(() => (labelText === '' ? [] : labelText.split('\n')), [labelText]);
  const xa1 = drawn.chart.xAxis?.xa1;
  const axisText = JSON.stringify(xa1 ?? {});
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the same axis while its fields are the same.
  const axis = useMemo(() => (drawn.bars ? barAxisOf(xa1) : undefined), [drawn.bars, axisText]);
  const keys = useMemo(() => series.map((s) => s.key), [series]);
  const query = useDeviceChartData(deviceid, keys, drawn.bars, range);

  const data = useMemo(() => {
    if (!query.data) return null;
    const { range: epoch, response } = query.data;
    const points = series.map((s) => response.data[s.key] ?? []);
    return axis
      ? barChartData(points, axis, epoch)
      : alignChartData(series, points, { stack: drawn.chart.stack, range: epoch });
  }, [query.data, series, axis, drawn.chart.stack]);

  const table = (): ExportTable | null => {
    if (!data?.hasData) return null;
    return axis ? barExportTable(labels, data, axis) : chartExportTable(labels, data);
  };
  const exportCsv = () => {
    const t = table();
    if (!t || !query.data) return;
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    downloadBlob(
      csvBlob(t),
      exportFileName({ groupName: deviceName, title, range: query.data.range, timeZone }, 'csv'),
    );
  };

  const ranges = <RangeButtons value={range} onChange={onRange} label={`Range of ${title}`} />;
  const exportTool = (
    <ToolButton
      label="Export CSV"
      hint="Export CSV: what the chart plots"
      icon="pi-download"
      disabled={!data?.hasData}
      onClick={exportCsv}
    />
  );
  // Without a plot, the range buttons and the export still head the chart's box.
  const state = (message: ReactNode) => (
    <>
      <ChartHead start={ranges} title={title}>
        {exportTool}
      </ChartHead>
      {message}
    </>
  );

  let body;
  if (series.length > 0 && query.isPending) body = state(<ChartLoading title={title} />);
  else if (query.isError) body = state(<ChartError onRetry={() => void query.refetch()} />);
  else if (series.length === 0) body = state(<ChartNoData hint="Add a series to draw the chart." />);
  else if (!data || !data.hasData) body = state(<ChartNoData />);
  else
    body = (
      <ChartPlot
        chart={drawn.chart}
        labels={labels}
        data={data}
        title={title}
        description={plotDescription(
          drawn.chart,
          labels.length,
          title,
          axis ? `bars of the newest values, ${CHART_RANGE_LABELS[range].toLowerCase()}` : CHART_RANGE_LABELS[range],
        )}
        bars={axis}
        header={ranges}
        tools={exportTool}
      />
    );

  const arrayTs = data && 'ts' in data && typeof data.ts === 'number' ? data.ts : null;
  return (
    <div className={`dc-view dc-view--${size}`}>
      <div className="dc-view__chart">{body}</div>
      {arrayTs !== null && (
        <p className="dc-view__note">
          Values of <LocalTime ts={arrayTs} />
        </p>
      )}
      {drawn.leftOut > 0 && (
        <p className="dc-view__note">
          {drawn.leftOut === 1 ? '1 series is' : `${drawn.leftOut} series are`} not drawn:{' '}
          {drawn.bars
            ? 'a bar chart draws keys holding arrays only.'
            : 'keys holding arrays draw as a bar chart of their own.'}
        </p>
      )}
    </div>
  );
}
