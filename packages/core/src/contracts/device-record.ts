/**
 * What devices send and receive (DESIGN.md section 6): the data record, its events and CAN
 * frames, the diagnostics message, the command message the server pushes on `dev/{id}/cmd`
 * (and returns from HTTP ingest) and the acknowledgement a device publishes on `dev/{id}/ack`.
 *
 * The rules of a record, in the order `parseDeviceRecord` applies them:
 * - the whole message is at most 64 kB (RECORD_LIMITS.maxPayloadBytes) and holds one record
 *   or an array of at most 500;
 * - a record is a JSON object with `ts`, epoch seconds (fraction allowed), not older than
 *   7 days and not more than 5 minutes in the future; otherwise the record is refused;
 * - at most 200 keys; more and the record is refused;
 * - a measurement key matches /^[A-Za-z][A-Za-z0-9_]{0,63}$/ and holds a number (of magnitude at
 *   most VALUE_MAX, 2^53 - 1, so that no sum of stored values can overflow), a string of at most
 *   1024 characters, a boolean or an array of at most 256 such numbers; any other key or
 *   value (including `__proto__`, nested objects, null) is dropped and reported,
 *   and the rest of the record is kept; so is a string (also in events) holding U+0000 or an
 *   unpaired surrogate, which the database cannot store;
 * - `events` is an array of {name?, topic?, msg, lv? (a number as above), severity?}; `can1`/`can2` arrays of {id, data}
 *   with `data` a hex string; a malformed one of these is dropped like any other key.
 */
import { z } from 'zod';
import { isStorableText } from '../domain/text';
import { VALUE_MAX, boundedNumber, queryText, safeString, storableJson } from './fields';

export const RECORD_LIMITS = {
  maxKeys: 200,
  maxKeyLength: 64,
  maxStringLength: 1024,
  maxArrayLength: 256,
  maxPayloadBytes: 65_536,
  maxRecordsPerMessage: 500,
  maxEvents: 100,
  maxCanFrames: 256,
  /** A record older than this (seconds before now) is refused. */
  maxAgeSeconds: 7 * 86_400,
  /** A record further than this (seconds after now) in the future is refused. */
  maxFutureSeconds: 300,
} as const;

/** A measurement key name. */
export const RECORD_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** Keys with a structure of their own; every other key is a measurement. */
export const RECORD_STRUCTURED_KEYS = ['ts', 'events', 'can1', 'can2'] as const;

/** A string of at most `max` characters that the database can store. */
const storableString = (max: number) => safeString().max(max);

/** A number a record may hold: finite, of magnitude at most VALUE_MAX. */
const RecordNumberSchema = z.number().min(-VALUE_MAX).max(VALUE_MAX);

/** Whether a number is one a record may hold (RecordNumberSchema, checked without the schema). */
export function isRecordNumber(n: unknown): n is number {
  return typeof n === 'number' && n >= -VALUE_MAX && n <= VALUE_MAX;
}

export const RecordValueSchema = z.union([
  RecordNumberSchema,
  storableString(RECORD_LIMITS.maxStringLength),
  z.boolean(),
  z.array(RecordNumberSchema).max(RECORD_LIMITS.maxArrayLength),
]);
export type RecordValue = z.infer<typeof RecordValueSchema>;

/**
 * An event carried in a record (spec 2 section 3: name, msg, lv, topic, severity): some devices
 * give lv, some a severity word, some both; `name` is kept as given and GET /data returns it.
 */
export const DeviceEventSchema = z.object({
  name: storableString(64).optional(),
  topic: storableString(64).optional(),
  msg: storableString(RECORD_LIMITS.maxStringLength),
  lv: RecordNumberSchema.optional(),
  severity: storableString(16).optional(),
});
export type DeviceEvent = z.infer<typeof DeviceEventSchema>;

/** A CAN frame: numeric or hex-string id, data as a hex string (up to 64 bytes, CAN FD). */
export const CanFrameSchema = z.object({
  id: z.union([z.number().int().nonnegative(), z.string().regex(/^(0x)?[0-9A-Fa-f]{1,8}$/)]),
  data: z.string().regex(/^([0-9A-Fa-f]{2}){0,64}$/, 'data must be a hex string'),
});
export type CanFrame = z.infer<typeof CanFrameSchema>;

