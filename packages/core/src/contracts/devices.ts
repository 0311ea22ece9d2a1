/**
 * Device contracts (issue 3): provisioning, settings, passwords and distributor actions (device
 * users are device-users.ts); the device models and the default device config (spec 2 section 3).
 */
import { z } from 'zod';
import { DEVICE_ID_PATTERN, isDeviceRouteId } from '../domain/ids';
import { DeviceRoleSchema } from '../domain/roles';
import {
  IMAGE_TYPES,
  imageUploadError,
  DECIMAL_PLACES_MAX,
  DISPLAY_TEXT_MAX_LENGTH,
  SANITISED_MAX_LENGTH,
  SORT_ORDER_MAX,
  SORT_ORDER_MIN,
  customPageName,
  sanitise,
} from '../domain/validation';
import { MfaCodeSchema } from './auth';
import { BrandIdSchema } from './brands';
import { ColourSchema, safeString, valueNumber } from './fields';
import { authoredKindOf, authoredSchemaOf, type DeviceChart, type WidgetCard } from './device-authoring';

// ---- Models, firmware, ids -------------------------------------------------------------------

export const DEVICE_MODELS = ['ORB-C1', 'ORB-X1', 'QUAD-C2', 'QUAD-X2'] as const;
export type DeviceModel = (typeof DEVICE_MODELS)[number];
export const DEVICE_FAMILIES = ['ORB', 'QUAD'] as const;
export type DeviceFamily = (typeof DEVICE_FAMILIES)[number];

export const DeviceModelSchema = z.enum(DEVICE_MODELS, { message: `model must be one of ${DEVICE_MODELS.join(', ')}` });

/** The family of a model: the part before the dash (ORB or QUAD). */
export function deviceFamily(model: DeviceModel): DeviceFamily {
  return model.startsWith('QUAD') ? 'QUAD' : 'ORB';
}

/** Firmware string SFW{3 digits}-{major}.{minor}.{patch}. */
export const FIRMWARE_PATTERN = /^SFW\d{3}-\d{1,4}\.\d{1,4}\.\d{1,4}$/;
/** Firmware of a newly provisioned device when none is given (default firmware doc version 003). */
export const DEFAULT_FIRMWARE = 'SFW003-1.0.0';
export const FirmwareSchema = safeString().regex(FIRMWARE_PATTERN, 'fw must look like SFW003-1.2.3');

export const DeviceIdSchema = safeString().regex(
  DEVICE_ID_PATTERN,
  'The device id must be 9 uppercase letters or digits',
);
/** An existing device's id in a list (groups, subscriptions): a device id, or a virtual device's ('0-' + 7). */
export const DeviceRouteIdSchema = safeString().refine(
  isDeviceRouteId,
  'A device id is 9 uppercase letters or digits (a virtual device: 0- and 7)',
);
/**
 * `{id}` of a call that creates or names a device by its id (provisioning): an id that is not 9
 * uppercase letters or digits is a 400.
 */
export const DeviceIdParamsSchema = z.strictObject({ id: DeviceIdSchema });
/** Longest text a device call takes as its `{id}`. */
export const DEVICE_PARAM_MAX_LENGTH = 64;
/**
 * `{id}` of every call on an existing device: any text up to 64 characters, so a malformed id is
 * answered 404 'Device not found' exactly like an unknown one (nobody learns which ids exist).
 */
export const AnyDeviceParamsSchema = z.strictObject({ id: safeString().min(1).max(DEVICE_PARAM_MAX_LENGTH) });

