/**
 * The editor of a device's custom chart (spec 2 section 3 'chart settings'; CHT-09 - CHT-12,
 * CHT-26, CHT-27): the chart's name, stacking and data labels; its series, each one of the
 * device's keys with its colour, axis (ax1 left, ax2 right), line type and width (default 2) and
 * the goal flag; the axes ax1 and ax2 (name, unit, min, max, decimals, tick; a blank bound is
 * automatic); and for a bar chart the x axis xa1 (name, offset, scale, decimals, tick). The chart
 * above it draws the draft as it changes.
 */
import {
  CHART_AXES,
  CHART_LINE_TYPES,
  DEFAULT_CHART_LINE_WIDTH,
  MAX_GROUP_CHART_SERIES,
  addChartSeriesError,
  newChartSeries,
  type ChartKeyKind,
  type ChartSettings,
} from '@portal/core';
import { useState } from 'react';
import { CHART_PALETTE } from '@/components/chart/chart-options';
import type { FieldErrors } from '../utils/chart-errors';
import { seriesLabel } from '../utils/chart-series';
import { CheckInput, ColourInput, KeyInput, NumberInput, SelectInput, TextInput } from './editor-fields';

type Series = ChartSettings['series'][number];
type Axis = NonNullable<NonNullable<ChartSettings['axis']>['ax1']>;
type XAxis = NonNullable<NonNullable<ChartSettings['xAxis']>['xa1']>;

const AXIS_NAMES: Record<(typeof CHART_AXES)[number], string> = { ax1: 'Left axis (ax1)', ax2: 'Right axis (ax2)' };
/** The data labels' colour while none is set: the axes' text colour (--text-muted). */
const DATA_LABEL_AUTOMATIC = '#59636e';
const LINE_TYPE_NAMES: Record<(typeof CHART_LINE_TYPES)[number], string> = {
  solid: 'Solid',
  dashed: 'Dashed',
  dotted: 'Dotted',
  step: 'Step',
};

/** An object without its undefined fields (a cleared field is not saved). */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export interface ChartEditorProps {
  deviceid: string;
  chart: ChartSettings;
  onChange: (chart: ChartSettings) => void;
  /** Shown once Save was pressed. */
  errors: FieldErrors;
  /** The device's keys a chart can plot, with their kind. */
  kinds: ReadonlyMap<string, ChartKeyKind>;
  displaySettings: Record<string, unknown>;
  /** The chart draws bars (its first series' key holds an array): the xa1 fields show. */
  bars: boolean;
}