const EventsSchema = z.array(DeviceEventSchema).max(RECORD_LIMITS.maxEvents);
const CanFramesSchema = z.array(CanFrameSchema).max(RECORD_LIMITS.maxCanFrames);

/** A valid, clean record (what `parseDeviceRecord` returns; what a simulator should send). */
export const DeviceRecordSchema = z
  .object({
    ts: z.number().finite().positive(),
    events: EventsSchema.optional(),
    can1: CanFramesSchema.optional(),
    can2: CanFramesSchema.optional(),
  })
  .catchall(RecordValueSchema)
  .superRefine((record, ctx) => {
    const keys = Object.keys(record);
    if (keys.length > RECORD_LIMITS.maxKeys) {
      ctx.addIssue({ code: 'custom', message: `A record has at most ${RECORD_LIMITS.maxKeys} keys` });
    }
    for (const key of keys) {
      if (!RECORD_KEY_PATTERN.test(key)) {
        ctx.addIssue({ code: 'custom', message: `Invalid key name: ${key.slice(0, 70)}`, path: [key] });
      }
    }
  });
export type DeviceRecord = z.infer<typeof DeviceRecordSchema>;

/** Diagnostics (`dev/{id}/diag`): a JSON object with an optional ts; stored as given. */
export const DeviceDiagnosticsSchema = z.record(z.string(), z.unknown());

/** A command as delivered to a device. */
export const DeviceCommandSchema = z.object({
  id: z.number().int(),
  method: z.string().min(1).max(64),
  args: z.unknown().optional(),
});
export type DeviceCommand = z.infer<typeof DeviceCommandSchema>;

/**
 * What the server pushes on `dev/{id}/cmd` and answers to `POST /api/ingest/{id}`. The pending
 * config and script come with the version the device acknowledges once it has applied them
 * (`{config: configVersion}`, `{script: scriptVersion}`); until then they stay pending and are
 * sent again after the resend interval.
 */
export const CommandMessageSchema = z.object({
  commands: z.array(DeviceCommandSchema),
  config: z.record(z.string(), z.unknown()).optional(),
  configVersion: z.number().int().optional(),
  /** Base64 of the device script. */
  script: z.string().optional(),
  scriptVersion: z.number().int().optional(),
});
export type CommandMessage = z.infer<typeof CommandMessageSchema>;

/** The arguments of an `Admin.File` command: the file is fetched from `path` (GET, `Authorization: Device <key>`). */
export const DeviceFileCommandArgsSchema = z.object({
  fileName: z.string(),
  size: z.number().int(),
  /** Hex SHA-256 of the file's bytes. */
  sha256: z.string(),
  fileId: z.number().int(),
  /** `/api/ingest/{id}/file/{fileId}`, relative to the portal's address. */
  path: z.string(),
});
export type DeviceFileCommandArgs = z.infer<typeof DeviceFileCommandArgsSchema>;

const AckId = z.number({ message: 'expected a command id' }).int('expected a command id').min(1).max(2_147_483_647);
const AckVersion = z
  .number({ message: 'expected a version number' })
  .int('expected a version number')
  .min(1)
  .max(2_147_483_647);

/** Most command ids one acknowledgement may carry. */
export const MAX_ACK_IDS = 100;

/**
 * A device's acknowledgement, on `dev/{id}/ack` (MQTT) or `POST /api/ingest/{id}/ack` (HTTP):
 * `id` and/or `ids` name commands it received, `config` and `script` the versions of the
 * config and script it has applied. At least one of them.
 */
export const CommandAckSchema = z
  .strictObject({
    id: AckId.optional(),
    ids: z.array(AckId).max(MAX_ACK_IDS, `at most ${MAX_ACK_IDS} ids`).optional(),
    config: AckVersion.optional(),
    script: AckVersion.optional(),
  })
  .refine(
    (a) => a.id !== undefined || (a.ids?.length ?? 0) > 0 || a.config !== undefined || a.script !== undefined,
    'An acknowledgement names a command (id, ids), a config version (config) or a script version (script)',
  );