/** Setup passwords printed on the label: 8 characters from an alphabet without look-alikes. */
export const SETUP_PASSWORD_LENGTH = 8;
export const SETUP_PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Messages the device calls answer with. */
export const DEVICE_MESSAGES = {
  notFound: 'Device not found',
  badClaim: 'Invalid device id or setup password.',
  lastAdmin: 'A device must keep at least one ADMIN.',
  userNotFound: 'That user has no access to this device.',
  nameNotEditable: 'The device name can be changed only for virtual devices (ids starting 0-).',
  notesImageNotFound: 'This device has no image there.',
  mfaRequired: 'Enter the current code of your authenticator app.',
  mfaInvalid: 'Invalid code.',
  alreadyUser: 'You already have access to this device.',
  invited: 'Invitation sent. Access is granted when the address signs up.',
  userAdded: 'User added.',
  userUpdated: 'Permission changed.',
  userRemoved: 'User removed.',
  claimed: 'Device added.',
  trialResetDone: 'Success: the trial restarts when the next user is added.',
  trialResetUnavailable: 'The trial of this device has already been reset.',
  noPassOn: 'Success: the next user to add this device becomes its ADMIN without the setup password.',
  noPassOff: 'Success: adding this device needs the setup password again.',
} as const;

// ---- Device config (spec 2 section 3) --------------------------------------------------------

export interface DefaultConfigInput {
  id: string;
  model: DeviceModel;
  name: string;
  fw: string;
}

/** The config document a device gets when provisioned: base_interval 60, sleep enabled on vin. */
export function defaultDeviceConfig(input: DefaultConfigInput): Record<string, unknown> {
  const family = deviceFamily(input.model);
  const channels = (n: number, extra: Record<string, unknown>) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`${i + 1}`, { enabled: false, name: '', ...extra }]));
  return {
    settings: {
      device: {
        id: input.id,
        model: input.model,
        name: input.name,
        fw: input.fw,
        base_interval: 60,
        transmit_interval: 1,
        sq_interval: 0,
        batt: { enabled: true },
      },
      vin: { sleep: { enabled: true, threshold: 11.5, hysteresis: 0.5 } },
      gps: { enabled: true, interval: 1 },
      accel: { enabled: family === 'QUAD', threshold: 0.5 },
      ambient: { enabled: true },
      inputs: {
        analog: channels(5, { mode: 'voltage' }),
        current: channels(5, {}),
        digital: channels(5, {}),
        frequency: channels(5, {}),
        duty: channels(5, {}),
        pulse: channels(5, {}),
      },
      serial1: { enabled: false, baud: 9600, capture: { start: '', end: '', request: '' } },
      can1: { enabled: family === 'QUAD', bitrate: 250000, mode: 'j1939' },
      can2: { enabled: false, bitrate: 250000, mode: 'j1939' },
      ble: { enabled: false },
      script: {},
      endpoint: { data_to_portal: true },
    },
  };
}

// ---- Provisioning --------------------------------------------------------------------------

/**
 * A device name as a user gives it (PORTAL_deviceName, provisioning, config settings.device.name):
 * at most 20 characters, sanitised (sanitise: no ` ~ " ' ? < >).
 */
export const DeviceNameSchema = safeString({ message: 'must be text' })
  .max(SANITISED_MAX_LENGTH, `at most ${SANITISED_MAX_LENGTH} characters`)
  .transform((v) => sanitise(v));

export const ProvEditDeviceBodySchema = z.strictObject({
  model: DeviceModelSchema,
  fw: FirmwareSchema.optional(),
  name: DeviceNameSchema.optional(),
  /** The brand the device is for (its label and mails use that brand's host): 'default' when a new device names none; an edit without it keeps the device's. */
  brand: BrandIdSchema.optional(),
});
export type ProvEditDeviceBody = z.infer<typeof ProvEditDeviceBodySchema>;

