import { describe, expect, it } from 'vitest';
import {
  CARD_MESSAGES,
  DEFAULT_SORT_ORDER,
  DIGITAL_DEFAULTS,
  DISPLAY_DRAFT_MESSAGES,
  DISPLAY_TYPES,
  DisplaySettingSchema,
  GAUGE_FIELDS,
  GAUGE_RANGE_ERROR,
  LTE_RSSI_UNKNOWN_TEXT,
  MEASUREMENT_CATALOGUE,
  canApplyDraft,
  digitalText,
  displayFieldRules,
  displayTypeChoices,
  draftErrors,
  draftFromDisplay,
  formatHoursMinutes,
  formatNumber,
  formatReading,
  gaugeError,
  gaugeState,
  isTrendlineDisplay,
  keyDisplayName,
  measurementOf,
  mergeDisplaySetting,
  orderedKeys,
  resolveDisplay,
  settingFromDraft,
  sparklinePoints,
  stringDisplay,
  trendOf,
  type DisplayDraft,
  type GaugeLimits,
  type ResolvedDisplay,
} from '../src/index';

const LONG = 'x'.repeat(100_000);
const JUNK: unknown[] = [
  undefined,
  null,
  0,
  'gauge',
  [],
  ['gauge'],
  true,
  {},
  { displayType: 'bogus' },
  { displayType: null, sort: 'x', dp: 'two', name: 42, units: {}, showLastReading: 'no' },
  { gaugeSettings: 'x', digitalSettings: [1, 2] },
  { gaugeSettings: { min: 'a', max: null }, digitalSettings: { lowThreshold: 'x', lowString: 7, highString: '' } },
  JSON.parse('{"__proto__": {"displayType": "gauge"}, "constructor": 1}'),
  Object.create(null),
];

/** A resolved display of `key` with the given stored setting and sample. */
function resolved(key: string, setting?: unknown, ...sample: unknown[]): ResolvedDisplay {
  return resolveDisplay(key, setting, sample.length > 0 ? sample[0] : 1);
}

/** A draft for `key` (numeric unless a string sample is given), with overrides. */
function makeDraft(key: string, overrides: Partial<DisplayDraft> = {}, sample: unknown = 1): DisplayDraft {
  return { ...draftFromDisplay(resolved(key, undefined, sample)), ...overrides };
}

const WARN_10_15_ALARM_9_16: GaugeLimits = { min: 0, max: 20, warnLow: 10, warnHigh: 15, alarmLow: 9, alarmHigh: 16 };

// ---- resolveDisplay ----------------------------------------------------------------------

describe('resolveDisplay: defaults', () => {
  it('a known numeric key without settings', () => {
    expect(resolved('vsys')).toEqual({
      key: 'vsys',
      name: 'Supply Voltage',
      units: 'V',
      dp: 2,
      displayType: 'default',
      sort: DEFAULT_SORT_ORDER,
      showLastReading: true,
      gauge: null,
      digital: { lowThreshold: 0.5, lowString: 'OFF', highString: 'ON' },
      groupKey: null,
    });
  });

  it.each([
    ['numeric key', 'temp', 21.5, 'default'],
    ['string key', 'label', 'abc', 'escaped'],
    ['hrs key', 'state4_hrs', 12.25, 'hours'],
    ['custom hrs key', 'pump_hrs', 3, 'hours'],
    ['boolean value', 'flag', true, 'default'],
    ['array value', 'spectrum', [1, 2], 'default'],
    ['no value yet', 'temp', undefined, 'default'],
  ])('%s: %s shows as %s', (_label, key, sample, type) => {
    expect(resolved(key, undefined, sample).displayType).toBe(type);
  });

  it('an unknown key is named by itself with no units and 2 decimals', () => {
    expect(resolved('flow_rate')).toMatchObject({ key: 'flow_rate', name: 'flow_rate', units: '', dp: 2 });
  });

  it('digital defaults (CARD-16)', () => {
    expect(DIGITAL_DEFAULTS).toEqual({ lowThreshold: 0.5, lowString: 'OFF', highString: 'ON' });
    expect(resolved('digital1', { displayType: 'digital' }).digital).toEqual(DIGITAL_DEFAULTS);
  });
});

describe('keyDisplayName: one name per key (CARD-02)', () => {
  it.each<[string, unknown, string]>([
    // The catalogue's name.
    ['ambient_hum', undefined, 'Humidity'],
    ['vsys', {}, measurementOf('vsys').name],
    ['cp1', undefined, 'Custom Param 1'],
    ['ain3', undefined, 'Analog Input 3'],
    ['state1_hrs', undefined, 'State 1 Hours'],
    // A name the user set wins over the catalogue, sanitised and cut to 15 characters.
    ['cp1', { name: 'Engine Speed' }, 'Engine Speed'],
    ['ambient_hum', { name: 'Cab "humidity" level' }, 'Cab humidity le'],
    ['ambient_hum', { name: '   ' }, 'Humidity'],
    ['ambient_hum', { name: 42 }, 'Humidity'],
    // Custom settings read their key in words.
    ['numIdleMinutes', undefined, 'Idle Minutes'],
    ['numSpeedLimit', undefined, 'Speed Limit'],
    ['strSiteName', undefined, 'Site Name'],
    ['str_site_name', undefined, 'Site Name'],
    ['numGPSRate', undefined, 'GPS Rate'],
    ['numIdleMinutes', { name: 'Idle time' }, 'Idle time'],
    // Keys that do not read so, and keys nobody knows: the key itself.
    ['num1', undefined, 'num1'],
    ['strength', undefined, 'strength'],
    ['number_of_starts', undefined, 'number_of_starts'],
    ['label', undefined, 'label'],
    ['__proto__', undefined, '__proto__'],
    ['', undefined, ''],
  ])('keyDisplayName(%j, %j) -> %j', (key, setting, name) => expect(keyDisplayName(key, setting)).toBe(name));

  it('is the name resolveDisplay gives a card', () => {
    for (const [key, setting] of [
      ['ambient_hum', undefined],
      ['cp2', { name: 'Hydraulic Oil' }],
      ['label', undefined],
    ] as const) {
      expect(resolveDisplay(key, setting, 1).name).toBe(keyDisplayName(key, setting));
    }
  });

  it('survives hostile settings', () => {
    for (const junk of JUNK) expect(keyDisplayName('ambient_hum', junk)).toBe('Humidity');
  });
});

