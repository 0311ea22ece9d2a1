// The Settings page's field descriptors and pure helpers (issue 14; spec 2 sections 3 and 9; ledger
// SUB-02, SUB-05 to SUB-10, SUB-13): every descriptor agrees with DeviceConfigSettingsSchema (its
// limits accepted, just outside refused, its options accepted), the capture keys' base64 text, and
// the minimal change a save sends.
import { describe, expect, it } from 'vitest';
import {
  CAPTURE_ESCAPE_MESSAGE,
  DEFAULT_FIRMWARE,
  DEVICE_CONFIG_FIELDS,
  DEVICE_CONFIG_SECTIONS,
  DeviceConfigDocumentSchema,
  DeviceConfigSettingsSchema,
  INPUT_CHANNELS,
  INPUT_KINDS,
  configChange,
  configFieldHint,
  configFieldKey,
  configFieldValue,
  configFormValues,
  configValueChanged,
  decodeBase64Text,
  defaultDeviceConfig,
  deviceConfigView,
  encodeBase64Text,
  escapeControlText,
  firmwareParts,
  formatConfigValue,
  mergeDeviceConfig,
  readConfigValue,
  scriptConfigFields,
  unescapeControlText,
  type ConfigField,
} from '../src/index';

/** config.settings holding only `value` at the field's path. */
function settingsWith(field: ConfigField, value: unknown): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let node = root;
  field.path.forEach((key, i) => {
    if (i === field.path.length - 1) node[key] = value;
    else node = node[key] = {} as Record<string, unknown>;
  });
  return root;
}
const accepts = (field: ConfigField, value: unknown) =>
  DeviceConfigSettingsSchema.safeParse(settingsWith(field, value)).success;

const defaults = defaultDeviceConfig({ id: 'ABC123456', model: 'QUAD-C2', name: 'Pump', fw: DEFAULT_FIRMWARE });
const defaultSettings = defaults.settings as Record<string, unknown>;
const byKey = (key: string) => DEVICE_CONFIG_FIELDS.find((f) => configFieldKey(f) === key)!;

describe('config sections and the device block (SUB-05, SUB-06, SUB-07, SUB-10)', () => {
  it('has the spec sections, the schema holds exactly them and every field lives in one', () => {
    const keys = DEVICE_CONFIG_SECTIONS.map((s) => s.key);
    expect(keys).toEqual([
      'device',
      'vin',
      'gps',
      'accel',
      'ambient',
      'inputs',
      'serial1',
      'can1',
      'can2',
      'ble',
      'script',
      'endpoint',
    ]);
    expect(Object.keys(DeviceConfigSettingsSchema.shape).sort()).toEqual([...keys].sort());
    expect(Object.keys(defaultSettings).sort()).toEqual([...keys].sort());
    for (const field of DEVICE_CONFIG_FIELDS) expect(field.path[0]).toBe(field.section);
    // endpoint.data_to_portal is among them
    expect(byKey('endpoint.data_to_portal').kind).toBe('boolean');
  });

  it('validates the device block with id, model, name, fw, the intervals and batt', () => {
    const device = defaultSettings.device as Record<string, unknown>;
    expect(Object.keys(device).sort()).toEqual(
      ['id', 'model', 'name', 'fw', 'base_interval', 'transmit_interval', 'sq_interval', 'batt'].sort(),
    );
    expect(DeviceConfigDocumentSchema.safeParse(defaults).success).toBe(true);
    expect(DeviceConfigDocumentSchema.safeParse({ settings: { device: { ...device, colour: 'red' } } }).success).toBe(
      false,
    );
    expect(
      DeviceConfigDocumentSchema.safeParse({ settings: { device: { ...device, base_interval: 0 } } }).success,
    ).toBe(false);
  });

  it('defaults to base_interval 60 with sleep on the supply voltage (vin) enabled', () => {
    expect(readConfigValue(defaultSettings, ['device', 'base_interval'])).toBe(60);
    expect(readConfigValue(defaultSettings, ['vin', 'sleep', 'enabled'])).toBe(true);
    expect(configFormValues(DEVICE_CONFIG_FIELDS, defaultSettings)['device.base_interval']).toBe('60');
  });

  it('has 5 channels of each input kind, in the default config, the schema and the fields', () => {
    expect(INPUT_KINDS).toEqual(['analog', 'current', 'digital', 'frequency', 'duty', 'pulse']);
    const inputs = defaultSettings.inputs as Record<string, Record<string, unknown>>;
    expect(Object.keys(inputs).sort()).toEqual([...INPUT_KINDS].sort());
    for (const kind of INPUT_KINDS) {
      expect(Object.keys(inputs[kind]!)).toEqual(['1', '2', '3', '4', '5']);
      const channels = new Set(
        DEVICE_CONFIG_FIELDS.filter((f) => f.path[1] === kind && f.section === 'inputs').map((f) => f.path[2]),
      );
      expect([...channels]).toEqual(['1', '2', '3', '4', '5']);
      expect(
        accepts({ path: ['inputs', kind, String(INPUT_CHANNELS)], section: 'inputs', label: '', kind: 'text' }, {}),
      ).toBe(true);
      expect(accepts({ path: ['inputs', kind, '6'], section: 'inputs', label: '', kind: 'text' }, {})).toBe(false);
      expect(accepts({ path: ['inputs', kind, '0'], section: 'inputs', label: '', kind: 'text' }, {})).toBe(false);
    }
    // mode applies to the analog channels only
    expect(DEVICE_CONFIG_FIELDS.filter((f) => f.path.at(-1) === 'mode' && f.section === 'inputs')).toHaveLength(5);
  });

  it('every field of the default config is described, and the default config fills every field', () => {
    const described = new Set(DEVICE_CONFIG_FIELDS.map(configFieldKey));
    const leaves: string[] = [];
    const walk = (node: unknown, path: string[]) => {
      if (typeof node === 'object' && node !== null && !Array.isArray(node) && Object.keys(node).length > 0)
        for (const [k, v] of Object.entries(node)) walk(v, [...path, k]);
      else leaves.push(path.join('.'));
    };
    walk(defaultSettings, []);
    const identity = ['device.id', 'device.model', 'device.fw', 'script'];
    expect(leaves.filter((k) => !identity.includes(k)).sort()).toEqual([...described].sort());
  });
});