export const ProvDeviceSchema = z.object({
  deviceid: z.string(),
  model: DeviceModelSchema,
  family: z.enum(DEVICE_FAMILIES),
  fw: z.string(),
  name: z.string(),
  tier: z.string(),
  added: z.boolean(),
  createdAt: z.string(),
  lastContact: z.number().nullable(),
  /** The brand the device was provisioned for. */
  brand: BrandIdSchema,
  /** False when PUBLIC_URL is not set: its label's QR code points at this machine's localhost, which no phone reaches. */
  publicUrlConfigured: z.boolean(),
  /** Only in the answer that created the device. */
  setupPassword: z.string().optional(),
  deviceKey: z.string().optional(),
});
export type ProvDevice = z.infer<typeof ProvDeviceSchema>;

/**
 * GET /api/prov-portal-device-exists/{id}: whether a device with the id exists, answered 200 either
 * way, so provisioning asks before it creates without a 404 in the browser's console.
 */
export const ProvDeviceExistsSchema = z.object({ deviceid: z.string(), exists: z.boolean() });
export type ProvDeviceExists = z.infer<typeof ProvDeviceExistsSchema>;

export const ProvLogBodySchema = z.strictObject({
  message: safeString().trim().min(1, 'message is required').max(2000, 'message: at most 2000 characters'),
});
export const ProvLogEntrySchema = z.object({
  id: z.number(),
  message: z.string(),
  author: z.string().nullable(),
  ts: z.string(),
});
export const ProvLogResponseSchema = z.object({ deviceid: z.string(), entries: z.array(ProvLogEntrySchema) });
export type ProvLogEntry = z.infer<typeof ProvLogEntrySchema>;

// ---- Settings -----------------------------------------------------------------------------

const text = (max: number, label: string) =>
  safeString()
    .max(max, `${label}: at most ${max} characters`)
    .transform((v) => sanitise(v, { maxLength: max }));

const displayText = (label: string) => text(DISPLAY_TEXT_MAX_LENGTH, label);

export const DISPLAY_TYPES = [
  'default',
  'hide',
  'gauge',
  'digital',
  'hours',
  'raw',
  'escaped',
  'hex',
  'base64',
  'trendline',
] as const;

export const GaugeSettingsSchema = z.strictObject({
  min: valueNumber('min'),
  max: valueNumber('max'),
  warnLow: valueNumber('warnLow'),
  warnHigh: valueNumber('warnHigh'),
  alarmLow: valueNumber('alarmLow'),
  alarmHigh: valueNumber('alarmHigh'),
});

export const DigitalSettingsSchema = z.strictObject({
  lowThreshold: valueNumber('lowThreshold').default(0.5),
  lowString: displayText('lowString').default('OFF'),
  highString: displayText('highString').default('ON'),
});

/** Per-key display settings (spec 2 section 3 and the limits of section 5). */
export const DisplaySettingSchema = z.strictObject({
  displayType: z.enum(DISPLAY_TYPES).optional(),
  sort: z
    .number()
    .int('sort must be a whole number')
    .min(SORT_ORDER_MIN, 'sort must be 1-100')
    .max(SORT_ORDER_MAX, 'sort must be 1-100')
    .optional(),
  name: displayText('name').optional(),
  units: displayText('units').optional(),
  dp: z
    .number()
    .int('dp must be a whole number')
    .min(0, 'dp must be 0-8')
    .max(DECIMAL_PLACES_MAX, 'dp must be 0-8')
    .optional(),
  showLastReading: z.boolean().optional(),
  gaugeSettings: GaugeSettingsSchema.optional(),
  digitalSettings: DigitalSettingsSchema.optional(),
  groupKey: safeString().max(64).optional(),
  operatorEditable: z.boolean().optional(),
  confirmEnabled: z.boolean().optional(),
  confirmText: text(200, 'confirmText').optional(),
  colour: ColourSchema.optional(),
});
export type DisplaySetting = z.infer<typeof DisplaySettingSchema>;

export const DATA_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const MAX_DISPLAY_SETTING_KEYS = 500;

/** A value of PORTAL_displaySettings: a key's display settings, a widget card or a custom chart. */
export type DisplaySettingsValue = DisplaySetting | WidgetCard | DeviceChart;