describe('resolveDisplay: stored settings', () => {
  it('takes every valid field', () => {
    const d = resolved('cp1', {
      displayType: 'digital',
      sort: 3,
      name: 'Loads',
      units: 'pcs',
      dp: 0,
      showLastReading: false,
      digitalSettings: { lowThreshold: 10, lowString: 'Few', highString: 'Many' },
    });
    expect(d).toMatchObject({
      name: 'Loads',
      units: 'pcs',
      dp: 0,
      sort: 3,
      showLastReading: false,
      displayType: 'digital',
      digital: { lowThreshold: 10, lowString: 'Few', highString: 'Many' },
      gauge: null,
    });
  });

  it.each(JUNK.map((j) => [j]))('ignores junk %j', (setting) => {
    const d = resolved('vsys', setting, 12.5);
    expect(d).toMatchObject({ name: 'Supply Voltage', units: 'V', dp: 2, sort: DEFAULT_SORT_ORDER });
    expect(d.displayType).toBe('default');
    expect(d.showLastReading).toBe(true);
    expect(d.digital).toEqual(DIGITAL_DEFAULTS);
    expect(d.gauge).toBeNull();
  });

  it.each([
    [{ dp: 12 }, 8],
    [{ dp: -1 }, 0],
    [{ dp: 3.7 }, 3],
    [{ dp: Infinity }, 2],
    [{ dp: Number.NaN }, 2],
    [{ dp: '3' }, 2],
  ])('dp of %j gives %s', (setting, dp) => expect(resolved('vsys', setting).dp).toBe(dp));

  it.each([
    [{ sort: 1 }, 1],
    [{ sort: 100 }, 100],
    [{ sort: '7' }, 7],
    [{ sort: 0 }, DEFAULT_SORT_ORDER],
    [{ sort: 101 }, DEFAULT_SORT_ORDER],
    [{ sort: 2.5 }, DEFAULT_SORT_ORDER],
    [{ sort: 'first' }, DEFAULT_SORT_ORDER],
  ])('sort of %j gives %s', (setting, sort) => expect(resolved('vsys', setting).sort).toBe(sort));

  it.each([
    [{ name: '' }, 'Supply Voltage'],
    [{ name: '   ' }, 'Supply Voltage'],
    [{ name: 'a"b' }, 'ab'],
    [{ name: '  Main  ' }, 'Main'],
    [{ name: '<script>' }, 'script'],
  ])('name of %j gives %j', (setting, name) => expect(resolved('vsys', setting).name).toBe(name));

  it('a huge name is cut to 15 characters', () => {
    expect(resolved('vsys', { name: LONG }).name).toBe('x'.repeat(15));
  });

  it('stored units may be empty (no units)', () => {
    expect(resolved('vsys', { units: '' }).units).toBe('');
    expect(resolved('vsys', { units: 'mV' }).units).toBe('mV');
  });

  it.each([
    ['a string type on a number falls back', { displayType: 'hex' }, 5, 'default'],
    ['escaped on a number falls back', { displayType: 'escaped' }, 5, 'default'],
    ['raw is honoured on a number (CARD-22)', { displayType: 'raw' }, 5, 'raw'],
    ['hide on a number', { displayType: 'hide' }, 5, 'hide'],
    ['trendline on a number', { displayType: 'trendline' }, 5, 'trendline'],
    ['hours on a non-hrs number', { displayType: 'hours' }, 5, 'hours'],
    ['gauge on an hrs key', { displayType: 'gauge' }, 5, 'gauge'],
    ['a numeric type on a string falls back', { displayType: 'gauge' }, 'x', 'escaped'],
    ['default on a string is escaped', { displayType: 'default' }, 'x', 'escaped'],
    ['hex on a string', { displayType: 'hex' }, 'x', 'hex'],
    ['base64 with no value yet', { displayType: 'base64' }, undefined, 'base64'],
    ['hex with a null value', { displayType: 'hex' }, null, 'hex'],
    ['hide on a string', { displayType: 'hide' }, 'x', 'hide'],
  ])('%s', (_label, setting, sample, type) => {
    expect(resolved('cp1', setting, sample).displayType).toBe(type);
  });
});

describe('resolveDisplay: gauge (REF-11)', () => {
  it('a new gauge on supply voltage starts from the catalogue: 10/15/9/16', () => {
    expect(resolved('vsys', { displayType: 'gauge' }).gauge).toEqual(WARN_10_15_ALARM_9_16);
  });

  it('stored gauge settings win, field by field; invalid fields are ignored', () => {
    const gauge = resolved('vsys', {
      displayType: 'gauge',
      gaugeSettings: { min: 5, max: 'x', warnLow: null, warnHigh: 14, alarmLow: Infinity, alarmHigh: 17 },
    }).gauge;
    expect(gauge).toEqual({ min: 5, max: 20, warnLow: 10, warnHigh: 14, alarmLow: 9, alarmHigh: 17 });
  });

  it('stored gauge settings are kept under another type', () => {
    const gauge = resolved('vsys', { displayType: 'default', gaugeSettings: { ...WARN_10_15_ALARM_9_16, max: 30 } });
    expect(gauge.gauge?.max).toBe(30);
  });

  it('one-sided limits: the open side sits one unit outside the range, so it never colours', () => {
    expect(resolved('gps_speed', { displayType: 'gauge' }).gauge).toEqual({
      min: 0,
      max: 120,
      warnLow: -1,
      alarmLow: -1,
      warnHigh: 50,
      alarmHigh: 80,
    });
    expect(resolved('fuel_level', { displayType: 'gauge' }).gauge).toMatchObject({
      warnLow: 20,
      alarmLow: 10,
      warnHigh: 101,
      alarmHigh: 101,
    });
  });

  it('an unknown key gauges 0-100 without limits', () => {
    const gauge = resolved('flow', { displayType: 'gauge' }).gauge;
    expect(gauge).toEqual({ min: 0, max: 100, warnLow: -1, alarmLow: -1, warnHigh: 101, alarmHigh: 101 });
    if (gauge) {
      expect(gaugeState(0, gauge)).toBe('normal');
      expect(gaugeState(100, gauge)).toBe('normal');
    }
  });

  it.each(MEASUREMENT_CATALOGUE.map((m) => [m.key]))('%s: the catalogue gauge has a valid range', (key) => {
    const gauge = resolved(key, { displayType: 'gauge' }).gauge;
    expect(gauge).not.toBeNull();
    if (gauge) {
      expect(gaugeError(gauge)).toBeNull();
      expect(gauge.alarmLow).toBeLessThanOrEqual(gauge.warnLow);
      expect(gauge.warnLow).toBeLessThan(gauge.warnHigh);
      expect(gauge.warnHigh).toBeLessThanOrEqual(gauge.alarmHigh);
      expect(gaugeState((gauge.min + gauge.max) / 2, gauge)).not.toBe('alarm');
    }
  });
});

