/**
 * The group data call (DESIGN.md section 5, spec 1 section 7 "load a group's data"):
 * GET /group/{groupid}/data answers, for every device of the group, what the group table, the
 * dashboard map and the headline tiles show, read from what ingest keeps ready. Also the
 * search call that home's search box asks (GET /search).
 */
import { z } from 'zod';
import { MAP_SEVERITIES } from '../domain/severity';
import { queryNumber, queryTime, safeString } from './fields';
import { GroupDeviceSummarySchema } from './groups';
import { GroupSummarySchema } from './system';

/** The range a group call covers unless asked otherwise: the default view's 7 days. */
export const GROUP_DATA_DEFAULT_DAYS = 7;
/** Longest range one group data call may cover. */
export const GROUP_DATA_MAX_DAYS = 400;
/** Most keys one group data call may ask for. */
export const GROUP_DATA_MAX_KEYS = 50;
/** Newest event messages per device unless asked otherwise, and the most that may be asked. */
export const GROUP_DATA_MESSAGES_DEFAULT = 5;
export const GROUP_DATA_MESSAGES_MAX = 20;

/** A comma list of record keys in a query string (each once, at most GROUP_DATA_MAX_KEYS). */
const keyList = (name: string) =>
  safeString()
    .max(2000)
    .optional()
    .transform((v) => (v === undefined || v === '' ? [] : [...new Set(v.split(',').map((k) => k.trim()))]))
    .pipe(
      z
        .array(safeString().min(1, `${name}: an empty key`).max(64, `${name}: a key of at most 64 characters`))
        .max(GROUP_DATA_MAX_KEYS, `${name}: at most ${GROUP_DATA_MAX_KEYS} keys`),
    );

/**
 * GET /group/{groupid}/data: `from`/`to` epoch seconds (default: the last 7 days to now; both
 * floored to whole hours, the end's hour counted whole), `keys` a comma list of record keys
 * whose latest values are wanted, `stats` a comma list of numeric keys whose count, sum, min and
 * max over the range are wanted (a table column's operator per device: core metricOfStats),
 * `messages` how many newest event messages per device (0-20).
 */
export const GroupDataQuerySchema = z
  .strictObject({
    from: queryTime('from', { int: true }),
    to: queryTime('to', { int: true }),
    keys: keyList('keys'),
    stats: keyList('stats'),
    messages: queryNumber('messages', 0, GROUP_DATA_MESSAGES_MAX, { int: true }),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'from must not be after to',
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.to - q.from <= GROUP_DATA_MAX_DAYS * 86_400, {
    message: `The range covers at most ${GROUP_DATA_MAX_DAYS} days`,
  });
export type GroupDataQuery = z.infer<typeof GroupDataQuerySchema>;

/** One event message as the group data call answers it (newest first). */
export const GroupMessageSchema = z.object({
  ts: z.number(),
  topic: z.string().nullable(),
  msg: z.string(),
  lv: z.number().nullable(),
  severity: z.string().nullable(),
});
export type GroupMessage = z.infer<typeof GroupMessageSchema>;

/** A key's numeric values over a range: how many, their sum, the least and the greatest. */
export const KeyStatsSchema = z.object({ count: z.number(), sum: z.number(), min: z.number(), max: z.number() });
export type KeyStats = z.infer<typeof KeyStatsSchema>;

/**
 * One device of the group: its summary (the group summary fields of GET /group, spec 2 section 3), last
 * contact, latest values, counts, messages, position.
 */
export const GroupDataDeviceSchema = z.object({
  deviceid: z.string(),
  ...GroupDeviceSummarySchema.shape,
  /** Last contact, epoch seconds, or null when the device never made contact. */
  ts: z.number().nullable(),
  /** Latest value and its time of each asked key the device has. */
  values: z.record(z.string(), z.object({ v: z.unknown(), ts: z.number() })),
  /** With `stats` asked: each asked key's numeric values over the range (whole hours), for the keys the device has values of. */
  stats: z.record(z.string(), KeyStatsSchema).optional(),
  alarmCount: z.number(),
  warningCount: z.number(),
  alertCount: z.number(),
  infoCount: z.number(),
  messages: z.array(GroupMessageSchema),
  /** Latest gps_lat / gps_lon / gps_hdop, or null. */
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  hdop: z.number().nullable(),
  /** Map marker severity over the range (spec 1 section 4). */
  severity: z.enum(MAP_SEVERITIES),
});
export type GroupDataDevice = z.infer<typeof GroupDataDeviceSchema>;

export const GroupDataResponseSchema = z.object({
  groupid: z.string(),
  /** The range read, epoch seconds, after flooring to whole hours (to = end of its hour). */
  from: z.number(),
  to: z.number(),
  devices: z.array(GroupDataDeviceSchema),
});
export type GroupDataResponse = z.infer<typeof GroupDataResponseSchema>;

// ---- GET /search ---------------------------------------------------------------------------------

/** Most devices and most groups one search answers. */
export const SEARCH_MAX_RESULTS = 20;

/** GET /search?q=: devices (by id or name) and groups (by id or name) the caller can see. */
export const SearchQuerySchema = z.strictObject({
  q: safeString({ message: 'q is required' })
    .transform((v) => v.trim())
    .pipe(safeString().min(1, 'q is required').max(64, 'q: at most 64 characters')),
});
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

export const SearchResponseSchema = z.object({
  devices: z.array(z.object({ deviceid: z.string(), name: z.string() })),
  groups: z.array(GroupSummarySchema),
});
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

// ---- GET /ungrouped-devices ------------------------------------------------------------------------

/** Devices the home list of devices not in a group shows a page of (the web's page size). */
export const UNGROUPED_DEVICES_PAGE = 5;
/** Most devices one GET /ungrouped-devices answers. */
export const UNGROUPED_DEVICES_MAX_LIMIT = 100;

/**
 * GET /ungrouped-devices?offset=&limit=: a page of the devices the caller holds a direct grant on
 * that none of the caller's groups holds (home lists them: every device a user can read is one
 * step from home), by name then id; `limit` default UNGROUPED_DEVICES_PAGE.
 */
export const UngroupedDevicesQuerySchema = z.strictObject({
  offset: queryNumber('offset', 0, 1_000_000, { int: true }),
  limit: queryNumber('limit', 1, UNGROUPED_DEVICES_MAX_LIMIT, { int: true }),
});
export type UngroupedDevicesQuery = z.infer<typeof UngroupedDevicesQuerySchema>;

export const UngroupedDeviceSchema = z.object({
  deviceid: z.string(),
  /** The name the device calls show (portal name, else the configured name, else the id). */
  name: z.string(),
  /** The asset type from the device's asset notes ('' when none). */
  type: z.string(),
  /** Last contact, epoch seconds, or null when the device never made contact. */
  ts: z.number().nullable(),
});
export type UngroupedDevice = z.infer<typeof UngroupedDeviceSchema>;

export const UngroupedDevicesResponseSchema = z.object({
  /** How many such devices the caller has in all. */
  total: z.number(),
  offset: z.number(),
  devices: z.array(UngroupedDeviceSchema),
});
export type UngroupedDevicesResponse = z.infer<typeof UngroupedDevicesResponseSchema>;
