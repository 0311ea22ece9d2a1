/**
 * Contracts of the remaining device calls (issue 3, spec 2 section 7): the import body (a config
 * document or records), the provisioning test run, and the messages of the setup-password step-up.
 */
import { z } from 'zod';
import { ExportRecordsSchema, ImportBodySchema, ImportResultSchema } from './device-data';
import { DeviceConfigResponseSchema, DeviceConfigSettingsSchema } from './device-config';
import { FirmwareSchema } from './devices';
import { safeString } from './fields';

// ---- Config import -----------------------------------------------------------------------------

/**
 * Fields of settings.device that describe the device itself (set by provisioning and firmware).
 * An exported config carries them; an import ignores them, so a config exported from one device
 * can be imported into another.
 */
export const DEVICE_IDENTITY_FIELDS = ['id', 'model', 'fw'] as const;

const DeviceSectionSchema = DeviceConfigSettingsSchema.shape.device.unwrap();

/**
 * A whole config document as GET /device/{id}/config returns it (its `config`) and GET
 * /device/{id}/export?format=config exports it: the sections PUT /config accepts, validated by
 * the same schema, plus the identity fields of settings.device.
 */
export const DeviceConfigDocumentSchema = z
  .strictObject({
    settings: DeviceConfigSettingsSchema.extend({
      device: DeviceSectionSchema.extend({
        id: safeString({ message: 'id must be text' }).max(64).optional(),
        model: safeString({ message: 'model must be text' }).max(20).optional(),
        fw: safeString({ message: 'fw must be text' }).max(40).optional(),
      }).optional(),
    }),
  })
  .refine((c) => Object.keys(c.settings).length > 0, 'config.settings must name at least one section to import');
export type DeviceConfigDocument = z.infer<typeof DeviceConfigDocumentSchema>;

/**
 * POST /device/{id}/import: `{config: {...}}` imports a config document (queued as the pending
 * config, like PUT /config); `{records: [...]}` imports records (stored like a device's).
 */
export const DeviceImportBodySchema = z
  .strictObject({
    config: DeviceConfigDocumentSchema.optional(),
    records: ImportBodySchema.shape.records.optional(),
  })
  .refine(
    (body) => (body.config === undefined) !== (body.records === undefined),
    'Send either {config: {...}} (a config document) or {records: [...]}',
  );
export type DeviceImportBody = z.infer<typeof DeviceImportBodySchema>;

/** The answer to a config import: the config view, the change as queued, and the fields ignored. */
export const DeviceConfigImportResultSchema = DeviceConfigResponseSchema.extend({
  /** The imported payload as it was queued (identity fields removed). */
  importedConfig: z.record(z.string(), z.unknown()),
  /** Paths of the identity fields the import ignored, e.g. settings.device.id. */
  ignoredFields: z.array(z.string()),
});
export type DeviceConfigImportResult = z.infer<typeof DeviceConfigImportResultSchema>;

/** What POST /device/{id}/import answers: a config import result or a records import result. */
export const DeviceImportResultSchema = z.union([DeviceConfigImportResultSchema, ImportResultSchema]);

/** GET /device/{id}/export?format=config: the applied config (as GET /config's `config`), which POST /import takes back. */
export const ExportConfigSchema = z.object({ config: DeviceConfigResponseSchema.shape.config });
export type ExportConfig = z.infer<typeof ExportConfigSchema>;

/** GET /device/{id}/export as JSON: the records (format json) or the config document (format config). */
export const DeviceExportJsonSchema = z.union([ExportRecordsSchema, ExportConfigSchema]);

/**
 * The change a config import queues: the document without the identity fields of
 * settings.device, the paths it ignored, and null when nothing else is left to import.
 */
export function configImportChange(document: DeviceConfigDocument): {
  change: { settings: Record<string, unknown> } | null;
  ignoredFields: string[];
} {
  const settings: Record<string, unknown> = { ...document.settings };
  const ignoredFields: string[] = [];
  if (document.settings.device) {
    const device: Record<string, unknown> = { ...document.settings.device };
    for (const field of DEVICE_IDENTITY_FIELDS) {
      if (field in device) {
        delete device[field];
        ignoredFields.push(`settings.device.${field}`);
      }
    }
    if (Object.keys(device).length > 0) settings.device = device;
    else delete settings.device;
  }
  return { change: Object.keys(settings).length > 0 ? { settings } : null, ignoredFields };
}

export const CONFIG_IMPORT_MESSAGES = {
  nothingToImport: 'config.settings has nothing to import besides the device identity (id, model, fw).',
} as const;

// ---- Provisioning test run -------------------------------------------------------------------------

/** The command a provisioning test run queues for the device. */
export const PROV_TEST_COMMAND = 'Prov.RunTest';
/** Test names: a letter, then letters, digits, dots, dashes or underscores (at most 40). */
export const PROV_TEST_METHOD_PATTERN = /^[A-Za-z][A-Za-z0-9._-]{0,39}$/;

/**
 * POST /prov-portal-run-test/{id}: the test to run (`method`), the firmware the device must run
 * for it (`fw`), and `provLockOverrideCode`: '' for a device nobody has added yet; for a device a
 * customer has added (the provisioning lock), its setup password, to confirm.
 */
export const ProvRunTestBodySchema = z.strictObject({
  method: safeString({ message: 'method is required' }).regex(
    PROV_TEST_METHOD_PATTERN,
    'method: a test name of letters, digits, dots, dashes or underscores (at most 40)',
  ),
  fw: FirmwareSchema,
  provLockOverrideCode: safeString({
    message: "provLockOverrideCode is required ('' when the device is not locked)",
  }).max(64, 'provLockOverrideCode: at most 64 characters'),
});
export type ProvRunTestBody = z.infer<typeof ProvRunTestBodySchema>;

export const PROV_MESSAGES = {
  locked:
    'The device has been added by a customer (provisioning lock): give its setup password as provLockOverrideCode to run a test.',
  labelDownloaded: 'Label downloaded',
} as const;

/** 'Test requested: {method} on {fw} (command {id})', and whether the provisioning lock was overridden. */
export function provTestLogMessage(body: ProvRunTestBody, commandId: number, overridden: boolean): string {
  return `Test requested: ${body.method} on ${body.fw} (command ${commandId})${overridden ? ', provisioning lock overridden' : ''}`;
}

// ---- Setup password step-up ----------------------------------------------------------------------

export const PASSWORDS_MESSAGES = {
  smsSent: 'We have sent a code to your phone by SMS. Enter it to see the setup password.',
  smsAlreadySent: 'A code was sent to your phone by SMS less than a minute ago. Enter it to see the setup password.',
  mfaUnavailable: 'Multi-factor codes cannot be checked here.',
} as const;
