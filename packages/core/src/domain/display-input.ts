/**
 * Reading unknown input for the display rules (display.ts, display-format.ts, display-dialog.ts):
 * a setting's own field, finite numbers, a reading as a number, and display texts, none of which
 * trust the shape they are given (a stored setting may hold anything).
 */
import { sanitiseDisplayText, isNumericText } from './validation';

/** An object's own field, or undefined (for a non-object, an array or a throwing getter). */
export function field(value: unknown, name: string): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  try {
    return Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;
  } catch {
    return undefined;
  }
}

/** True for a finite number. */
export const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A reading as a number: finite numbers, booleans (1 and 0) and numeric text; otherwise null. */
export function numericValue(value: unknown): number | null {
  if (isFiniteNumber(value)) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && isNumericText(value)) return Number(value.trim());
  return null;
}

/** True when the value is one of the list's. */
export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return (list as readonly unknown[]).includes(value);
}

/** A text field trimmed and sanitised for display; null when it is not text. */
export function displayText(value: unknown): string | null {
  return typeof value === 'string' ? sanitiseDisplayText(value.trim()).trim() : null;
}