export type CommandAck = z.infer<typeof CommandAckSchema>;

/** The answer to `POST /api/ingest/{id}/ack`: what is now acknowledged (also when it already was). */
export const CommandAckResultSchema = z.object({
  commands: z.array(z.number()),
  config: z.number().nullable(),
  script: z.number().nullable(),
});
export type CommandAckResult = z.infer<typeof CommandAckResultSchema>;

/** Most extra fields a `POST /api/device/{id}/rpc` body may carry beside method and args. */
export const RPC_EXTRA_FIELDS_MAX = 8;
/** An extra field's name: a letter, then letters, digits or underscores, at most 64 characters. */
export const RPC_EXTRA_FIELD_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/**
 * The body of `POST /api/device/{id}/rpc` (spec 2 section 7: method, args and extra fields).
 * Extra fields are accepted, bounded (at most RPC_EXTRA_FIELDS_MAX, each named like a record key,
 * each a storable JSON value; the whole body within the request size limit) and ignored: a device
 * acts on a command's method and args only, so they are neither stored nor sent (the answer names
 * them in `ignoredFields`; docs/decisions.md 'POST /rpc extra fields').
 */
export const RpcRequestSchema = z
  .object({
    method: safeString().min(1, 'Method is required').max(64, 'Method is too long'),
    args: storableJson().optional(),
  })
  .catchall(storableJson())
  .superRefine((body, ctx) => {
    const extra = rpcExtraFields(body);
    if (extra.length > RPC_EXTRA_FIELDS_MAX)
      ctx.addIssue({
        code: 'custom',
        message: `At most ${RPC_EXTRA_FIELDS_MAX} fields beside method and args (${extra.length} given)`,
      });
    for (const name of extra.slice(0, RPC_EXTRA_FIELDS_MAX + 1))
      if (!RPC_EXTRA_FIELD_PATTERN.test(name))
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'A field name is a letter then letters, digits or underscores (at most 64)',
        });
  });
export type RpcRequest = z.infer<typeof RpcRequestSchema>;

/** The extra fields of an rpc body: every field but method and args, in order. */
export function rpcExtraFields(body: Record<string, unknown>): string[] {
  return Object.keys(body).filter((key) => key !== 'method' && key !== 'args');
}

/** The body of `DELETE /api/device/{id}/rpc`. */
export const RpcCancelSchema = z.strictObject({
  commandID: z.preprocess(queryText, boundedNumber('commandID', 1, 2_147_483_647, { int: true })),
});

export const COMMAND_STATES = ['queued', 'sent', 'delivered', 'cancelled', 'expired'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];

