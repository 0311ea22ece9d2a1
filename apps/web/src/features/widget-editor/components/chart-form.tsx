/**
 * A group chart's settings (spec 2 section 3 'chart settings'; CHT-09 to CHT-12, CHT-17): name,
 * type, stack, data labels and their colour, background colour; the axes ax1 and ax2 (name, unit,
 * min, max, dp, tick, colour, displayType; a blank bound is automatic); the x axis xa1; and at
 * most 15 series, each a device of the group and one of its keys, with its axis, display type,
 * colour, goal flag, line type and width (default 2). A 16th series is refused with the spec's
 * 'Maximum number of series reached [15]'.
 */
import { useState } from 'react';
import { Button } from 'primereact/button';
import {
  CHART_AXES,
  CHART_LINE_TYPES,
  DEFAULT_CHART_LINE_WIDTH,
  MAX_GROUP_CHART_SERIES,
  addChartSeriesError,
  newChartSeries,
  type ChartSettings,
} from '@portal/core';
import type { FieldErrors } from '../utils/field-errors';
import { useItemIds } from '../hooks/use-item-ids';
import { CheckField, KeyField, ColourField, ItemButtons, NumberField, SelectField, TextField, moved } from './fields';
import { dropUndefined } from './table-form';

type Series = ChartSettings['series'][number];
type Axis = NonNullable<NonNullable<ChartSettings['axis']>['ax1']>;
type XAxis = NonNullable<NonNullable<ChartSettings['xAxis']>['xa1']>;

/** What the chart and its series may draw as. */
export const CHART_TYPES = ['line', 'bar', 'area'] as const;
/** Whether an axis is drawn. */
const AXIS_DISPLAY = [
  { label: 'Shown', value: 'default' },
  { label: 'Hidden', value: 'hide' },
];
const AXIS_NAMES: Record<(typeof CHART_AXES)[number], string> = { ax1: 'Left axis (ax1)', ax2: 'Right axis (ax2)' };

export interface ChartFormProps {
  settings: ChartSettings;
  onChange: (settings: ChartSettings) => void;
  errors: FieldErrors;
  knownKeys: readonly string[];
  /** The group's devices: id and name. */
  devices: readonly { deviceid: string; name: string }[];
}

const option = <T extends string>(value: T) => ({ label: value, value });