/**
 * A change of PORTAL_displaySettings: per key, new settings, or null to remove the key's settings.
 * A widget{n} key holds a widget card (WidgetCardSchema), a chart{n} key a custom chart
 * (DeviceChartSchema), any other data key its display settings (DisplaySettingSchema).
 */
export const DisplaySettingsPatchSchema = z
  .record(safeString(), z.unknown())
  .transform((record, ctx) => {
    const keys = Object.keys(record);
    const out: Record<string, DisplaySettingsValue | null> = {};
    if (keys.length > MAX_DISPLAY_SETTING_KEYS) {
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_DISPLAY_SETTING_KEYS} keys` });
      return z.NEVER;
    }
    for (const key of keys) {
      if (!DATA_KEY_PATTERN.test(key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'display setting keys are data key names' });
        continue;
      }
      const kind = authoredKindOf(key);
      const schema = kind ? authoredSchemaOf(kind) : DisplaySettingSchema;
      const parsed = schema.nullable().safeParse(record[key]);
      if (parsed.success) out[key] = parsed.data;
      else for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: [key, ...issue.path] } as never);
    }
    return out;
  })
  .describe('Per key: display settings, a widget card (widget{n}) or a custom chart (chart{n}); null removes the key');

// ---- Device notes images -------------------------------------------------------------------

/** The two images of the device notes (PORTAL_deviceNotes.images). */
export const NOTES_IMAGE_SLOTS = ['asset_image', 'brand_image'] as const;
export type NotesImageSlot = (typeof NOTES_IMAGE_SLOTS)[number];
export const NotesImageSlotSchema = z.enum(NOTES_IMAGE_SLOTS, { message: 'must be asset_image or brand_image' });

/** Why PUT settings refuses `images`: the notes-image calls own them. */
export const NOTES_IMAGES_READ_ONLY_MESSAGE =
  'not set here: upload with PUT /api/device/{id}/notes-image/{slot}, remove with DELETE on the same address';

/** The body of PUT /api/device/{id}/notes-image/{slot}: a png or jpeg of at most 300 kB, as base64. */
export const NotesImagePutBodySchema = z
  .strictObject({
    contentType: safeString({ message: 'contentType must be text' }).describe(`One of ${IMAGE_TYPES.join(', ')}`),
    dataBase64: safeString({ message: 'dataBase64 must be text' }).describe(
      'The image file as base64 (at most 300 kB decoded); its first bytes must match contentType',
    ),
  })
  .superRefine((body, ctx) => {
    // No path: the message is shown as is ('Image too large. (300 kB limit)').
    const error = imageUploadError(body.contentType, body.dataBase64);
    if (error) ctx.addIssue({ code: 'custom', message: error });
  });
export type NotesImagePutBody = z.infer<typeof NotesImagePutBodySchema>;

/**
 * The address that serves a device notes image, as stored in PORTAL_deviceNotes.images; `version`
 * (the upload time, epoch ms) changes with each upload, so a cached copy is never shown for a new one.
 */
export function notesImagePath(deviceid: string, slot: NotesImageSlot, version: number): string {
  return `/api/device/${encodeURIComponent(deviceid)}/notes-image/${slot}?v=${version}`;
}

// ---- Device notes and the settings change ----------------------------------------------------

export const DeviceNotesSchema = z.strictObject({
  status: text(40, 'status').optional(),
  home_page: safeString().max(40, 'home_page: at most 40 characters').transform(customPageName).optional(),
  asset_type: text(40, 'asset_type').optional(),
  make: text(40, 'make').optional(),
  model: text(40, 'model').optional(),
  customer: text(60, 'customer').optional(),
  installer: text(60, 'installer').optional(),
  description: text(1000, 'description').optional(),
  /** Set only by the notes-image calls; the settings record answers their addresses (notesImagePath). */
  images: z.never({ message: NOTES_IMAGES_READ_ONLY_MESSAGE }).optional(),
});
export type DeviceNotes = z.infer<typeof DeviceNotesSchema>;

export const DeviceSettingsPutBodySchema = z
  .strictObject({
    PORTAL_deviceName: DeviceNameSchema.optional(),
    PORTAL_deviceNotes: DeviceNotesSchema.optional(),
    PORTAL_displaySettings: DisplaySettingsPatchSchema.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'Send PORTAL_deviceName, PORTAL_deviceNotes or PORTAL_displaySettings');
export type DeviceSettingsPutBody = z.infer<typeof DeviceSettingsPutBodySchema>;

/** The tier of the settings record (spec 2 section 3; PLAN-25): core deviceTier. */
export const TierInfoSchema = z.object({
  name: z.string(),
  color: z.enum(['success', 'warning', 'danger', 'secondary', 'muted']),
  outline: z.boolean(),
  tooltip: z.string(),
  dataToPortal: z.boolean(),
  trialDaysRemaining: z.number().nullable(),
});

export const DeviceSettingsResponseSchema = z.object({
  deviceid: z.string(),
  deviceSettings: z.object({
    PORTAL_displaySettings: z.record(z.string(), z.unknown()),
    PORTAL_deviceName: z.string(),
    PORTAL_deviceNotes: z.record(z.string(), z.unknown()),
    PORTAL_add_next_user_without_pass: z.object({ active: z.boolean() }),
    /** The newest value of every key with its time (epoch seconds). */
    DATA_latest: z.record(z.string(), z.object({ v: z.unknown(), ts: z.number() })),
    tier: TierInfoSchema,
    trialResetActive: z.boolean(),
    trialResetAvailable: z.boolean(),
    dataStorageDays: z.number(),
    /** Staff admins only, when at least 5 s: server time minus device time at the newest record, seconds. */
    timeDifferenceS: z.number().optional(),
  }),
  myPermission: DeviceRoleSchema,
  requesterUserId: z.string(),
});
export type DeviceSettingsResponse = z.infer<typeof DeviceSettingsResponseSchema>;

/** PUT /api/device/{id}/settings: the settings record, and the message the 'Success' dialog shows (ERR-06). */
export const DeviceSettingsSavedSchema = DeviceSettingsResponseSchema.extend({ message: z.string() });
export type DeviceSettingsSaved = z.infer<typeof DeviceSettingsSavedSchema>;

/** What PUT settings says it saved: the device name, the asset notes, the display settings, or all of them at once. */
export function settingsSavedMessage(body: DeviceSettingsPutBody): string {
  const parts = [
    body.PORTAL_deviceName !== undefined && 'name',
    body.PORTAL_deviceNotes !== undefined && 'notes',
    body.PORTAL_displaySettings !== undefined && 'display',
  ].filter(Boolean);
  if (parts.length !== 1) return 'Device settings saved.';
  return parts[0] === 'name'
    ? 'Device name saved.'
    : parts[0] === 'notes'
      ? 'Asset notes saved.'
      : 'Display settings saved.';
}

// ---- Passwords and distributor actions ------------------------------------------------------

export const DevicePasswordsBodySchema = z.strictObject({ code: MfaCodeSchema.optional() });
export const DevicePasswordsResponseSchema = z.object({ deviceid: z.string(), setupPassword: z.string() });

export const DistributorActionBodySchema = z.discriminatedUnion(
  'action',
  [
    z.strictObject({ action: z.literal('reset-trial'), params: z.strictObject({}).optional() }),
    z.strictObject({
      action: z.literal('no-pass'),
      params: z.strictObject({
        mode: z.enum(['ADMIN', 'DISABLE'], { message: 'params.mode must be ADMIN or DISABLE' }),
      }),
    }),
  ],
  { message: "action must be 'reset-trial' or 'no-pass'" },
);
export type DistributorActionBody = z.infer<typeof DistributorActionBodySchema>;