describe('every descriptor agrees with DeviceConfigSettingsSchema', () => {
  it.each(DEVICE_CONFIG_FIELDS.map((f) => [configFieldKey(f), f] as const))('%s', (_key, field) => {
    switch (field.kind) {
      case 'integer':
      case 'number': {
        expect(field.min).toBeTypeOf('number');
        expect(field.max).toBeTypeOf('number');
        const step = field.kind === 'integer' ? 1 : 0.001;
        expect(accepts(field, field.min)).toBe(true);
        expect(accepts(field, field.max)).toBe(true);
        expect(accepts(field, field.min! - step)).toBe(false);
        expect(accepts(field, field.max! + step)).toBe(false);
        expect(accepts(field, String(field.min))).toBe(false);
        if (field.kind === 'integer') expect(accepts(field, field.min! + 0.5)).toBe(false);
        else expect(accepts(field, field.min! + 0.5)).toBe(true);
        break;
      }
      case 'boolean':
        expect(accepts(field, true)).toBe(true);
        expect(accepts(field, false)).toBe(true);
        expect(accepts(field, 'true')).toBe(false);
        break;
      case 'text':
        expect(accepts(field, '')).toBe(true);
        expect(accepts(field, 'x'.repeat(field.maxLength!))).toBe(true);
        expect(accepts(field, 'x'.repeat(field.maxLength! + 1))).toBe(false);
        expect(accepts(field, 5)).toBe(false);
        break;
      case 'select':
        expect(field.options!.length).toBeGreaterThan(1);
        for (const option of field.options!) expect(accepts(field, option)).toBe(true);
        expect(accepts(field, typeof field.options![0] === 'number' ? 1234 : 'other')).toBe(false);
        break;
      case 'base64-text':
        expect(accepts(field, encodeBase64Text('x'.repeat(field.maxLength!)))).toBe(true);
        expect(accepts(field, encodeBase64Text('x'.repeat(field.maxLength! + 1)))).toBe(false);
        expect(accepts(field, 'AT')).toBe(false);
        break;
    }
  });

  it('describes each field with its type, range and unit', () => {
    expect(configFieldHint(byKey('device.base_interval'))).toBe('Whole number, 1 to 86400 s');
    expect(configFieldHint(byKey('vin.sleep.threshold'))).toBe('Number, 0 to 60 V');
    expect(configFieldHint(byKey('gps.enabled'))).toBe('On or off');
    expect(configFieldHint(byKey('device.name'))).toBe('Text, at most 20 characters');
    expect(configFieldHint(byKey('can1.bitrate'))).toBe('One of 125000, 250000, 500000, 1000000 bit/s');
    expect(configFieldHint(byKey('serial1.capture.start'))).toMatch(/^Text, at most 768 bytes/);
  });
});

