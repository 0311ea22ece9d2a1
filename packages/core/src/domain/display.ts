/**
 * How a reading is shown on the device page (spec 2 sections 3, 4, 5, 8, 9 and DESIGN.md section 5):
 * a key's stored display setting resolved against the measurement catalogue, the text of a
 * reading for every display type, gauge colours, trends, sparklines, and the rules of the
 * Display Settings dialog.
 */
import { CUSTOM_SETTING_NAME_PATTERN } from '../contracts/device-config';
import { DISPLAY_TYPES, DigitalSettingsSchema, DisplaySettingSchema, type DisplaySetting } from '../contracts/devices';
import { LTE_RSSI_UNKNOWN, SPARKLINE_POINTS } from './constants';
import {
  LTE_RSSI_KEY,
  catalogueRank,
  isCustomParameterKey,
  isHoursKey,
  measurementCategory,
  measurementOf,
  type Measurement,
} from './measurements';
import { CARD_MESSAGES, GAUGE_RANGE_ERROR, MISSING_VALUE, trendTooltip } from './screen-messages';
import {
  DEFAULT_SORT_ORDER,
  DISPLAY_TEXT_MAX_LENGTH,
  SORT_ORDER_MAX,
  SORT_ORDER_MIN,
  clampDecimalPlaces,
  clampInteger,
  isNumericText,
  parseSortOrder,
  sanitise,
  sanitiseDisplayText,
} from './validation';

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

/** Shown for an LTE RSSI of -114 (CARD-30). */
export const LTE_RSSI_UNKNOWN_TEXT = 'unknown';

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

const STRING_CHOICES: readonly { value: ResolvedDisplayType; label: string }[] = [
  { value: 'hide', label: 'Hide' },
  { value: 'raw', label: 'Raw' },
  { value: 'escaped', label: 'Escaped' },
  { value: 'hex', label: 'Hex' },
  { value: 'base64', label: 'Base64' },
];
const NUMERIC_CHOICES: readonly { value: ResolvedDisplayType; label: string }[] = [
  { value: 'hide', label: 'Hidden' },
  { value: 'trendline', label: 'Trendline' },
  { value: 'gauge', label: 'Gauge' },
  { value: 'digital', label: 'Digital' },
  { value: 'hours', label: 'Hours & Minutes' },
];

// ---- Reading unknown input -------------------------------------------------------------

function field(value: unknown, name: string): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  try {
    return Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;
  } catch {
    return undefined;
  }
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A reading as a number: finite numbers, booleans (1 and 0) and numeric text; otherwise null. */
function numericValue(value: unknown): number | null {
  if (isFiniteNumber(value)) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && isNumericText(value)) return Number(value.trim());
  return null;
}

function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return (list as readonly unknown[]).includes(value);
}

/** The stored type if it suits the kind of value, else null. */
function allowedType(type: unknown, isString: boolean): ResolvedDisplayType | null {
  return isOneOf<ResolvedDisplayType>(isString ? STRING_TYPES : NUMERIC_TYPES, type) ? type : null;
}

/** Without a setting: strings escaped, hour meters in hours and minutes, other numbers the trendline card. */
function defaultType(key: string, isString: boolean): ResolvedDisplayType {
  if (isString) return 'escaped';
  return isHoursKey(key) ? 'hours' : 'default';
}

