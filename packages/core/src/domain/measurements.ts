/**
 * The measurement catalogue (spec 2 "Measurement catalogue" and section 9): the name, units,
 * decimal places, default warning and alarm limits and gauge range of every key a device sends.
 * Key names are the ones the simulator and the device firmware use (apps/simulator/src/models.ts).
 */

/** Default warning and alarm limits of a measurement; a missing side has no limit. */
export interface MeasurementLimits {
  warnLow?: number;
  warnHigh?: number;
  alarmLow?: number;
  alarmHigh?: number;
}

/** What the portal knows about a data key. */
export interface Measurement {
  key: string;
  name: string;
  units: string;
  dp: number;
  limits?: MeasurementLimits;
  range?: { min: number; max: number };
}

/** The groups of the catalogue (REF-06). */
export const MEASUREMENT_CATEGORIES = [
  'voltage',
  'temperature',
  'environment',
  'input',
  'engine',
  'can',
  'modbus',
  'hourMeter',
  'machineState',
  'custom',
  'gps',
  'accelerometer',
  'network',
  'device',
] as const;
export type MeasurementCategory = (typeof MEASUREMENT_CATEGORIES)[number];

/**
 * The default sections of the device page (DESIGN.md section 5): a card whose display setting
 * has no groupKey sits under its catalogue section; keys the catalogue does not know go under
 * OTHER_SECTION, last. Names are headings, so they read as words, not keys.
 */
export const MEASUREMENT_SECTIONS = [
  'Power',
  'Engine',
  'Inputs',
  'Hours',
  'GPS',
  'Sensors',
  'CAN',
  'Modbus',
  'Custom',
  'Device',
] as const;
export type MeasurementSection = (typeof MEASUREMENT_SECTIONS)[number];
/** The section of keys with neither a groupKey nor a catalogue section. */
export const OTHER_SECTION = 'Other';

/** A catalogue entry: a measurement, its group and its default section on the device page. */
export interface CatalogueEntry extends Measurement {
  category: MeasurementCategory;
  section: MeasurementSection;
}

/** A family of numbered keys (analog1, cp12 ...): `{n}` in the name is the channel number. */
export interface MeasurementPattern extends Omit<CatalogueEntry, 'key' | 'name'> {
  /** The key prefixes (the first is what devices send; the others are accepted aliases). */
  prefixes: readonly string[];
  /** Prefix + number + suffix makes the key. */
  suffix: string;
  name: string;
  /** Highest channel number (lowest is 1). */
  maxChannel: number;
}

/** Channels of each kind on the largest model (spec 2 section 9). */
export const INPUT_CHANNELS = 5;
/** Hour-meter states state1_hrs .. state6_hrs; states 4-6 count as working (spec 2 section 9). */
export const MACHINE_STATES = 6;
export const WORKING_STATES = [4, 5, 6] as const;
/** The LTE modem's RSSI key; -114 there means unknown (LTE_RSSI_UNKNOWN). */
export const LTE_RSSI_KEY = 'gsm_rssi';