describe('serial capture text (SUB-08, SUB-09)', () => {
  it("encodes 'AT' as 'QVQ=' and back, for any UTF-8 text", () => {
    expect(encodeBase64Text('AT')).toBe('QVQ=');
    expect(decodeBase64Text('QVQ=')).toBe('AT');
    for (const text of ['', 'A', 'AB', 'ABC', 'AT+CSQ\r\n', 'é€😀', '\u0000\u007f'])
      expect(decodeBase64Text(encodeBase64Text(text))).toBe(text);
    expect(encodeBase64Text('é€😀')).toBe('w6nigqzwn5iA');
  });

  it('refuses what is not base64 of UTF-8 text', () => {
    for (const bad of ['QVQ', 'QV=Q', '!!!!', 'QQ==QQ==', '/w==', 'wA==', '7aCA', null, 5, undefined])
      expect(decodeBase64Text(bad)).toBeNull();
  });

  it('escapes control characters for a one-line input and reads them back', () => {
    expect(escapeControlText('AT\r\n\t\\\u0001')).toBe('AT\\r\\n\\t\\\\\\x01');
    expect(unescapeControlText('AT\\r\\n\\t\\\\\\x01')).toBe('AT\r\n\t\\\u0001');
    expect(unescapeControlText('AT\\q')).toBeNull();
    expect(unescapeControlText('AT\\x1')).toBeNull();
    expect(unescapeControlText('AT\\')).toBeNull();
  });

  it('shows a capture value decoded, and a value that is not text as not editable', () => {
    const start = byKey('serial1.capture.start');
    expect(configFieldValue(start, 'QVQ=')).toBe('AT');
    expect(configFieldValue(start, encodeBase64Text('AT\r'))).toBe('AT\\r');
    expect(configFieldValue(start, '/w==')).toBeNull();
    expect(configFieldValue(start, undefined)).toBe('');
    expect(formatConfigValue(start, 'AT')).toBe('"AT"');
    expect(formatConfigValue(start, null)).toBe('(not text)');
  });
});

