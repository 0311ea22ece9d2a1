/**
 * The device Settings page's fields (spec 2 sections 3 and 9; ledger SUB-02 to SUB-10): one
 * descriptor per editable value of config.settings (path, label, kind, range, unit, options), the
 * form values read from a config (serial capture keys decoded from base64), and the minimal change
 * a save sends (PUT /device/{id}/config), validated by the contract's DeviceConfigSettingsSchema.
 * Its UTF-8 and base64 are text-codecs.ts's.
 * The limits here mirror that schema; the core test proves they agree.
 */
import {
  CUSTOM_SETTING_NAME_PATTERN,
  CUSTOM_TEXT_MAX_LENGTH,
  DeviceConfigSettingsSchema,
  mergeDeviceConfig,
} from '../contracts/device-config';
import { FIRMWARE_PATTERN } from '../contracts/devices';
import { INPUT_CHANNELS } from './measurements';
import { decodeBase64Text, encodeBase64Text, hexDigits } from './text-codecs';

// ---- Descriptors -----------------------------------------------------------------------------

export type ConfigFieldKind = 'number' | 'integer' | 'boolean' | 'text' | 'select' | 'base64-text';

/** The sections of config.settings, in page order (SUB-05). */
export const DEVICE_CONFIG_SECTIONS = [
  { key: 'device', title: 'Device' },
  { key: 'vin', title: 'Supply voltage sleep' },
  { key: 'gps', title: 'GPS' },
  { key: 'accel', title: 'Accelerometer' },
  { key: 'ambient', title: 'Ambient sensors' },
  { key: 'inputs', title: 'Inputs and IO channels' },
  { key: 'serial1', title: 'Serial port 1' },
  { key: 'can1', title: 'CAN bus 1' },
  { key: 'can2', title: 'CAN bus 2' },
  { key: 'ble', title: 'Bluetooth (BLE)' },
  { key: 'script', title: 'Script values' },
  { key: 'endpoint', title: 'Endpoint' },
] as const;
export type DeviceConfigSectionKey = (typeof DEVICE_CONFIG_SECTIONS)[number]['key'];

export interface ConfigField {
  /** The value's path under config.settings, e.g. ['device', 'base_interval']. */
  path: readonly string[];
  section: DeviceConfigSectionKey;
  /** Fields sharing a group are shown together under its name ('Analog 1'). */
  group?: string;
  label: string;
  kind: ConfigFieldKind;
  min?: number;
  max?: number;
  unit?: string;
  /** Choices of a select (the wire values). */
  options?: readonly (string | number)[];
  /** Longest text in characters (text) or in bytes once encoded (base64-text). */
  maxLength?: number;
}

/** The input kinds of spec 2 section 9, 5 channels each (SUB-10). */
export const INPUT_KINDS = ['analog', 'current', 'digital', 'frequency', 'duty', 'pulse'] as const;
export type InputKind = (typeof INPUT_KINDS)[number];
const INPUT_TITLES: Record<InputKind, string> = {
  analog: 'Analog',
  current: 'Current',
  digital: 'Digital',
  frequency: 'Frequency',
  duty: 'Duty cycle',
  pulse: 'Pulse',
};

/** Standard serial rates (serial1.baud). */
export const SERIAL_BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;
/** CAN bit rates (can1/can2.bitrate). */
export const CAN_BITRATES = [125000, 250000, 500000, 1000000] as const;
/** Longest serial capture string, in bytes (1024 base64 characters). */
export const SERIAL_CAPTURE_MAX_BYTES = 768;

const DAY_SECONDS = 86_400;
const NAME_MAX = 20;

const onOff = (section: DeviceConfigSectionKey, path: string[], label = 'Enabled', group?: string): ConfigField => ({
  path,
  section,
  label,
  kind: 'boolean',
  ...(group ? { group } : {}),
});

function channelFields(kind: InputKind): ConfigField[] {
  return Array.from({ length: INPUT_CHANNELS }, (_, i) => {
    const n = String(i + 1);
    const group = `${INPUT_TITLES[kind]} ${n}`;
    const base = ['inputs', kind, n];
    const fields: ConfigField[] = [
      onOff('inputs', [...base, 'enabled'], 'Enabled', group),
      { path: [...base, 'name'], section: 'inputs', group, label: 'Name', kind: 'text', maxLength: NAME_MAX },
    ];
    if (kind === 'analog')
      fields.push({
        path: [...base, 'mode'],
        section: 'inputs',
        group,
        label: 'Mode',
        kind: 'select',
        options: ['voltage', 'current', 'resistance'],
      });
    return fields;
  }).flat();
}

