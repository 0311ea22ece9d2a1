/**
 * The editor's field messages: the widget type's core settings schema (the one the server checks
 * each save against) parsed in the browser, each issue's message keyed by its path ('columns.0.dp'),
 * so a field shows the contract's own words beside it. Zod comes with this lazy chunk only.
 */
import { WIDGET_SETTINGS_SCHEMAS, type WidgetType } from '@portal/core';

export type FieldErrors = Readonly<Record<string, string>>;

/** The messages of `settings` against `type`'s settings schema, by path; empty when it is valid. */
export function settingsErrors(type: WidgetType, settings: unknown): FieldErrors {
  const parsed = WIDGET_SETTINGS_SCHEMAS[type].safeParse(settings);
  if (parsed.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join('.');
    errors[path] ??= issue.message;
  }
  return errors;
}

/** The first message at `path` or under it ('series' also finds 'series.3.key'), for a list-wide field. */
export function errorUnder(errors: FieldErrors, path: string): string | undefined {
  if (errors[path]) return errors[path];
  const prefix = `${path}.`;
  const hit = Object.keys(errors).find((k) => k.startsWith(prefix));
  return hit === undefined ? undefined : errors[hit];
}
