/**
 * The Display Settings dialog (spec 2 section 5, DLG-02 to DLG-14): the display types it offers,
 * which fields show, its starting fields for a key, its errors, and the display setting it saves
 * (merged with the stored entry's fields it does not edit).
 */
import { DISPLAY_TYPES, DisplaySettingSchema, type DisplaySetting } from '../contracts/devices';
import {
  displayText,
  field,
  isOneOf,
  DIGITAL_DEFAULTS,
  GAUGE_FIELDS,
  SECTION_NAME_MAX_LENGTH,
  allowedDisplayType,
  catalogueGauge,
  sectionNameOf,
  type GaugeField,
  type ResolvedDisplay,
  type ResolvedDisplayType,
} from './display-resolve';
import { isCustomParameterKey, isHoursKey, measurementOf } from './measurements';
import {
  DEFAULT_SORT_ORDER,
  DISPLAY_TEXT_MAX_LENGTH,
  SORT_ORDER_MAX,
  SORT_ORDER_MIN,
  clampDecimalPlaces,
  clampInteger,
  isNumericText,
  sanitise,
} from './validation';

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
  const type = allowedDisplayType(field(draft, 'displayType'), isString);
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