// ---- orderedKeys -------------------------------------------------------------------------

describe('orderedKeys (CARD-10, CARD-13)', () => {
  it('by sort: B at 1 and A at 2 shows B first', () => {
    expect(orderedKeys(['A', 'B'], { B: { sort: 1 }, A: { sort: 2 } })).toEqual(['B', 'A']);
  });

  it('hidden keys are left out', () => {
    expect(orderedKeys(['vsys', 'batt', 'label'], { batt: { displayType: 'hide' } })).toEqual(['vsys', 'label']);
  });

  it('equal sort: catalogue order, then unknown keys by name with numbers in order', () => {
    const keys = ['zeta', 'gps_lat', 'cp10', 'cp2', 'analog2', 'analog1', 'vsys', 'item10', 'item9', 'Alpha'];
    expect(orderedKeys(keys, {})).toEqual([
      'vsys',
      'analog1',
      'analog2',
      'cp2',
      'cp10',
      'gps_lat',
      'Alpha',
      'item9',
      'item10',
      'zeta',
    ]);
  });

  it('unknown keys sort by their display name', () => {
    expect(orderedKeys(['k1', 'k2'], { k1: { name: 'Zed' }, k2: { name: 'Amp' } })).toEqual(['k2', 'k1']);
  });

  it('a default sort (50) sits between 49 and 51', () => {
    expect(orderedKeys(['a', 'b', 'c'], { a: { sort: 51 }, c: { sort: 49 } })).toEqual(['c', 'b', 'a']);
  });

  it('drops duplicates and non-strings', () => {
    const keys = ['vsys', 'vsys', 7, null, 'batt'] as unknown as string[];
    expect(orderedKeys(keys, {})).toEqual(['vsys', 'batt']);
  });

  it.each([[null], [undefined], ['x'], [[]], [42]])('settings %j are treated as none', (settings) => {
    expect(orderedKeys(['batt', 'vsys'], settings as unknown as Record<string, unknown>)).toEqual(['vsys', 'batt']);
  });

  it('prototype names are ordinary keys, never settings', () => {
    expect(orderedKeys(['toString', '__proto__', 'constructor'], {})).toEqual(['__proto__', 'constructor', 'toString']);
    const own = JSON.parse('{"__proto__": {"displayType": "hide"}}') as Record<string, unknown>;
    expect(orderedKeys(['__proto__', 'vsys'], own)).toEqual(['vsys']);
  });

  it('not an array gives none', () => {
    expect(orderedKeys(null as unknown as string[], {})).toEqual([]);
  });
});

// ---- formatNumber and formatReading ------------------------------------------------------

describe('formatNumber', () => {
  it.each([
    [3.14159, 1, '3.1'],
    [3.15, 0, '3'],
    [12, 2, '12.00'],
    [-0.0001, 2, '0.00'],
    [-0, 0, '0'],
    [-1.5, 1, '-1.5'],
    [1e21, 0, '1e+21'],
    [0.1 + 0.2, 8, '0.30000000'],
    [5, 12, '5.00000000'],
    [5, -1, '5'],
    [5, Number.NaN, '5'],
    ['12.5', 1, '12.5'],
    [' 7 ', 0, '7'],
    [true, 0, '1'],
    [false, 0, '0'],
    [Number.NaN, 2, 'NaN'],
    [Infinity, 2, 'NaN'],
    [-Infinity, 2, 'NaN'],
    ['abc', 2, 'NaN'],
    ['', 2, 'NaN'],
    ['0x10', 2, 'NaN'],
    ['Infinity', 2, 'NaN'],
    [null, 2, 'NaN'],
    [undefined, 2, 'NaN'],
    [{}, 2, 'NaN'],
    [[1], 2, 'NaN'],
  ])('formatNumber(%j, %s) is %j', (value, dp, text) => expect(formatNumber(value, dp)).toBe(text));

  it('a huge string is NaN', () => expect(formatNumber(LONG, 2)).toBe('NaN'));
});

