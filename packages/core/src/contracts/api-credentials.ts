/**
 * The user API's credential calls (spec 2 section 7: GET/POST /api-credentials, DELETE
 * /api-credentials/{id}; ledger API-46 to API-48) and the virtual-device call (DESIGN.md section 5).
 * A key's secret is answered once, by the call that creates it; the list never carries it.
 */
import { z } from 'zod';
import { API_ACCESS_LEVELS, API_CREDENTIAL_MESSAGES, API_CREDENTIAL_NAME_MAX_LENGTH } from '../domain/api-credentials';
import { DeviceModelSchema, DeviceNameSchema } from './devices';
import { REQUEST_EPOCH_S_MAX, safeString } from './fields';
import { GroupIdSchema } from './groups';

export const ApiAccessSchema = z.enum(API_ACCESS_LEVELS, {
  message: `access must be one of ${API_ACCESS_LEVELS.join(', ')}`,
});

/** A credential as listed: never its secret. Times are epoch seconds. */
export const ApiCredentialSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    access: ApiAccessSchema,
    /** The key's first characters (prefix and 4 more), to tell keys apart. */
    hint: z.string(),
    created: z.number(),
    /** When the key stops working, or null for never. */
    expires: z.number().nullable(),
    /** The last call made with the key (to the minute), or null when never used. */
    lastUsed: z.number().nullable(),
  })
  .meta({ id: 'ApiCredential' });
export type ApiCredential = z.infer<typeof ApiCredentialSchema>;

export const ApiCredentialsResponseSchema = z.object({ credentials: z.array(ApiCredentialSchema) });
export type ApiCredentialsResponse = z.infer<typeof ApiCredentialsResponseSchema>;

export const ApiCredentialCreateBodySchema = z.strictObject({
  /** 1-40 characters after trimming. */
  name: safeString({ message: API_CREDENTIAL_MESSAGES.nameRequired })
    .transform((v) => v.trim())
    .pipe(
      safeString()
        .min(1, API_CREDENTIAL_MESSAGES.nameRequired)
        .max(API_CREDENTIAL_NAME_MAX_LENGTH, API_CREDENTIAL_MESSAGES.nameTooLong),
    ),
  access: ApiAccessSchema,
  /** Epoch seconds; in the future and at most 5 years away (checked by the server's clock). */
  expiresAt: z
    .number({ message: 'expiresAt must be epoch seconds' })
    .int('expiresAt must be whole seconds')
    .min(0, 'expiresAt must be epoch seconds')
    .max(REQUEST_EPOCH_S_MAX, 'expiresAt must be epoch seconds')
    .optional(),
});
export type ApiCredentialCreateBody = z.input<typeof ApiCredentialCreateBodySchema>;

/** The answer of POST: the credential and, this once, its secret key. */
export const ApiCredentialCreatedSchema = ApiCredentialSchema.extend({ key: z.string() }).meta({
  id: 'ApiCredentialCreated',
});
export type ApiCredentialCreated = z.infer<typeof ApiCredentialCreatedSchema>;

export const ApiCredentialParamsSchema = z.strictObject({ id: safeString().min(1).max(64) });

// ---- Virtual devices -------------------------------------------------------------------------

export const VirtualDeviceCreateBodySchema = z.strictObject({
  /** The device's name (sanitised, at most 20 characters); renamed later with PORTAL_deviceName. */
  name: DeviceNameSchema.pipe(safeString().min(1, 'Give the device a name.')),
  /** The model its records follow; ORB-C1 when not given. */
  model: DeviceModelSchema.optional(),
  /** A group to put it in (one where the caller is ADMIN), so it shows on that group's dashboard. */
  groupid: GroupIdSchema.optional(),
});
export type VirtualDeviceCreateBody = z.input<typeof VirtualDeviceCreateBodySchema>;

export const VirtualDeviceCreatedSchema = z.object({
  deviceid: z.string(),
  name: z.string(),
  model: z.string(),
  /** Its key for HTTP ingest (`Authorization: Device <key>` on POST /api/ingest/{deviceid}), answered once. */
  deviceKey: z.string(),
  /** Its setup password (others add the device with it; the ADMIN can read it again). */
  setupPassword: z.string(),
  /** The group it was put in, or null. */
  groupid: z.string().nullable(),
});
export type VirtualDeviceCreated = z.infer<typeof VirtualDeviceCreatedSchema>;
