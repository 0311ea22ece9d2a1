/** Bodies of the device data calls: delete-data, transfer-data and import (spec 2 section 7). */
import { z } from 'zod';
import { MAX_DATA_POINTS } from '../domain/constants';
import { CommandViewSchema } from './device-record';
import { REQUEST_EPOCH_S_MAX, queryNumber, queryTime, safeString } from './fields';

/** Most records one import may carry. */
export const MAX_IMPORT_RECORDS = 5000;

const setupPassword = safeString({ message: 'setupPassword is required' }).min(1, 'setupPassword is required').max(64);

/** POST /device/{id}/delete-data */
export const DeleteDataBodySchema = z.strictObject({ setupPassword });
export type DeleteDataBody = z.infer<typeof DeleteDataBodySchema>;

/** POST /device/{id}/transfer-data: the setup password is the source device's. */
export const TransferDataBodySchema = z.strictObject({
  setupPassword,
  targetDeviceid: safeString({ message: 'targetDeviceid is required' }).min(1, 'targetDeviceid is required').max(64),
});
export type TransferDataBody = z.infer<typeof TransferDataBodySchema>;

/** POST /device/{id}/import: records like a device sends them, each checked on its own. */
export const ImportBodySchema = z.strictObject({
  records: z
    .array(z.unknown(), { message: 'records must be an array of records' })
    .max(MAX_IMPORT_RECORDS, `At most ${MAX_IMPORT_RECORDS} records per import`),
});
export type ImportBody = z.infer<typeof ImportBodySchema>;