describe('formatReading', () => {
  const numeric = (type: string, setting: object = {}) =>
    resolved('cp1', { displayType: type, units: 'kg', ...setting });

  it.each<[string, unknown, ResolvedDisplay, { text: string; units: string; error?: boolean }]>([
    ['default: dp and units', 3.14159, numeric('default', { dp: 1 }), { text: '3.1', units: 'kg' }],
    ['trendline: dp and units', 3.14159, numeric('trendline', { dp: 3 }), { text: '3.142', units: 'kg' }],
    ['gauge: dp and units', 12.345, numeric('gauge', { dp: 1 }), { text: '12.3', units: 'kg' }],
    ['raw: as received (CARD-22)', 3.14159, numeric('raw', { dp: 1 }), { text: '3.14159', units: 'kg' }],
    ['raw string: no units', 'a\u0001b', resolved('s', { displayType: 'raw' }, 'x'), { text: 'a\u0001b', units: '' }],
    ['raw array', [1, 2.5], numeric('raw'), { text: '[1,2.5]', units: 'kg' }],
    ['raw boolean', true, numeric('raw'), { text: 'true', units: 'kg' }],
    ['missing (undefined)', undefined, numeric('default'), { text: '???', units: '' }],
    ['missing (null)', null, numeric('gauge'), { text: '???', units: '' }],
    ['non-numeric object', { a: 1 }, numeric('default'), { text: 'NaN', units: '' }],
    ['NaN', Number.NaN, numeric('default'), { text: 'NaN', units: '' }],
    ['numeric text', '42.42', numeric('default', { dp: 1 }), { text: '42.4', units: 'kg' }],
    ['text on a numeric key is shown escaped', 'err\n', numeric('default'), { text: 'err\\x0A', units: '' }],
    ['numeric array', [1, 2.345], numeric('default', { dp: 1 }), { text: '1.0, 2.3', units: 'kg' }],
    ['digital low (CARD-17)', 0, numeric('digital'), { text: 'OFF', units: '' }],
    ['digital high (CARD-17)', 1, numeric('digital'), { text: 'ON', units: '' }],
    ['digital at the threshold', 0.5, numeric('digital'), { text: 'ON', units: '' }],
    ['digital boolean', false, numeric('digital'), { text: 'OFF', units: '' }],
    ['digital non-numeric', 'x', numeric('digital'), { text: 'NaN', units: '' }],
    ['hours (CARD-18)', 1.5, resolved('state4_hrs'), { text: '1 h 30 min', units: '' }],
    ['hours non-numeric', {}, resolved('state4_hrs'), { text: 'NaN', units: '' }],
    ['hidden', 5, numeric('hide'), { text: '', units: '' }],
    ['hidden and missing', undefined, numeric('hide'), { text: '', units: '' }],
    ['escaped', 'a\u0000b', resolved('s', { displayType: 'escaped' }, 'x'), { text: 'a\\x00b', units: '' }],
    ['hex (CARD-19)', 'hi', resolved('s', { displayType: 'hex' }, 'x'), { text: '68 69', units: '' }],
    [
      'hex failure (CARD-19)',
      'a\ud800',
      resolved('s', { displayType: 'hex' }, 'x'),
      { text: CARD_MESSAGES.hexFailed, units: '', error: true },
    ],
    ['base64 (CARD-20)', 'aGk=', resolved('s', { displayType: 'base64' }, 'x'), { text: 'hi', units: '' }],
    [
      'base64 failure (CARD-20)',
      '@@',
      resolved('s', { displayType: 'base64' }, 'x'),
      { text: CARD_MESSAGES.base64Failed, units: '', error: true },
    ],
    [
      'base64 on a number shows the number',
      7,
      resolved('s', { displayType: 'base64' }, undefined),
      { text: '7.00', units: '' },
    ],
  ])('%s', (_label, value, d, expected) => {
    expect(formatReading(value, d)).toEqual(expected);
  });

  it.each<[string, number, string, string]>([
    ['LTE RSSI -114 is unknown (CARD-30)', -114, LTE_RSSI_UNKNOWN_TEXT, ''],
    ['LTE RSSI -113 is a reading', -113, '-113', 'dBm'],
    ['LTE RSSI -60', -60, '-60', 'dBm'],
  ])('%s', (_label, value, text, units) => {
    expect(formatReading(value, resolved('gsm_rssi', undefined, value))).toEqual({ text, units });
  });

  it('LTE RSSI -114 is unknown under a gauge too, but raw shows it as received', () => {
    expect(formatReading(-114, resolved('gsm_rssi', { displayType: 'gauge' })).text).toBe('unknown');
    expect(formatReading(-114, resolved('gsm_rssi', { displayType: 'raw' })).text).toBe('-114');
  });

  it('-114 on another key is a number', () => {
    expect(formatReading(-114, resolved('wifi_rssi'))).toEqual({ text: '-114', units: 'dBm' });
  });

  it('a raw value that cannot be written out fails cleanly', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(formatReading(circular, resolved('x', { displayType: 'raw' }))).toEqual({
      text: CARD_MESSAGES.processFailed,
      units: '',
      error: true,
    });
  });

  it.each(DISPLAY_TYPES.map((t) => [t]))('%s handles hostile values without throwing', (type) => {
    for (const value of [LONG, '\ud800', Number.NaN, Infinity, -Infinity, {}, [], [Number.NaN], Symbol('s'), 10n]) {
      const r = formatReading(value, resolved('cp1', { displayType: type }, value));
      expect(typeof r.text).toBe('string');
      expect(typeof r.units).toBe('string');
    }
  });
});

describe('isTrendlineDisplay', () => {
  it.each(DISPLAY_TYPES.map((t) => [t, t === 'default' || t === 'trendline']))('%s: %s', (type, expected) => {
    expect(isTrendlineDisplay(type)).toBe(expected);
  });
});

// ---- Gauge ------------------------------------------------------------------------------------

describe('gaugeState (CARD-14: warn 10-15, alarm 9-16)', () => {
  it.each([
    [9, 'alarm'],
    [10, 'warning'],
    [12, 'normal'],
    [15, 'warning'],
    [16, 'alarm'],
    [8.99, 'alarm'],
    [9.01, 'warning'],
    [10.01, 'normal'],
    [14.99, 'normal'],
    [15.99, 'warning'],
    [100, 'alarm'],
    [-100, 'alarm'],
    [Infinity, 'alarm'],
    [-Infinity, 'alarm'],
    [Number.NaN, 'normal'],
  ])('%s is %s', (value, state) => expect(gaugeState(value, WARN_10_15_ALARM_9_16)).toBe(state));
});

describe('gaugeError (CARD-15)', () => {
  it.each<[Partial<GaugeLimits>, string | null]>([
    [{ min: 5, max: 5 }, GAUGE_RANGE_ERROR],
    [{ min: 0, max: 20 }, null],
    [{ min: -5, max: -1 }, null],
    [{ min: 20, max: 0 }, GAUGE_RANGE_ERROR],
    [{ min: Number.NaN, max: 5 }, GAUGE_RANGE_ERROR],
    [{ min: 0, max: Infinity }, GAUGE_RANGE_ERROR],
  ])('%j gives %j', (range, error) => {
    expect(gaugeError({ ...WARN_10_15_ALARM_9_16, ...range })).toBe(error);
  });

  it('says the spec text', () => expect(GAUGE_RANGE_ERROR).toBe('Gauge Error: Invalid min/max range'));
});

describe('digitalText (CARD-16, CARD-17)', () => {
  it.each([
    [0, 'OFF'],
    [1, 'ON'],
    [0.5, 'ON'],
    [0.4999, 'OFF'],
    [-1, 'OFF'],
    [Infinity, 'ON'],
    [-Infinity, 'OFF'],
    [Number.NaN, 'NaN'],
  ])('%s shows %s with the defaults', (value, text) => expect(digitalText(value, DIGITAL_DEFAULTS)).toBe(text));

  it('uses its own strings and threshold', () => {
    const digital = { lowThreshold: 10, lowString: 'Closed', highString: 'Open' };
    expect(digitalText(9.9, digital)).toBe('Closed');
    expect(digitalText(10, digital)).toBe('Open');
  });
});

