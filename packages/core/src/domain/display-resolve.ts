/**
 * How a key's display is resolved (spec 2 sections 4, 5 and 9; DESIGN.md section 5): its stored
 * display setting (any shape) read over the measurement catalogue into a display ready to render,
 * its name for every screen, its section, and the keys in card order. The text of a reading is
 * display-format.ts's job; the Display Settings dialog's rules are display-dialog.ts's. Its first
 * section, reading unknown input, serves all three (core's index does not export it).
 */
import { CUSTOM_SETTING_NAME_PATTERN } from '../contracts/device-config';
import { DigitalSettingsSchema, type DISPLAY_TYPES } from '../contracts/devices';
import { catalogueRank, isHoursKey, measurementCategory, measurementOf, type Measurement } from './measurements';
import { clampDecimalPlaces, isNumericText, parseSortOrder, sanitiseDisplayText } from './validation';

// ---- Reading unknown input (shared with display-format.ts and display-dialog.ts; not in core's index) ----

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

// ---- Resolving a key's display ---------------------------------------------------------------

/** Every display type a setting may hold (CARD-11 plus the dialog's escaped and trendline, I-07). */
export type ResolvedDisplayType = (typeof DISPLAY_TYPES)[number];

/** A gauge's range and limits. */
export interface GaugeLimits {
  min: number;
  max: number;
  warnLow: number;
  warnHigh: number;
  alarmLow: number;
  alarmHigh: number;
}

/** What a digital display shows: lowString below lowThreshold, highString at or above it. */
export interface DigitalDisplay {
  lowThreshold: number;
  lowString: string;
  highString: string;
}

/** A key's display, ready to render. */
export interface ResolvedDisplay {
  key: string;
  name: string;
  units: string;
  dp: number;
  displayType: ResolvedDisplayType;
  sort: number;
  showLastReading: boolean;
  gauge: GaugeLimits | null;
  digital: DigitalDisplay;
  /** The section the user put the card in (its display setting's groupKey), or null: the catalogue's section. */
  groupKey: string | null;
}

/** Digital display defaults (CARD-16): lowThreshold 0.5, lowString 'OFF', highString 'ON'. */
export const DIGITAL_DEFAULTS: Readonly<DigitalDisplay> = Object.freeze(DigitalSettingsSchema.parse({}));

/** The gauge fields, in the dialog's order. */
export const GAUGE_FIELDS = ['min', 'max', 'warnLow', 'warnHigh', 'alarmLow', 'alarmHigh'] as const;
export type GaugeField = (typeof GAUGE_FIELDS)[number];

const STRING_TYPES = ['hide', 'raw', 'escaped', 'hex', 'base64'] as const satisfies readonly ResolvedDisplayType[];
// 'default' and 'trendline' render the same (value, trend arrow and sparkline: DESIGN.md section 5);
// 'raw' is not offered for numbers but a stored one is honoured (CARD-22).
const NUMERIC_TYPES = [
  'hide',
  'default',
  'trendline',
  'gauge',
  'digital',
  'hours',
  'raw',
] as const satisfies readonly ResolvedDisplayType[];
/** Types only a string can have: a key with no value yet and one of these is a string key. */
const STRING_ONLY_TYPES: readonly unknown[] = ['escaped', 'hex', 'base64'];

/** The stored type if it suits the kind of value (string or number), else null. */
export function allowedDisplayType(type: unknown, isString: boolean): ResolvedDisplayType | null {
  return isOneOf<ResolvedDisplayType>(isString ? STRING_TYPES : NUMERIC_TYPES, type) ? type : null;
}

/** Without a setting: strings escaped, hour meters in hours and minutes, other numbers the trendline card. */
function defaultType(key: string, isString: boolean): ResolvedDisplayType {
  if (isString) return 'escaped';
  return isHoursKey(key) ? 'hours' : 'default';
}

/** A section name the Display Settings dialog saves as groupKey: sanitised like other names, at most 20 characters. */
export const SECTION_NAME_MAX_LENGTH = 20;

/**
 * The section a display setting puts its card in: its groupKey with the spaces around and within it
 * tidied; null when it has none (or a blank or non-text one), so the catalogue's section applies.
 */
export function sectionNameOf(setting: unknown): string | null {
  const value = field(setting, 'groupKey');
  if (typeof value !== 'string') return null;
  const name = value.replace(/\s+/g, ' ').trim();
  return name === '' ? null : name;
}

/**
 * A gauge from the catalogue: its range (0-100 when it has none) and limits. A side without a
 * limit gets its limits one unit outside the range, so it never colours.
 */
export function catalogueGauge(m: Measurement): GaugeLimits {
  const min = m.range?.min ?? 0;
  const max = m.range?.max ?? 100;
  const l = m.limits ?? {};
  const alarmLow = l.alarmLow ?? min - 1;
  const alarmHigh = l.alarmHigh ?? max + 1;
  return { min, max, alarmLow, warnLow: l.warnLow ?? alarmLow, alarmHigh, warnHigh: l.warnHigh ?? alarmHigh };
}

