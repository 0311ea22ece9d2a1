/**
 * A chart drawn with uPlot, shared by the group chart and a device's custom charts (spec 2
 * sections 2, 3 and 8; UI.md 'Charts'): the toolbar (selection zoom or pan, reset), double-click
 * to reset, the crosshair legend listing every series at the cursor, the keyboard's pan and zoom,
 * sizing to its box, and the states around it (loading, 'Error Loading Data' with Retry, 'No
 * Data'). The options come from chart-options.ts; the data are core's aligned columns
 * (alignChartData, barChartData, utilisationSeries).
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import {
  ERROR_LOADING_DATA,
  NO_CHART_DATA,
  type AlignedChartData,
  type BarAxis,
  type ChartSettings,
} from '@portal/core';
import { CHART_KEYS_HELP, axisTitle, chartOptions, keyboardRange } from './chart-options';
import './chart.css';
import { useOverflows } from '@/lib/use-overflows';

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

/** The chart while its data loads: a skeleton the size of the plot. */
export function ChartLoading({ title, className }: { title: string; className?: string | undefined }) {
  return (
    <div className={rootClass('chart-plot', className)} aria-busy="true">
      <div className="chart-plot__skeleton skeleton" role="status" aria-label={`Loading ${title}`} />
    </div>
  );
}

