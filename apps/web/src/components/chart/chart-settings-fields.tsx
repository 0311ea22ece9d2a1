/**
 * The chart settings' editing shared by a group chart widget's form and a device's custom chart
 * editor (spec 2 section 3 'chart settings'; CHT-09 to CHT-12): the draft's setters (a cleared field
 * is not saved; a 16th series is refused with the spec's message), the stack and data label checks,
 * the axes ax1 and ax2, a series' fields and the x axis xa1's. Each editor lays the fields out in
 * its own sections, under its FieldScope (ids and classes).
 */
import {
  CHART_AXES,
  DEFAULT_CHART_LINE_WIDTH,
  addChartSeriesError,
  newChartSeries,
  type ChartSettings,
} from '@portal/core';
import { useState, type ReactNode } from 'react';
import { CheckField, ColourField, KeyField, NumberField, SelectField, TextField } from '@/components/form/fields';

type Series = ChartSettings['series'][number];
type Axis = NonNullable<NonNullable<ChartSettings['axis']>['ax1']>;
type XAxis = NonNullable<NonNullable<ChartSettings['xAxis']>['xa1']>;
type AxisName = (typeof CHART_AXES)[number];
type Errors = Readonly<Record<string, string>>;

export const AXIS_NAMES: Record<AxisName, string> = { ax1: 'Left axis (ax1)', ax2: 'Right axis (ax2)' };
const AXIS_OPTIONS = CHART_AXES.map((a) => ({ label: AXIS_NAMES[a], value: a }));

/** An object without its undefined fields (a cleared field is not saved). */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The setters of a chart's draft, and the message of a series refused for the limit. */
export function useChartDraft(settings: ChartSettings, onChange: (settings: ChartSettings) => void) {
  const [limit, setLimit] = useState<string | null>(null);
  const set = (patch: Partial<ChartSettings>) => onChange(defined({ ...settings, ...patch }));
  const series = settings.series;
  const setSeries = (next: Series[]) => {
    if (addChartSeriesError(next.length) === null) setLimit(null);
    set({ series: next });
  };
  return {
    limit,
    set,
    series,
    setSeries,
    setOne: (index: number, patch: Partial<Series>) =>
      setSeries(series.map((s, i) => (i === index ? defined({ ...s, ...patch }) : s))),
    setAxis: (name: AxisName, patch: Partial<Axis>) =>
      set({ axis: { ...settings.axis, [name]: defined({ ...(settings.axis?.[name] ?? {}), ...patch }) } }),
    setX: (patch: Partial<XAxis>) => set({ xAxis: { xa1: defined({ ...(settings.xAxis?.xa1 ?? {}), ...patch }) } }),
    /** A new series of `source`, unless the chart has the most it may; `added` runs first when it is added. */
    addSeries: (source: string, added?: () => void) => {
      const refused = addChartSeriesError(series.length);
      if (refused !== null) {
        setLimit(refused);
        return;
      }
      added?.();
      setSeries([...series, newChartSeries(source)]);
    },
  };
}

export type ChartDraft = ReturnType<typeof useChartDraft>;

/** The chart's stack and data labels checks. */
export function ChartChecks({
  settings,
  draft,
  className,
}: {
  settings: ChartSettings;
  draft: ChartDraft;
  className: string;
}) {
  return (
    <div className={className}>
      <CheckField
        path="stack"
        label="Stack series"
        checked={settings.stack ?? false}
        onChange={(on) => draft.set({ stack: on || undefined })}
      />
      <CheckField
        path="dataLabels"
        label="Data labels"
        checked={settings.dataLabels ?? false}
        onChange={(on) => draft.set({ dataLabels: on || undefined })}
      />
    </div>
  );
}

/** A section for each of the axes ax1 and ax2: name, unit, minimum, maximum (blank: automatic), decimal places, tick. */
export function ChartAxesSections({
  settings,
  draft,
  errors,
  sectionClassName,
  gridClassName,
  tickHint,
  extra,
}: {
  settings: ChartSettings;
  draft: ChartDraft;
  errors: Errors;
  sectionClassName: string;
  gridClassName: string;
  tickHint?: string;
  /** The editor's further fields of an axis, after the tick. */
  extra?: (name: AxisName, axis: Axis, path: string) => ReactNode;
}) {
  return CHART_AXES.map((name) => {
    const axis = settings.axis?.[name] ?? {};
    const p = `axis.${name}`;
    const setAxis = (patch: Partial<Axis>) => draft.setAxis(name, patch);
    return (
      <fieldset key={name} className={sectionClassName}>
        <legend>{AXIS_NAMES[name]}</legend>
        <div className={gridClassName}>
          <TextField
            path={`${p}.name`}
            label="Axis name"
            value={axis.name}
            maxLength={64}
            error={errors[`${p}.name`]}
            onChange={(v) => setAxis({ name: v })}
          />
          <TextField
            path={`${p}.unit`}
            label="Unit"
            value={axis.unit}
            maxLength={15}
            error={errors[`${p}.unit`]}
            onChange={(v) => setAxis({ unit: v })}
          />
          {(['min', 'max'] as const).map((bound) => (
            <NumberField
              key={bound}
              path={`${p}.${bound}`}
              label={bound === 'min' ? 'Minimum' : 'Maximum'}
              hint="Blank: automatic"
              blankAs={null}
              value={axis[bound]}
              error={errors[`${p}.${bound}`]}
              onChange={(v) => setAxis({ [bound]: v })}
            />
          ))}
          <NumberField
            path={`${p}.dp`}
            label="Decimal places"
            value={axis.dp}
            error={errors[`${p}.dp`]}
            onChange={(v) => setAxis({ dp: v ?? undefined })}
          />
          <NumberField
            path={`${p}.tick`}
            label="Tick"
            hint={tickHint}
            value={axis.tick}
            error={errors[`${p}.tick`]}
            onChange={(v) => setAxis({ tick: v ?? undefined })}
          />
          {extra?.(name, axis, p)}
        </div>
      </fieldset>
    );
  });
}