function displayText(value: unknown): string | null {
  return typeof value === 'string' ? sanitiseDisplayText(value.trim()).trim() : null;
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
function catalogueGauge(m: Measurement): GaugeLimits {
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
  const displayType = allowedType(storedType, isString) ?? defaultType(m.key, isString);
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

// ---- Formatting ------------------------------------------------------------------------

/** A reading as text: units empty where they do not apply; error true for a display failure text. */
export interface FormattedReading {
  text: string;
  units: string;
  error?: boolean;
}

/** A number with dp decimal places (0-8); 'NaN' for anything non-numeric (spec 2 section 8). Never '-0.00'. */
export function formatNumber(value: unknown, dp: number): string {
  const n = numericValue(value);
  if (n === null) return MISSING_VALUE.notANumber;
  const text = n.toFixed(clampDecimalPlaces(dp, 0));
  return /^-0(\.0+)?$/.test(text) ? text.slice(1) : text;
}

function rawText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}

function numericReading(value: unknown, d: ResolvedDisplay): FormattedReading {
  if (typeof value === 'string' && !isNumericText(value)) return textReading(stringDisplay(value, 'escaped'));
  const text = Array.isArray(value) ? value.map((v) => formatNumber(v, d.dp)).join(', ') : formatNumber(value, d.dp);
  return { text, units: text === MISSING_VALUE.notANumber ? '' : d.units };
}

function textReading(r: { text: string; error: boolean }): FormattedReading {
  return r.error ? { text: r.text, units: '', error: true } : { text: r.text, units: '' };
}

/**
 * The text of a reading under its display type: default and trendline with dp and units; raw
 * as received; digital, hours, escaped, hex and base64 (failures give the spec's texts with
 * error true); a missing value '???'; an LTE RSSI of -114 'unknown'.
 */
export function formatReading(value: unknown, d: ResolvedDisplay): FormattedReading {
  if (d.displayType === 'hide') return { text: '', units: '' };
  if (value === undefined || value === null) return { text: MISSING_VALUE.text, units: '' };
  if (d.key === LTE_RSSI_KEY && d.displayType !== 'raw' && numericValue(value) === LTE_RSSI_UNKNOWN) {
    return { text: LTE_RSSI_UNKNOWN_TEXT, units: '' };
  }
  switch (d.displayType) {
    case 'raw': {
      const text = rawText(value);
      if (text === null) return { text: CARD_MESSAGES.processFailed, units: '', error: true };
      return { text, units: typeof value === 'string' ? '' : d.units };
    }
    case 'escaped':
    case 'hex':
    case 'base64':
      // A value that is not text (the key's kind changed) is shown as a number.
      return typeof value === 'string' ? textReading(stringDisplay(value, d.displayType)) : numericReading(value, d);
    case 'digital': {
      const n = numericValue(value);
      return { text: n === null ? MISSING_VALUE.notANumber : digitalText(n, d.digital), units: '' };
    }
    case 'hours': {
      const n = numericValue(value);
      return { text: n === null ? MISSING_VALUE.notANumber : formatHoursMinutes(n), units: '' };
    }
    case 'default':
    case 'trendline':
    case 'gauge':
      return numericReading(value, d);
  }
}

/**
 * True for the trendline card, which 'default' and 'trendline' both are: the value with its
 * trend arrow and sparkline (DESIGN.md section 5).
 */
export function isTrendlineDisplay(type: ResolvedDisplayType): boolean {
  return type === 'default' || type === 'trendline';
}

export type GaugeState = 'alarm' | 'warning' | 'normal';

/**
 * The gauge colour (CARD-14): alarm at or beyond an alarm limit, warning at or beyond a warn
 * limit, else normal. A non-number is normal (there is nothing to judge; its text says 'NaN').
 */
export function gaugeState(value: number, g: GaugeLimits): GaugeState {
  if (typeof value !== 'number' || Number.isNaN(value)) return 'normal';
  if (value <= g.alarmLow || value >= g.alarmHigh) return 'alarm';
  if (value <= g.warnLow || value >= g.warnHigh) return 'warning';
  return 'normal';
}

/**
 * 'Gauge Error: Invalid min/max range' when min equals max (CARD-15); also, since no gauge can
 * be drawn then, when min is above max or either is not a finite number. Otherwise null.
 */
export function gaugeError(g: GaugeLimits): string | null {
  const { min, max } = g;
  return isFiniteNumber(min) && isFiniteNumber(max) && min < max ? null : GAUGE_RANGE_ERROR;
}

/** The digital text: highString at or above lowThreshold, lowString below it (DESIGN.md section 5); 'NaN' for NaN. */
export function digitalText(value: number, digital: DigitalDisplay): string {
  if (typeof value !== 'number' || Number.isNaN(value)) return MISSING_VALUE.notANumber;
  return value >= digital.lowThreshold ? digital.highString : digital.lowString;
}

/** Digits grouped by thousands with commas (DESIGN.md section 5 writes '1,234 h'); an exponent form stays as it is. */
function groupThousands(digits: string): string {
  return digits.includes('e') ? digits : digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Hours as hours and minutes, the format of DESIGN.md section 5: 1.5 -> '1 h 30 min',
 * 1234.0833 -> '1,234 h 05 min', -0.25 -> '-0 h 15 min'. Minutes are rounded; 'NaN' for a non-finite value.
 */
export function formatHoursMinutes(hours: number): string {
  if (typeof hours !== 'number' || !Number.isFinite(hours)) return MISSING_VALUE.notANumber;
  const abs = Math.abs(hours);
  const totalMinutes = Math.round(abs * 60);
  // Past 2^53 minutes a double holds no minutes: show the whole hours.
  const exact = Number.isSafeInteger(totalMinutes);
  const h = exact ? Math.floor(totalMinutes / 60) : Math.floor(abs);
  const m = exact ? totalMinutes % 60 : 0;
  const sign = hours < 0 && (h > 0 || m > 0) ? '-' : '';
  return `${sign}${groupThousands(String(h))} h ${String(m).padStart(2, '0')} min`;
}

// ---- Text display modes ----------------------------------------------------------------

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');

// Invisible or direction-changing characters (bidi controls could reorder what is shown).
const INVISIBLE = new Set([
  0x061c, 0x200b, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068,
  0x2069, 0xfeff, 0xfffe, 0xffff,
]);

/** One code point as shown by 'escaped': control characters \xNN, other invisible ones \uNNNN, a backslash doubled. */
function escapeCodePoint(cp: number): string {
  if (cp === 0x5c) return '\\\\';
  const control = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
  if (control) return `\\x${hex(cp, 2)}`;
  if ((cp >= 0xd800 && cp <= 0xdfff) || INVISIBLE.has(cp)) return `\\u${hex(cp, 4)}`;
  return String.fromCodePoint(cp);
}

function escapeText(text: string): string {
  const out: string[] = [];
  // for..of yields whole code points, and an unpaired surrogate on its own.
  for (const ch of text) out.push(escapeCodePoint(ch.codePointAt(0) ?? 0));
  return out.join('');
}

/** UTF-8 bytes of a text, or null when it holds an unpaired surrogate (which has no encoding). */
function utf8Bytes(text: string): number[] | null {
  const bytes: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0xd800 && cp <= 0xdfff) return null;
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return bytes;
}

/** Bytes read as UTF-8 and escaped as 'escaped' does; a byte that is not valid UTF-8 becomes \xNN. */
function utf8Escaped(bytes: readonly number[]): string {
  const out: string[] = [];
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    let len = 0;
    let cp = 0;
    if (b < 0x80) [len, cp] = [1, b];
    else if (b >= 0xc2 && b <= 0xdf) [len, cp] = [2, b & 0x1f];
    else if (b >= 0xe0 && b <= 0xef) [len, cp] = [3, b & 0x0f];
    else if (b >= 0xf0 && b <= 0xf4) [len, cp] = [4, b & 0x07];
    let ok = len > 0 && i + len <= bytes.length;
    for (let k = 1; ok && k < len; k += 1) {
      const c = bytes[i + k] ?? 0;
      if ((c & 0xc0) === 0x80) cp = (cp << 6) | (c & 0x3f);
      else ok = false;
    }
    if (ok && len === 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ok = false;
    if (ok && len === 4 && (cp < 0x10000 || cp > 0x10ffff)) ok = false;
    if (ok) {
      out.push(escapeCodePoint(cp));
      i += len;
    } else {
      out.push(`\\x${hex(b, 2)}`);
      i += 1;
    }
  }
  return out.join('');
}

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_INDEX: ReadonlyMap<string, number> = new Map([
  ...[...BASE64_ALPHABET].map((c, i) => [c, i] as const),
  ['-', 62] as const, // the URL-safe alphabet is accepted too
  ['_', 63] as const,
]);

/** Bytes of base64 text (standard or URL-safe, padding optional, white space ignored), or null if not base64. */
function base64Bytes(text: string): number[] | null {
  const s = text.replace(/\s+/g, '');
  const body = s.replace(/={1,2}$/, '');
  if (body !== s && s.length % 4 !== 0) return null;
  if (body.length % 4 === 1) return null;
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const ch of body) {
    const v = BASE64_INDEX.get(ch);
    if (v === undefined) return null;
    buffer = (buffer << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
      buffer &= (1 << bits) - 1;
    }
  }
  return bytes;
}