/** A failed data call: 'Error Loading Data' and Retry. */
export function ChartError({ onRetry, className }: { onRetry: () => void; className?: string | undefined }) {
  return (
    <div className={rootClass('chart-plot chart-plot--message', className)}>
      <p className="chart-plot__error" role="alert">
        <i className="pi pi-exclamation-triangle" aria-hidden="true" /> {ERROR_LOADING_DATA}
      </p>
      <button type="button" className="p-button p-button-outlined p-button-sm" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

/** A chart without a value to draw: 'No Data' centred (CHT-24), with what would fill it when given. */
export function ChartNoData({ className, hint }: { className?: string | undefined; hint?: string | undefined }) {
  return (
    <div className={rootClass('chart-plot chart-plot--message', className)}>
      <p className="chart-plot__empty">{NO_CHART_DATA}</p>
      {hint && <p className="chart-plot__hint">{hint}</p>}
    </div>
  );
}

const rootClass = (base: string, extra: string | undefined) => (extra ? `${base} ${extra}` : base);

export interface ChartPlotProps {
  /** The chart's settings: series, axes, labels, background (a new object draws the chart anew). */
  chart: ChartSettings;
  /** Each series' name in the legend (keep it the same array while the names are the same). */
  labels: readonly string[];
  /** What is drawn: new data goes into the same plot, keeping a zoom. */
  data: AlignedChartData;
  title: string;
  /** The plot's text equivalent (plotDescription). */
  description: string;
  /** A bar chart over this x axis (memoised: a new one draws the chart anew). */
  bars?: BarAxis | undefined;
  /** 'step' lines cover the interval before their point (utilisation). */
  stepsCoverBefore?: boolean | undefined;
  /** More classes on the root (the group chart's 'group-chart'). */
  className?: string | undefined;
  /** Controls left of the toolbar, on its row (a device chart's range buttons). */
  header?: ReactNode;
  /** More toolbar buttons after Reset zoom (ChartTool: a device chart's export). */
  tools?: ReactNode;
}

/** The scale's bounds as a data attribute ('min,max'), so what is shown can be read (tests, tools). */
function recordScale(root: HTMLElement, u: uPlot, key: string) {
  const s = u.scales[key];
  if (s && s.min != null && s.max != null) root.setAttribute(`data-scale-${key}`, `${s.min},${s.max}`);
}

/** The x range with nothing zoomed: the x scale's own range over the whole data. */
function wholeX(u: uPlot): [number, number] | null {
  const x = u.data[0];
  if (!x || x.length === 0) return null;
  const min = x[0]!;
  const max = x[x.length - 1]!;
  const range = u.scales.x?.range;
  if (typeof range === 'function') {
    const [lo, hi] = range(u, min, max, 'x');
    if (lo !== null && hi !== null) return [lo, hi];
  }
  return [min, max];
}

export function ChartPlot({
  chart,
  labels,
  data,
  title,
  description,
  bars,
  stepsCoverBefore,
  className,
  header,
  tools,
}: ChartPlotProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<HTMLDivElement>(null);
  // A legend of many series in a small chart scrolls: it then takes keyboard focus as a named group.
  const [legendRef, legendOverflows] = useOverflows<HTMLDivElement>(false);
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
      bars,
      stepsCoverBefore,
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
  }, [chart, labels, bars, stepsCoverBefore, legendRef]);

  useEffect(() => {
    const u = chartRef.current;
    if (dataRef.current === data || !u) {
      dataRef.current = data;
      return;
    }
    dataRef.current = data;
    const whole = wholeX(u);
    const unzoomed = whole !== null && u.scales.x?.min === whole[0] && u.scales.x?.max === whole[1];
    u.setData([data.x, ...data.plotted] as uPlot.AlignedData, unzoomed);
  }, [data]);

  useEffect(() => {
    modeRef.current = mode;
    const drag = chartRef.current?.cursor.drag;
    if (drag) drag.x = mode === 'zoom';
  }, [mode]);

  const reset = () => {
    const u = chartRef.current;
    const whole = u && wholeX(u);
    if (u && whole) u.setScale('x', { min: whole[0], max: whole[1] });
  };

  // With the plot focused, the keyboard pans and zooms as the pointer does (CHART_KEYS_HELP).
  const onKeyDown = (e: KeyboardEvent) => {
    const u = chartRef.current;
    const whole = u && wholeX(u);
    const min = u?.scales.x?.min;
    const max = u?.scales.x?.max;
    if (!u || !whole || min == null || max == null || e.altKey || e.ctrlKey || e.metaKey) return;
    const next = keyboardRange(e.key, e.shiftKey, [min, max], whole);
    if (!next) return;
    e.preventDefault();
    u.setScale('x', { min: next[0], max: next[1] });
  };

  return (
    <div
      ref={rootRef}
      className={rootClass('chart-plot', className)}
      style={chart.backgroundColor ? { backgroundColor: chart.backgroundColor } : undefined}
    >
      <ChartHead start={header} title={title}>
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
        {tools}
      </ChartHead>
      <div
        ref={plotRef}
        className={`chart-plot__plot chart-plot__plot--${mode}`}
        role="img"
        aria-label={description}
        aria-keyshortcuts="ArrowLeft ArrowRight Shift+ArrowLeft Shift+ArrowRight + - Home"
        aria-describedby={keysHelpId}
        tabIndex={0}
        onKeyDown={onKeyDown}
      />
      <span id={keysHelpId} className="visually-hidden">
        {CHART_KEYS_HELP}
      </span>
      <div
        ref={legendRef}
        className="chart-plot__legend"
        tabIndex={legendOverflows ? 0 : undefined}
        role={legendOverflows ? 'group' : undefined}
        aria-label={legendOverflows ? `${title} legend` : undefined}
      />
    </div>
  );
}

/** The row above a chart: controls of the page (start) on the left, the chart's toolbar on the right. */
export function ChartHead({ start, title, children }: { start?: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="head-row">
      {start}
      <div className="chart-plot__toolbar" role="toolbar" aria-label={`${title} tools`}>
        {children}
      </div>
    </div>
  );
}

/** A toolbar button: an icon with its name for assistive technology and a hint on hover; a mode button says whether it is on. */
export function ToolButton(props: {
  label: string;
  hint: string;
  icon: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className="chart-plot__tool"
      aria-pressed={props.pressed}
      aria-label={props.label}
      title={props.hint}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      <i className={`pi ${props.icon}`} aria-hidden="true" />
    </button>
  );
}