function resolveGauge(m: Measurement, stored: unknown, isGauge: boolean): GaugeLimits | null {
  const valid = GAUGE_FIELDS.filter((f) => isFiniteNumber(field(stored, f)));
  if (valid.length === 0 && !isGauge) return null;
  const gauge = catalogueGauge(m);
  for (const f of valid) gauge[f] = field(stored, f) as number;
  return gauge;
}

function resolveDigital(stored: unknown): DigitalDisplay {
  const threshold = field(stored, 'lowThreshold');
  return {
    lowThreshold: isFiniteNumber(threshold) ? threshold : DIGITAL_DEFAULTS.lowThreshold,
    lowString: displayText(field(stored, 'lowString')) || DIGITAL_DEFAULTS.lowString,
    highString: displayText(field(stored, 'highString')) || DIGITAL_DEFAULTS.highString,
  };
}

function isStringKind(sample: unknown, storedType: unknown): boolean {
  if (typeof sample === 'string') return true;
  if (sample === undefined || sample === null) return STRING_ONLY_TYPES.includes(storedType);
  return false;
}

/** A custom setting's key (CUSTOM_SETTING_NAME_PATTERN) whose name starts after the prefix: numIdleMinutes, str_site. */
const CUSTOM_SETTING_WORDS = /^(?:num|str)_*([A-Z][A-Za-z0-9_]*|(?<=_)[a-z][A-Za-z0-9_]*)$/;

/**
 * A custom setting's name read from its key: the num/str prefix dropped and the rest split into
 * capitalised words at underscores and camel-case humps (numIdleMinutes -> 'Idle Minutes',
 * str_site_name -> 'Site Name'); null for a key that does not read so (num1, strength).
 */
function customSettingName(key: string): string | null {
  if (!CUSTOM_SETTING_NAME_PATTERN.test(key)) return null;
  const rest = CUSTOM_SETTING_WORDS.exec(key)?.[1];
  if (!rest) return null;
  return rest
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split('_')
    .join(' ')
    .split(' ')
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/**
 * The display name of a data key or custom setting, the one rule for every card, dialog, table and
 * chart: the `name` of its display setting when the user set one; else the measurement catalogue's
 * name (ambient_hum -> 'Humidity', cp1 -> 'Custom Param 1'); else, for a custom setting, its key
 * in words (numIdleMinutes -> 'Idle Minutes'); else the key itself. Where the name differs from
 * the key, screens show the key beside it, smaller.
 */
export function keyDisplayName(key: string, setting?: unknown): string {
  const own = displayText(field(setting, 'name'));
  if (own) return own;
  const k = String(key);
  if (measurementCategory(k) !== null) return measurementOf(k).name;
  return customSettingName(k) ?? k;
}

/**
 * A key's display: its stored PORTAL_displaySettings entry (any shape; invalid fields are ignored)
 * over the catalogue. The sample value decides string or number; a type that does not suit it
 * falls back to the default (escaped for strings, hours for hrs keys, else the trendline card).
 */
export function resolveDisplay(key: string, setting: unknown, sample: unknown): ResolvedDisplay {
  const m = measurementOf(key);
  const storedType = field(setting, 'displayType');
  const isString = isStringKind(sample, storedType);
  const displayType = allowedDisplayType(storedType, isString) ?? defaultType(m.key, isString);
  const dp = field(setting, 'dp');
  const showLastReading = field(setting, 'showLastReading');
  return {
    key: m.key,
    name: keyDisplayName(m.key, setting),
    units: displayText(field(setting, 'units')) ?? m.units,
    dp: isFiniteNumber(dp) ? clampDecimalPlaces(dp, m.dp) : m.dp,
    displayType,
    sort: parseSortOrder(field(setting, 'sort')),
    showLastReading: typeof showLastReading === 'boolean' ? showLastReading : true,
    gauge: resolveGauge(m, field(setting, 'gaugeSettings'), displayType === 'gauge'),
    digital: resolveDigital(field(setting, 'digitalSettings')),
    groupKey: sectionNameOf(setting),
  };
}

const NAME_COLLATOR = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The keys in card order: by sort (1-100, default 50), then catalogue order, then name; keys
 * whose setting is 'hide' are left out (CARD-10, CARD-13). Duplicates and non-strings are dropped.
 */
export function orderedKeys(keys: readonly string[], settings: Record<string, unknown>): string[] {
  if (!Array.isArray(keys)) return [];
  const seen = new Set<string>();
  const rows: { key: string; sort: number; rank: number; name: string }[] = [];
  for (const key of keys) {
    if (typeof key !== 'string' || seen.has(key)) continue;
    seen.add(key);
    const setting = field(settings, key);
    if (field(setting, 'displayType') === 'hide') continue;
    const name = displayText(field(setting, 'name')) || measurementOf(key).name;
    rows.push({ key, sort: parseSortOrder(field(setting, 'sort')), rank: catalogueRank(key), name });
  }
  rows.sort(
    (a, b) =>
      a.sort - b.sort ||
      (a.rank === b.rank ? 0 : a.rank < b.rank ? -1 : 1) ||
      NAME_COLLATOR.compare(a.name, b.name) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  return rows.map((r) => r.key);
}
