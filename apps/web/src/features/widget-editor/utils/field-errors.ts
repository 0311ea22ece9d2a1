/**
 * The editor's field messages, keyed by the field's path in the settings ('columns.0.dp'). Zod
 * stays out of the browser (the settings contracts live in a module the entry chunk needs, so
 * using them here would pin Zod into every route; see lib/form.ts): these are the checks a form
 * can fail, worded for a field with core's rules and messages (isCssColour and its message, the
 * series limit); the server checks the whole contract again on save and a refusal shows its message.
 */
import {
  COLOUR_MESSAGE,
  addChartSeriesError,
  isCssColour,
  type ChartSettings,
  type HeadlineSettings,
  type TableSettings,
} from '@portal/core';

export type FieldErrors = Readonly<Record<string, string>>;

export const EDITOR_MESSAGES = {
  keyRequired: 'Enter a key',
  notANumber: 'Enter a number',
  wholeNumber: (min: number, max: number) => `Enter a whole number from ${min} to ${max}`,
  between: (min: number, max: number) => `Enter a number from ${min} to ${max}`,
  deviceRequired: 'Choose a device',
} as const;

type Errors = Record<string, string>;

function colour(errors: Errors, path: string, value: string | undefined, required = false): void {
  if (value === undefined || value === '') {
    if (required) errors[path] = COLOUR_MESSAGE;
    return;
  }
  if (!isCssColour(value)) errors[path] = COLOUR_MESSAGE;
}

function number(errors: Errors, path: string, value: number | null | undefined, required = false): void {
  if (value === undefined || value === null) {
    if (required) errors[path] = EDITOR_MESSAGES.notANumber;
    return;
  }
  if (!Number.isFinite(value)) errors[path] = EDITOR_MESSAGES.notANumber;
}

function whole(errors: Errors, path: string, value: number | undefined, min: number, max: number): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < min || value > max) errors[path] = EDITOR_MESSAGES.wholeNumber(min, max);
}

function key(errors: Errors, path: string, value: string): void {
  if (value.trim() === '') errors[path] = EDITOR_MESSAGES.keyRequired;
}

function tableErrors(settings: TableSettings): Errors {
  const errors: Errors = {};
  settings.columns.forEach((column, i) => {
    const p = `columns.${i}`;
    key(errors, `${p}.key`, column.key);
    whole(errors, `${p}.dp`, column.dp, 0, 10);
    colour(errors, `${p}.trendColor`, column.trendColor);
    (column.thresholds ?? []).forEach((t, j) => {
      number(errors, `${p}.thresholds.${j}.value`, t.value, true);
      colour(errors, `${p}.thresholds.${j}.colour`, t.colour, true);
    });
  });
  (settings.filters ?? []).forEach((filter, i) => {
    const p = `filters.${i}`;
    key(errors, `${p}.key`, filter.key);
    if (typeof filter.value === 'number') number(errors, `${p}.value`, filter.value);
    number(errors, `${p}.value2`, filter.value2);
  });
  return errors;
}

function headlineErrors(settings: HeadlineSettings): Errors {
  const errors: Errors = {};
  key(errors, 'key', settings.key);
  // Any whole number: the contract clamps it to 0-5 when it saves (CHT-03).
  if (settings.dp !== undefined && !Number.isInteger(settings.dp)) errors.dp = EDITOR_MESSAGES.wholeNumber(0, 5);
  colour(errors, 'trendColor', settings.trendColor);
  return errors;
}

function chartErrors(settings: ChartSettings): Errors {
  const errors: Errors = {};
  colour(errors, 'backgroundColor', settings.backgroundColor);
  colour(errors, 'dataLabelColor', settings.dataLabelColor);
  for (const name of ['ax1', 'ax2'] as const) {
    const axis = settings.axis?.[name];
    if (!axis) continue;
    const p = `axis.${name}`;
    number(errors, `${p}.min`, axis.min);
    number(errors, `${p}.max`, axis.max);
    number(errors, `${p}.tick`, axis.tick);
    if (axis.dp !== undefined && !Number.isInteger(axis.dp)) errors[`${p}.dp`] = EDITOR_MESSAGES.notANumber;
    colour(errors, `${p}.colour`, axis.colour);
  }
  const xa1 = settings.xAxis?.xa1;
  if (xa1) {
    number(errors, 'xAxis.xa1.tick', xa1.tick);
    number(errors, 'xAxis.xa1.offset', xa1.offset);
    number(errors, 'xAxis.xa1.scale', xa1.scale);
    if (xa1.dp !== undefined && !Number.isInteger(xa1.dp)) errors['xAxis.xa1.dp'] = EDITOR_MESSAGES.notANumber;
    colour(errors, 'xAxis.xa1.colour', xa1.colour);
  }
  const over = addChartSeriesError(settings.series.length - 1);
  if (over !== null) errors.series = over;
  settings.series.forEach((s, i) => {
    const p = `series.${i}`;
    if (s.source === '') errors[`${p}.source`] = EDITOR_MESSAGES.deviceRequired;
    key(errors, `${p}.key`, s.key);
    if (!Number.isFinite(s.lineWidth) || s.lineWidth < 0.5 || s.lineWidth > 10)
      errors[`${p}.lineWidth`] = EDITOR_MESSAGES.between(0.5, 10);
    colour(errors, `${p}.colour`, s.colour);
  });
  return errors;
}

/** The messages of a widget's settings by field path; empty when the form may be saved. */
export function settingsErrors(
  type: 'table' | 'chart' | 'headline',
  settings: TableSettings | ChartSettings | HeadlineSettings,
): FieldErrors {
  if (type === 'table') return tableErrors(settings as TableSettings);
  if (type === 'chart') return chartErrors(settings as ChartSettings);
  return headlineErrors(settings as HeadlineSettings);
}
