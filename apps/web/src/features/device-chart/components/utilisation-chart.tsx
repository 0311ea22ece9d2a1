/**
 * The utilisation chart (spec 2 section 9; CHT-22, CHT-23): the share of time the machine spent in
 * a working state (4 to 6) in each interval between readings of the working states' hour meters
 * (core utilisationSeries), drawn as a step over the interval it covers, with the total over the
 * range ('Working 6 h 12 min of 10 h 00 min, 62 %'). Its data is asked for with downsample=2 and
 * again every 10 minutes. Shown on the Data page of a device that reports those hour meters.
 */
import { useMemo, useState, type ReactNode } from 'react';
import {
  CHART_RANGE_LABELS,
  DEVICE_CHART_DEFAULT_RANGE,
  UTILISATION_KEYS,
  chartExportTable,
  exportFileName,
  formatHoursMinutes,
  utilisationSeries,
  type ChartRange,
  type ChartSettings,
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
import { csvBlob, downloadBlob } from '@/lib/download';
import { useUtilisationData } from '../api/device-chart-data';
import { RangeButtons } from './range-buttons';

export const UTILISATION_TITLE = 'Utilisation';

/** A span of hours as the summary says it: minutes and seconds under an hour ('7 min 30 s'), else hours and minutes. */
function durationText(hours: number): string {
  if (hours >= 1) return formatHoursMinutes(hours);
  const seconds = Math.round(hours * 3600);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}
const LABELS = ['Working'];

/** The chart's settings: one stepped series in % on a fixed 0-100 axis. */
function utilisationChart(deviceid: string): ChartSettings {
  return {
    name: UTILISATION_TITLE,
    axis: { ax1: { name: 'Working', unit: '%', min: 0, max: 100, dp: 0 } },
    series: [
      {
        source: deviceid,
        key: UTILISATION_KEYS.join('+'),
        axisBind: 'ax1',
        lineWidth: 2,
        lineType: 'step',
        colour: '#009E73',
      },
    ],
  };
}

export function UtilisationChart({ deviceid, deviceName }: { deviceid: string; deviceName: string }) {
  const [range, setRange] = useState<ChartRange>(DEVICE_CHART_DEFAULT_RANGE);
  const chart = useMemo(() => utilisationChart(deviceid), [deviceid]);
  const query = useUtilisationData(deviceid, range);
  const data = useMemo(
    () => (query.data ? utilisationSeries(query.data.response.data, query.data.range) : null),
    [query.data],
  );

  const exportCsv = () => {
    if (!data?.hasData || !query.data) return;
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    const name = exportFileName(
      { groupName: deviceName, title: UTILISATION_TITLE, range: query.data.range, timeZone },
      'csv',
    );
    downloadBlob(csvBlob(chartExportTable(['Working (%)'], data)), name);
  };

  const ranges = <RangeButtons value={range} onChange={setRange} label={`Range of ${UTILISATION_TITLE}`} />;
  const exportTool = (
    <ToolButton
      label="Export CSV"
      hint="Export CSV: the working share per interval"
      icon="pi-download"
      disabled={!data?.hasData}
      onClick={exportCsv}
    />
  );
  const state = (message: ReactNode) => (
    <>
      <ChartHead start={ranges} title={UTILISATION_TITLE}>
        {exportTool}
      </ChartHead>
      {message}
    </>
  );

  let body;
  if (query.isPending) body = state(<ChartLoading title={UTILISATION_TITLE} />);
  else if (query.isError) body = state(<ChartError onRetry={() => void query.refetch()} />);
  else if (!data || !data.hasData) body = state(<ChartNoData />);
  else
    body = (
      <ChartPlot
        chart={chart}
        labels={LABELS}
        data={data}
        title={UTILISATION_TITLE}
        description={plotDescription(chart, 1, UTILISATION_TITLE, CHART_RANGE_LABELS[range])}
        stepsCoverBefore
        header={ranges}
        tools={exportTool}
      />
    );

  return (
    <div className="dc-view dc-view--card">
      {data?.share != null && (
        <p className="dc-utilisation">
          Working {durationText(data.workingHours)} of {durationText(data.elapsedHours)}:{' '}
          <strong>{data.share} %</strong>
        </p>
      )}
      <div className="dc-view__chart">{body}</div>
    </div>
  );
}