// Names stay within the display-settings limit of 15 characters, so a catalogue name is always a
// valid display name. Limits beyond the three the spec gives are usual figures for the sensor.
const FIXED: readonly CatalogueEntry[] = [
  {
    key: 'vsys',
    name: 'Supply Voltage',
    units: 'V',
    dp: 2,
    category: 'voltage',
    section: 'Power',
    limits: { warnLow: 10, warnHigh: 15, alarmLow: 9, alarmHigh: 16 },
    range: { min: 0, max: 20 },
  },
  {
    // The device's internal Li-ion backup cell.
    key: 'batt',
    name: 'Battery Voltage',
    units: 'V',
    dp: 2,
    category: 'voltage',
    section: 'Power',
    limits: { warnLow: 3.6, warnHigh: 4.25, alarmLow: 3.4, alarmHigh: 4.3 },
    range: { min: 3, max: 4.5 },
  },
  {
    key: 'ambient_temp',
    name: 'Ambient Temp',
    units: '°C',
    dp: 1,
    category: 'temperature',
    section: 'Sensors',
    limits: { warnLow: -10, warnHigh: 50, alarmLow: -20, alarmHigh: 60 },
    range: { min: -40, max: 85 },
  },
  {
    key: 'ambient_hum',
    name: 'Humidity',
    units: '%',
    dp: 1,
    category: 'environment',
    section: 'Sensors',
    limits: { warnLow: 20, warnHigh: 80, alarmLow: 10, alarmHigh: 90 },
    range: { min: 0, max: 100 },
  },
  {
    key: 'engine_speed',
    name: 'Engine Speed',
    units: 'rpm',
    dp: 0,
    category: 'engine',
    section: 'Engine',
    limits: { warnHigh: 2200, alarmHigh: 2500 },
    range: { min: 0, max: 3000 },
  },
  {
    key: 'engine_torque',
    name: 'Engine Torque',
    units: '%',
    dp: 0,
    category: 'engine',
    section: 'Engine',
    range: { min: 0, max: 125 },
  },
  {
    key: 'engine_load',
    name: 'Engine Load',
    units: '%',
    dp: 0,
    category: 'engine',
    section: 'Engine',
    limits: { warnHigh: 90, alarmHigh: 100 },
    range: { min: 0, max: 125 },
  },
  {
    // The simulator's overheat event fires above 105 °C and clears below 100 °C.
    key: 'coolant_temp',
    name: 'Coolant Temp',
    units: '°C',
    dp: 1,
    category: 'engine',
    section: 'Engine',
    limits: { warnHigh: 100, alarmHigh: 105 },
    range: { min: -20, max: 130 },
  },
  {
    key: 'oil_pressure',
    name: 'Oil Pressure',
    units: 'kPa',
    dp: 0,
    category: 'engine',
    section: 'Engine',
    limits: { warnLow: 100, alarmLow: 70 },
    range: { min: 0, max: 700 },
  },
  {
    key: 'oil_temp',
    name: 'Oil Temp',
    units: '°C',
    dp: 1,
    category: 'engine',
    section: 'Engine',
    limits: { warnHigh: 110, alarmHigh: 120 },
    range: { min: -20, max: 150 },
  },
  {
    // The simulator's low-fuel alert fires below 15 %.
    key: 'fuel_level',
    name: 'Fuel Level',
    units: '%',
    dp: 1,
    category: 'engine',
    section: 'Engine',
    limits: { warnLow: 20, alarmLow: 10 },
    range: { min: 0, max: 100 },
  },
  {
    key: 'fuel_rate',
    name: 'Fuel Rate',
    units: 'L/h',
    dp: 1,
    category: 'engine',
    section: 'Engine',
    range: { min: 0, max: 100 },
  },
  {
    key: 'def_level',
    name: 'DEF Level',
    units: '%',
    dp: 1,
    category: 'engine',
    section: 'Engine',
    limits: { warnLow: 15, alarmLow: 5 },
    range: { min: 0, max: 100 },
  },
  { key: 'engine_hours', name: 'Engine Hours', units: 'h', dp: 1, category: 'engine', section: 'Hours' },
  {
    key: 'state',
    name: 'Machine State',
    units: '',
    dp: 0,
    category: 'machineState',
    section: 'Hours',
    range: { min: 1, max: 6 },
  },
  { key: 'hourmeter_hrs', name: 'Hour Meter', units: 'h', dp: 2, category: 'hourMeter', section: 'Hours' },
  {
    key: 'gps_speed',
    name: 'Speed',
    units: 'km/h',
    dp: 1,
    category: 'gps',
    section: 'GPS',
    limits: { warnHigh: 50, alarmHigh: 80 },
    range: { min: 0, max: 120 },
  },
  {
    key: 'gps_lat',
    name: 'Latitude',
    units: '°',
    dp: 6,
    category: 'gps',
    section: 'GPS',
    range: { min: -90, max: 90 },
  },
  {
    key: 'gps_lon',
    name: 'Longitude',
    units: '°',
    dp: 6,
    category: 'gps',
    section: 'GPS',
    range: { min: -180, max: 180 },
  },
  {
    key: 'gps_altitude',
    name: 'Altitude',
    units: 'm',
    dp: 1,
    category: 'gps',
    section: 'GPS',
    range: { min: -100, max: 5000 },
  },
  { key: 'gps_cog', name: 'Course', units: '°', dp: 1, category: 'gps', section: 'GPS', range: { min: 0, max: 360 } },
  {
    // Fewer than 4 satellites gives no 3D fix.
    key: 'gps_nsat',
    name: 'Satellites',
    units: '',
    dp: 0,
    category: 'gps',
    section: 'GPS',
    limits: { warnLow: 5, alarmLow: 3 },
    range: { min: 0, max: 24 },
  },
  {
    key: 'gps_hdop',
    name: 'GPS HDOP',
    units: '',
    dp: 1,
    category: 'gps',
    section: 'GPS',
    limits: { warnHigh: 5, alarmHigh: 10 },
    range: { min: 0, max: 15 },
  },
  {
    key: 'accel_x',
    name: 'Accel X',
    units: 'g',
    dp: 3,
    category: 'accelerometer',
    section: 'Sensors',
    range: { min: -2, max: 2 },
  },
  {
    key: 'accel_y',
    name: 'Accel Y',
    units: 'g',
    dp: 3,
    category: 'accelerometer',
    section: 'Sensors',
    range: { min: -2, max: 2 },
  },
  {
    key: 'accel_z',
    name: 'Accel Z',
    units: 'g',
    dp: 3,
    category: 'accelerometer',
    section: 'Sensors',
    range: { min: -2, max: 2 },
  },
  {
    key: LTE_RSSI_KEY,
    name: 'LTE RSSI',
    units: 'dBm',
    dp: 0,
    category: 'network',
    section: 'Device',
    limits: { warnLow: -100, alarmLow: -110 },
    range: { min: -120, max: -40 },
  },
  {
    key: 'wifi_rssi',
    name: 'Wi-Fi RSSI',
    units: 'dBm',
    dp: 0,
    category: 'network',
    section: 'Device',
    limits: { warnLow: -80, alarmLow: -90 },
    range: { min: -100, max: -30 },
  },
  { key: 'wifi_ip', name: 'Wi-Fi IP', units: '', dp: 0, category: 'network', section: 'Device' },
  { key: 'gsm_operator', name: 'Operator', units: '', dp: 0, category: 'network', section: 'Device' },
  {
    key: 'cpu_temp',
    name: 'CPU Temp',
    units: '°C',
    dp: 1,
    category: 'temperature',
    section: 'Device',
    limits: { warnHigh: 70, alarmHigh: 85 },
    range: { min: -40, max: 100 },
  },
  { key: 'mem_free', name: 'Free Memory', units: 'B', dp: 0, category: 'device', section: 'Device' },
  { key: 'uptime_s', name: 'Uptime', units: 's', dp: 0, category: 'device', section: 'Device' },
];