/**
 * A text value under a string display mode: raw as received; escaped with non-printable
 * characters as \xNN (CARD-21); hex as the UTF-8 bytes ('hi' -> '68 69', CARD-19); base64
 * decoded, shown escaped (CARD-20). Failures give the spec's texts with error true.
 */
export function stringDisplay(
  value: string,
  mode: 'raw' | 'escaped' | 'hex' | 'base64',
): { text: string; error: boolean } {
  const fail = (text: string) => ({ text, error: true });
  switch (mode) {
    case 'raw':
      return typeof value === 'string' ? { text: value, error: false } : fail(CARD_MESSAGES.processFailed);
    case 'escaped':
      return typeof value === 'string' ? { text: escapeText(value), error: false } : fail(CARD_MESSAGES.processFailed);
    case 'hex': {
      const bytes = typeof value === 'string' ? utf8Bytes(value) : null;
      return bytes ? { text: bytes.map((b) => hex(b, 2)).join(' '), error: false } : fail(CARD_MESSAGES.hexFailed);
    }
    case 'base64': {
      const bytes = typeof value === 'string' ? base64Bytes(value) : null;
      return bytes ? { text: utf8Escaped(bytes), error: false } : fail(CARD_MESSAGES.base64Failed);
    }
    default:
      return fail(CARD_MESSAGES.processFailed);
  }
}