/**
 * The fields of the series at `index`: key, colour, axis, line type, line width (default 2) and
 * the goal flag, each editor placing them in its own order.
 */
export function seriesFields({
  index,
  series: s,
  draft,
  errors,
  keys,
  keyNames,
  keysName,
  colourAutomatic,
  lineTypes,
  lineTypePlaceholder,
}: {
  index: number;
  series: Series;
  draft: ChartDraft;
  errors: Errors;
  keys: readonly string[];
  keyNames?: ReadonlyMap<string, string>;
  keysName?: string;
  colourAutomatic?: string;
  lineTypes: readonly { label: string; value: NonNullable<Series['lineType']> }[];
  lineTypePlaceholder: string;
}) {
  const p = `series.${index}`;
  const setOne = (patch: Partial<Series>) => draft.setOne(index, patch);
  return {
    key: (
      <KeyField
        path={`${p}.key`}
        label="Key"
        value={s.key}
        keys={keys}
        names={keyNames}
        keysName={keysName}
        error={errors[`${p}.key`]}
        onChange={(v) => setOne({ key: v })}
      />
    ),
    colour: (
      <ColourField
        path={`${p}.colour`}
        label="Colour"
        value={s.colour}
        automatic={colourAutomatic}
        error={errors[`${p}.colour`]}
        onChange={(v) => setOne({ colour: v })}
      />
    ),
    axis: (
      <SelectField
        path={`${p}.axisBind`}
        label="Axis"
        value={s.axisBind}
        options={AXIS_OPTIONS}
        error={errors[`${p}.axisBind`]}
        onChange={(v) => setOne({ axisBind: v ?? 'ax1' })}
      />
    ),
    lineType: (
      <SelectField
        path={`${p}.lineType`}
        label="Line type"
        value={s.lineType}
        options={lineTypes}
        placeholder={lineTypePlaceholder}
        error={errors[`${p}.lineType`]}
        onChange={(v) => setOne({ lineType: v })}
      />
    ),
    lineWidth: (
      <NumberField
        path={`${p}.lineWidth`}
        label="Line width"
        hint="0.5 to 10"
        value={s.lineWidth}
        error={errors[`${p}.lineWidth`]}
        onChange={(v) => setOne({ lineWidth: v ?? DEFAULT_CHART_LINE_WIDTH })}
      />
    ),
    goal: (
      <CheckField
        path={`${p}.goalSeries`}
        label="Goal series"
        checked={s.goalSeries ?? false}
        onChange={(on) => setOne({ goalSeries: on || undefined })}
      />
    ),
  };
}

/** The fields of the x axis xa1: name, colour, offset, scale, decimal places and tick, each with its hint if any. */
export function xAxisFields({
  settings,
  draft,
  errors,
  hints = {},
  colourAutomatic,
}: {
  settings: ChartSettings;
  draft: ChartDraft;
  errors: Errors;
  hints?: Partial<Record<'offset' | 'scale' | 'tick', string>>;
  /** The axis colour used while none is set (the chart's ink). */
  colourAutomatic?: string;
}) {
  const xa1 = settings.xAxis?.xa1;
  const number = (field: 'offset' | 'scale' | 'dp' | 'tick', label: string, hint?: string) => (
    <NumberField
      path={`xAxis.xa1.${field}`}
      label={label}
      hint={hint}
      value={xa1?.[field]}
      error={errors[`xAxis.xa1.${field}`]}
      onChange={(v) => draft.setX({ [field]: v ?? undefined })}
    />
  );
  return {
    name: (
      <TextField
        path="xAxis.xa1.name"
        label="Axis name"
        value={xa1?.name}
        maxLength={64}
        error={errors['xAxis.xa1.name']}
        onChange={(v) => draft.setX({ name: v })}
      />
    ),
    colour: (
      <ColourField
        path="xAxis.xa1.colour"
        label="Axis colour"
        value={xa1?.colour}
        automatic={colourAutomatic}
        error={errors['xAxis.xa1.colour']}
        onChange={(v) => draft.setX({ colour: v })}
      />
    ),
    offset: number('offset', 'Offset', hints.offset),
    scale: number('scale', 'Scale', hints.scale),
    dp: number('dp', 'Decimal places'),
    tick: number('tick', 'Tick', hints.tick),
  };
}
