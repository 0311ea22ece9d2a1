import { describe, expect, it } from 'vitest';
import {
  DISPLAY_TEXT_MAX_LENGTH,
  MEASUREMENT_CATALOGUE,
  MEASUREMENT_CATEGORIES,
  MEASUREMENT_PATTERNS,
  catalogueRank,
  isCustomParameterKey,
  isHoursKey,
  isWorkingState,
  measurementCategory,
  measurementOf,
  sanitiseDisplayText,
  type Measurement,
} from '../src/index';
import { SIMULATOR_COMMON_KEYS } from '../src/testing';

/** Every measurement key the simulator's largest model (QUAD-X2) sends, plus its diagnostics figures. */
const SIMULATOR_KEYS = [
  ...SIMULATOR_COMMON_KEYS,
  'wifi_rssi',
  ...[1, 2, 3, 4, 5].flatMap((n) => [`analog${n}`, `current${n}`, `digital${n}`, `freq${n}`, `duty${n}`, `pulse${n}`]),
  ...[1, 2, 3, 4, 5, 6].map((n) => `state${n}_hrs`),
  'hourmeter_hrs',
  'state',
  'cp1',
  'cp2',
  'coolant_temp',
  'cpu_temp',
  'mem_free',
  'uptime_s',
  'gsm_operator',
];

const HOUR_KEYS = ['state1_hrs', 'state2_hrs', 'state3_hrs', 'state4_hrs', 'state5_hrs', 'state6_hrs', 'hourmeter_hrs'];

/** One key of every pattern family at its highest channel, and every fixed key. */
const ALL_KNOWN_KEYS = [
  ...MEASUREMENT_CATALOGUE.map((m) => m.key),
  ...MEASUREMENT_PATTERNS.flatMap((p) =>
    p.prefixes.flatMap((prefix) => [`${prefix}1${p.suffix}`, `${prefix}${p.maxChannel}${p.suffix}`]),
  ),
];

describe('measurement catalogue: simulator keys', () => {
  it.each(SIMULATOR_KEYS)('%s is known (not the key-as-name fallback)', (key) => {
    const m = measurementOf(key);
    expect(m.key).toBe(key);
    expect(m.name).not.toBe(key);
    expect(measurementCategory(key)).not.toBeNull();
    expect(catalogueRank(key)).toBeLessThan(Number.POSITIVE_INFINITY);
  });
});

describe('measurement catalogue: spec limits (REF-08 to REF-10)', () => {
  it.each<[string, Measurement['limits']]>([
    ['vsys', { warnLow: 10, warnHigh: 15, alarmLow: 9, alarmHigh: 16 }],
    ['ambient_hum', { warnLow: 20, warnHigh: 80, alarmLow: 10, alarmHigh: 90 }],
    ['gps_speed', { warnHigh: 50, alarmHigh: 80 }],
  ])('%s has the spec limits', (key, limits) => {
    expect(measurementOf(key).limits).toEqual(limits);
  });

  it('supply voltage and humidity have their units', () => {
    expect(measurementOf('vsys')).toMatchObject({ name: 'Supply Voltage', units: 'V' });
    expect(measurementOf('ambient_hum')).toMatchObject({ units: '%' });
    expect(measurementOf('gps_speed')).toMatchObject({ units: 'km/h' });
  });
});

describe('measurement catalogue: hour meters (REF-07)', () => {
  it.each(HOUR_KEYS)('%s is an hours measurement', (key) => {
    expect(isHoursKey(key)).toBe(true);
    expect(measurementOf(key).units).toBe('h');
    expect(measurementCategory(key)).toBe('hourMeter');
  });

  it.each([
    ['state1_hrs', 'State 1 Hours'],
    ['state6_hrs', 'State 6 Hours'],
    ['hourmeter_hrs', 'Hour Meter'],
  ])('%s is named %s', (key, name) => expect(measurementOf(key).name).toBe(name));

  it.each(['state7_hrs', 'state0_hrs', 'state1hrs'])('%s is not a catalogue key', (key) => {
    expect(measurementOf(key)).toEqual({ key, name: key, units: '', dp: 2 });
  });

  it.each([
    ['pump_hrs', true],
    ['hrs', true],
    ['state1', false],
    ['hrs_total', false],
    ['', false],
  ])('isHoursKey(%j) is %s', (key, expected) => expect(isHoursKey(key)).toBe(expected));
});

describe('measurement catalogue: categories (REF-06)', () => {
  const categoryOfEveryEntry = new Set([
    ...MEASUREMENT_CATALOGUE.map((m) => m.category),
    ...MEASUREMENT_PATTERNS.map((p) => p.category),
  ]);

  it.each([
    'temperature',
    'voltage',
    'gps',
    'accelerometer',
    'engine',
    'can',
    'modbus',
    'hourMeter',
    'machineState',
  ] as const)('has entries in %s', (category) => {
    expect(categoryOfEveryEntry.has(category)).toBe(true);
  });

  it('every category is used', () => {
    expect([...categoryOfEveryEntry].sort()).toEqual([...MEASUREMENT_CATEGORIES].sort());
  });

  it.each([
    ['engine_speed', 'engine', 'Engine Speed', 'rpm'],
    ['coolant_temp', 'engine', 'Coolant Temp', '°C'],
    ['fuel_level', 'engine', 'Fuel Level', '%'],
    ['spn190', 'can', 'SPN 190', ''],
    ['modbus40001', 'modbus', 'Modbus 40001', ''],
    ['state', 'machineState', 'Machine State', ''],
    ['accel_z', 'accelerometer', 'Accel Z', 'g'],
    ['ambient_temp', 'temperature', 'Ambient Temp', '°C'],
    ['cpu_temp', 'temperature', 'CPU Temp', '°C'],
  ])('%s: %s, %s, %s', (key, category, name, units) => {
    expect(measurementCategory(key)).toBe(category);
    expect(measurementOf(key)).toMatchObject({ name, units });
  });
});