// ---- Trend and sparkline -----------------------------------------------------------------

/**
 * The trend arrow of a value against the previous one: only when the values rounded to dp
 * differ, with 'Increased from {previous}' or 'Decreased from {previous}'; otherwise null.
 */
export function trendOf(
  current: unknown,
  previous: unknown,
  dp: number,
): { direction: 'up' | 'down'; tooltip: string } | null {
  const c = numericValue(current);
  const p = numericValue(previous);
  if (c === null || p === null) return null;
  const places = clampDecimalPlaces(dp, 0);
  const rc = Number(c.toFixed(places));
  const rp = Number(p.toFixed(places));
  if (rc === rp) return null;
  const direction = rc > rp ? 'up' : 'down';
  return { direction, tooltip: trendTooltip(direction, formatNumber(p, places)) };
}

/** The sparkline: the newest 20 numeric points (SPARKLINE_POINTS), oldest first; other points are skipped. */
export function sparklinePoints(points: readonly { v: unknown; ts: number }[]): { v: number; ts: number }[] {
  if (!Array.isArray(points)) return [];
  const out: { v: number; ts: number }[] = [];
  for (const p of points as readonly unknown[]) {
    const v = numericValue(field(p, 'v'));
    const ts = field(p, 'ts');
    if (v !== null && isFiniteNumber(ts)) out.push({ v, ts });
  }
  out.sort((a, b) => a.ts - b.ts);
  return out.slice(-SPARKLINE_POINTS);
}

// ---- Display Settings dialog (spec 2 section 5, DLG-02 to DLG-14) ------------------------------

/**
 * The display types the dialog offers: string keys hide, raw, escaped, hex, base64 (DLG-10);
 * numeric keys hidden, trendline, gauge, digital, hours & minutes (DLG-11). The same for every key
 * (the selector is hidden for hrs keys: displayFieldRules).
 */
export function displayTypeChoices(_key: string, isString: boolean): { value: ResolvedDisplayType; label: string }[] {
  return (isString ? STRING_CHOICES : NUMERIC_CHOICES).map((c) => ({ ...c }));
}

/**
 * Which dialog fields show or can be edited (DLG-06 to DLG-09): the name for cp and hrs keys,
 * units for non-string cp keys, decimal places except for hrs and string keys, the type except for hrs keys.
 */
export function displayFieldRules(
  key: string,
  isString: boolean,
): { nameEditable: boolean; unitsEditable: boolean; dpVisible: boolean; typeVisible: boolean } {
  const hours = isHoursKey(key);
  const custom = isCustomParameterKey(key);
  return {
    nameEditable: custom || hours,
    unitsEditable: custom && !isString,
    dpVisible: !hours && !isString,
    typeVisible: !hours,
  };
}

