/**
 * The dashboard's group chart (spec 2 sections 3, 5, 8 and 9; ledger CHT-09 - CHT-18, CHT-24,
 * CHT-26, CHT-27): up to 15 series (a device and one of its keys) over the view's range, one data
 * call per series asked together, drawn with uPlot. The rules are core's (alignChartData,
 * chartAxisBounds, chartDataQuery); the options come from chart-options.ts; this draws them and
 * adds the toolbar (selection zoom or pan, reset), double-click to reset, 'No Data', the
 * crosshair legend, loading and error states, and sizing to the grid cell.
 */
import {
  useEffect,
  useId,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import {
  ERROR_LOADING_DATA,
  NO_CHART_DATA,
  STALE_TIMES_MS,
  alignChartData,
  chartExportTable,
  chartSettingsOf,
  measurementOf,
  resolveTimeRange,
  timeRangeLabel,
  type AlignedChartData,
  type ChartSettings,
  type ExportTable,
  type TimeRange,
} from '@portal/core';
import { useChartData } from '../api/get-chart-data';
import { CHART_KEYS_HELP, axisTitle, chartOptions, keyboardRange } from '../chart-options';
import './group-chart.css';

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

/** The time now, moved on every 5 minutes: the chart's range end moves with it. */
function useNowMs(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), STALE_TIMES_MS.metrics);
    return () => window.clearInterval(timer);
  }, []);
  return now;
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
  // Whole minutes: the charts of a view mounted together ask the same range, so a series two charts show is one call.
  const nowMs = Math.floor(useNowMs() / 60_000) * 60_000;
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

  if (chart.series.length > 0 && pending) {
    return (
      <div className="group-chart" aria-busy="true">
        <div className="group-chart__skeleton skeleton" role="status" aria-label={`Loading ${title}`} />
      </div>
    );
  }
  if (failed.length > 0) {
    return (
      <div className="group-chart group-chart--message">
        <p className="group-chart__error" role="alert">
          <i className="pi pi-exclamation-triangle" aria-hidden="true" /> {ERROR_LOADING_DATA}
        </p>
        <button
          type="button"
          className="p-button p-button-outlined p-button-sm"
          onClick={() => failed.forEach((r) => void r.refetch())}
        >
          Retry
        </button>
      </div>
    );
  }
  if (!data || !data.hasData) {
    return (
      <div className="group-chart group-chart--message">
        <p className="group-chart__empty">{NO_CHART_DATA}</p>
      </div>
    );
  }
  return <ChartPlot chart={chart} labels={labels} data={data} title={title} rangeLabel={timeRangeLabel(range)} />;
}

type Mode = 'zoom' | 'pan';

/**
 * The plot's text equivalent (UI.md): the title, the series count, the range and the axes' titles,
 * which the canvas draws: 'Fleet: 3 series, Last 24 hours; left axis Voltage (V); right axis Flow (L/min)'.
 */
export function plotDescription(chart: ChartSettings, count: number, title: string, rangeLabel: string): string {
  const parts = [`${title}: ${count} series, ${rangeLabel}`];
  const left = axisTitle(chart.axis?.ax1?.name, chart.axis?.ax1?.unit);
  if (left) parts.push(`left axis ${left}`);
  if (chart.series.some((s) => s.axisBind === 'ax2'))
    parts.push(`right axis ${axisTitle(chart.axis?.ax2?.name, chart.axis?.ax2?.unit) || 'unnamed'}`);
  return parts.join('; ');
}

interface ChartPlotProps {
  chart: ChartSettings;
  labels: string[];
  data: AlignedChartData;
  title: string;
  rangeLabel: string;
}

/** The scale's bounds as a data attribute ('min,max'), so what is shown can be read (tests, tools). */
function recordScale(root: HTMLElement, u: uPlot, key: string) {
  const s = u.scales[key];
  if (s && s.min != null && s.max != null) root.setAttribute(`data-scale-${key}`, `${s.min},${s.max}`);
}