describe('measurement catalogue: numbered channels', () => {
  it.each([
    ['analog1', 'Analog Input 1', 'V'],
    ['analog5', 'Analog Input 5', 'V'],
    ['ain3', 'Analog Input 3', 'V'],
    ['current2', 'Current Input 2', 'mA'],
    ['cin2', 'Current Input 2', 'mA'],
    ['digital4', 'Digital Input 4', ''],
    ['din4', 'Digital Input 4', ''],
    ['freq3', 'Frequency 3', 'Hz'],
    ['duty5', 'Duty Cycle 5', '%'],
    ['pulse1', 'Pulse Count 1', ''],
    ['cp1', 'Custom Param 1', ''],
    ['cp99', 'Custom Param 99', ''],
  ])('%s is %s (%s)', (key, name, units) => {
    expect(measurementOf(key)).toMatchObject({ key, name, units });
  });

  it.each(['analog6', 'analog0', 'analog01', 'Analog1', 'ain', 'cp0', 'cp100', 'cp_temp', 'cpu', 'pulse1000000'])(
    '%s falls back to the key itself',
    (key) => expect(measurementOf(key)).toEqual({ key, name: key, units: '', dp: 2 }),
  );

  it('channels of a family sort by number, after the fixed keys of their group', () => {
    expect(catalogueRank('analog1')).toBeLessThan(catalogueRank('analog2'));
    expect(catalogueRank('analog5')).toBeLessThan(catalogueRank('current1'));
    expect(catalogueRank('cp2')).toBeLessThan(catalogueRank('cp10'));
    expect(catalogueRank('hourmeter_hrs')).toBeLessThan(catalogueRank('state1_hrs'));
    expect(catalogueRank('vsys')).toBeLessThan(catalogueRank('analog1'));
    expect(catalogueRank('analog1')).toBeLessThan(catalogueRank('engine_speed'));
    expect(catalogueRank('cp99')).toBeLessThan(catalogueRank('gps_lat'));
  });

  it.each([
    ['cp1', true],
    ['cp_temp', true],
    ['cpu_temp', true], // the spec's rule is literally "starting with cp"
    ['xcp1', false],
    ['CP1', false],
  ])('isCustomParameterKey(%j) is %s', (key, expected) => expect(isCustomParameterKey(key)).toBe(expected));
});

describe('measurement catalogue: shape of every entry', () => {
  it.each(ALL_KNOWN_KEYS)('%s: a valid display name, dp 0-8, limits ordered inside the range', (key) => {
    const m = measurementOf(key);
    expect(Array.from(m.name).length).toBeLessThanOrEqual(DISPLAY_TEXT_MAX_LENGTH);
    expect(sanitiseDisplayText(m.name)).toBe(m.name);
    expect(sanitiseDisplayText(m.units)).toBe(m.units);
    expect(Number.isInteger(m.dp) && m.dp >= 0 && m.dp <= 8).toBe(true);
    const l = m.limits ?? {};
    const lows = [l.alarmLow, l.warnLow].filter((v) => v !== undefined);
    const highs = [l.warnHigh, l.alarmHigh].filter((v) => v !== undefined);
    const ordered = [...lows, ...highs];
    expect([...ordered].sort((a, b) => a - b)).toEqual(ordered);
    if (m.range) {
      expect(m.range.min).toBeLessThan(m.range.max);
      for (const v of ordered) {
        expect(v).toBeGreaterThanOrEqual(m.range.min);
        expect(v).toBeLessThanOrEqual(m.range.max);
      }
    }
  });

  it('fixed keys are unique', () => {
    const keys = MEASUREMENT_CATALOGUE.map((m) => m.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('returns a copy: changing it does not change the catalogue', () => {
    const m = measurementOf('vsys');
    m.name = 'changed';
    if (m.limits) m.limits.warnLow = 0;
    expect(measurementOf('vsys').name).toBe('Supply Voltage');
    expect(measurementOf('vsys').limits?.warnLow).toBe(10);
  });
});

describe('measurement catalogue: hostile keys', () => {
  it.each([
    ['empty', ''],
    ['__proto__', '__proto__'],
    ['constructor', 'constructor'],
    ['toString', 'toString'],
    ['hasOwnProperty', 'hasOwnProperty'],
    ['huge', 'x'.repeat(100_000)],
    ['lone surrogate', '\ud800'],
    ['ts', 'ts'],
  ])('%s falls back to the key itself', (_label, key) => {
    expect(measurementOf(key)).toEqual({ key, name: key, units: '', dp: 2 });
    expect(measurementCategory(key)).toBeNull();
    expect(catalogueRank(key)).toBe(Number.POSITIVE_INFINITY);
  });

  it('a non-string key does not throw', () => {
    expect(measurementOf(null as unknown as string).name).toBe('null');
    expect(isHoursKey(undefined as unknown as string)).toBe(false);
    expect(isCustomParameterKey(42 as unknown as string)).toBe(false);
  });
});

describe('isWorkingState (spec 2 section 9: states 4-6 count as working)', () => {
  it.each([
    [1, false],
    [2, false],
    [3, false],
    [4, true],
    [5, true],
    [6, true],
    [7, false],
    [0, false],
    [-4, false],
    [4.5, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
  ])('state %s: %s', (state, expected) => expect(isWorkingState(state)).toBe(expected));

  it.each([['4'], [null], [undefined], [true]])('%j is not a state', (state) => {
    expect(isWorkingState(state as unknown as number)).toBe(false);
  });
});