/** The dialog's fields as typed (text inputs hold strings). */
export interface DisplayDraft {
  displayType: ResolvedDisplayType;
  name: string;
  units: string;
  dp: string;
  sort: string;
  showLastReading: boolean;
  gauge: Record<GaugeField, string>;
  digital: { lowThreshold: string; lowString: string; highString: string };
  /** The section (groupKey); blank: the catalogue's section. */
  groupKey: string;
}

const cut = (text: string) => Array.from(text).slice(0, DISPLAY_TEXT_MAX_LENGTH).join('');

/**
 * The dialog's starting fields for a resolved display. 'default' shows as its dialog name
 * 'trendline'; the gauge fields start from the key's gauge, else the catalogue's (REF-11).
 */
export function draftFromDisplay(d: ResolvedDisplay): DisplayDraft {
  const g = d.gauge ?? catalogueGauge(measurementOf(d.key));
  return {
    displayType: d.displayType === 'default' ? 'trendline' : d.displayType,
    name: cut(d.name),
    units: cut(d.units),
    dp: String(d.dp),
    sort: String(d.sort),
    showLastReading: d.showLastReading,
    gauge: {
      min: String(g.min),
      max: String(g.max),
      warnLow: String(g.warnLow),
      warnHigh: String(g.warnHigh),
      alarmLow: String(g.alarmLow),
      alarmHigh: String(g.alarmHigh),
    },
    digital: {
      lowThreshold: String(d.digital.lowThreshold),
      lowString: d.digital.lowString,
      highString: d.digital.highString,
    },
    groupKey: d.groupKey ?? '',
  };
}

/** The dialog's error texts. */
export const DISPLAY_DRAFT_MESSAGES = {
  tooLong: `At most ${DISPLAY_TEXT_MAX_LENGTH} characters.`,
  sectionTooLong: `At most ${SECTION_NAME_MAX_LENGTH} characters.`,
  required: 'Required.',
  notANumber: 'Enter a number.',
  displayType: 'Choose a display type.',
} as const;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const blank = (v: unknown): boolean => str(v).trim() === '';

/**
 * The dialog's invalid fields, by field name (unique across the draft: 'name', 'units',
 * 'displayType', 'min' ... 'alarmHigh', 'lowThreshold', 'lowString', 'highString'): texts over 15 characters
 * (DLG-02); for a gauge, each of the six fields empty or not a number (DLG-04); for a digital
 * display, empty fields (DLG-05) and a non-numeric threshold; a section name ('groupKey') over
 * 20 characters. Decimal places and the order are never errors: they are clamped or fall back to
 * the default when saved.
 */
export function draftErrors(draft: DisplayDraft): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  const type = field(draft, 'displayType');
  if (!isOneOf(DISPLAY_TYPES, type)) errors.displayType = DISPLAY_DRAFT_MESSAGES.displayType;
  const tooLong = (path: string, value: unknown) => {
    if (Array.from(str(value)).length > DISPLAY_TEXT_MAX_LENGTH) errors[path] = DISPLAY_DRAFT_MESSAGES.tooLong;
  };
  const number = (path: string, value: unknown) => {
    if (blank(value)) errors[path] = DISPLAY_DRAFT_MESSAGES.required;
    else if (!isNumericText(value)) errors[path] = DISPLAY_DRAFT_MESSAGES.notANumber;
  };
  tooLong('name', field(draft, 'name'));
  tooLong('units', field(draft, 'units'));
  if (Array.from(str(field(draft, 'groupKey')).trim()).length > SECTION_NAME_MAX_LENGTH)
    errors.groupKey = DISPLAY_DRAFT_MESSAGES.sectionTooLong;
  if (type === 'gauge') {
    const gauge = field(draft, 'gauge');
    for (const f of GAUGE_FIELDS) number(f, field(gauge, f));
  }
  if (type === 'digital') {
    const digital = field(draft, 'digital');
    number('lowThreshold', field(digital, 'lowThreshold'));
    for (const f of ['lowString', 'highString']) {
      const value = field(digital, f);
      if (blank(value)) errors[f] = DISPLAY_DRAFT_MESSAGES.required;
      else tooLong(f, value);
    }
  }
  return errors;
}