describe('formatHoursMinutes (CARD-18, DESIGN.md section 5)', () => {
  it.each([
    [1.5, '1 h 30 min'],
    [0, '0 h 00 min'],
    [0.0833, '0 h 05 min'],
    [1234.0833, '1,234 h 05 min'],
    [1234567.5, '1,234,567 h 30 min'],
    [1.9999, '2 h 00 min'],
    [2.991, '2 h 59 min'],
    [-1.5, '-1 h 30 min'],
    [-0.25, '-0 h 15 min'],
    [-0.001, '0 h 00 min'],
    [-0, '0 h 00 min'],
    [1e300, '1e+300 h 00 min'],
    [Number.MAX_VALUE, '1.7976931348623157e+308 h 00 min'],
    [Number.NaN, 'NaN'],
    [Infinity, 'NaN'],
    [-Infinity, 'NaN'],
  ])('%s hours is %j', (hours, text) => expect(formatHoursMinutes(hours)).toBe(text));

  it('a non-number is NaN', () => expect(formatHoursMinutes('1.5' as unknown as number)).toBe('NaN'));
});

// ---- String display modes ---------------------------------------------------------------

describe('stringDisplay', () => {
  it.each<[string, string, 'raw' | 'escaped' | 'hex' | 'base64', string, boolean]>([
    ['raw as received', 'a\u0001\ud800', 'raw', 'a\u0001\ud800', false],
    ['escaped: printable text unchanged', 'Héllo wörld 温度 👍', 'escaped', 'Héllo wörld 温度 👍', false],
    [
      'escaped: control bytes as \\xNN (CARD-21)',
      'a\u0000\u0001\u001f\u007fb',
      'escaped',
      'a\\x00\\x01\\x1F\\x7Fb',
      false,
    ],
    ['escaped: tab and newlines', 'a\tb\r\n', 'escaped', 'a\\x09b\\x0D\\x0A', false],
    ['escaped: C1 controls', '\u0085\u009f', 'escaped', '\\x85\\x9F', false],
    ['escaped: a backslash is doubled', 'C:\\dir', 'escaped', 'C:\\\\dir', false],
    ['escaped: lone surrogates', 'a\ud800b\udfff', 'escaped', 'a\\uD800b\\uDFFF', false],
    ['escaped: bidi override and zero width', '\u202eab\u200b\ufeff', 'escaped', '\\u202Eab\\u200B\\uFEFF', false],
    ['escaped: line separators', '\u2028\u2029', 'escaped', '\\u2028\\u2029', false],
    ['escaped: empty', '', 'escaped', '', false],
    ['hex (CARD-19)', 'hi', 'hex', '68 69', false],
    ['hex of UTF-8', 'é€😀', 'hex', 'C3 A9 E2 82 AC F0 9F 98 80', false],
    ['hex of control bytes', '\u0000\n', 'hex', '00 0A', false],
    ['hex of empty', '', 'hex', '', false],
    ['hex: a lone surrogate cannot be encoded', 'a\ud800', 'hex', CARD_MESSAGES.hexFailed, true],
    ['hex: a lone low surrogate', '\udc00', 'hex', CARD_MESSAGES.hexFailed, true],
    ['base64 (CARD-20)', 'aGk=', 'base64', 'hi', false],
    ['base64 without padding', 'aGk', 'base64', 'hi', false],
    ['base64 with white space', ' aG\nk= ', 'base64', 'hi', false],
    ['base64 of UTF-8', 'w6nigqw=', 'base64', 'é€', false],
    ['base64, URL-safe alphabet', '-_8=', 'base64', '\\xFB\\xFF', false],
    ['base64 of bytes that are not UTF-8', '/w==', 'base64', '\\xFF', false],
    ['base64 of a truncated sequence', 'w6k=', 'base64', 'é', false],
    ['base64 of an overlong encoding', 'wIA=', 'base64', '\\xC0\\x80', false],
    ['base64 of an encoded surrogate', '7aCA', 'base64', '\\xED\\xA0\\x80', false],
    ['base64 of control bytes', 'AAEK', 'base64', '\\x00\\x01\\x0A', false],
    ['base64 of empty', '', 'base64', '', false],
    ['base64 failure (CARD-20)', '@@', 'base64', CARD_MESSAGES.base64Failed, true],
    ['base64: one character too many', 'aGk=a', 'base64', CARD_MESSAGES.base64Failed, true],
    ['base64: a single character', 'a', 'base64', CARD_MESSAGES.base64Failed, true],
    ['base64: too much padding', 'aGk==', 'base64', CARD_MESSAGES.base64Failed, true],
    ['base64: padding only', '====', 'base64', CARD_MESSAGES.base64Failed, true],
    ['base64: padding in the middle', 'aG=k', 'base64', CARD_MESSAGES.base64Failed, true],
    ['base64: a lone surrogate', 'aGk\ud800', 'base64', CARD_MESSAGES.base64Failed, true],
    ['base64: non-ASCII letters', 'aGké', 'base64', CARD_MESSAGES.base64Failed, true],
  ])('%s', (_label, value, mode, text, error) => {
    expect(stringDisplay(value, mode)).toEqual({ text, error });
  });

  it.each([
    ['raw', CARD_MESSAGES.processFailed],
    ['escaped', CARD_MESSAGES.processFailed],
    ['hex', CARD_MESSAGES.hexFailed],
    ['base64', CARD_MESSAGES.base64Failed],
    ['bogus', CARD_MESSAGES.processFailed],
  ])('%s of a value that is not text fails with %j', (mode, text) => {
    expect(stringDisplay(42 as unknown as string, mode as 'raw')).toEqual({ text, error: true });
  });

  it('uses the spec failure texts', () => {
    expect(CARD_MESSAGES.hexFailed).toBe('Failed to display as hex');
    expect(CARD_MESSAGES.base64Failed).toBe('Failed to display as base64');
    expect(CARD_MESSAGES.processFailed).toBe('Failed to process data');
  });

  it('handles huge strings', () => {
    const big = 'A'.repeat(400_000);
    expect(stringDisplay(big, 'base64').text).toBe('\\x00'.repeat(300_000));
    expect(stringDisplay(big, 'hex').text.length).toBe(400_000 * 3 - 1);
    expect(stringDisplay(big, 'escaped').text).toBe(big);
  });
});