export function ChartEditor({ deviceid, chart, onChange, errors, kinds, displaySettings, bars }: ChartEditorProps) {
  const [limit, setLimit] = useState<string | null>(null);
  const set = (patch: Partial<ChartSettings>) => onChange(defined({ ...chart, ...patch }));
  const series = chart.series;
  const setSeries = (next: Series[]) => {
    if (addChartSeriesError(next.length) === null) setLimit(null);
    set({ series: next });
  };
  const setOne = (index: number, patch: Partial<Series>) =>
    setSeries(series.map((s, i) => (i === index ? defined({ ...s, ...patch }) : s)));
  const setAxis = (name: (typeof CHART_AXES)[number], patch: Partial<Axis>) =>
    set({ axis: { ...chart.axis, [name]: defined({ ...(chart.axis?.[name] ?? {}), ...patch }) } });
  const setX = (patch: Partial<XAxis>) => set({ xAxis: { xa1: defined({ ...(chart.xAxis?.xa1 ?? {}), ...patch }) } });

  // The device's keys, and any key the chart has that the device has not sent lately.
  const keys = [...new Set([...kinds.keys(), ...series.map((s) => s.key).filter(Boolean)])];
  const keyOptions = keys.map((key) => {
    const name = seriesLabel(key, displaySettings);
    const kind = kinds.get(key);
    const text = name === key ? key : `${name} (${key})`;
    return { label: kind === 'bars' ? `${text}, array: bars` : text, value: key };
  });

  const addSeries = () => {
    const refused = addChartSeriesError(series.length);
    if (refused !== null) {
      setLimit(refused);
      return;
    }
    setSeries([...series, newChartSeries(deviceid)]);
  };

  return (
    <div className="dc-editor">
      <fieldset className="dc-section">
        <legend>Chart</legend>
        <div className="dc-grid">
          <TextInput path="name" label="Name" value={chart.name} maxLength={64} onChange={(v) => set({ name: v })} />
          <ColourInput
            path="dataLabelColor"
            label="Data label colour"
            value={chart.dataLabelColor}
            automatic={DATA_LABEL_AUTOMATIC}
            error={errors.dataLabelColor}
            onChange={(v) => set({ dataLabelColor: v })}
          />
          <div className="dc-grid__checks">
            <CheckInput
              path="stack"
              label="Stack series"
              checked={chart.stack ?? false}
              onChange={(on) => set({ stack: on || undefined })}
            />
            <CheckInput
              path="dataLabels"
              label="Data labels"
              checked={chart.dataLabels ?? false}
              onChange={(on) => set({ dataLabels: on || undefined })}
            />
          </div>
        </div>
      </fieldset>

      <fieldset className="dc-section">
        <legend>
          Series ({series.length} of {MAX_GROUP_CHART_SERIES})
        </legend>
        {errors.series && (
          <p className="dc-error" role="alert">
            {errors.series}
          </p>
        )}
        <ol className="dc-list">
          {series.map((s, index) => {
            const p = `series.${index}`;
            return (
              <li key={index} className="dc-item" aria-label={`Series ${index + 1}`}>
                <div className="dc-item__head">
                  <h3 className="dc-item__title">
                    Series {index + 1}
                    {s.key ? `: ${seriesLabel(s.key, displaySettings)}` : ''}
                  </h3>
                  <button
                    type="button"
                    className="p-button p-button-text p-button-sm p-button-icon-only p-button-danger"
                    aria-label={`Remove series ${index + 1}`}
                    onClick={() => setSeries(series.filter((_, i) => i !== index))}
                  >
                    <i className="pi pi-trash" aria-hidden="true" />
                  </button>
                </div>
                <div className="dc-grid">
                  <KeyInput
                    path={`${p}.key`}
                    label="Key"
                    value={s.key}
                    options={keyOptions}
                    error={errors[`${p}.key`]}
                    onChange={(v) => setOne(index, { key: v })}
                  />
                  <ColourInput
                    path={`${p}.colour`}
                    label="Colour"
                    value={s.colour}
                    automatic={CHART_PALETTE[index % CHART_PALETTE.length]!}
                    error={errors[`${p}.colour`]}
                    onChange={(v) => setOne(index, { colour: v })}
                  />
                  <SelectInput
                    path={`${p}.axisBind`}
                    label="Axis"
                    value={s.axisBind}
                    options={CHART_AXES.map((a) => ({ label: AXIS_NAMES[a], value: a }))}
                    onChange={(v) => setOne(index, { axisBind: v ?? 'ax1' })}
                  />
                  <SelectInput
                    path={`${p}.lineType`}
                    label="Line type"
                    value={s.lineType}
                    options={CHART_LINE_TYPES.map((t) => ({ label: LINE_TYPE_NAMES[t], value: t }))}
                    placeholder="Solid"
                    onChange={(v) => setOne(index, { lineType: v })}
                  />
                  <NumberInput
                    path={`${p}.lineWidth`}
                    label="Line width"
                    hint="0.5 to 10"
                    value={s.lineWidth}
                    error={errors[`${p}.lineWidth`]}
                    onChange={(v) => setOne(index, { lineWidth: v ?? DEFAULT_CHART_LINE_WIDTH })}
                  />
                  <div className="dc-grid__checks">
                    <CheckInput
                      path={`${p}.goalSeries`}
                      label="Goal series"
                      checked={s.goalSeries ?? false}
                      onChange={(on) => setOne(index, { goalSeries: on || undefined })}
                    />
                  </div>
                </div>
              </li>
            );
          })}
        </ol>
        <div className="dc-add">
          <button type="button" className="p-button p-button-outlined p-button-sm" onClick={addSeries}>
            <i className="pi pi-plus" aria-hidden="true" /> Add series
          </button>
          {limit && (
            <p className="dc-error" role="alert">
              {limit}
            </p>
          )}
        </div>
      </fieldset>

      {CHART_AXES.map((name) => {
        const axis = chart.axis?.[name] ?? {};
        const p = `axis.${name}`;
        return (
          <fieldset key={name} className="dc-section">
            <legend>{AXIS_NAMES[name]}</legend>
            <div className="dc-grid dc-grid--compact">
              <TextInput
                path={`${p}.name`}
                label="Axis name"
                value={axis.name}
                maxLength={64}
                onChange={(v) => setAxis(name, { name: v })}
              />
              <TextInput
                path={`${p}.unit`}
                label="Unit"
                value={axis.unit}
                maxLength={15}
                onChange={(v) => setAxis(name, { unit: v })}
              />
              <NumberInput
                path={`${p}.min`}
                label="Minimum"
                hint="Blank: automatic"
                blankAs={null}
                value={axis.min}
                error={errors[`${p}.min`]}
                onChange={(v) => setAxis(name, { min: v })}
              />
              <NumberInput
                path={`${p}.max`}
                label="Maximum"
                hint="Blank: automatic"
                blankAs={null}
                value={axis.max}
                error={errors[`${p}.max`]}
                onChange={(v) => setAxis(name, { max: v })}
              />
              <NumberInput
                path={`${p}.dp`}
                label="Decimal places"
                value={axis.dp}
                error={errors[`${p}.dp`]}
                onChange={(v) => setAxis(name, { dp: v ?? undefined })}
              />
              <NumberInput
                path={`${p}.tick`}
                label="Tick"
                hint="Blank: automatic"
                value={axis.tick}
                error={errors[`${p}.tick`]}
                onChange={(v) => setAxis(name, { tick: v ?? undefined })}
              />
            </div>
          </fieldset>
        );
      })}

      {bars && (
        <fieldset className="dc-section">
          <legend>Bar chart x axis (xa1)</legend>
          <p className="dc-section__hint">Bar i is labelled offset + i × scale.</p>
          <div className="dc-grid dc-grid--compact">
            <TextInput
              path="xAxis.xa1.name"
              label="Axis name"
              value={chart.xAxis?.xa1?.name}
              maxLength={64}
              onChange={(v) => setX({ name: v })}
            />
            <NumberInput
              path="xAxis.xa1.offset"
              label="Offset"
              hint="Blank: 0"
              value={chart.xAxis?.xa1?.offset}
              error={errors['xAxis.xa1.offset']}
              onChange={(v) => setX({ offset: v ?? undefined })}
            />
            <NumberInput
              path="xAxis.xa1.scale"
              label="Scale"
              hint="Blank: 1"
              value={chart.xAxis?.xa1?.scale}
              error={errors['xAxis.xa1.scale']}
              onChange={(v) => setX({ scale: v ?? undefined })}
            />
            <NumberInput
              path="xAxis.xa1.dp"
              label="Decimal places"
              value={chart.xAxis?.xa1?.dp}
              error={errors['xAxis.xa1.dp']}
              onChange={(v) => setX({ dp: v ?? undefined })}
            />
            <NumberInput
              path="xAxis.xa1.tick"
              label="Tick"
              hint="Label every tick from the offset"
              value={chart.xAxis?.xa1?.tick}
              error={errors['xAxis.xa1.tick']}
              onChange={(v) => setX({ tick: v ?? undefined })}
            />
          </div>
        </fieldset>
      )}
    </div>
  );
}
