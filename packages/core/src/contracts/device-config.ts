/**
 * Device config contracts (issue 3, spec 2 sections 3 and 7): the config document and its PUT
 * body, custom script settings, the device script and its lock, firmware and file pushes.
 */
import { z } from 'zod';
import { customSettingError } from '../domain/validation';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../domain/text';
import { DeviceNameSchema, FIRMWARE_PATTERN } from './devices';
import { ColourSchema, VALUE_MAX, safeString } from './fields';

// ---- Limits and messages ---------------------------------------------------------------------

/** Largest device script, decoded. */
export const SCRIPT_MAX_BYTES = 20_000;
/** Largest file pushed to a device, decoded (8 MB). */
export const DEVICE_FILE_MAX_BYTES = 8_388_608;
export const DEVICE_FILE_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
/** Custom script setting names: num* (numeric) or str* (text). */
export const CUSTOM_SETTING_NAME_PATTERN = /^(?:num|str)[A-Za-z0-9_]{1,40}$/;
export const CUSTOM_TEXT_MAX_LENGTH = 256;

export const DEVICE_CONFIG_MESSAGES = {
  queued: 'The change has been queued, and will be pushed next time the device makes contact.',
  scriptTooLarge: `The script is larger than ${SCRIPT_MAX_BYTES} bytes.`,
  fileTooLarge: `The file is larger than 8 MB (${DEVICE_FILE_MAX_BYTES} bytes).`,
  notLockHolder: 'Only the holder of the script lock can release it.',
  notOperatorEditable: (names: readonly string[]) =>
    `An operator may change only settings marked editable by operators (not ${names.join(', ')}).`,
} as const;

/** 'The script is locked by {email} since {time}.' */
export function scriptLockedMessage(email: string, since: string): string {
  return `The script is locked by ${email} since ${since}.`;
}

// ---- Base64 ----------------------------------------------------------------------------------

const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;

/** True for standard base64 with padding (the empty string included). Linear, no backtracking. */
export function isBase64(text: string): boolean {
  return text.length % 4 === 0 && BASE64_CHARS.test(text);
}