function ChartPlot({ chart, labels, data, title, rangeLabel }: ChartPlotProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<HTMLDivElement>(null);
  const legendRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  const dataRef = useRef(data);
  const [mode, setMode] = useState<Mode>('zoom');
  const keysHelpId = useId();
  const modeRef = useRef<Mode>(mode);

  // One uPlot per settings; new data goes in with setData below, keeping a zoom.
  useEffect(() => {
    const root = rootRef.current;
    const host = plotRef.current;
    const legendHost = legendRef.current;
    if (!root || !host || !legendHost) return;
    const style = getComputedStyle(root);
    const ink = style.getPropertyValue('--text-muted').trim() || '#4b5563';
    const grid = style.getPropertyValue('--border').trim() || '#e5e7eb';
    const options = chartOptions({
      settings: chart,
      labels,
      data: () => dataRef.current,
      width: Math.max(120, host.clientWidth),
      height: Math.max(120, host.clientHeight),
      ink,
      grid,
    });
    options.cursor = { drag: { x: modeRef.current === 'zoom', y: false, setScale: true } };
    options.legend = { live: true, mount: (_u, el) => legendHost.appendChild(el) };
    options.hooks = { setScale: [(u, key) => recordScale(root, u, key)] };
    const d = dataRef.current;
    const u = new uPlot(options, [d.x, ...d.plotted] as uPlot.AlignedData, host);
    chartRef.current = u;
    for (const key of Object.keys(u.scales)) recordScale(root, u, key);

    // Pan mode: dragging moves the x range with the pointer.
    const onPointerDown = (e: PointerEvent) => {
      if (modeRef.current !== 'pan' || e.button !== 0) return;
      const min = u.scales.x?.min;
      const max = u.scales.x?.max;
      if (min == null || max == null) return;
      e.preventDefault();
      const startX = e.clientX;
      const perPx = (max - min) / Math.max(1, u.over.getBoundingClientRect().width);
      const move = (ev: PointerEvent) => {
        const shift = (ev.clientX - startX) * perPx;
        u.setScale('x', { min: min - shift, max: max - shift });
      };
      const up = () => {
        window.removeEventListener('pointermove', move);
        window.removeEventListener('pointerup', up);
      };
      window.addEventListener('pointermove', move);
      window.addEventListener('pointerup', up);
    };
    u.over.addEventListener('pointerdown', onPointerDown);

    const observer = new ResizeObserver(() => {
      const width = Math.max(120, host.clientWidth);
      const height = Math.max(120, host.clientHeight);
      if (width !== u.width || height !== u.height) u.setSize({ width, height });
    });
    observer.observe(host);
    return () => {
      observer.disconnect();
      u.over.removeEventListener('pointerdown', onPointerDown);
      u.destroy();
      chartRef.current = null;
    };
  }, [chart, labels]);

  useEffect(() => {
    const u = chartRef.current;
    if (dataRef.current === data || !u) {
      dataRef.current = data;
      return;
    }
    dataRef.current = data;
    const x = u.data[0];
    const whole = u.scales.x?.min === x[0] && u.scales.x?.max === x[x.length - 1];
    u.setData([data.x, ...data.plotted] as uPlot.AlignedData, whole);
  }, [data]);

  useEffect(() => {
    modeRef.current = mode;
    const drag = chartRef.current?.cursor.drag;
    if (drag) drag.x = mode === 'zoom';
  }, [mode]);

  const reset = () => {
    const u = chartRef.current;
    const x = dataRef.current.x;
    if (u && x.length > 0) u.setScale('x', { min: x[0]!, max: x[x.length - 1]! });
  };

  // With the plot focused, the keyboard pans and zooms as the pointer does (CHART_KEYS_HELP).
  const onKeyDown = (e: KeyboardEvent) => {
    const u = chartRef.current;
    const x = dataRef.current.x;
    const min = u?.scales.x?.min;
    const max = u?.scales.x?.max;
    if (!u || x.length === 0 || min == null || max == null || e.altKey || e.ctrlKey || e.metaKey) return;
    const next = keyboardRange(e.key, e.shiftKey, [min, max], [x[0]!, x[x.length - 1]!]);
    if (!next) return;
    e.preventDefault();
    u.setScale('x', { min: next[0], max: next[1] });
  };

  return (
    <div
      ref={rootRef}
      className="group-chart"
      style={chart.backgroundColor ? { backgroundColor: chart.backgroundColor } : undefined}
    >
      <div className="group-chart__toolbar" role="toolbar" aria-label={`${title} tools`}>
        <ToolButton
          label="Selection zoom"
          hint="Selection zoom: drag across the chart to zoom in"
          icon="pi-search-plus"
          pressed={mode === 'zoom'}
          onClick={() => setMode('zoom')}
        />
        <ToolButton
          label="Pan"
          hint="Pan: drag the chart sideways"
          icon="pi-arrows-h"
          pressed={mode === 'pan'}
          onClick={() => setMode('pan')}
        />
        <ToolButton
          label="Reset zoom"
          hint="Reset zoom (or double-click the chart)"
          icon="pi-refresh"
          onClick={reset}
        />
      </div>
      <div
        ref={plotRef}
        className={`group-chart__plot group-chart__plot--${mode}`}
        role="img"
        aria-label={plotDescription(chart, labels.length, title, rangeLabel)}
        aria-keyshortcuts="ArrowLeft ArrowRight Shift+ArrowLeft Shift+ArrowRight + - Home"
        aria-describedby={keysHelpId}
        tabIndex={0}
        onKeyDown={onKeyDown}
      />
      <span id={keysHelpId} className="visually-hidden">
        {CHART_KEYS_HELP}
      </span>
      <div ref={legendRef} className="group-chart__legend" />
    </div>
  );
}

/** A toolbar button: an icon with its name for assistive technology and a hint on hover; a mode button says whether it is on. */
function ToolButton(props: { label: string; hint: string; icon: string; pressed?: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      className="group-chart__tool"
      aria-pressed={props.pressed}
      aria-label={props.label}
      title={props.hint}
      onClick={props.onClick}
    >
      <i className={`pi ${props.icon}`} aria-hidden="true" />
    </button>
  );
}

export default GroupChartWidget;
