/**
 * A device's interval as one truth (issue 32, TL-15; DESIGN.md section 5): the config the device
 * applied and reported. The portal's applied config (GET /device/{id}/config's `config`) holds
 * base_interval and transmit_interval as the device last acknowledged a config or reported them in
 * its diagnostics; the device page's polling, 'No Recent Contact', Offline and the offline alert
 * all take the interval from it through appliedIntervalSeconds, on the server and in the web.
 */
import { expectedIntervalSeconds } from './constants';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A reported interval field: a whole number within the config contract's range, else null. */
function wholeIn(value: unknown, min: number, max: number): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : null;
}

/** The ranges of the config contract (device section): base_interval 1 s to a day, transmit_interval 1 to 1000. */
export const INTERVAL_LIMITS = {
  baseInterval: { min: 1, max: 86_400 },
  transmitInterval: { min: 1, max: 1000 },
} as const;

/** base_interval and transmit_interval of a config document's device section (null where absent or not a number). */
export function appliedIntervals(config: unknown): { baseInterval: number | null; transmitInterval: number | null } {
  const settings = isRecord(config) ? config.settings : undefined;
  const device = isRecord(settings) ? settings.device : undefined;
  const read = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return isRecord(device)
    ? { baseInterval: read(device.base_interval), transmitInterval: read(device.transmit_interval) }
    : { baseInterval: null, transmitInterval: null };
}

/**
 * The seconds expected between a device's records, from the config document it applied
 * (`{settings: {device: {base_interval, transmit_interval}}}`): base_interval x transmit_interval,
 * each from the default config (60 x 1) when missing.
 */
export function appliedIntervalSeconds(config: unknown): number {
  const { baseInterval, transmitInterval } = appliedIntervals(config);
  return expectedIntervalSeconds(baseInterval, transmitInterval);
}

/**
 * The intervals a device reports running in its diagnostics message (`base_interval`,
 * `transmit_interval` at its top level, as it reports `fw`), each only when a whole number in the
 * config contract's range; null when it reports neither.
 */
export function reportedIntervals(diagnostics: unknown): { base_interval?: number; transmit_interval?: number } | null {
  if (!isRecord(diagnostics)) return null;
  const base = wholeIn(diagnostics.base_interval, INTERVAL_LIMITS.baseInterval.min, INTERVAL_LIMITS.baseInterval.max);
  const transmit = wholeIn(
    diagnostics.transmit_interval,
    INTERVAL_LIMITS.transmitInterval.min,
    INTERVAL_LIMITS.transmitInterval.max,
  );
  if (base === null && transmit === null) return null;
  return {
    ...(base !== null ? { base_interval: base } : {}),
    ...(transmit !== null ? { transmit_interval: transmit } : {}),
  };
}