describe('the change a save sends (SUB-02, SUB-09)', () => {
  const base = configFormValues(DEVICE_CONFIG_FIELDS, defaultSettings);

  it('is empty with nothing edited, or edits equal to the base', () => {
    expect(configChange(DEVICE_CONFIG_FIELDS, base, {})).toEqual({ settings: {}, changed: [], errors: {} });
    const same = configChange(DEVICE_CONFIG_FIELDS, base, {
      'device.base_interval': '60.0',
      'gps.enabled': true,
      'device.name': 'Pump',
    });
    expect(same.changed).toEqual([]);
    expect(configValueChanged(byKey('device.base_interval'), '60', ' 60 ')).toBe(false);
    expect(configValueChanged(byKey('device.base_interval'), '', '0')).toBe(true);
  });

  it('carries only the changed values, as wire values, nested like config.settings', () => {
    const change = configChange(DEVICE_CONFIG_FIELDS, base, {
      'device.base_interval': '120',
      'device.transmit_interval': '1',
      'serial1.capture.start': 'AT',
      'serial1.capture.end': 'OK\\r\\n',
      'serial1.baud': '115200',
      'inputs.analog.3.mode': 'current',
      'inputs.pulse.2.enabled': true,
      'can2.bitrate': '500000',
    });
    expect(change.errors).toEqual({});
    expect(change.settings).toEqual({
      device: { base_interval: 120 },
      inputs: { analog: { '3': { mode: 'current' } }, pulse: { '2': { enabled: true } } },
      serial1: { baud: 115200, capture: { start: 'QVQ=', end: encodeBase64Text('OK\r\n') } },
      can2: { bitrate: 500000 },
    });
    expect(DeviceConfigSettingsSchema.safeParse(change.settings).success).toBe(true);
    // what the device will have once it applies the change
    const after = mergeDeviceConfig(defaults, { settings: change.settings });
    expect(configFormValues(DEVICE_CONFIG_FIELDS, after.settings)['serial1.capture.start']).toBe('AT');
  });

  it('flags bad values by their field with the schema messages, and a bad escape', () => {
    const change = configChange(DEVICE_CONFIG_FIELDS, base, {
      'device.base_interval': '0',
      'device.transmit_interval': '2.5',
      'device.sq_interval': 'soon',
      'vin.sleep.threshold': '',
      'device.name': 'x'.repeat(21),
      'serial1.capture.request': 'AT\\q',
      'gps.interval': '3',
    });
    expect(change.errors).toEqual({
      'device.base_interval': 'base_interval must be at least 1',
      'device.transmit_interval': 'transmit_interval must be a whole number',
      'device.sq_interval': 'sq_interval must be a number',
      'vin.sleep.threshold': 'threshold must be a number',
      'device.name': 'at most 20 characters',
      'serial1.capture.request': CAPTURE_ESCAPE_MESSAGE,
    });
    expect(change.changed).toContain('gps.interval');
  });

  it('handles the script num* and str* values with the spec message for a num* that is not a number', () => {
    const script = { numLimit: 5, strLabel: 'abc', triggers: [], other: 1 };
    const fields = scriptConfigFields(script, { numExtra: 1 });
    expect(fields.map(configFieldKey)).toEqual(['script.numExtra', 'script.numLimit', 'script.strLabel']);
    const values = configFormValues(fields, { script });
    expect(values).toEqual({ 'script.numExtra': '', 'script.numLimit': '5', 'script.strLabel': 'abc' });
    const ok = configChange(fields, values, { 'script.numLimit': '7.5', 'script.strLabel': 'xyz' });
    expect(ok).toEqual({
      settings: { script: { numLimit: 7.5, strLabel: 'xyz' } },
      changed: expect.any(Array),
      errors: {},
    });
    const bad = configChange(fields, values, { 'script.numLimit': 'lots' });
    expect(bad.errors).toEqual({ 'script.numLimit': 'The value entered for numLimit is not a number.' });
    expect(configChange(fields, values, { 'script.strLabel': 'y'.repeat(257) }).errors['script.strLabel']).toMatch(
      /at most 256/,
    );
  });

  it('ignores hostile keys', () => {
    expect(readConfigValue({}, ['__proto__', 'x'])).toBeUndefined();
    expect(readConfigValue({ a: null }, ['a', 'b'])).toBeUndefined();
    expect(configChange(DEVICE_CONFIG_FIELDS, base, { __proto__: 'x', 'nothing.here': '1' } as never).changed).toEqual(
      [],
    );
  });
});

describe('pending versus applied', () => {
  it('starts the form from applied with pending merged, and marks the pending fields', () => {
    const pending = {
      settings: { device: { base_interval: 120 }, serial1: { capture: { start: 'QVQ=' } }, script: { numGain: 2 } },
    };
    const view = deviceConfigView({ ...defaults, settings: { ...defaultSettings, script: { strNote: 'a' } } }, pending);
    expect(view.base['device.base_interval']).toBe('120');
    expect(view.applied['device.base_interval']).toBe('60');
    expect(view.base['serial1.capture.start']).toBe('AT');
    expect(view.applied['serial1.capture.start']).toBe('');
    expect([...view.pendingKeys].sort()).toEqual(['device.base_interval', 'script.numGain', 'serial1.capture.start']);
    expect(view.fields.filter((f) => f.section === 'script').map(configFieldKey)).toEqual([
      'script.numGain',
      'script.strNote',
    ]);
    expect(view.facts).toEqual({ id: 'ABC123456', model: 'QUAD-C2', fw: DEFAULT_FIRMWARE });
    // a save of the pending value again changes nothing
    expect(configChange(view.fields, view.base, { 'device.base_interval': '120' }).changed).toEqual([]);
  });

  it('copes with a config without settings and nothing pending', () => {
    const view = deviceConfigView({}, null);
    expect(view.pendingKeys.size).toBe(0);
    expect(view.base['device.base_interval']).toBe('');
    expect(view.base['gps.enabled']).toBe(false);
    expect(view.facts).toEqual({ id: null, model: null, fw: null });
  });
});

describe('firmware string (SUB-13)', () => {
  it("parses 'SFW003-1.2.3' as doc 003 and version 1.2.3; the default is doc 003", () => {
    expect(firmwareParts('SFW003-1.2.3')).toEqual({ doc: '003', version: '1.2.3' });
    expect(firmwareParts(DEFAULT_FIRMWARE)?.doc).toBe('003');
    for (const bad of ['SFW03-1.2.3', 'SFW003-1.2', 'sfw003-1.2.3', 'SFW003-1.2.3-beta', '', null, 3])
      expect(firmwareParts(bad)).toBeNull();
  });
});
