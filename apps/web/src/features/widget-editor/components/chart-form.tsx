/**
 * A group chart's settings (spec 2 section 3 'chart settings'; CHT-09 to CHT-12, CHT-17): name,
 * type, stack, data labels and their colour, background colour; the axes ax1 and ax2 (name, unit,
 * min, max, dp, tick, colour, displayType; a blank bound is automatic); the x axis xa1; and at
 * most 15 series, each a device of the group and one of its keys, with its axis, display type,
 * colour, goal flag, line type and width (default 2). A 16th series is refused with the spec's
 * 'Maximum number of series reached [15]'. The series come first, 'Add series' at their head (a
 * new series is brought into sight and its Device field focused); every colour field's swatch
 * shows the colour the chart will use (the palette's for a series, the chart's ink for axes and
 * labels, the card's ground for the background).
 */
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { CHART_LINE_TYPES, MAX_GROUP_CHART_SERIES, type ChartSettings } from '@portal/core';
import { CHART_PALETTE } from '@/components/chart/chart-palette';
import {
  ChartAxesSections,
  ChartChecks,
  seriesFields,
  useChartDraft,
  xAxisFields,
} from '@/components/chart/chart-settings-fields';
import { ColourField, SelectField, TextField } from '@/components/form/fields';
import { chartGround, chartInk } from '@/components/form/theme-colours';
import type { FieldErrors } from '../utils/field-errors';
import { useItemIds } from '../hooks/use-item-ids';
import { ItemButtons, moved } from './fields';

/** What the chart and its series may draw as. */
export const CHART_TYPES = ['line', 'bar', 'area'] as const;
/** Whether an axis is drawn. */
const AXIS_DISPLAY = [
  { label: 'Shown', value: 'default' },
  { label: 'Hidden', value: 'hide' },
];

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
  const draft = useChartDraft(settings, onChange);
  const { set, series, setSeries, setOne, limit } = draft;
  const deviceOptions = devices.map((d) => ({
    label: d.name && d.name !== d.deviceid ? `${d.name} (${d.deviceid})` : d.deviceid,
    value: d.deviceid,
  }));
  const [ink] = useState(chartInk);
  const [ground] = useState(chartGround);
  // The series just added: brought into sight, its first field focused.
  const [addedIndex, setAddedIndex] = useState<number | null>(null);
  useEffect(() => {
    if (addedIndex === null) return;
    const input = document.getElementById(`field-we-series-${addedIndex}-source`);
    input?.closest('li')?.scrollIntoView({ block: 'nearest' });
    input?.focus({ preventScroll: true });
    setAddedIndex(null);
  }, [addedIndex]);

  const addSeries = () =>
    draft.addSeries(devices[0]?.deviceid ?? '', () => {
      seriesIds.added();
      setAddedIndex(series.length);
    });
  const x = xAxisFields({ settings, draft, errors, colourAutomatic: ink });

  return (
    <div className="we-form">
      <fieldset className="we-section">
        <legend>
          Series ({series.length} of {MAX_GROUP_CHART_SERIES})
        </legend>
        <div className="we-add-row we-add-row--head">
          <Button type="button" label="Add series" icon="pi pi-plus" outlined size="small" onClick={addSeries} />
          {limit ? (
            <p className="we-error" role="alert">
              {limit}
            </p>
          ) : null}
        </div>
        {errors.series ? (
          <p className="we-error" role="alert">
            {errors.series}
          </p>
        ) : null}
        {series.length === 0 ? (
          <p className="we-hint">No series yet: Add series draws a key of one of the group&apos;s devices.</p>
        ) : null}
        <ol className="we-list">
          {series.map((s, index) => {
            const p = `series.${index}`;
            const name = `series ${index + 1}`;
            const f = seriesFields({
              index,
              series: s,
              draft,
              errors,
              keys: knownKeys,
              colourAutomatic: CHART_PALETTE[index % CHART_PALETTE.length],
              lineTypes: CHART_LINE_TYPES.map(option),
              lineTypePlaceholder: 'solid',
            });
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
                  {f.key}
                  {f.colour}
                  {f.axis}
                  <SelectField
                    path={`${p}.displayType`}
                    label="Display type"
                    value={s.displayType}
                    options={CHART_TYPES.map(option)}
                    placeholder="The chart's type"
                    error={errors[`${p}.displayType`]}
                    onChange={(v) => setOne(index, { displayType: v })}
                  />
                  {f.lineType}
                  {f.lineWidth}
                  <div className="we-grid__cell--check">{f.goal}</div>
                </div>
              </li>
            );
          })}
        </ol>
      </fieldset>

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
            automatic={ground}
            error={errors.backgroundColor}
            onChange={(v) => set({ backgroundColor: v })}
          />
          <ColourField
            path="dataLabelColor"
            label="Data label colour"
            value={settings.dataLabelColor}
            automatic={ink}
            error={errors.dataLabelColor}
            onChange={(v) => set({ dataLabelColor: v })}
          />
          <ChartChecks settings={settings} draft={draft} className="we-grid__cell--check" />
        </div>
      </fieldset>

      <ChartAxesSections
        settings={settings}
        draft={draft}
        errors={errors}
        sectionClassName="we-section"
        gridClassName="we-grid"
        extra={(name, axis, p) => (
          <>
            <ColourField
              path={`${p}.colour`}
              label="Axis colour"
              value={axis.colour}
              automatic={ink}
              error={errors[`${p}.colour`]}
              onChange={(v) => draft.setAxis(name, { colour: v })}
            />
            <SelectField
              path={`${p}.displayType`}
              label="Display"
              value={axis.displayType}
              options={AXIS_DISPLAY}
              placeholder="Shown"
              error={errors[`${p}.displayType`]}
              onChange={(v) => draft.setAxis(name, { displayType: v })}
            />
          </>
        )}
      />

      <fieldset className="we-section">
        <legend>Time axis (xa1)</legend>
        <div className="we-grid">
          {x.name}
          {x.colour}
          {x.tick}
          {x.offset}
          {x.scale}
          {x.dp}
        </div>
      </fieldset>
    </div>
  );
}
