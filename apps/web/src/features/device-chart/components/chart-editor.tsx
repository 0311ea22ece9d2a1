/**
 * The editor of a device's custom chart (spec 2 section 3 'chart settings'; CHT-09 - CHT-12,
 * CHT-26, CHT-27): its series first ('Add series' at their head), each one of the device's keys
 * with its colour, axis (ax1 left, ax2 right), line type and width (default 2) and the goal flag;
 * then the chart's name, stacking and data labels; the axes ax1 and ax2 (name, unit, min, max,
 * decimals, tick; a blank bound is automatic); and for a bar chart the x axis xa1 (name, offset,
 * scale, decimals, tick). The chart beside it (above it on a narrow screen) draws the draft as it
 * changes.
 */
import { CHART_LINE_TYPES, MAX_GROUP_CHART_SERIES, type ChartKeyKind, type ChartSettings } from '@portal/core';
import { CHART_PALETTE } from '@/components/chart/chart-options';
import {
  ChartAxesSections,
  ChartChecks,
  seriesFields,
  useChartDraft,
  xAxisFields,
} from '@/components/chart/chart-settings-fields';
import { ColourField, FieldScope, TextField } from '@/components/form/fields';
import type { FieldErrors } from '../utils/chart-errors';
import { seriesLabel } from '../utils/chart-series';

/** The data labels' colour while none is set: the axes' text colour (--text-muted). */
const DATA_LABEL_AUTOMATIC = '#59636e';
const LINE_TYPE_NAMES: Record<(typeof CHART_LINE_TYPES)[number], string> = {
  solid: 'Solid',
  dashed: 'Dashed',
  dotted: 'Dotted',
  step: 'Step',
};

const LINE_TYPES = CHART_LINE_TYPES.map((t) => ({ label: LINE_TYPE_NAMES[t], value: t }));

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
  const draft = useChartDraft(chart, onChange);
  const { set, series, setSeries, limit } = draft;

  // The device's keys, and any key the chart has that the device has not sent lately.
  const keys = [...new Set([...kinds.keys(), ...series.map((s) => s.key).filter(Boolean)])];
  const keyNames = new Map(
    keys.map((key) => {
      const name = seriesLabel(key, displaySettings);
      const text = name === key ? key : `${name} (${key})`;
      return [key, kinds.get(key) === 'bars' ? `${text}, array: bars` : text];
    }),
  );
  const x = xAxisFields({
    settings: chart,
    draft,
    errors,
    hints: { offset: 'Blank: 0', scale: 'Blank: 1', tick: 'Label every tick from the offset' },
  });

  return (
    <FieldScope prefix="dc">
      <div className="dc-editor">
        <fieldset className="dc-section">
          <legend>
            Series ({series.length} of {MAX_GROUP_CHART_SERIES})
          </legend>
          <div className="dc-add dc-add--head">
            <button
              type="button"
              className="p-button p-button-outlined p-button-sm"
              onClick={() => draft.addSeries(deviceid)}
            >
              <i className="pi pi-plus" aria-hidden="true" /> Add series
            </button>
            {limit && (
              <p className="dc-error" role="alert">
                {limit}
              </p>
            )}
          </div>
          {errors.series && (
            <p className="dc-error" role="alert">
              {errors.series}
            </p>
          )}
          <ol className="dc-list">
            {series.map((s, index) => {
              const f = seriesFields({
                index,
                series: s,
                draft,
                errors,
                keys,
                keyNames,
                keysName: "the device's keys",
                colourAutomatic: CHART_PALETTE[index % CHART_PALETTE.length]!,
                lineTypes: LINE_TYPES,
                lineTypePlaceholder: 'Solid',
              });
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
                    {f.key}
                    {f.colour}
                    {f.axis}
                    {f.lineType}
                    {f.lineWidth}
                    <div className="dc-grid__checks">{f.goal}</div>
                  </div>
                </li>
              );
            })}
          </ol>
        </fieldset>

        <fieldset className="dc-section">
          <legend>Chart</legend>
          <div className="dc-grid">
            <TextField path="name" label="Name" value={chart.name} maxLength={64} onChange={(v) => set({ name: v })} />
            <ColourField
              path="dataLabelColor"
              label="Data label colour"
              value={chart.dataLabelColor}
              automatic={DATA_LABEL_AUTOMATIC}
              error={errors.dataLabelColor}
              onChange={(v) => set({ dataLabelColor: v })}
            />
            <ChartChecks settings={chart} draft={draft} className="dc-grid__checks" />
          </div>
        </fieldset>

        <ChartAxesSections
          settings={chart}
          draft={draft}
          errors={errors}
          sectionClassName="dc-section"
          gridClassName="dc-grid dc-grid--compact"
          tickHint="Blank: automatic"
        />

        {bars && (
          <fieldset className="dc-section">
            <legend>Bar chart x axis (xa1)</legend>
            <p className="dc-section__hint">Bar i is labelled offset + i × scale.</p>
            <div className="dc-grid dc-grid--compact">
              {x.name}
              {x.offset}
              {x.scale}
              {x.dp}
              {x.tick}
            </div>
          </fieldset>
        )}
      </div>
    </FieldScope>
  );
}