// ---- Trend and sparkline ---------------------------------------------------------------------

describe('trendOf', () => {
  it.each<[unknown, unknown, number, ReturnType<typeof trendOf>]>([
    [12.36, 12.31, 1, { direction: 'up', tooltip: 'Increased from 12.3' }],
    [12.21, 12.31, 1, { direction: 'down', tooltip: 'Decreased from 12.3' }],
    [12.34, 12.31, 1, null],
    [12.34, 12.31, 2, { direction: 'up', tooltip: 'Increased from 12.31' }],
    [5, 5, 0, null],
    [0.4, -0.4, 0, null],
    [1, 0, 0, { direction: 'up', tooltip: 'Increased from 0' }],
    [true, false, 0, { direction: 'up', tooltip: 'Increased from 0' }],
    ['7', '3', 0, { direction: 'up', tooltip: 'Increased from 3' }],
    [5, undefined, 2, null],
    [undefined, 5, 2, null],
    [Number.NaN, 5, 2, null],
    [5, Infinity, 2, null],
    ['abc', 5, 2, null],
  ])('trendOf(%j, %j, %s)', (current, previous, dp, expected) => {
    expect(trendOf(current, previous, dp)).toEqual(expected);
  });
});

describe('sparklinePoints', () => {
  it('keeps the newest 20 numeric points, oldest first', () => {
    const points = Array.from({ length: 30 }, (_, i) => ({ v: i, ts: 1000 + i })).reverse();
    const out = sparklinePoints(points);
    expect(out).toHaveLength(20);
    expect(out[0]).toEqual({ v: 10, ts: 1010 });
    expect(out[19]).toEqual({ v: 29, ts: 1029 });
  });

  it('skips points that are not numeric and counts only the numeric ones', () => {
    const points = [
      { v: 1, ts: 1 },
      { v: 'x', ts: 2 },
      { v: null, ts: 3 },
      { v: Number.NaN, ts: 4 },
      { v: 2, ts: Number.NaN },
      null,
      'junk',
      { v: '3.5', ts: 5 },
      { v: true, ts: 6 },
    ] as unknown as { v: unknown; ts: number }[];
    expect(sparklinePoints(points)).toEqual([
      { v: 1, ts: 1 },
      { v: 3.5, ts: 5 },
      { v: 1, ts: 6 },
    ]);
  });

  it.each([[[]], [null], [undefined], ['x']])('%j gives no points', (points) => {
    expect(sparklinePoints(points as unknown as { v: unknown; ts: number }[])).toEqual([]);
  });
});

// ---- Display Settings dialog -----------------------------------------------------------------

describe('displayTypeChoices (DLG-10, DLG-11)', () => {
  it('string keys offer exactly hide, raw, escaped, hex and base64', () => {
    expect(displayTypeChoices('label', true)).toEqual([
      { value: 'hide', label: 'Hide' },
      { value: 'raw', label: 'Raw' },
      { value: 'escaped', label: 'Escaped' },
      { value: 'hex', label: 'Hex' },
      { value: 'base64', label: 'Base64' },
    ]);
  });

  it('numeric keys offer exactly hidden, trendline, gauge, digital and hours & minutes', () => {
    expect(displayTypeChoices('temp', false)).toEqual([
      { value: 'hide', label: 'Hidden' },
      { value: 'trendline', label: 'Trendline' },
      { value: 'gauge', label: 'Gauge' },
      { value: 'digital', label: 'Digital' },
      { value: 'hours', label: 'Hours & Minutes' },
    ]);
  });

  it('every choice is a schema display type, and the lists are fresh copies', () => {
    const list = displayTypeChoices('temp', false);
    for (const c of [...list, ...displayTypeChoices('s', true)]) expect(DISPLAY_TYPES).toContain(c.value);
    list[0]!.label = 'changed';
    expect(displayTypeChoices('temp', false)[0]?.label).toBe('Hidden');
  });
});

describe('displayFieldRules (DLG-06 to DLG-09)', () => {
  it.each([
    ['cp_temp', false, { nameEditable: true, unitsEditable: true, dpVisible: true, typeVisible: true }],
    ['cp1', false, { nameEditable: true, unitsEditable: true, dpVisible: true, typeVisible: true }],
    ['cp_label', true, { nameEditable: true, unitsEditable: false, dpVisible: false, typeVisible: true }],
    ['temp', false, { nameEditable: false, unitsEditable: false, dpVisible: true, typeVisible: true }],
    ['vsys', false, { nameEditable: false, unitsEditable: false, dpVisible: true, typeVisible: true }],
    ['label', true, { nameEditable: false, unitsEditable: false, dpVisible: false, typeVisible: true }],
    ['state1_hrs', false, { nameEditable: true, unitsEditable: false, dpVisible: false, typeVisible: false }],
    ['hourmeter_hrs', false, { nameEditable: true, unitsEditable: false, dpVisible: false, typeVisible: false }],
    ['cp_hrs', false, { nameEditable: true, unitsEditable: true, dpVisible: false, typeVisible: false }],
    ['', false, { nameEditable: false, unitsEditable: false, dpVisible: true, typeVisible: true }],
    ['__proto__', false, { nameEditable: false, unitsEditable: false, dpVisible: true, typeVisible: true }],
  ])('%s (string: %s)', (key, isString, rules) => expect(displayFieldRules(key, isString)).toEqual(rules));
});

