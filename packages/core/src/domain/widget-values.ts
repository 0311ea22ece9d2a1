/**
 * What a widget card shows (spec 2 sections 3, 4 and 8; ledger WGT-05, WGT-09, WGT-14, WGT-15;
 * DESIGN.md section 5): an indicator's value, state and colour; the text templates `{data.KEY}`
 * and `{cfg.PATH}`; the stale, alert and warning colours; '???' and 'NaN'. Pure: the caller
 * passes the values, the config and whether the device is online.
 */
import type { IndicatorSettings, WidgetCard, WidgetElement } from '../contracts/device-authoring';
import { DATA_KEY_PATTERN } from '../contracts/devices';
import { alertLimits, limitLevel } from './alerts';
import { formatReading, gaugeState } from './display-format';
import { resolveDisplay, type ResolvedDisplayType } from './display-resolve';
import { MISSING_VALUE } from './screen-messages';
import { isNumericText } from './validation';
import { WIDGET_DEFAULT_COLOURS } from './widget-card';

/** Where a value stands against an indicator's thresholds or a key's limits. */
export type WidgetState = 'normal' | 'warning' | 'alarm';

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

// ---- Values and their states (WGT-09, WGT-14, WGT-15) -----------------------------------------

/** A key's newest value and its time (epoch seconds), as DATA_latest gives it. */
export interface WidgetValue {
  v: unknown;
  ts: number;
  /** The key had no value in the newest record (when the caller knows; else it is worked out from the times). */
  stale?: boolean;
}

/** What a card is drawn from. */
export interface WidgetContext {
  /** Each key's newest value. */
  values: Readonly<Record<string, WidgetValue>>;
  /** The device's PORTAL_displaySettings (each key's name, units, decimals and gauge limits). */
  displaySettings: Readonly<Record<string, unknown>>;
  /** The device config's settings (GET config: config.settings), for `{cfg.PATH}`; undefined until loaded. */
  config?: unknown;
  /** The device is not online (core contactStatus): every value shown is a last known one. */
  stale: boolean;
}

/** A reading as a number: finite numbers, booleans (1, 0) and numeric text; else null. */
function numberOf(value: unknown): number | null {
  if (finite(value)) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && isNumericText(value)) return Number(value.trim());
  return null;
}

function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The newest time among the values (epoch seconds), or null. */
function newestTs(values: Readonly<Record<string, WidgetValue>>): number | null {
  let newest: number | null = null;
  for (const key of Object.keys(values)) {
    const ts = values[key]?.ts;
    if (finite(ts) && (newest === null || ts > newest)) newest = ts;
  }
  return newest;
}

interface KeyValue {
  value: WidgetValue | undefined;
  /** A last known value: the device is not online, or the key was not in the newest record. */
  stale: boolean;
  /** Hidden because it is stale and the card does not show last readings. */
  hidden: boolean;
}

function keyValue(key: string | undefined, ctx: WidgetContext, card: Pick<WidgetCard, 'showLastReading'>): KeyValue {
  const value = key ? own(ctx.values, key) : undefined;
  if (!value || value.v === undefined || value.v === null) return { value: undefined, stale: false, hidden: false };
  const newest = newestTs(ctx.values);
  const stale = ctx.stale || (value.stale ?? (newest !== null && finite(value.ts) && value.ts < newest));
  return { value, stale, hidden: stale && !card.showLastReading };
}

/**
 * An indicator's state by its thresholds, the gauge's rule (spec 2 section 4): alarm at or beyond
 * lowAlarm / highAlarm, warning at or beyond lowWarning / highWarning, else normal. With the
 * defaults 30 is normal, 36 warning and 46 alarm.
 */
export function indicatorState(
  value: number,
  s: Pick<IndicatorSettings, 'lowAlarm' | 'highAlarm' | 'lowWarning' | 'highWarning' | 'min' | 'max'>,
): WidgetState {
  return gaugeState(value, {
    min: s.min,
    max: s.max,
    alarmLow: s.lowAlarm,
    alarmHigh: s.highAlarm,
    warnLow: s.lowWarning,
    warnHigh: s.highWarning,
  });
}

/** How full a level indicator is: (value - min) / (max - min) kept within 0-1; 0 for a range that is not one. */
export function levelFraction(value: number, min: number, max: number): number {
  if (!finite(value) || !finite(min) || !finite(max) || max <= min) return 0;
  return Math.min(1, Math.max(0, (value - min) / (max - min)));
}