export const ImportResultSchema = z.object({
  deviceid: z.string(),
  imported: z.number(),
  duplicates: z.number(),
  thinned: z.number(),
  refused: z.array(z.object({ index: z.number(), reason: z.string() })),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

/** Records as CSV or JSON; `config`: the applied config document, as POST /device/{id}/import takes it. */
export const EXPORT_FORMATS = ['csv', 'json', 'config'] as const;

/** GET /device/{id}/export?format=json: the records of the range as stored (ts and the keys asked for). */
export const ExportRecordsSchema = z.object({
  deviceid: z.string(),
  records: z.array(z.record(z.string(), z.unknown())),
});
export type ExportRecords = z.infer<typeof ExportRecordsSchema>;

// ---- Queries of the read calls (spec 2 section 7) ------------------------------------------------

/** dataPoints of a query: a whole number from 1 to MAX_DATA_POINTS. */
const dataPoints = queryNumber('dataPoints', 1, MAX_DATA_POINTS, { int: true });

/** Most milliseconds `relative` may reach back: to the epoch from 2100 (the latest time a request may name). */
export const RELATIVE_MS_MAX = REQUEST_EPOCH_S_MAX * 1000;

/** A comma list of record keys (every key when missing). */
const dataKeys = safeString().max(5000).optional();

/**
 * GET /device/{id}/data: dataPoints (default 600), dataKeys, fromTime/toTime (epoch seconds),
 * relative (milliseconds before now), downsample (true or a bucket width in seconds), events
 * (false: the answer's events are left out, for a chart that does not draw them; default true).
 */
export const DataQuerySchema = z.object({
  dataPoints,
  dataKeys,
  fromTime: queryTime('fromTime'),
  toTime: queryTime('toTime'),
  relative: queryNumber('relative', 0, RELATIVE_MS_MAX),
  downsample: safeString().max(20).optional(),
  events: z.enum(['true', 'false'], { message: 'events must be true or false' }).optional(),
});
export type DataQuery = z.infer<typeof DataQuerySchema>;

/** GET /device/{id}/diagnostics and /rpc: how many entries, newest first. */
export const DataPointsQuerySchema = z.object({ dataPoints });
export type DataPointsQuery = z.infer<typeof DataPointsQuerySchema>;

/** GET /device/{id}/export: a time range (epoch seconds, inclusive), the keys and the format (csv by default). */
export const ExportQuerySchema = z.object({
  fromTime: queryTime('fromTime'),
  toTime: queryTime('toTime'),
  dataKeys,
  format: z.enum(EXPORT_FORMATS, { message: 'format must be csv, json or config' }).optional(),
});
export type ExportQuery = z.infer<typeof ExportQuerySchema>;

// ---- Answers of the read calls ---------------------------------------------------------------

/** One value of a key at a time (epoch seconds). */
/** How a record came to the portal (a data point's `source`). */
export const RECORD_SOURCES = ['mqtt', 'http', 'import'] as const;
export type RecordSourceName = (typeof RECORD_SOURCES)[number];

/**
 * A data point (spec 2 section 3: v, ts, source, aws_ts). ts is the record's own time, epoch
 * seconds. A point of a record also carries `source` (how the record came: mqtt, http or import;
 * null for records stored before the portal kept it) and `aws_ts` (when the portal received the
 * record, epoch seconds with milliseconds); a downsampled point (a bucket's average, not one
 * record) and a latest value carry neither.
 */
export const DataPointSchema = z.object({
  v: z.unknown(),
  ts: z.number(),
  // One of RECORD_SOURCES or null (a string in the schema: OpenAPI 3.0 has no nullable enum).
  source: z.string().nullable().optional(),
  aws_ts: z.number().optional(),
});
export type DataPoint = z.infer<typeof DataPointSchema>;

/** One event as GET /data answers it (name: as the device gave it, null when it gave none). */
export const DataEventSchema = z.object({
  name: z.string().nullable(),
  ts: z.number(),
  topic: z.string().nullable(),
  msg: z.string(),
  lv: z.number().nullable(),
  severity: z.string().nullable(),
});
export type DataEvent = z.infer<typeof DataEventSchema>;

/** GET /device/{id}/data: each key's points newest first, the events, and the bucket width when downsampled. */
export const DataResponseSchema = z.object({
  deviceid: z.string(),
  data: z.record(z.string(), z.array(DataPointSchema)),
  events: z.array(DataEventSchema),
  /** Bucket width in seconds when downsampled. */
  bucketSeconds: z.number().optional(),
});
export type DataResponse = z.infer<typeof DataResponseSchema>;

/** An active J1939 fault as the device's last DM1 from a controller reported it, with its texts. */
export const ActiveFaultViewSchema = z.object({
  bus: z.number().int(),
  /** The reporting controller's address. */
  source: z.number().int(),
  spn: z.number().int(),
  fmi: z.number().int(),
  /** How often it occurred (null: the controller does not count). */
  occurrences: z.number().int().nullable(),
  /** 'SPN:FMI'. */
  code: z.string(),
  spnName: z.string(),
  fmiText: z.string(),
  /** When the DM1 that reports it was recorded (epoch s). */
  ts: z.number(),
});
export type ActiveFaultView = z.infer<typeof ActiveFaultViewSchema>;

/** A controller's DM1 lamps, as last reported. */
export const Dm1LampsViewSchema = z.object({
  bus: z.number().int(),
  source: z.number().int(),
  malfunction: z.boolean(),
  redStop: z.boolean(),
  amberWarning: z.boolean(),
  protect: z.boolean(),
  ts: z.number(),
});
export type Dm1LampsView = z.infer<typeof Dm1LampsViewSchema>;

/** A parameter group (PGN) heard from a source on one of the device's CAN buses. */
export const BusMessageViewSchema = z.object({
  bus: z.number().int(),
  pgn: z.number().int(),
  source: z.number().int(),
  name: z.string(),
  /** Last heard (epoch s). */
  ts: z.number(),
});
export type BusMessageView = z.infer<typeof BusMessageViewSchema>;

export const DiagnosticsResponseSchema = z.object({
  deviceid: z.string(),
  diagnostics: z.array(z.object({ ts: z.number(), data: z.unknown() })),
  /** J1939 active faults (DM1) decoded at ingest, by bus, controller and SPN. */
  faults: z.array(ActiveFaultViewSchema),
  /** Lamps of each controller that sent a DM1. */
  lamps: z.array(Dm1LampsViewSchema),
  /** The parameter groups heard on the device's buses, by bus and PGN. */
  busMessages: z.array(BusMessageViewSchema),
});
export type DiagnosticsResponse = z.infer<typeof DiagnosticsResponseSchema>;

/**
 * GET /device/{id}/serverlog: how many entries (dataPoints), only those of one `kind`, and only
 * those older than the entry `before` (an entry id: the last of the page shown, for the next page).
 */
export const ServerLogQuerySchema = z.object({
  dataPoints,
  kind: safeString()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, 'kind must be 1 to 32 letters, digits, _ or -')
    .optional(),
  before: queryNumber('before', 1, 2_147_483_647, { int: true, kind: 'an entry id' }),
});
export type ServerLogQuery = z.infer<typeof ServerLogQuerySchema>;

/** The entries newest first, whether older ones remain (`more`), and every kind the device's log holds (for a filter). */
export const ServerLogResponseSchema = z.object({
  deviceid: z.string(),
  entries: z.array(z.object({ id: z.number(), ts: z.number(), kind: z.string(), message: z.string() })),
  more: z.boolean(),
  kinds: z.array(z.string()),
});
export type ServerLogResponse = z.infer<typeof ServerLogResponseSchema>;

/** GET /device/{id}/rpc: the command queue, newest first. */
export const RpcListResponseSchema = z.object({ deviceid: z.string(), commands: z.array(CommandViewSchema) });
export type RpcListResponse = z.infer<typeof RpcListResponseSchema>;

/** DELETE /device/{id}/rpc: the command cancelled, and the message the 'Success' dialog shows (ERR-06). */
export const RpcCancelResultSchema = z.object({
  commandID: z.number(),
  state: z.literal('cancelled'),
  message: z.string(),
});
export type RpcCancelResult = z.infer<typeof RpcCancelResultSchema>;

/** DELETE /device/{id}/rpc's message: 'Command {id} cancelled.' */
export function commandCancelledMessage(commandID: number): string {
  return `Command ${commandID} cancelled.`;
}

/** Rows a delete or transfer of a device's data touched, per kind. */
export const DataCountsSchema = z.object({
  records: z.number(),
  events: z.number(),
  diagnostics: z.number(),
  rollups: z.number(),
  latest: z.number(),
});
export type DataCounts = z.infer<typeof DataCountsSchema>;

export const DeleteDataResultSchema = z.object({ deviceid: z.string(), deleted: DataCountsSchema });
export type DeleteDataResult = z.infer<typeof DeleteDataResultSchema>;

export const TransferDataResultSchema = z.object({
  deviceid: z.string(),
  targetDeviceid: z.string(),
  moved: DataCountsSchema,
});
export type TransferDataResult = z.infer<typeof TransferDataResultSchema>;