describe('draftFromDisplay', () => {
  it('holds the resolved values as text; default shows as trendline', () => {
    expect(draftFromDisplay(resolved('vsys'))).toEqual({
      displayType: 'trendline',
      name: 'Supply Voltage',
      units: 'V',
      dp: '2',
      sort: '50',
      showLastReading: true,
      gauge: { min: '0', max: '20', warnLow: '10', warnHigh: '15', alarmLow: '9', alarmHigh: '16' },
      digital: { lowThreshold: '0.5', lowString: 'OFF', highString: 'ON' },
      groupKey: '',
    });
  });

  it('keeps a stored gauge, digital and other types', () => {
    const d = resolved('vsys', {
      displayType: 'digital',
      gaugeSettings: { min: 1, max: 2, warnLow: 3, warnHigh: 4, alarmLow: 5, alarmHigh: 6 },
      digitalSettings: { lowThreshold: 11.5, lowString: 'Low', highString: 'OK' },
    });
    const draft = draftFromDisplay(d);
    expect(draft.displayType).toBe('digital');
    expect(draft.gauge).toEqual({ min: '1', max: '2', warnLow: '3', warnHigh: '4', alarmLow: '5', alarmHigh: '6' });
    expect(draft.digital).toEqual({ lowThreshold: '11.5', lowString: 'Low', highString: 'OK' });
    expect(draftFromDisplay(resolved('s', { displayType: 'hex' }, 'x')).displayType).toBe('hex');
    expect(draftFromDisplay(resolved('state1_hrs')).displayType).toBe('hours');
  });

  it('a long key name is cut to 15 characters so the draft starts valid', () => {
    const draft = draftFromDisplay(resolved('a_very_long_measurement_key'));
    expect(draft.name).toBe('a_very_long_mea');
    expect(canApplyDraft(draft)).toBe(true);
  });
});

describe('draftErrors and canApplyDraft', () => {
  it('a fresh draft of every catalogue key has no errors', () => {
    for (const m of MEASUREMENT_CATALOGUE) {
      for (const type of ['trendline', 'gauge', 'digital', 'hours'] as const) {
        expect(draftErrors(makeDraft(m.key, { displayType: type }))).toEqual({});
      }
    }
  });

  it.each([
    ['name', { name: 'x'.repeat(16) }],
    ['units', { units: 'x'.repeat(16) }],
    ['name', { name: LONG }],
  ])('DLG-02: %s over 15 characters', (path, overrides) => {
    const draft = makeDraft('cp1', overrides);
    expect(draftErrors(draft)).toEqual({ [path]: DISPLAY_DRAFT_MESSAGES.tooLong });
    expect(canApplyDraft(draft)).toBe(false);
  });

  it('15 characters, counted as characters not UTF-16 units, are fine', () => {
    expect(draftErrors(makeDraft('cp1', { name: 'x'.repeat(15), units: '😀'.repeat(15) }))).toEqual({});
  });

  it.each(GAUGE_FIELDS.map((f) => [f]))('DLG-04: a gauge with %s empty cannot be applied', (f) => {
    const base = makeDraft('vsys', { displayType: 'gauge' });
    const draft = { ...base, gauge: { ...base.gauge, [f]: '' } };
    expect(draftErrors(draft)).toEqual({ [f]: DISPLAY_DRAFT_MESSAGES.required });
    expect(canApplyDraft(draft)).toBe(false);
  });

  it.each(['abc', '1,5', 'Infinity', '1e999', '0x10', ' '])('a gauge field of %j is not a number', (value) => {
    const base = makeDraft('vsys', { displayType: 'gauge' });
    const errors = draftErrors({ ...base, gauge: { ...base.gauge, max: value } });
    expect(errors.max).toBe(value.trim() === '' ? DISPLAY_DRAFT_MESSAGES.required : DISPLAY_DRAFT_MESSAGES.notANumber);
  });

  it('empty gauge fields do not matter for other types', () => {
    const base = makeDraft('vsys', { displayType: 'trendline' });
    const gauge = { min: '', max: '', warnLow: '', warnHigh: '', alarmLow: '', alarmHigh: '' };
    expect(canApplyDraft({ ...base, gauge })).toBe(true);
  });

  it('CARD-15: a gauge with min = max can be applied (the card then shows the gauge error)', () => {
    const base = makeDraft('vsys', { displayType: 'gauge' });
    expect(canApplyDraft({ ...base, gauge: { ...base.gauge, min: '5', max: '5' } })).toBe(true);
  });

  it.each([
    ['lowThreshold', DISPLAY_DRAFT_MESSAGES.required],
    ['lowString', DISPLAY_DRAFT_MESSAGES.required],
    ['highString', DISPLAY_DRAFT_MESSAGES.required],
  ])('DLG-05: an empty digital %s is flagged', (f, message) => {
    const base = makeDraft('digital1', { displayType: 'digital' });
    const draft = { ...base, digital: { ...base.digital, [f]: '  ' } };
    expect(draftErrors(draft)).toEqual({ [f]: message });
    expect(canApplyDraft(draft)).toBe(false);
  });

  it('digital strings over 15 characters and a non-numeric threshold', () => {
    const base = makeDraft('digital1', { displayType: 'digital' });
    const draft = { ...base, digital: { lowThreshold: 'half', lowString: 'x'.repeat(16), highString: 'ON' } };
    expect(draftErrors(draft)).toEqual({
      lowThreshold: DISPLAY_DRAFT_MESSAGES.notANumber,
      lowString: DISPLAY_DRAFT_MESSAGES.tooLong,
    });
  });

  it('decimal places and order are never errors (they are clamped or defaulted)', () => {
    expect(draftErrors(makeDraft('vsys', { dp: '-1', sort: 'x' }))).toEqual({});
  });

  it('an unknown display type is an error', () => {
    expect(draftErrors(makeDraft('vsys', { displayType: 'pie' as 'gauge' }))).toEqual({
      displayType: DISPLAY_DRAFT_MESSAGES.displayType,
    });
  });

  it.each([[null], [{}], [{ gauge: null, digital: 5 }], ['x']])('a junk draft %j gives errors, not a crash', (junk) => {
    expect(canApplyDraft(junk as unknown as DisplayDraft)).toBe(false);
  });
});