/** Apply is enabled only when the draft has no errors (for a gauge: all six fields filled, DLG-04). */
export function canApplyDraft(draft: DisplayDraft): boolean {
  return Object.keys(draftErrors(draft)).length === 0;
}

/** Numeric text as a number, else the fallback. */
const numberOr = (value: unknown, fallback: number): number =>
  isNumericText(value) ? Number(str(value).trim()) : fallback;

/**
 * The PORTAL_displaySettings entry the dialog saves for a key (DLG-13); it passes
 * DisplaySettingSchema. Texts are sanitised and cut to 15 characters (DLG-02, DLG-14), a name
 * or units equal to the catalogue's are left out (so they follow the catalogue), dp is clamped
 * 0-8 (DLG-03) and saved only where the field shows, sort is clamped 1-100 and non-numeric gives
 * the default (DLG-12); gauge and digital settings are saved with their type, a field that is
 * not a number taking the catalogue's or the default value; a section name is saved as groupKey
 * (sanitised, at most 20 characters), a blank one left out (the catalogue's section applies). The
 * dialog's fields only: keep the key's other fields with mergeDisplaySetting.
 */
export function settingFromDraft(key: string, isString: boolean, draft: DisplayDraft): DisplaySetting {
  const m = measurementOf(key);
  const rules = displayFieldRules(key, isString);
  const out: DisplaySetting = {};
  const type = allowedType(field(draft, 'displayType'), isString);
  if (type) out.displayType = type;
  const sort = field(draft, 'sort');
  out.sort = isNumericText(sort)
    ? clampInteger(sort, SORT_ORDER_MIN, SORT_ORDER_MAX, DEFAULT_SORT_ORDER)
    : DEFAULT_SORT_ORDER;
  const name = displayText(field(draft, 'name'));
  if (name && name !== m.name) out.name = name;
  const units = displayText(field(draft, 'units'));
  if (units !== null && units !== m.units) out.units = units;
  if (rules.dpVisible) {
    const dp = field(draft, 'dp');
    out.dp = isNumericText(dp) ? clampDecimalPlaces(dp, m.dp) : m.dp;
  }
  const showLastReading = field(draft, 'showLastReading');
  out.showLastReading = typeof showLastReading === 'boolean' ? showLastReading : true;
  const section = sectionNameOf({
    groupKey: sanitise(str(field(draft, 'groupKey')).trim(), { maxLength: SECTION_NAME_MAX_LENGTH }),
  });
  if (section !== null) out.groupKey = section;
  if (type === 'gauge') {
    const gauge = field(draft, 'gauge');
    const settings = catalogueGauge(m);
    for (const f of GAUGE_FIELDS) settings[f] = numberOr(field(gauge, f), settings[f]);
    out.gaugeSettings = settings;
  }
  if (type === 'digital') {
    const digital = field(draft, 'digital');
    out.digitalSettings = {
      lowThreshold: numberOr(field(digital, 'lowThreshold'), DIGITAL_DEFAULTS.lowThreshold),
      lowString: displayText(field(digital, 'lowString')) || DIGITAL_DEFAULTS.lowString,
      highString: displayText(field(digital, 'highString')) || DIGITAL_DEFAULTS.highString,
    };
  }
  return out;
}

/** The setting fields the dialog does not edit (it edits groupKey as the card's section). */
const NON_DIALOG_FIELDS = ['operatorEditable', 'confirmEnabled', 'confirmText', 'colour'] as const;

/**
 * The entry to save: the dialog's setting plus the stored entry's other fields (operatorEditable,
 * confirmEnabled, confirmText, colour) where they are valid. groupKey is the dialog's: a section
 * cleared there is removed.
 */
export function mergeDisplaySetting(stored: unknown, fromDialog: DisplaySetting): DisplaySetting {
  const out: DisplaySetting = { ...fromDialog };
  for (const name of NON_DIALOG_FIELDS) {
    const value = field(stored, name);
    if (value === undefined) continue;
    const parsed = DisplaySettingSchema.shape[name].safeParse(value);
    if (parsed.success && parsed.data !== undefined) Object.assign(out, { [name]: parsed.data });
  }
  return out;
}
