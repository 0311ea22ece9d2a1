/** Business constants of spec 1 section 9 and spec 2 section 9, and the small rules built on them. */

// ---- Alert schedule ---------------------------------------------------------------------

/** Alert schedule values in seconds (CONST-09). */
export const ALERT_SCHEDULE = {
  Once: 2_592_000,
  'Every 10 Minutes': 600,
  Hourly: 3600,
  Daily: 86_400,
} as const;
export type AlertScheduleOption = keyof typeof ALERT_SCHEDULE;
export type AlertScheduleLabel = AlertScheduleOption | 'Never';

/** The options in display order. */
export const ALERT_SCHEDULE_OPTIONS = (Object.keys(ALERT_SCHEDULE) as AlertScheduleOption[]).map((label) => ({
  label,
  value: ALERT_SCHEDULE[label],
}));

/** Values over this read back as Once. */
export const ALERT_SCHEDULE_ONCE_ABOVE = 1_296_000;

/** The specification's reverse rule, exactly (CONST-10): over 1296000 Once, above 0 Daily, else Never. */
export function legacyAlertScheduleLabel(seconds: number): 'Once' | 'Daily' | 'Never' {
  if (seconds > ALERT_SCHEDULE_ONCE_ABOVE) return 'Once';
  if (seconds > 0) return 'Daily';
  return 'Never';
}

/** The label of a stored schedule: an exact option value reads as its own label, anything else by the spec's rule. */
export function alertScheduleLabel(seconds: number): AlertScheduleLabel {
  const exact = ALERT_SCHEDULE_OPTIONS.find((o) => o.value === seconds);
  return exact ? exact.label : legacyAlertScheduleLabel(seconds);
}

/** The stored seconds of a schedule label ('Never' is 0). */
export function alertScheduleSeconds(label: AlertScheduleLabel): number {
  return label === 'Never' ? 0 : ALERT_SCHEDULE[label];
}

// ---- Miscellaneous figures ----------------------------------------------------------------

/** Spec 2 section 9's exported numeric constants, recorded as given; their meaning is not stated (CONST-11). */
export const EXPORTED_NUMERIC_CONSTANTS = [30, 50, 50, 10, 6, 10, 8_388_608] as const;

/** Error reporting and session replay rates (BRD-35). */
export const MONITORING_CONFIG = {
  tracesSampleRate: 1.0,
  replaysSessionSampleRate: 0.1,
  replaysOnErrorSampleRate: 1.0,
} as const;

export const SESSION_DAYS = 7;
export const SESSION_MAX_AGE_S = SESSION_DAYS * 86_400;

// ---- Dashboard grid ---------------------------------------------------------------------

export const GRID_BREAKPOINT_NAMES = ['lg', 'md', 'sm'] as const;
export type GridBreakpoint = (typeof GRID_BREAKPOINT_NAMES)[number];
/** Minimum width in px of each breakpoint. */
export const GRID_BREAKPOINTS = { lg: 992, md: 576, sm: 0 } as const satisfies Record<GridBreakpoint, number>;
export const GRID_COLS = { lg: 12, md: 6, sm: 4 } as const satisfies Record<GridBreakpoint, number>;
export const GRID_ROW_HEIGHT = 30.8;
/** Below this width the footer is hidden (DESIGN.md section 5). */
export const SMALL_SCREEN_MAX_WIDTH = 575;

/** The breakpoint for a container width. */
export function gridBreakpointFor(width: number): GridBreakpoint {
  if (width >= GRID_BREAKPOINTS.lg) return 'lg';
  if (width >= GRID_BREAKPOINTS.md) return 'md';
  return 'sm';
}

export const CUSTOM_WIDGET_LIMIT = 99;
export const CUSTOM_CHART_LIMIT = 5;
export const MAP_WIDGETS_PER_VIEW = 1;

/** Default view time range. */
export const DEFAULT_VIEW_TIME_RANGE = { type: 'day', amount: 7 } as const;

// ---- Map ----------------------------------------------------------------------------------

export const MAP_DEFAULTS = {
  centre: { lat: 26, lng: -135 },
  zoom: 2,
  singleMarkerZoom: 15,
  /** Auto-fit pauses this long after the pointer leaves the map. */
  autoFitPauseMs: 5000,
} as const;

/** The GPS accuracy circle is 15 times HDOP, in metres. */
export const GPS_ACCURACY_PER_HDOP_M = 15;

/** Radius in metres of the GPS accuracy circle. */
export function gpsAccuracyRadiusMetres(hdop: number): number {
  return Number.isFinite(hdop) && hdop > 0 ? hdop * GPS_ACCURACY_PER_HDOP_M : 0;
}

// ---- Polling and contact ------------------------------------------------------------------

export const POLLING = {
  initialMs: 5000,
  maxMs: 120_000,
} as const;

/**
 * The default config's base_interval (seconds) and transmit_interval (spec 2 section 3): what a
 * device runs when its config does not say (DESIGN.md section 5; spec 1 section 9's "base interval
 * 5" is the first poll's 5 s, ledger I-06).
 */
export const DEFAULT_INTERVALS = { baseInterval: 60, transmitInterval: 1 } as const;

/** Offline after max(interval + 60, 360) seconds without contact. */
export const OFFLINE_GRACE_S = 60;
export const OFFLINE_MIN_S = 360;