/** What an indicator shows. */
export interface IndicatorView {
  /** The key's display name ('' without a data element). */
  name: string;
  /** The value with its decimals; '???' for a missing value, 'NaN' for a non-numeric one. */
  text: string;
  /** Units (only with showUnits and a numeric value). */
  units: string;
  /** Null when there is no number to judge (missing, non-numeric, stale and hidden). */
  state: WidgetState | null;
  /** The fill colour: the state's colour, or the card's staleColor for a last known or missing value. */
  colour: string;
  /** How full a level indicator is (0-1). */
  fraction: number;
  /** The value is a last known one. */
  stale: boolean;
}

/**
 * What an indicator shows and in which colour: the value of its data element with the key's
 * decimals (display settings, else the catalogue) and, with showUnits, its units; the normal,
 * warning or alarm colour by its thresholds (a level's normal colour is its barColor when set);
 * the card's staleColor for a last known value (and for a missing or non-numeric one, which has
 * no state); '???' for a missing value and 'NaN' for a non-numeric one (WGT-15).
 */
export function indicatorView(
  element: Pick<WidgetElement, 'active' | 'settings'>,
  card: Pick<WidgetCard, 'showLastReading' | 'showUnits' | 'staleColor'>,
  ctx: WidgetContext,
): IndicatorView {
  const s = element.settings;
  const key = s.dataElement;
  const name = key ? displayName(key, ctx) : '';
  const { value, stale, hidden } = keyValue(key, ctx, card);
  const none = { name, units: '', state: null, colour: card.staleColor, fraction: 0, stale: false };
  if (!value || hidden) return { ...none, text: MISSING_VALUE.text };
  const n = numberOf(value.v);
  if (n === null || Array.isArray(value.v)) return { ...none, text: MISSING_VALUE.notANumber, stale };
  const display = resolveDisplay(key!, own(ctx.displaySettings, key!), n);
  const formatted = formatReading(n, { ...display, displayType: 'default' });
  const state = indicatorState(n, s);
  const normal = element.active === 'levelIndicator' ? (s.barColor ?? s.normalColor) : s.normalColor;
  const colours: Record<WidgetState, string> = {
    normal: normal ?? WIDGET_DEFAULT_COLOURS.normal,
    warning: s.warningColor ?? WIDGET_DEFAULT_COLOURS.warning,
    alarm: s.alarmColor ?? WIDGET_DEFAULT_COLOURS.alarm,
  };
  return {
    name,
    text: formatted.text,
    units: card.showUnits ? formatted.units : '',
    state,
    colour: stale ? card.staleColor : colours[state],
    fraction: levelFraction(n, s.min, s.max),
    stale,
  };
}

function displayName(key: string, ctx: WidgetContext): string {
  return resolveDisplay(key, own(ctx.displaySettings, key), undefined).name;
}

// ---- Templates (WGT-05, WGT-14; DESIGN.md section 5) ------------------------------------------