function canFields(bus: 'can1' | 'can2'): ConfigField[] {
  return [
    onOff(bus, [bus, 'enabled']),
    { path: [bus, 'bitrate'], section: bus, label: 'Bit rate', kind: 'select', options: CAN_BITRATES, unit: 'bit/s' },
    { path: [bus, 'mode'], section: bus, label: 'Mode', kind: 'select', options: ['j1939', 'raw'] },
  ];
}

const capture = (key: 'start' | 'end' | 'request', label: string): ConfigField => ({
  path: ['serial1', 'capture', key],
  section: 'serial1',
  group: 'Capture',
  label,
  kind: 'base64-text',
  maxLength: SERIAL_CAPTURE_MAX_BYTES,
});

/** Every fixed field of config.settings the Settings page edits (script values come from the config). */
export const DEVICE_CONFIG_FIELDS: readonly ConfigField[] = [
  { path: ['device', 'name'], section: 'device', label: 'Name', kind: 'text', maxLength: NAME_MAX },
  {
    path: ['device', 'base_interval'],
    section: 'device',
    label: 'Base interval',
    kind: 'integer',
    min: 1,
    max: DAY_SECONDS,
    unit: 's',
  },
  {
    path: ['device', 'transmit_interval'],
    section: 'device',
    label: 'Transmit interval',
    kind: 'integer',
    min: 1,
    max: 1000,
    unit: 'base intervals',
  },
  {
    path: ['device', 'sq_interval'],
    section: 'device',
    label: 'Signal quality interval',
    kind: 'integer',
    min: 0,
    max: DAY_SECONDS,
    unit: 's',
  },
  onOff('device', ['device', 'batt', 'enabled'], 'Battery'),
  onOff('vin', ['vin', 'sleep', 'enabled'], 'Sleep on supply voltage'),
  {
    path: ['vin', 'sleep', 'threshold'],
    section: 'vin',
    label: 'Sleep threshold',
    kind: 'number',
    min: 0,
    max: 60,
    unit: 'V',
  },
  {
    path: ['vin', 'sleep', 'hysteresis'],
    section: 'vin',
    label: 'Hysteresis',
    kind: 'number',
    min: 0,
    max: 10,
    unit: 'V',
  },
  onOff('gps', ['gps', 'enabled']),
  {
    path: ['gps', 'interval'],
    section: 'gps',
    label: 'Position interval',
    kind: 'integer',
    min: 1,
    max: 1000,
    unit: 'base intervals',
  },
  onOff('accel', ['accel', 'enabled']),
  { path: ['accel', 'threshold'], section: 'accel', label: 'Threshold', kind: 'number', min: 0, max: 16, unit: 'g' },
  onOff('ambient', ['ambient', 'enabled']),
  ...INPUT_KINDS.flatMap(channelFields),
  onOff('serial1', ['serial1', 'enabled']),
  {
    path: ['serial1', 'baud'],
    section: 'serial1',
    label: 'Baud rate',
    kind: 'select',
    options: SERIAL_BAUD_RATES,
    unit: 'bit/s',
  },
  capture('start', 'Start'),
  capture('end', 'End'),
  capture('request', 'Request'),
  ...canFields('can1'),
  ...canFields('can2'),
  onOff('ble', ['ble', 'enabled']),
  onOff('endpoint', ['endpoint', 'data_to_portal'], 'Send data to the portal'),
];

/** The script's num* (number) and str* (text) values found in the given sections, sorted by name. */
export function scriptConfigFields(...scripts: unknown[]): ConfigField[] {
  const keys = new Set<string>();
  for (const script of scripts)
    if (isRecord(script))
      for (const key of Object.keys(script)) if (CUSTOM_SETTING_NAME_PATTERN.test(key)) keys.add(key);
  return [...keys]
    .sort()
    .map((key) =>
      key.startsWith('num')
        ? { path: ['script', key], section: 'script', label: key, kind: 'number' }
        : { path: ['script', key], section: 'script', label: key, kind: 'text', maxLength: CUSTOM_TEXT_MAX_LENGTH },
    );
}

/** The field's key in a form: its path joined with dots ('device.base_interval'). */
export function configFieldKey(field: Pick<ConfigField, 'path'>): string {
  return field.path.join('.');
}

const withUnit = (text: string, unit: string | undefined) => (unit ? `${text} ${unit}` : text);