const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/**
 * A device's interval, the seconds expected between its records: base_interval x transmit_interval
 * of its config, each taken from the default config (60 x 1) when missing or not a positive number.
 */
export function expectedIntervalSeconds(baseInterval?: number | null, transmitInterval?: number | null): number {
  const base = positive(baseInterval) ? baseInterval : DEFAULT_INTERVALS.baseInterval;
  const transmit = positive(transmitInterval) ? transmitInterval : DEFAULT_INTERVALS.transmitInterval;
  return base * transmit;
}

/** Seconds without contact after which a device is offline: max(interval + 60, 360). */
export function offlineAfterSeconds(intervalS: number): number {
  return Math.max(intervalS + OFFLINE_GRACE_S, OFFLINE_MIN_S);
}

export interface NextPollInput {
  previousDelayMs: number;
  newData: boolean;
  /** Expected seconds between records, or null when unknown. */
  intervalS: number | null;
  /** Timestamp (epoch s) of the newest record. */
  lastRecordS: number | null;
  nowMs: number;
}

/**
 * The delay before the next poll (DESIGN.md section 5): after new data, the device's expected
 * next transmission (at least 5 s; 5 s when the interval is unknown); with nothing new, the
 * previous delay doubled up to 120 s.
 */
export function nextPollDelayMs(input: NextPollInput): number {
  if (input.newData) {
    if (!positive(input.intervalS) || typeof input.lastRecordS !== 'number') return POLLING.initialMs;
    const dueMs = (input.lastRecordS + input.intervalS) * 1000 - input.nowMs;
    return Math.max(POLLING.initialMs, Math.ceil(dueMs));
  }
  const previous = positive(input.previousDelayMs) ? input.previousDelayMs : POLLING.initialMs / 2;
  return Math.min(POLLING.maxMs, Math.max(POLLING.initialMs, previous * 2));
}

// ---- Calls, caching and pages -------------------------------------------------------------

/** How long each kind of answer stays fresh, in ms (spec 1 and 2 section 7). */
export const STALE_TIMES_MS = {
  views: 5 * 60_000,
  groupsOfUser: 10 * 60_000,
  config: 5 * 60_000,
  settings: 5 * 60_000,
  diagnostics: 5 * 60_000,
  data: 30_000,
  rpcQueue: 15_000,
  metrics: 5 * 60_000,
  billingCustomer: 30_000,
  provisioningLog: Number.POSITIVE_INFINITY,
} as const;
/** Views are retried once. */
export const VIEWS_RETRY = 1;

export const TRIGGER_BUSY_MS = 5000;
export const TRIGGER_COMMAND = 'Admin.Trigger';
/**
 * A queued or sent device command that the device has not acknowledged within this many
 * seconds of being queued (7 days) becomes `expired` and is never delivered again.
 */
export const COMMAND_EXPIRY_S = 7 * 86_400;
export const REFRESH_COOLDOWN_S = 5;
/** Points a data or diagnostics call gives when dataPoints is not sent (spec 2 sections 7 and 9). */
export const DEFAULT_DATA_POINTS = 600;
/** Diagnostics messages asked for: 600 on a device's Diagnostics page, 15 where a list shows a few (spec 2 section 7). */
export const DIAGNOSTICS_POINTS = { devicePage: 600, list: 15 } as const;
/** The most points (records, buckets per key, diagnostics, log lines, commands) one call may ask for. */
export const MAX_DATA_POINTS = 10_000;
/** Server-log lines GET /device/{id}/serverlog gives when dataPoints is not sent. */
export const DEFAULT_SERVER_LOG_ENTRIES = 1000;
/** Commands GET /device/{id}/rpc lists when dataPoints is not sent. */
export const DEFAULT_RPC_COMMANDS = 100;

/**
 * The number of points a call reads: the requested count (the fallback when it is missing or not
 * a finite number) rounded down and kept within 1 to MAX_DATA_POINTS.
 */
export function clampDataPoints(requested: number | null | undefined, fallback: number = DEFAULT_DATA_POINTS): number {
  const wanted = typeof requested === 'number' && Number.isFinite(requested) ? requested : fallback;
  const n = Number.isFinite(wanted) ? Math.floor(wanted) : DEFAULT_DATA_POINTS;
  return Math.min(MAX_DATA_POINTS, Math.max(1, n));
}
export const DIAGNOSTICS_LIST_DATA_POINTS = 15;
export const MAX_GROUP_CHART_SERIES = 15;
export const PAGE_SIZE_OPTIONS = [10, 25, 50] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const METRICS_RANGE_FLOOR_S = 3600;
export const SPARKLINE_POINTS = 20;
export const MIN_CARD_HEIGHT = '17rem';
export const SNAP_GRID_PX = 5;
export const STAFF_TIME_DIFFERENCE_MIN_S = 5;
export const LTE_RSSI_UNKNOWN = -114;
export const DATA_RESTRICTED_POINTS = 1;
export const ASSET_TYPE_PRESET_COUNT_APPROX = 53;

/** Chart relative ranges in ms. */
export const CHART_RANGES_MS = {
  '10m': 600_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '6h': 21_600_000,
  '1d': 86_400_000,
  '1w': 604_800_000,
  '1M': 2_628_000_000,
} as const;
export type ChartRange = keyof typeof CHART_RANGES_MS;
export const DEVICE_CHART_DEFAULT_RANGE: ChartRange = '10m';
export const CHART_PAGE_DEFAULT_RANGE: ChartRange = '6h';
