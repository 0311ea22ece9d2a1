/**
 * Custom device pages (spec 1 sections 1, 2 and 5; spec 2 section 2; DESIGN.md section 5): the
 * pages under /custom/ without navigation bar or footer, the name a device's notes home_page
 * gives, and the rules of what they show (docs/decisions.md 'Custom pages'): the vibracorder's
 * vibration figures from the accelerometer keys, and the level of a reading on the kiosk.
 */
import type { DataPoint } from '../contracts/device-data';
import { alertLimits, limitLevel, type LimitLevel } from './alerts';
import { catalogueRank, measurementCategory } from './measurements';
import { customPageName } from './validation';

/** The custom pages there are: a vibration view and a kiosk (wall screen) view. */
export const CUSTOM_PAGES = ['vibracorder', 'securified'] as const;
export type CustomPage = (typeof CUSTOM_PAGES)[number];

/**
 * The custom page a name (a path segment, a notes home_page) names: its word characters
 * (customPageName), compared without case as the router compares paths; null for any other name.
 */
export function customPageOf(name: unknown): CustomPage | null {
  const word = customPageName(name).toLowerCase();
  return (CUSTOM_PAGES as readonly string[]).includes(word) ? (word as CustomPage) : null;
}

/**
 * The address of a device's custom page from its notes home_page: /custom/{home_page}/{deviceid},
 * the name with its non-word characters stripped; null when the notes name none.
 */
export function customPagePath(homePage: unknown, deviceid: string): string | null {
  const name = customPageName(homePage);
  return name === '' ? null : `/custom/${name}/${encodeURIComponent(deviceid)}`;
}

// ---- Vibracorder --------------------------------------------------------------------------

/** Points of each axis the vibration figures and the trend cover (newest first in the data). */
export const VIBRATION_WINDOW_POINTS = 120;

/** The device's accelerometer keys (the catalogue's accelerometer group: accel_x, accel_y, accel_z), in catalogue order. */
export function accelerometerKeys(keys: Iterable<string>): string[] {
  return [...new Set(keys)]
    .filter((key) => typeof key === 'string' && measurementCategory(key) === 'accelerometer')
    .sort((a, b) => catalogueRank(a) - catalogueRank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** One axis over the window: its newest value, mean, RMS about the mean and peak deviation. */
export interface AxisVibration {
  /** The newest numeric value and its time (epoch s), or null when the window has none. */
  latest: DataPoint | null;
  /** Numeric values in the window. */
  count: number;
  mean: number | null;
  /** The RMS of the value about its mean (its standard deviation): the vibration, gravity and tilt taken out. */
  rms: number | null;
  /** The largest distance of a value from the mean. */
  peak: number | null;
  /** The window's numeric points, oldest first (the trend). */
  points: { ts: number; v: number }[];
}

const numeric = (p: DataPoint): p is { ts: number; v: number } =>
  typeof p.v === 'number' && Number.isFinite(p.v) && Number.isFinite(p.ts);

/**
 * An axis's vibration over its newest `window` points (points newest first, as GET /data gives
 * them; non-numbers skipped). The mean is taken out so that gravity and a tilted mounting
 * (accel_z about 1 g) do not count as vibration.
 */
export function axisVibration(points: readonly DataPoint[], window: number = VIBRATION_WINDOW_POINTS): AxisVibration {
  const taken = points.filter(numeric).slice(0, Math.max(0, Math.floor(window)));
  const latest = taken[0] ?? null;
  if (taken.length === 0) return { latest: null, count: 0, mean: null, rms: null, peak: null, points: [] };
  const mean = taken.reduce((sum, p) => sum + p.v, 0) / taken.length;
  let squares = 0;
  let peak = 0;
  for (const p of taken) {
    const d = p.v - mean;
    squares += d * d;
    peak = Math.max(peak, Math.abs(d));
  }
  return {
    latest: { ts: latest!.ts, v: latest!.v },
    count: taken.length,
    mean,
    rms: Math.sqrt(squares / taken.length),
    peak,
    points: taken.map((p) => ({ ts: p.ts, v: p.v })).reverse(),
  };
}

/** The overall vibration of several axes: the square root of the sum of their squared RMS; null without any. */
export function combinedVibration(axes: readonly Pick<AxisVibration, 'rms'>[]): number | null {
  const known = axes.map((a) => a.rms).filter((r): r is number => r !== null);
  return known.length === 0 ? null : Math.sqrt(known.reduce((sum, r) => sum + r * r, 0));
}

// ---- Kiosk ----------------------------------------------------------------------------------

/**
 * Where a reading stands against its key's limits (its display setting's gaugeSettings over the
 * catalogue's, the alert rule): 'alarm', 'warning' or 'normal'; null for a key without limits or a
 * value that is not a number.
 */
export function readingLevel(key: string, setting: unknown, value: unknown): LimitLevel | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const limits = alertLimits(key, setting);
  return limits === null ? null : limitLevel(value, limits);
}