/** Numbered key families, in catalogue order (they sit after the fixed keys of the same group). */
export const MEASUREMENT_PATTERNS: readonly MeasurementPattern[] = [
  {
    prefixes: ['analog', 'ain'],
    suffix: '',
    name: 'Analog Input {n}',
    units: 'V',
    dp: 2,
    category: 'input',
    section: 'Inputs',
    maxChannel: INPUT_CHANNELS,
    range: { min: 0, max: 10 },
  },
  {
    // 4-20 mA loops: NAMUR NE 43 signal-failure limits (below 3.6 or above 21 mA).
    prefixes: ['current', 'cin'],
    suffix: '',
    name: 'Current Input {n}',
    units: 'mA',
    dp: 2,
    category: 'input',
    section: 'Inputs',
    maxChannel: INPUT_CHANNELS,
    limits: { warnLow: 3.8, warnHigh: 20.5, alarmLow: 3.6, alarmHigh: 21 },
    range: { min: 0, max: 24 },
  },
  {
    prefixes: ['digital', 'din'],
    suffix: '',
    name: 'Digital Input {n}',
    units: '',
    dp: 0,
    category: 'input',
    section: 'Inputs',
    maxChannel: INPUT_CHANNELS,
    range: { min: 0, max: 1 },
  },
  {
    prefixes: ['freq'],
    suffix: '',
    name: 'Frequency {n}',
    units: 'Hz',
    dp: 1,
    category: 'input',
    section: 'Inputs',
    maxChannel: INPUT_CHANNELS,
    range: { min: 0, max: 1000 },
  },
  {
    prefixes: ['duty'],
    suffix: '',
    name: 'Duty Cycle {n}',
    units: '%',
    dp: 1,
    category: 'input',
    section: 'Inputs',
    maxChannel: INPUT_CHANNELS,
    range: { min: 0, max: 100 },
  },
  {
    prefixes: ['pulse'],
    suffix: '',
    name: 'Pulse Count {n}',
    units: '',
    dp: 0,
    category: 'input',
    section: 'Inputs',
    maxChannel: INPUT_CHANNELS,
  },
  {
    prefixes: ['state'],
    suffix: '_hrs',
    name: 'State {n} Hours',
    units: 'h',
    dp: 2,
    category: 'hourMeter',
    section: 'Hours',
    maxChannel: MACHINE_STATES,
  },
  {
    // J1939 parameters a device script decodes by number (spn190 ...), SPN 1 to 2^19 - 1.
    prefixes: ['spn'],
    suffix: '',
    name: 'SPN {n}',
    units: '',
    dp: 2,
    category: 'can',
    section: 'CAN',
    maxChannel: 524_287,
  },
  {
    prefixes: ['modbus'],
    suffix: '',
    name: 'Modbus {n}',
    units: '',
    dp: 2,
    category: 'modbus',
    section: 'Modbus',
    maxChannel: 65_536,
  },
  {
    prefixes: ['cp'],
    suffix: '',
    name: 'Custom Param {n}',
    units: '',
    dp: 2,
    category: 'custom',
    section: 'Custom',
    maxChannel: 99,
  },
];