/** What a field takes, in words: 'Whole number, 1 to 86400 s', 'On or off', 'Text, at most 20 characters'. */
export function configFieldHint(field: ConfigField): string {
  const range = field.min !== undefined && field.max !== undefined ? `${field.min} to ${field.max}` : null;
  switch (field.kind) {
    case 'integer':
      return withUnit(range ? `Whole number, ${range}` : 'Whole number', field.unit);
    case 'number':
      return withUnit(range ? `Number, ${range}` : 'Number', field.unit);
    case 'boolean':
      return 'On or off';
    case 'text':
      return field.maxLength !== undefined ? `Text, at most ${field.maxLength} characters` : 'Text';
    case 'select':
      return withUnit(`One of ${(field.options ?? []).join(', ')}`, field.unit);
    case 'base64-text':
      return `Text, at most ${field.maxLength ?? 0} bytes; \\r \\n \\t \\xHH for control characters, \\\\ for a backslash`;
  }
}

// ---- Capture text as edited: control characters escaped ------------------------------------

const ESCAPES: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t', '\\': '\\\\' };

/** Text for a one-line input: \r \n \t and \\ escaped, other control characters as \xHH. */
export function escapeControlText(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out += ESCAPES[char] ?? (code < 0x20 || code === 0x7f ? `\\x${hexDigits(code, 2)}` : char);
  }
  return out;
}

/** The text an escaped input stands for, or null when a backslash starts no known escape. */
export function unescapeControlText(text: string): string | null {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = text[i + 1];
    if (next === 'r' || next === 'n' || next === 't' || next === '\\') {
      out += next === 'r' ? '\r' : next === 'n' ? '\n' : next === 't' ? '\t' : '\\';
      i += 1;
    } else if (next === 'x' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 2, i + 4))) {
      out += String.fromCharCode(parseInt(text.slice(i + 2, i + 4), 16));
      i += 3;
    } else return null;
  }
  return out;
}

/** Why an escaped capture text cannot be saved (unescapeControlText found no known escape). */
export const CAPTURE_ESCAPE_MESSAGE = 'After a backslash use r, n, t, xHH (two hex digits) or another backslash';

// ---- Form values -----------------------------------------------------------------------------

/**
 * A field's value in the form: text for numbers, text and selects (as typed), a boolean for a
 * switch, and null for a serial capture value that is not base64 of text (shown, not editable).
 */