export function ChartForm({ settings, onChange, errors, knownKeys, devices }: ChartFormProps) {
  const seriesIds = useItemIds(settings.series.length);
  const [limit, setLimit] = useState<string | null>(null);
  const set = (patch: Partial<ChartSettings>) => onChange(dropUndefined({ ...settings, ...patch }));
  const series = settings.series;
  const setSeries = (next: Series[]) => {
    if (addChartSeriesError(next.length) === null) setLimit(null);
    set({ series: next });
  };
  const setOne = (index: number, patch: Partial<Series>) =>
    setSeries(series.map((s, i) => (i === index ? dropUndefined({ ...s, ...patch }) : s)));
  const setAxis = (name: (typeof CHART_AXES)[number], patch: Partial<Axis>) => {
    const axis = dropUndefined({ ...(settings.axis?.[name] ?? {}), ...patch });
    set({ axis: { ...settings.axis, [name]: axis } });
  };
  const setX = (patch: Partial<XAxis>) =>
    set({ xAxis: { xa1: dropUndefined({ ...(settings.xAxis?.xa1 ?? {}), ...patch }) } });
  const deviceOptions = devices.map((d) => ({
    label: d.name && d.name !== d.deviceid ? `${d.name} (${d.deviceid})` : d.deviceid,
    value: d.deviceid,
  }));

  const addSeries = () => {
    const refused = addChartSeriesError(series.length);
    if (refused !== null) {
      setLimit(refused);
      return;
    }
    seriesIds.added();
    setSeries([...series, newChartSeries(devices[0]?.deviceid ?? '')]);
  };

  return (
    <div className="we-form">
      <fieldset className="we-section">
        <legend>Chart</legend>
        <div className="we-grid">
          <TextField
            path="name"
            label="Name"
            value={settings.name}
            maxLength={64}
            error={errors.name}
            onChange={(v) => set({ name: v })}
          />
          <SelectField
            path="type"
            label="Type"
            value={settings.type}
            options={CHART_TYPES.map(option)}
            placeholder="line"
            error={errors.type}
            onChange={(v) => set({ type: v })}
          />
          <ColourField
            path="backgroundColor"
            label="Background colour"
            value={settings.backgroundColor}
            error={errors.backgroundColor}
            onChange={(v) => set({ backgroundColor: v })}
          />
          <ColourField
            path="dataLabelColor"
            label="Data label colour"
            value={settings.dataLabelColor}
            error={errors.dataLabelColor}
            onChange={(v) => set({ dataLabelColor: v })}
          />
          <div className="we-grid__cell--check">
            <CheckField
              path="stack"
              label="Stack series"
              checked={settings.stack ?? false}
              onChange={(on) => set({ stack: on || undefined })}
            />
            <CheckField
              path="dataLabels"
              label="Data labels"
              checked={settings.dataLabels ?? false}
              onChange={(on) => set({ dataLabels: on || undefined })}
            />
          </div>
        </div>
      </fieldset>

      {CHART_AXES.map((name) => {
        const axis = settings.axis?.[name] ?? {};
        const p = `axis.${name}`;
        return (
          <fieldset key={name} className="we-section">
            <legend>{AXIS_NAMES[name]}</legend>
            <div className="we-grid">
              <TextField
                path={`${p}.name`}
                label="Axis name"
                value={axis.name}
                maxLength={64}
                error={errors[`${p}.name`]}
                onChange={(v) => setAxis(name, { name: v })}
              />
              <TextField
                path={`${p}.unit`}
                label="Unit"
                value={axis.unit}
                maxLength={15}
                error={errors[`${p}.unit`]}
                onChange={(v) => setAxis(name, { unit: v })}
              />
              <NumberField
                path={`${p}.min`}
                label="Minimum"
                hint="Blank: automatic"
                blankAs={null}
                value={axis.min}
                error={errors[`${p}.min`]}
                onChange={(v) => setAxis(name, { min: v })}
              />
              <NumberField
                path={`${p}.max`}
                label="Maximum"
                hint="Blank: automatic"
                blankAs={null}
                value={axis.max}
                error={errors[`${p}.max`]}
                onChange={(v) => setAxis(name, { max: v })}
              />
              <NumberField
                path={`${p}.dp`}
                label="Decimal places"
                value={axis.dp}
                error={errors[`${p}.dp`]}
                onChange={(v) => setAxis(name, { dp: v ?? undefined })}
              />
              <NumberField
                path={`${p}.tick`}
                label="Tick"
                value={axis.tick}
                error={errors[`${p}.tick`]}
                onChange={(v) => setAxis(name, { tick: v ?? undefined })}
              />
              <ColourField
                path={`${p}.colour`}
                label="Axis colour"
                value={axis.colour}
                error={errors[`${p}.colour`]}
                onChange={(v) => setAxis(name, { colour: v })}
              />
              <SelectField
                path={`${p}.displayType`}
                label="Display"
                value={axis.displayType}
                options={AXIS_DISPLAY}
                placeholder="Shown"
                error={errors[`${p}.displayType`]}
                onChange={(v) => setAxis(name, { displayType: v })}
              />
            </div>
          </fieldset>
        );
      })}

      <fieldset className="we-section">
        <legend>Time axis (xa1)</legend>
        <div className="we-grid">
          <TextField
            path="xAxis.xa1.name"
            label="Axis name"
            value={settings.xAxis?.xa1?.name}
            maxLength={64}
            error={errors['xAxis.xa1.name']}
            onChange={(v) => setX({ name: v })}
          />
          <ColourField
            path="xAxis.xa1.colour"
            label="Axis colour"
            value={settings.xAxis?.xa1?.colour}
            error={errors['xAxis.xa1.colour']}
            onChange={(v) => setX({ colour: v })}
          />
          <NumberField
            path="xAxis.xa1.tick"
            label="Tick"
            value={settings.xAxis?.xa1?.tick}
            error={errors['xAxis.xa1.tick']}
            onChange={(v) => setX({ tick: v ?? undefined })}
          />
          <NumberField
            path="xAxis.xa1.offset"
            label="Offset"
            value={settings.xAxis?.xa1?.offset}
            error={errors['xAxis.xa1.offset']}
            onChange={(v) => setX({ offset: v ?? undefined })}
          />
          <NumberField
            path="xAxis.xa1.scale"
            label="Scale"
            value={settings.xAxis?.xa1?.scale}
            error={errors['xAxis.xa1.scale']}
            onChange={(v) => setX({ scale: v ?? undefined })}
          />
          <NumberField
            path="xAxis.xa1.dp"
            label="Decimal places"
            value={settings.xAxis?.xa1?.dp}
            error={errors['xAxis.xa1.dp']}
            onChange={(v) => setX({ dp: v ?? undefined })}
          />
        </div>
      </fieldset>

      <fieldset className="we-section">
        <legend>
          Series ({series.length} of {MAX_GROUP_CHART_SERIES})
        </legend>
        {errors.series ? (
          <p className="we-error" role="alert">
            {errors.series}
          </p>
        ) : null}
        <ol className="we-list">
          {series.map((s, index) => {
            const p = `series.${index}`;
            const name = `series ${index + 1}`;
            return (
              <li key={seriesIds.ids[index] ?? index} className="we-item" aria-label={`Series ${index + 1}`}>
                <div className="we-item__head">
                  <h3 className="we-item__title">
                    Series {index + 1}
                    {s.key ? `: ${s.key}` : ''}
                  </h3>
                  <ItemButtons
                    name={name}
                    index={index}
                    count={series.length}
                    onMove={(from, to) => {
                      seriesIds.moved(from, to);
                      setSeries(moved(series, from, to));
                    }}
                    onRemove={() => {
                      seriesIds.removed(index);
                      setSeries(series.filter((_, i) => i !== index));
                    }}
                  />
                </div>
                <div className="we-grid">
                  <SelectField
                    path={`${p}.source`}
                    label="Device"
                    value={s.source || undefined}
                    options={deviceOptions}
                    error={errors[`${p}.source`]}
                    onChange={(v) => setOne(index, { source: v ?? '' })}
                  />
                  <KeyField
                    path={`${p}.key`}
                    label="Key"
                    value={s.key}
                    keys={knownKeys}
                    error={errors[`${p}.key`]}
                    onChange={(v) => setOne(index, { key: v })}
                  />
                  <SelectField
                    path={`${p}.axisBind`}
                    label="Axis"
                    value={s.axisBind}
                    options={CHART_AXES.map((a) => ({ label: AXIS_NAMES[a], value: a }))}
                    error={errors[`${p}.axisBind`]}
                    onChange={(v) => setOne(index, { axisBind: v ?? 'ax1' })}
                  />
                  <SelectField
                    path={`${p}.displayType`}
                    label="Display type"
                    value={s.displayType}
                    options={CHART_TYPES.map(option)}
                    placeholder="The chart's type"
                    error={errors[`${p}.displayType`]}
                    onChange={(v) => setOne(index, { displayType: v })}
                  />
                  <SelectField
                    path={`${p}.lineType`}
                    label="Line type"
                    value={s.lineType}
                    options={CHART_LINE_TYPES.map(option)}
                    placeholder="solid"
                    error={errors[`${p}.lineType`]}
                    onChange={(v) => setOne(index, { lineType: v })}
                  />
                  <NumberField
                    path={`${p}.lineWidth`}
                    label="Line width"
                    hint="0.5 to 10"
                    value={s.lineWidth}
                    error={errors[`${p}.lineWidth`]}
                    onChange={(v) => setOne(index, { lineWidth: v ?? DEFAULT_CHART_LINE_WIDTH })}
                  />
                  <ColourField
                    path={`${p}.colour`}
                    label="Colour"
                    value={s.colour}
                    error={errors[`${p}.colour`]}
                    onChange={(v) => setOne(index, { colour: v })}
                  />
                  <div className="we-grid__cell--check">
                    <CheckField
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
        <div className="we-add-row">
          <Button type="button" label="Add series" icon="pi pi-plus" outlined size="small" onClick={addSeries} />
          {limit ? (
            <p className="we-error" role="alert">
              {limit}
            </p>
          ) : null}
        </div>
      </fieldset>
    </div>
  );
}