/** `{data.KEY}` or `{cfg.PATH}`: a data key, or a dotted path into the device config's settings. */
const TEMPLATE_REF = /\{(data|cfg)\.([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)\}/g;

/** One piece of a rendered template. */
export interface TemplatePart {
  kind: 'text' | 'data' | 'cfg';
  text: string;
  /** The data key or config path it came from. */
  ref?: string;
  /** A colour of its own (stale, alert or warning), else the text's colour. */
  colour?: string;
  /** A data value past its limits. */
  state?: WidgetState;
  stale?: boolean;
}

/** The data keys and config paths a template refers to. */
export function templateRefs(template: string): { data: string[]; cfg: string[] } {
  const data = new Set<string>();
  const cfg = new Set<string>();
  for (const match of String(template).matchAll(TEMPLATE_REF)) {
    if (match[1] === 'data' && DATA_KEY_PATTERN.test(match[2]!)) data.add(match[2]!);
    if (match[1] === 'cfg') cfg.add(match[2]!);
  }
  return { data: [...data], cfg: [...cfg] };
}

/** The value at a dotted path of the config (own keys only; array items by number), or undefined. */
export function configValue(config: unknown, path: string): unknown {
  let node: unknown = config;
  for (const segment of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    if (Array.isArray(node)) {
      if (!/^\d+$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else {
      if (!Object.hasOwn(node, segment)) return undefined;
      node = (node as Record<string, unknown>)[segment];
    }
  }
  return node;
}

function configText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (finite(value) || typeof value === 'boolean') return String(value);
  return MISSING_VALUE.text;
}

/**
 * A text's template rendered: `{data.KEY}` is the key's newest value with its decimals (display
 * settings, else the catalogue) and, with showUnits, its units; `{cfg.PATH}` the value at that
 * path of the device config's settings ({cfg.device.name}); anything else stays as written. A
 * missing value or path shows '???'. A last known value has the card's staleColor; with
 * changeColorisActive a value past its key's alarm or warning limits (display-settings gauge
 * limits over the catalogue's) has the card's alertColor or warningColor (WGT-14).
 */
export function renderTemplate(
  template: string,
  card: Pick<
    WidgetCard,
    'showLastReading' | 'showUnits' | 'staleColor' | 'alertColor' | 'warningColor' | 'changeColorisActive'
  >,
  ctx: WidgetContext,
): TemplatePart[] {
  const parts: TemplatePart[] = [];
  const text = String(template);
  let last = 0;
  const literal = (to: number) => {
    if (to > last) parts.push({ kind: 'text', text: text.slice(last, to) });
  };
  for (const match of text.matchAll(TEMPLATE_REF)) {
    const [whole, kind, ref] = match as unknown as [string, 'data' | 'cfg', string];
    if (kind === 'data' && !DATA_KEY_PATTERN.test(ref)) continue;
    literal(match.index);
    last = match.index + whole.length;
    parts.push(
      kind === 'cfg' ? { kind, ref, text: configText(configValue(ctx.config, ref)) } : dataPart(ref, card, ctx),
    );
  }
  literal(text.length);
  return parts;
}

/** A text's stale colour: the card's staleColor, with the default grey drawn legibly (AA on white). */
function staleTextColour(staleColor: string): string {
  return /^gr[ae]y$/i.test(staleColor) ? WIDGET_DEFAULT_COLOURS.staleText : staleColor;
}

function dataPart(
  key: string,
  card: Pick<
    WidgetCard,
    'showLastReading' | 'showUnits' | 'staleColor' | 'alertColor' | 'warningColor' | 'changeColorisActive'
  >,
  ctx: WidgetContext,
): TemplatePart {
  const { value, stale, hidden } = keyValue(key, ctx, card);
  if (!value || hidden) return { kind: 'data', ref: key, text: MISSING_VALUE.text };
  const setting = own(ctx.displaySettings, key);
  const resolved = resolveDisplay(key, setting, value.v);
  // A card hidden on the device page still shows in a text that names it.
  const shownType: ResolvedDisplayType = typeof value.v === 'string' ? 'escaped' : 'default';
  const display = resolved.displayType === 'hide' ? { ...resolved, displayType: shownType } : resolved;
  const formatted = formatReading(value.v, display);
  const shown = formatted.units && card.showUnits ? `${formatted.text} ${formatted.units}` : formatted.text;
  const part: TemplatePart = { kind: 'data', ref: key, text: shown };
  if (stale) return { ...part, stale: true, colour: staleTextColour(card.staleColor) };
  const n = typeof value.v === 'string' && !isNumericText(value.v) ? null : numberOf(value.v);
  const limits = n === null ? null : alertLimits(key, setting);
  const state = limits && n !== null ? limitLevel(n, limits) : 'normal';
  if (!card.changeColorisActive || state === 'normal') return part;
  const colour =
    state === 'alarm'
      ? (card.alertColor ?? WIDGET_DEFAULT_COLOURS.alertText)
      : (card.warningColor ?? WIDGET_DEFAULT_COLOURS.warningText);
  return { ...part, state, colour };
}

/**
 * The config paths a template picker offers: the dotted paths of the config's text, number and
 * true/false values, at most `depth` deep and `limit` in all, in the config's order.
 */
export function configPaths(config: unknown, depth = 4, limit = 200): string[] {
  const out: string[] = [];
  const walk = (node: unknown, prefix: string, level: number) => {
    if (out.length >= limit || node === null || typeof node !== 'object' || Array.isArray(node)) return;
    for (const key of Object.keys(node)) {
      if (out.length >= limit || !/^[A-Za-z0-9_]+$/.test(key)) continue;
      const value = (node as Record<string, unknown>)[key];
      const path = prefix ? `${prefix}.${key}` : key;
      if (typeof value === 'string' || finite(value) || typeof value === 'boolean') out.push(path);
      else if (level < depth) walk(value, path, level + 1);
    }
  };
  walk(config, '', 1);
  return out;
}