// Group order of the cards: power and environment, inputs, engine, machine and hours, custom,
// then position, motion, network and the device's own figures.
const CATEGORY_RANK = Object.fromEntries(MEASUREMENT_CATEGORIES.map((c, i) => [c, i])) as Record<
  MeasurementCategory,
  number
>;

/** Every fixed key of the catalogue, in catalogue order (pattern families are in MEASUREMENT_PATTERNS). */
export const MEASUREMENT_CATALOGUE: readonly CatalogueEntry[] = [...FIXED].sort(
  (a, b) => CATEGORY_RANK[a.category] - CATEGORY_RANK[b.category],
);

// A rank is group * 10000 + place: fixed keys take places 0-99 of their group, families follow.
const GROUP_STRIDE = 10_000;
const FAMILY_START = 100;

const BY_KEY: ReadonlyMap<string, { entry: CatalogueEntry; rank: number }> = new Map(
  MEASUREMENT_CATALOGUE.map((entry, i) => [
    entry.key,
    { entry, rank: CATEGORY_RANK[entry.category] * GROUP_STRIDE + i },
  ]),
);

const PATTERN_RE = /^([a-z]+?)([1-9]\d{0,5})(_hrs)?$/;

function matchPattern(key: string): { entry: CatalogueEntry; rank: number } | null {
  const m = PATTERN_RE.exec(key);
  if (!m) return null;
  const [, prefix = '', digits = '', suffix = ''] = m;
  const n = Number(digits);
  const index = MEASUREMENT_PATTERNS.findIndex((p) => p.prefixes.includes(prefix) && p.suffix === suffix);
  const pattern = MEASUREMENT_PATTERNS[index];
  if (!pattern || n > pattern.maxChannel) return null;
  const { prefixes: _prefixes, suffix: _suffix, maxChannel: _max, name, ...rest } = pattern;
  const entry: CatalogueEntry = { ...rest, key, name: name.replace('{n}', digits) };
  // Families sort after the fixed keys of their group, then by family, then by channel.
  const rank = CATEGORY_RANK[pattern.category] * GROUP_STRIDE + FAMILY_START + index + n / 1e7;
  return { entry, rank };
}

function lookup(key: string): { entry: CatalogueEntry; rank: number } | null {
  if (typeof key !== 'string') return null;
  return BY_KEY.get(key) ?? matchPattern(key);
}

function copy(m: Measurement): Measurement {
  const out: Measurement = { key: m.key, name: m.name, units: m.units, dp: m.dp };
  if (m.limits) out.limits = { ...m.limits };
  if (m.range) out.range = { ...m.range };
  return out;
}

/** The catalogue entry of a key: a known key, a numbered family (ain3 -> 'Analog Input 3'), else the key itself. */
export function measurementOf(key: string): Measurement {
  const found = lookup(key);
  if (found) return copy(found.entry);
  return { key: String(key), name: String(key), units: '', dp: 2 };
}

/** The catalogue group of a key, or null for a key the catalogue does not know. */
export function measurementCategory(key: string): MeasurementCategory | null {
  return lookup(key)?.entry.category ?? null;
}

/** The default device-page section of a key (vsys -> 'Power', ain3 -> 'Inputs'), or null for a key the catalogue does not know. */
export function measurementSection(key: string): MeasurementSection | null {
  return lookup(key)?.entry.section ?? null;
}

/**
 * Where a key sits in catalogue order (lower first); unknown keys give Infinity. Used to order
 * cards of equal sort value.
 */
export function catalogueRank(key: string): number {
  return lookup(key)?.rank ?? Number.POSITIVE_INFINITY;
}

/** True for keys shown as an hour meter (names ending in hrs: state1_hrs .. state6_hrs, hourmeter_hrs). */
export function isHoursKey(key: string): boolean {
  return typeof key === 'string' && key.endsWith('hrs');
}

/** True for custom-parameter keys (names starting with cp), whose name and units the user sets. */
export function isCustomParameterKey(key: string): boolean {
  return typeof key === 'string' && key.startsWith('cp');
}

/** Work-hour states 4-6 count as working (spec 2 section 9); anything else, or a non-integer, does not. */
export function isWorkingState(state: number): boolean {
  return (WORKING_STATES as readonly unknown[]).includes(state);
}