/** Bytes that a valid base64 text decodes to. */
export function base64DecodedSize(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

const base64 = (name: string, maxChars: number) =>
  safeString({ message: `${name} must be text` })
    .max(maxChars, `${name} is too long`)
    .refine(isBase64, `${name} is not valid base64 text`);

// ---- Config document -------------------------------------------------------------------------

const int = (name: string, min: number, max: number) =>
  z
    .number({ message: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);
const num = (name: string, min: number, max: number) =>
  z
    .number({ message: `${name} must be a number` })
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);
const bool = (name: string) => z.boolean({ message: `${name} must be true or false` });
const text = (name: string, max: number) =>
  safeString({ message: `${name} must be text` }).max(max, `${name}: at most ${max} characters`);

const DAY_SECONDS = 86_400;
const BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;

const DeviceSectionSchema = z.strictObject({
  name: DeviceNameSchema.optional(),
  base_interval: int('base_interval', 1, DAY_SECONDS).optional(),
  transmit_interval: int('transmit_interval', 1, 1000).optional(),
  sq_interval: int('sq_interval', 0, DAY_SECONDS).optional(),
  batt: z.strictObject({ enabled: bool('enabled').optional() }).optional(),
});

const ChannelSchema = z.strictObject({
  enabled: bool('enabled').optional(),
  name: text('name', 20).optional(),
  mode: z
    .enum(['voltage', 'current', 'resistance'], { message: 'mode must be voltage, current or resistance' })
    .optional(),
});
const CHANNEL_NUMBERS = ['1', '2', '3', '4', '5'];
const Channels = z.record(safeString(), ChannelSchema).superRefine((channels, ctx) => {
  for (const key of Object.keys(channels)) {
    if (!CHANNEL_NUMBERS.includes(key))
      ctx.addIssue({ code: 'custom', path: [key], message: 'channels are numbered 1 to 5' });
  }
});

const CanSchema = z.strictObject({
  enabled: bool('enabled').optional(),
  bitrate: z
    .union([z.literal(125000), z.literal(250000), z.literal(500000), z.literal(1000000)], {
      message: 'bitrate must be 125000, 250000, 500000 or 1000000',
    })
    .optional(),
  mode: z.enum(['j1939', 'raw'], { message: 'mode must be j1939 or raw' }).optional(),
});

export const ScriptTriggerSchema = z.strictObject({
  index: int('index', 0, 99),
  name: text('name', 20),
  colour: ColourSchema,
});
export type ScriptTrigger = z.infer<typeof ScriptTriggerSchema>;

/** The script section: triggers and num* / str* custom values (num* numeric and not blank). */
const ScriptSectionSchema = z
  .record(safeString(), z.unknown())
  .superRefine((section, ctx) => {
    for (const [key, value] of Object.entries(section)) {
      if (key === 'triggers') {
        const parsed = z.array(ScriptTriggerSchema).max(16, 'at most 16 triggers').safeParse(value);
        if (!parsed.success)
          ctx.addIssue({
            code: 'custom',
            path: [key, ...(parsed.error.issues[0]?.path ?? [])],
            message: parsed.error.issues[0]?.message ?? 'invalid',
          });
        continue;
      }
      if (!CUSTOM_SETTING_NAME_PATTERN.test(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'script values are named num* or str* (letters, digits, _)',
        });
        continue;
      }
      const error = customSettingError(key, value);
      if (error) ctx.addIssue({ code: 'custom', path: [key], message: error });
      else if (key.startsWith('str') && (typeof value !== 'string' || value.length > CUSTOM_TEXT_MAX_LENGTH)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${key} must be text of at most ${CUSTOM_TEXT_MAX_LENGTH} characters`,
        });
      } else if (typeof value === 'string' && !isStorableText(value)) {
        ctx.addIssue({ code: 'custom', path: [key], message: UNSTORABLE_TEXT_MESSAGE });
      }
    }
  })
  .transform((section) => normaliseCustomValues(section));

/** The sections of config.settings a user may change; unknown sections are refused. */
export const DeviceConfigSettingsSchema = z.strictObject({
  device: DeviceSectionSchema.optional(),
  vin: z
    .strictObject({
      sleep: z
        .strictObject({
          enabled: bool('enabled').optional(),
          threshold: num('threshold', 0, 60).optional(),
          hysteresis: num('hysteresis', 0, 10).optional(),
        })
        .optional(),
    })
    .optional(),
  gps: z
    .strictObject({ enabled: bool('enabled').optional(), interval: int('interval', 1, 1000).optional() })
    .optional(),
  accel: z
    .strictObject({ enabled: bool('enabled').optional(), threshold: num('threshold', 0, 16).optional() })
    .optional(),
  ambient: z.strictObject({ enabled: bool('enabled').optional() }).optional(),
  inputs: z
    .strictObject({
      analog: Channels.optional(),
      current: Channels.optional(),
      digital: Channels.optional(),
      frequency: Channels.optional(),
      duty: Channels.optional(),
      pulse: Channels.optional(),
    })
    .optional(),
  serial1: z
    .strictObject({
      enabled: bool('enabled').optional(),
      baud: z
        .number({ message: 'baud must be a number' })
        .min(BAUD_RATES[0], 'baud must be a standard rate (1200 to 115200)')
        .max(BAUD_RATES[7], 'baud must be a standard rate (1200 to 115200)')
        .refine((b) => (BAUD_RATES as readonly number[]).includes(b), 'baud must be a standard rate (1200 to 115200)')
        .optional(),
      capture: z
        .strictObject({
          start: base64('start', 1024).optional(),
          end: base64('end', 1024).optional(),
          request: base64('request', 1024).optional(),
        })
        .optional(),
    })
    .optional(),
  can1: CanSchema.optional(),
  can2: CanSchema.optional(),
  ble: z.strictObject({ enabled: bool('enabled').optional() }).optional(),
  script: ScriptSectionSchema.optional(),
  endpoint: z.strictObject({ data_to_portal: bool('data_to_portal').optional() }).optional(),
});

export const DeviceConfigPutBodySchema = z.strictObject({
  config: z
    .strictObject({ settings: DeviceConfigSettingsSchema })
    .refine((c) => Object.keys(c.settings).length > 0, 'config.settings must name at least one section to change'),
});
export type DeviceConfigPutBody = z.infer<typeof DeviceConfigPutBodySchema>;

const CaptureTextSchema = z.object({
  start: z.string().nullable(),
  end: z.string().nullable(),
  request: z.string().nullable(),
});

export const DeviceConfigResponseSchema = z.object({
  deviceid: z.string(),
  /** The config the device runs (last delivered). */
  config: z.record(z.string(), z.unknown()),
  /** Changes waiting for the device to acknowledge them (sent at its next contact), or null. */
  pending: z.record(z.string(), z.unknown()).nullable(),
  pendingSince: z.string().nullable(),
  /** The version the device acknowledges once it has applied the pending config; null with nothing pending. */
  pendingVersion: z.number().nullable(),
  /** When the pending config was last sent to the device (null: not yet sent). */
  pendingSentAt: z.string().nullable(),
  /** serial1.capture start/end/request decoded from base64 for display (null: not text). */
  serialCaptureText: z.object({ applied: CaptureTextSchema, pending: CaptureTextSchema.nullable() }),
});
export type DeviceConfigResponse = z.infer<typeof DeviceConfigResponseSchema>;

/** PUT /device/{id}/config: the config with the change pending, and the message the 'Success' dialog shows (ERR-06). */
export const DeviceConfigSavedSchema = DeviceConfigResponseSchema.extend({ message: z.string() });
export type DeviceConfigSaved = z.infer<typeof DeviceConfigSavedSchema>;

// ---- Custom settings -------------------------------------------------------------------------

export const CustomSettingsBodySchema = z.strictObject({
  values: z
    .record(
      safeString(),
      z.union(
        [
          safeString().max(CUSTOM_TEXT_MAX_LENGTH, `values: text of at most ${CUSTOM_TEXT_MAX_LENGTH} characters`),
          z.number().min(-VALUE_MAX).max(VALUE_MAX),
        ],
        {
          message: 'values: each value must be text or a number',
        },
      ),
    )
    .superRefine((values, ctx) => {
      for (const key of Object.keys(values)) {
        if (!CUSTOM_SETTING_NAME_PATTERN.test(key))
          ctx.addIssue({ code: 'custom', path: [key], message: 'names are num* or str* (letters, digits, _)' });
      }
    })
    .refine((v) => Object.keys(v).length > 0, 'values must name at least one setting')
    .refine((v) => Object.keys(v).length <= 100, 'values: at most 100 settings'),
});
export type CustomSettingsBody = z.infer<typeof CustomSettingsBodySchema>;

/** num* values become numbers ('12.5' -> 12.5); str* values stay text. Call after validation. */
export function normaliseCustomValues(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      key,
      key.startsWith('num') && typeof value === 'string' ? Number(value.trim()) : value,
    ]),
  );
}

// ---- Script ----------------------------------------------------------------------------------

/** Room for a script somewhat above the limit, so the size message (not a 413) answers it. */
const SCRIPT_BASE64_MAX_CHARS = 4 * Math.ceil((SCRIPT_MAX_BYTES * 4) / 3);

export const ScriptPutBodySchema = z.strictObject({
  scriptFileBase64: base64('scriptFileBase64', SCRIPT_BASE64_MAX_CHARS),
});
export type ScriptPutBody = z.infer<typeof ScriptPutBodySchema>;

export const ScriptLockSchema = z.object({ userid: z.string(), email: z.string(), since: z.string() });
export type ScriptLock = z.infer<typeof ScriptLockSchema>;

export const ScriptResponseSchema = z.object({
  deviceid: z.string(),
  /** Base64 of the current script: the saved one while it waits for delivery, else the one the device runs. */
  data: z.string(),
  pending: z.boolean(),
  lock: ScriptLockSchema.nullable(),
});
export type ScriptResponse = z.infer<typeof ScriptResponseSchema>;

export const ScriptLockBodySchema = z.strictObject({ lock: z.boolean({ message: 'lock must be true or false' }) });
export const ScriptLockResponseSchema = z.object({ deviceid: z.string(), lock: ScriptLockSchema.nullable() });
export type ScriptLockResponse = z.infer<typeof ScriptLockResponseSchema>;

// ---- Firmware and files ----------------------------------------------------------------------

export const FirmwarePostBodySchema = z.strictObject({
  firmwareName: safeString({ message: 'firmwareName must be text' }).regex(
    FIRMWARE_PATTERN,
    'firmwareName must look like SFW003-1.2.3',
  ),
});
export type FirmwarePostBody = z.infer<typeof FirmwarePostBodySchema>;

export const DeviceFilePutBodySchema = z.strictObject({
  fileName: safeString({ message: 'fileName must be text' }).regex(
    DEVICE_FILE_NAME_PATTERN,
    'fileName: 1 to 64 letters, digits, dots, dashes or underscores',
  ),
  fileDataBase64: safeString({ message: 'fileDataBase64 must be text' }).refine(
    isBase64,
    'fileDataBase64 is not valid base64',
  ),
});
export type DeviceFilePutBody = z.infer<typeof DeviceFilePutBodySchema>;

// ---- Merging ---------------------------------------------------------------------------------

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Deep merge of config documents: objects merge key by key; arrays and values replace. */
export function mergeDeviceConfig(
  base: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (key === '__proto__') continue;
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? mergeDeviceConfig(current, value) : value;
  }
  return out;
}
