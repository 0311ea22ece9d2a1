/**
 * The text of a reading on the device page (spec 2 sections 3, 5 and 8; DESIGN.md section 5):
 * numbers with their decimal places, every display type's text (raw, digital, hours, and the
 * escaped, hex and base64 string modes), gauge colours and errors, trend arrows and sparklines.
 */
import { LTE_RSSI_UNKNOWN, SPARKLINE_POINTS } from './constants';
import {
  field,
  isFiniteNumber,
  numericValue,
  type DigitalDisplay,
  type GaugeLimits,
  type ResolvedDisplay,
  type ResolvedDisplayType,
} from './display-resolve';
import { LTE_RSSI_KEY } from './measurements';
import { CARD_MESSAGES, GAUGE_RANGE_ERROR, MISSING_VALUE, trendTooltip } from './screen-messages';
import { base64Bytes, hasLoneSurrogate, hexDigits, utf8Bytes, utf8CodePointAt } from './text-codecs';
import { clampDecimalPlaces, isNumericText } from './validation';

/** Shown for an LTE RSSI of -114 (CARD-30). */
export const LTE_RSSI_UNKNOWN_TEXT = 'unknown';

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

// Invisible or direction-changing characters (bidi controls could reorder what is shown).
const INVISIBLE = new Set([
  0x061c, 0x200b, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068,
  0x2069, 0xfeff, 0xfffe, 0xffff,
]);

/** One code point as shown by 'escaped': control characters \xNN, other invisible ones \uNNNN, a backslash doubled. */
function escapeCodePoint(cp: number): string {
  if (cp === 0x5c) return '\\\\';
  const control = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
  if (control) return `\\x${hexDigits(cp, 2)}`;
  if ((cp >= 0xd800 && cp <= 0xdfff) || INVISIBLE.has(cp)) return `\\u${hexDigits(cp, 4)}`;
  return String.fromCodePoint(cp);
}

/** A text as the 'escaped' display mode shows it: control characters \xNN, invisible ones \uNNNN, a backslash doubled. */
function escapeDisplayText(text: string): string {
  const out: string[] = [];
  // for..of yields whole code points, and an unpaired surrogate on its own.
  for (const ch of text) out.push(escapeCodePoint(ch.codePointAt(0) ?? 0));
  return out.join('');
}

/** Bytes read as UTF-8 and escaped as escapeDisplayText does; a byte that is not valid UTF-8 becomes \xNN. */
function escapeDisplayBytes(bytes: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < bytes.length;) {
    const next = utf8CodePointAt(bytes, i);
    if (next) {
      out.push(escapeCodePoint(next.cp));
      i += next.length;
    } else {
      out.push(`\\x${hexDigits(bytes[i] ?? 0, 2)}`);
      i += 1;
    }
  }
  return out.join('');
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
      return typeof value === 'string'
        ? { text: escapeDisplayText(value), error: false }
        : fail(CARD_MESSAGES.processFailed);
    case 'hex': {
      // A lone surrogate has no UTF-8 bytes to show.
      const bytes = typeof value === 'string' && !hasLoneSurrogate(value) ? utf8Bytes(value) : null;
      return bytes
        ? { text: bytes.map((b) => hexDigits(b, 2)).join(' '), error: false }
        : fail(CARD_MESSAGES.hexFailed);
    }
    case 'base64': {
      const bytes = typeof value === 'string' ? base64Bytes(value) : null;
      return bytes ? { text: escapeDisplayBytes(bytes), error: false } : fail(CARD_MESSAGES.base64Failed);
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