describe('settingFromDraft', () => {
  const save = (key: string, overrides: Partial<DisplayDraft> = {}, isString = false) =>
    settingFromDraft(key, isString, makeDraft(key, overrides, isString ? 'x' : 1));

  it('an untouched numeric draft saves the type, order, decimals and showLastReading only', () => {
    expect(save('vsys')).toEqual({ displayType: 'trendline', sort: 50, dp: 2, showLastReading: true });
  });

  it.each([
    ['-1', 0],
    ['12', 8],
    ['3', 3],
    ['2.9', 2],
    ['x', 2],
    ['', 2],
  ])('DLG-03: dp %j is saved as %s', (dp, saved) => expect(save('vsys', { dp }).dp).toBe(saved));

  it.each([
    ['x', DEFAULT_SORT_ORDER],
    ['', DEFAULT_SORT_ORDER],
    ['1', 1],
    ['100', 100],
    ['150', 100],
    ['0', 1],
    ['-5', 1],
    ['7.8', 7],
    ['Infinity', DEFAULT_SORT_ORDER],
  ])('DLG-12: sort %j is saved as %s', (sort, saved) => expect(save('vsys', { sort }).sort).toBe(saved));

  it.each([
    ['a"b', 'ab'],
    ['  Loads moved  ', 'Loads moved'],
    ['<b>bold</b>', 'bbold/b'],
    ['x'.repeat(40), 'x'.repeat(15)],
  ])('DLG-14: the name %j is saved as %j', (name, saved) => expect(save('cp1', { name }).name).toBe(saved));

  it('a name or units equal to the catalogue, or blank, are left out', () => {
    expect(save('cp1', { name: 'Custom Param 1' })).not.toHaveProperty('name');
    expect(save('cp1', { name: '   ' })).not.toHaveProperty('name');
    expect(save('vsys', { units: 'V' })).not.toHaveProperty('units');
    expect(save('cp1', { units: 'kg' }).units).toBe('kg');
  });

  it('hrs keys save no decimal places; string keys neither, and only string types', () => {
    expect(save('state1_hrs', { name: 'Working' })).toEqual({
      displayType: 'hours',
      sort: 50,
      name: 'Working',
      showLastReading: true,
    });
    expect(save('label', { displayType: 'hex' }, true)).toEqual({
      displayType: 'hex',
      sort: 50,
      showLastReading: true,
    });
    expect(save('label', { displayType: 'gauge' }, true)).not.toHaveProperty('displayType');
    expect(save('temp', { displayType: 'base64' })).not.toHaveProperty('displayType');
  });

  it('a gauge saves its six numbers', () => {
    const base = makeDraft('vsys', { displayType: 'gauge' });
    const setting = settingFromDraft('vsys', false, {
      ...base,
      gauge: { min: '8', max: ' 18 ', warnLow: '11', warnHigh: '14.5', alarmLow: '1e1', alarmHigh: '-0' },
    });
    expect(setting.gaugeSettings).toEqual({
      min: 8,
      max: 18,
      warnLow: 11,
      warnHigh: 14.5,
      alarmLow: 10,
      alarmHigh: -0,
    });
    expect(setting).not.toHaveProperty('digitalSettings');
  });

  it('a gauge field that is not a number takes the catalogue value', () => {
    const base = makeDraft('vsys', { displayType: 'gauge' });
    const setting = settingFromDraft('vsys', false, { ...base, gauge: { ...base.gauge, alarmHigh: '', min: 'x' } });
    expect(setting.gaugeSettings).toMatchObject({ min: 0, alarmHigh: 16 });
  });

  it('a digital display saves sanitised strings, empty ones as the defaults', () => {
    const base = makeDraft('digital1', { displayType: 'digital' });
    const setting = settingFromDraft('digital1', false, {
      ...base,
      digital: { lowThreshold: '2', lowString: "C'losed?", highString: '' },
    });
    expect(setting.digitalSettings).toEqual({ lowThreshold: 2, lowString: 'Closed', highString: 'ON' });
    expect(setting).not.toHaveProperty('gaugeSettings');
  });

  it('showLastReading false is saved', () => {
    expect(save('vsys', { showLastReading: false }).showLastReading).toBe(false);
  });

  const hostileDrafts: [string, boolean, unknown][] = [
    [
      'vsys',
      false,
      { displayType: 'gauge', gauge: { min: LONG, max: null }, name: LONG, units: LONG, dp: LONG, sort: LONG },
    ],
    ['cp1', false, { displayType: 'digital', digital: { lowThreshold: 'NaN', lowString: '\ud800', highString: LONG } }],
    ['label', true, { displayType: 'base64', name: '`~"\'?<>', units: null, showLastReading: 'yes' }],
    ['x', false, {}],
    ['x', false, null],
    ['__proto__', false, { displayType: '__proto__', sort: '__proto__' }],
  ];

  it.each(hostileDrafts)('%s: a hostile draft still gives a valid setting', (key, isString, draft) => {
    const setting = settingFromDraft(key, isString, draft as DisplayDraft);
    const parsed = DisplaySettingSchema.safeParse(setting);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(setting);
  });

  it('every catalogue key and type gives a setting that passes the schema unchanged and resolves back', () => {
    for (const m of MEASUREMENT_CATALOGUE) {
      for (const choice of displayTypeChoices(m.key, false)) {
        const setting = settingFromDraft(m.key, false, makeDraft(m.key, { displayType: choice.value }));
        expect(DisplaySettingSchema.parse(setting)).toEqual(setting);
        const again = resolveDisplay(m.key, setting, 1);
        expect(again).toMatchObject({ name: m.name, units: m.units, dp: m.dp, sort: 50 });
        if (displayFieldRules(m.key, false).typeVisible) expect(again.displayType).toBe(choice.value);
      }
    }
  });

  it('a string key round-trips every string choice', () => {
    for (const choice of displayTypeChoices('label', true)) {
      const setting = save('label', { displayType: choice.value }, true);
      expect(resolveDisplay('label', setting, 'x').displayType).toBe(choice.value);
    }
  });
});

describe('mergeDisplaySetting', () => {
  it("keeps the stored entry's other valid fields; the section (groupKey) is the dialog's", () => {
    const stored = {
      displayType: 'gauge',
      name: 'Old',
      groupKey: 'engine',
      operatorEditable: true,
      confirmEnabled: true,
      confirmText: 'Sure?',
      colour: '#ff0000',
    };
    expect(mergeDisplaySetting(stored, { displayType: 'trendline', sort: 2 })).toEqual({
      displayType: 'trendline',
      sort: 2,
      operatorEditable: true,
      confirmEnabled: true,
      confirmText: 'Sure',
      colour: '#ff0000',
    });
  });

  it.each(JUNK.map((j) => [j]))('ignores junk %j', (stored) => {
    expect(mergeDisplaySetting(stored, { sort: 5 })).toEqual({ sort: 5 });
  });

  it('drops invalid stored fields', () => {
    const stored = { operatorEditable: 'yes', groupKey: LONG, colour: 5, confirmText: null };
    expect(mergeDisplaySetting(stored, { sort: 5 })).toEqual({ sort: 5 });
  });
});