export type ConfigFieldValue = string | boolean | null;
export type ConfigFormValues = Readonly<Record<string, ConfigFieldValue>>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `path` in a settings object, or undefined. */
export function readConfigValue(settings: unknown, path: readonly string[]): unknown {
  let node: unknown = settings;
  for (const key of path) {
    if (!isRecord(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** A config value as the form holds it (base64 capture keys decoded and escaped). */
export function configFieldValue(field: ConfigField, value: unknown): ConfigFieldValue {
  switch (field.kind) {
    case 'boolean':
      return value === true;
    case 'base64-text': {
      if (value === undefined || value === null) return '';
      const text = decodeBase64Text(value);
      return text === null ? null : escapeControlText(text);
    }
    default:
      return value === undefined || value === null ? '' : String(value);
  }
}

/** The form values of `fields` read from a config's settings. */
export function configFormValues(fields: readonly ConfigField[], settings: unknown): Record<string, ConfigFieldValue> {
  return Object.fromEntries(
    fields.map((f) => [configFieldKey(f), configFieldValue(f, readConfigValue(settings, f.path))]),
  );
}

/** A value for reading beside its field: 'On', 'Off', '60 s', '"AT"', '(empty)'. */
export function formatConfigValue(field: ConfigField, value: ConfigFieldValue): string {
  if (value === null) return '(not text)';
  if (typeof value === 'boolean') return value ? 'On' : 'Off';
  if (value === '') return '(empty)';
  if (field.kind === 'text' || field.kind === 'base64-text') return `"${value}"`;
  return withUnit(value, field.unit);
}

const sameNumber = (a: string, b: string) =>
  a.trim() !== '' && b.trim() !== '' && Number.isFinite(Number(a)) && Number(a) === Number(b);

/** True when the form value differs from the base (numbers compared as numbers: '60' equals '60.0'). */
export function configValueChanged(field: ConfigField, base: ConfigFieldValue, value: ConfigFieldValue): boolean {
  if (base === value) return false;
  if ((field.kind === 'number' || field.kind === 'integer') && typeof base === 'string' && typeof value === 'string')
    return !sameNumber(base, value);
  return true;
}

type WireValue = { ok: true; value: unknown } | { ok: false; message: string };

/** The value a save sends for a form value (numbers parsed, capture text base64-encoded). */
function wireValue(field: ConfigField, value: ConfigFieldValue): WireValue {
  if (value === null) return { ok: false, message: 'This value is not text and cannot be edited here' };
  switch (field.kind) {
    case 'boolean':
      return { ok: true, value: value === true };
    case 'number':
    case 'integer': {
      const text = String(value).trim();
      // Not a number: sent as text, so the schema words the problem ('... must be a number').
      return { ok: true, value: text !== '' && Number.isFinite(Number(text)) ? Number(text) : String(value) };
    }
    case 'select': {
      const option = (field.options ?? []).find((o) => String(o) === value);
      return { ok: true, value: option ?? value };
    }
    case 'base64-text': {
      const text = unescapeControlText(String(value));
      return text === null
        ? { ok: false, message: CAPTURE_ESCAPE_MESSAGE }
        : { ok: true, value: encodeBase64Text(text) };
    }
    case 'text':
      return { ok: true, value: String(value) };
  }
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  path.forEach((key, i) => {
    if (i === path.length - 1) node[key] = value;
    else {
      const next = isRecord(node[key]) ? (node[key] as Record<string, unknown>) : {};
      node[key] = next;
      node = next;
    }
  });
}

export interface ConfigChange {
  /** The changed values only, nested as config.settings (the PUT body's settings); {} when nothing changed. */
  settings: Record<string, unknown>;
  /** Keys of the changed fields. */
  changed: string[];
  /** Messages by field key ('' for a problem no field owns); empty when the change may be sent. */
  errors: Record<string, string>;
}

/**
 * The minimal change of a form (SUB-02): the fields whose edited value differs from `base` (the
 * config as it will be: applied with pending merged), as wire values, checked by
 * DeviceConfigSettingsSchema, the same schema the server checks with.
 */
export function configChange(
  fields: readonly ConfigField[],
  base: ConfigFormValues,
  edits: ConfigFormValues,
): ConfigChange {
  const settings: Record<string, unknown> = {};
  const changed: string[] = [];
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const key = configFieldKey(field);
    if (!Object.prototype.hasOwnProperty.call(edits, key)) continue;
    const value = edits[key] ?? null;
    if (!configValueChanged(field, base[key] ?? null, value)) continue;
    changed.push(key);
    const wire = wireValue(field, value);
    if (wire.ok) setPath(settings, field.path, wire.value);
    else errors[key] = wire.message;
  }
  if (changed.length > 0) {
    const parsed = DeviceConfigSettingsSchema.safeParse(settings);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = issue.path.map(String);
        const owner = changed
          .filter((key) => {
            const parts = key.split('.');
            return (
              parts.every((part, i) => path[i] === part) ||
              (path.length > 0 && path.every((part, i) => parts[i] === part))
            );
          })
          .sort((a, b) => b.length - a.length)[0];
        errors[owner ?? ''] ??= issue.message;
      }
    }
  }
  return { settings, changed, errors };
}

export interface DeviceConfigView {
  /** The fixed fields, then the script values the applied or pending config has. */
  fields: ConfigField[];
  /** The form's starting values: the config as it will be (applied, with pending merged). */
  base: Record<string, ConfigFieldValue>;
  /** The values the device runs. */
  applied: Record<string, ConfigFieldValue>;
  /** Keys of the fields with a pending value. */
  pendingKeys: ReadonlySet<string>;
  /** The device's own facts (read-only): id, model, firmware. */
  facts: { id: string | null; model: string | null; fw: string | null };
}

/** What the Settings page shows of a GET /device/{id}/config answer (`config` applied, `pending` or null). */
export function deviceConfigView(
  config: Record<string, unknown>,
  pending: Record<string, unknown> | null,
): DeviceConfigView {
  const applied = isRecord(config.settings) ? config.settings : {};
  const pendingSettings = pending && isRecord(pending.settings) ? pending.settings : {};
  const fields = [...DEVICE_CONFIG_FIELDS, ...scriptConfigFields(applied.script, pendingSettings.script)];
  const effective = mergeDeviceConfig(applied, pendingSettings);
  const fact = (key: string) => {
    const value = readConfigValue(applied, ['device', key]);
    return typeof value === 'string' && value !== '' ? value : null;
  };
  return {
    fields,
    base: configFormValues(fields, effective),
    applied: configFormValues(fields, applied),
    pendingKeys: new Set(
      fields.filter((f) => readConfigValue(pendingSettings, f.path) !== undefined).map(configFieldKey),
    ),
    facts: { id: fact('id'), model: fact('model'), fw: fact('fw') },
  };
}

// ---- Firmware string (spec 2 section 3, SUB-13) -----------------------------------------------

/** The parts of a firmware string SFW{doc}-{major}.{minor}.{patch}, or null when it is not one. */
export function firmwareParts(fw: unknown): { doc: string; version: string } | null {
  if (typeof fw !== 'string' || !FIRMWARE_PATTERN.test(fw)) return null;
  const [head = '', version = ''] = fw.split('-');
  return { doc: head.slice(3), version };
}
