/**
 * The chart editor's field messages, keyed by the field's path in the chart ('series.0.key'):
 * the checks a form can fail, with core's rules and messages (isCssColour, the series limit); the
 * server checks the whole contract (DeviceChartSchema) again on save and a refusal shows its
 * message. Zod stays out of the page (the settings contracts would pin it into the route).
 */
import { COLOUR_MESSAGE, addChartSeriesError, isCssColour, type ChartSettings } from '@portal/core';

export type FieldErrors = Readonly<Record<string, string>>;

export const CHART_EDITOR_MESSAGES = {
  keyRequired: 'Choose a key',
  notANumber: 'Enter a number',
  wholeNumber: 'Enter a whole number',
  lineWidth: 'Enter a number from 0.5 to 10',
  noSeries: 'Add at least one series',
} as const;

/** The messages of a chart's fields; empty when it may be saved. */
export function chartErrors(chart: ChartSettings): FieldErrors {
  const errors: Record<string, string> = {};
  const colour = (path: string, value: string | undefined) => {
    if (value !== undefined && value !== '' && !isCssColour(value)) errors[path] = COLOUR_MESSAGE;
  };
  const number = (path: string, value: number | null | undefined) => {
    if (value !== undefined && value !== null && !Number.isFinite(value))
      errors[path] = CHART_EDITOR_MESSAGES.notANumber;
  };
  const whole = (path: string, value: number | undefined) => {
    if (value !== undefined && !Number.isInteger(value)) errors[path] = CHART_EDITOR_MESSAGES.wholeNumber;
  };
  for (const name of ['ax1', 'ax2'] as const) {
    const axis = chart.axis?.[name];
    if (!axis) continue;
    const p = `axis.${name}`;
    number(`${p}.min`, axis.min);
    number(`${p}.max`, axis.max);
    number(`${p}.tick`, axis.tick);
    whole(`${p}.dp`, axis.dp);
  }
  const xa1 = chart.xAxis?.xa1;
  if (xa1) {
    number('xAxis.xa1.offset', xa1.offset);
    number('xAxis.xa1.scale', xa1.scale);
    number('xAxis.xa1.tick', xa1.tick);
    whole('xAxis.xa1.dp', xa1.dp);
  }
  if (chart.series.length === 0) errors.series = CHART_EDITOR_MESSAGES.noSeries;
  const over = addChartSeriesError(chart.series.length - 1);
  if (over !== null) errors.series = over;
  chart.series.forEach((s, i) => {
    const p = `series.${i}`;
    if (s.key.trim() === '') errors[`${p}.key`] = CHART_EDITOR_MESSAGES.keyRequired;
    if (!Number.isFinite(s.lineWidth) || s.lineWidth < 0.5 || s.lineWidth > 10)
      errors[`${p}.lineWidth`] = CHART_EDITOR_MESSAGES.lineWidth;
    colour(`${p}.colour`, s.colour);
  });
  colour('dataLabelColor', chart.dataLabelColor);
  return errors;
}