export type RecordParseResult =
  { ok: true; record: DeviceRecord; dropped: { key: string; reason: string }[] } | { ok: false; reason: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Length in Unicode code points (how the schema's string limits count). */
function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/**
 * The value of a measurement key when it is valid (what RecordValueSchema accepts, checked
 * without the schema: this runs for every key of every record ingested), else undefined.
 */
function recordValue(value: unknown): RecordValue | undefined {
  switch (typeof value) {
    case 'number':
      return isRecordNumber(value) ? value : undefined;
    case 'string':
      return (value.length <= RECORD_LIMITS.maxStringLength || codePoints(value) <= RECORD_LIMITS.maxStringLength) &&
        isStorableText(value)
        ? value
        : undefined;
    case 'boolean':
      return value;
    default: {
      if (!Array.isArray(value) || value.length > RECORD_LIMITS.maxArrayLength) return undefined;
      for (const n of value) if (!isRecordNumber(n)) return undefined;
      return (value as number[]).slice();
    }
  }
}

/** Why a measurement's value was dropped: a number out of range, or not a value a record holds. */
function droppedValueReason(key: string, value: unknown): string {
  const numbers = Array.isArray(value) ? value : [value];
  if (numbers.some((n) => typeof n === 'number' && !isRecordNumber(n)))
    return `Key ${printable(key)} holds a number outside -${VALUE_MAX} to ${VALUE_MAX}`;
  return `Key ${printable(key)} has a value of the wrong type`;
}

/** Key names already found valid: a fleet sends the same few keys again and again. */
const validKeyNames = new Set<string>();
const VALID_KEY_NAMES_KEPT = 4096;

function isValidKeyName(key: string): boolean {
  if (validKeyNames.has(key)) return true;
  if (!RECORD_KEY_PATTERN.test(key)) return false;
  if (validKeyNames.size < VALID_KEY_NAMES_KEPT) validKeyNames.add(key);
  return true;
}

function printable(key: string): string {
  return JSON.stringify(key.length > 70 ? `${key.slice(0, 70)}…` : key);
}

/**
 * Whether every key of a record is a measurement with a valid value as given (no structured
 * key, no array, which are copied): the usual record, taken as it is without a copy.
 */
function isCleanAsGiven(input: Record<string, unknown>, keys: string[]): boolean {
  for (const key of keys) {
    if (key === 'ts') continue;
    if (key === 'events' || key === 'can1' || key === 'can2' || !isValidKeyName(key)) return false;
    const value = input[key];
    if (value === undefined || recordValue(value) !== value) return false;
  }
  return true;
}

/**
 * Checks one record against the rules above at `nowSeconds` (epoch seconds). A refused record
 * comes back with the reason; an accepted one comes back clean along with the keys dropped
 * from it: the input itself when every key of it is a valid measurement (a plain object, as
 * JSON.parse makes), else a fresh object with no prototype tricks.
 */
export function parseDeviceRecord(input: unknown, nowSeconds: number): RecordParseResult {
  if (!isPlainObject(input)) return { ok: false, reason: 'A record must be a JSON object' };
  const ts = Object.prototype.hasOwnProperty.call(input, 'ts') ? input.ts : undefined;
  if (typeof ts !== 'number' || !Number.isFinite(ts) || ts <= 0) {
    return { ok: false, reason: 'A record needs ts, epoch seconds' };
  }
  if (ts < nowSeconds - RECORD_LIMITS.maxAgeSeconds) {
    return { ok: false, reason: `ts ${ts} is more than 7 days old` };
  }
  if (ts > nowSeconds + RECORD_LIMITS.maxFutureSeconds) {
    return { ok: false, reason: `ts ${ts} is more than 5 minutes in the future` };
  }
  const keys = Object.keys(input);
  if (keys.length > RECORD_LIMITS.maxKeys) {
    return { ok: false, reason: `A record has at most ${RECORD_LIMITS.maxKeys} keys (${keys.length} given)` };
  }
  const dropped: { key: string; reason: string }[] = [];
  if (isCleanAsGiven(input, keys)) return { ok: true, record: input as DeviceRecord, dropped };
  const out: Record<string, unknown> = { ts };
  for (const key of keys) {
    if (key === 'ts') continue;
    if (!isValidKeyName(key)) {
      dropped.push({ key, reason: `Invalid key name ${printable(key)}` });
      continue;
    }
    const value = input[key];
    if (key === 'events' || key === 'can1' || key === 'can2') {
      const parsed = (key === 'events' ? EventsSchema : CanFramesSchema).safeParse(value);
      if (parsed.success) out[key] = parsed.data;
      else dropped.push({ key, reason: `Malformed ${key}` });
      continue;
    }
    const valid = recordValue(value);
    if (valid !== undefined) out[key] = valid;
    else dropped.push({ key, reason: droppedValueReason(key, value) });
  }
  return { ok: true, record: out as DeviceRecord, dropped };
}

/** A queued device command as the rpc, firmware, file and provisioning-test calls answer it. */
export const CommandViewSchema = z.object({
  commandID: z.number(),
  method: z.string(),
  args: z.unknown(),
  state: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  ackedAt: z.string().nullable(),
  createdBy: z.string().nullable(),
});
export type CommandView = z.infer<typeof CommandViewSchema>;

/** The answer of `POST /api/device/{id}/rpc`: the queued command and, when the body had any, the extra fields ignored. */
export const RpcQueuedSchema = CommandViewSchema.extend({ ignoredFields: z.array(z.string()).optional() });
export type RpcQueued = z.infer<typeof RpcQueuedSchema>;
