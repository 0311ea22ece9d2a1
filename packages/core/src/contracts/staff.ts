/**
 * Staff administration calls (senquip_admin; DESIGN.md section 5): distributors (GET/POST/PUT
 * /distributors, spec 2 section 7), assigning devices to a distributor, finding any device or
 * user, a device's and a user's dossier, and the statistics (GET /billing-admin-stats). A
 * device's subscription and invoices come from the billing calls (GET /billing-admin-device/{id}).
 */
import { z } from 'zod';
import { PLAN_NAMES } from '../domain/plans';
import { DeviceRoleSchema } from '../domain/roles';
import { STAFF_LIMITS, STAFF_MESSAGES, isCountryCode, isStaffDeviceId } from '../domain/staff';
import { EmailSchema } from './auth';
import { DEVICE_PARAM_MAX_LENGTH } from './devices';
import { safeString } from './fields';

// ---- Distributors ----------------------------------------------------------------------------

const DistributorIdSchema = z
  .number({ message: 'id must be a number' })
  .int('id must be a whole number')
  .min(0)
  .max(2_147_483_647);

/** POST /distributors (id 0: a new one) and PUT /distributors (an existing id): every field, trimmed. */
export const DistributorBodySchema = z.strictObject({
  id: DistributorIdSchema,
  name: safeString({ message: STAFF_MESSAGES.nameRequired })
    .transform((v) => v.trim())
    .pipe(
      safeString().min(1, STAFF_MESSAGES.nameRequired).max(STAFF_LIMITS.distributorNameMax, STAFF_MESSAGES.nameTooLong),
    ),
  contactEmail: EmailSchema,
  country: safeString({ message: STAFF_MESSAGES.countryInvalid })
    .transform((v) => v.trim().toUpperCase())
    .refine(isCountryCode, STAFF_MESSAGES.countryInvalid),
  notes: safeString({ message: 'notes must be text' })
    .transform((v) => v.trim())
    .pipe(safeString().max(STAFF_LIMITS.distributorNotesMax, STAFF_MESSAGES.notesTooLong))
    .default(''),
});
export type DistributorBody = z.input<typeof DistributorBodySchema>;
export type DistributorInput = z.output<typeof DistributorBodySchema>;

export const DistributorSchema = z.object({
  id: z.number(),
  name: z.string(),
  contactEmail: z.string(),
  country: z.string(),
  notes: z.string(),
  /** Devices assigned to it now. */
  deviceCount: z.number(),
  /** Epoch seconds. */
  createdAt: z.number(),
  updatedAt: z.number(),
  /** Who last created or edited it (an address). */
  updatedBy: z.string(),
});
export type Distributor = z.infer<typeof DistributorSchema>;

export const DistributorsResponseSchema = z.array(DistributorSchema);

/** PUT /distributor-devices: the devices (ids) go to the distributor; distributorId null unassigns them. */
export const DistributorDevicesBodySchema = z.strictObject({
  distributorId: z
    .number({ message: 'distributorId must be a number or null' })
    .int()
    .min(1)
    .max(2_147_483_647)
    .nullable(),
  deviceList: z
    .array(
      safeString({ message: STAFF_MESSAGES.deviceIdInvalid })
        .transform((v) => v.trim().toUpperCase())
        .refine(isStaffDeviceId, STAFF_MESSAGES.deviceIdInvalid),
      { message: STAFF_MESSAGES.deviceListEmpty },
    )
    .min(1, STAFF_MESSAGES.deviceListEmpty)
    .max(STAFF_LIMITS.assignMax, STAFF_MESSAGES.deviceListTooLong),
});
export type DistributorDevicesBody = z.input<typeof DistributorDevicesBodySchema>;

export const DistributorDevicesResponseSchema = z.object({
  message: z.string(),
  distributorId: z.number().nullable(),
  /** The devices assigned (or unassigned), each once, upper case. */
  deviceList: z.array(z.string()),
});
export type DistributorDevicesResponse = z.infer<typeof DistributorDevicesResponseSchema>;

/** A device's distributor as the dossier and search show it. */
export const DeviceDistributorSchema = z.object({
  id: z.number(),
  name: z.string(),
  assignedBy: z.string(),
  /** Epoch seconds. */
  assignedAt: z.number(),
});
export type DeviceDistributor = z.infer<typeof DeviceDistributorSchema>;

// ---- Search -----------------------------------------------------------------------------------

export const StaffSearchQuerySchema = z.strictObject({
  q: safeString({ message: STAFF_MESSAGES.searchTooShort })
    .transform((v) => v.trim())
    .pipe(
      safeString()
        .min(STAFF_LIMITS.searchMin, STAFF_MESSAGES.searchTooShort)
        .max(STAFF_LIMITS.searchMax, STAFF_MESSAGES.searchTooLong),
    ),
});

const StaffPlanSchema = z.enum(PLAN_NAMES);

export const StaffDeviceHitSchema = z.object({
  deviceid: z.string(),
  name: z.string(),
  model: z.string(),
  plan: StaffPlanSchema,
  /** Epoch seconds, or null before the first contact. */
  lastContact: z.number().nullable(),
  distributor: z.string().nullable(),
});
export type StaffDeviceHit = z.infer<typeof StaffDeviceHitSchema>;

export const StaffUserHitSchema = z.object({
  userId: z.string(),
  email: z.string(),
  userGroups: z.array(z.string()),
  /** Devices granted directly. */
  deviceCount: z.number(),
});
export type StaffUserHit = z.infer<typeof StaffUserHitSchema>;

export const StaffSearchResponseSchema = z.object({
  devices: z.array(StaffDeviceHitSchema),
  users: z.array(StaffUserHitSchema),
});
export type StaffSearchResponse = z.infer<typeof StaffSearchResponseSchema>;

// ---- Dossiers ---------------------------------------------------------------------------------

export const StaffDeviceParamsSchema = z.strictObject({
  id: safeString().min(1).max(DEVICE_PARAM_MAX_LENGTH),
});
export const StaffUserParamsSchema = z.strictObject({ userid: safeString().min(1).max(64) });

/** Where a user's role on a device comes from: a direct grant or a group's membership. */
export const StaffRoleSourceSchema = z.object({
  kind: z.enum(['direct', 'group']),
  /** The group (kind 'group'). */
  groupid: z.string().nullable(),
  groupName: z.string().nullable(),
  role: DeviceRoleSchema,
});

export const StaffDeviceUserSchema = z.object({
  userId: z.string(),
  email: z.string(),
  /** The highest of its sources. */
  role: DeviceRoleSchema,
  sources: z.array(StaffRoleSourceSchema),
});
export type StaffDeviceUser = z.infer<typeof StaffDeviceUserSchema>;

export const StaffDeviceGroupSchema = z.object({
  groupid: z.string(),
  groupName: z.string(),
  members: z.number(),
});

export const ServerLogLineSchema = z.object({ id: z.number(), ts: z.number(), kind: z.string(), message: z.string() });

export const StaffDeviceResponseSchema = z.object({
  device: z.object({
    deviceid: z.string(),
    name: z.string(),
    model: z.string(),
    family: z.string(),
    fw: z.string(),
    tier: z.string(),
    plan: StaffPlanSchema,
    /** Null until someone adds the device (its trial starts then). */
    trialDaysRemaining: z.number().nullable(),
    trialResetState: z.enum(['available', 'active', 'used']),
    addWithoutPass: z.enum(['INACTIVE', 'ADMIN']),
    /** Epoch seconds. */
    addedAt: z.number().nullable(),
    createdAt: z.number(),
    lastContact: z.number().nullable(),
  }),
  users: z.array(StaffDeviceUserSchema),
  groups: z.array(StaffDeviceGroupSchema),
  distributor: DeviceDistributorSchema.nullable(),
  /** The newest server-log lines, newest first. */
  serverLog: z.array(ServerLogLineSchema),
});
export type StaffDeviceResponse = z.infer<typeof StaffDeviceResponseSchema>;

export const StaffUserResponseSchema = z.object({
  user: z.object({
    userId: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    userGroups: z.array(z.string()),
    mfaType: z.string(),
    createdAt: z.number(),
    /** The customer sub-brand logo's address (BRD-13; set on the staff user page), or null. */
    brandImageUrl: z.string().nullable(),
  }),
  devices: z.array(
    z.object({
      deviceid: z.string(),
      name: z.string(),
      model: z.string(),
      plan: StaffPlanSchema,
      role: DeviceRoleSchema,
      lastContact: z.number().nullable(),
    }),
  ),
  groups: z.array(
    z.object({ groupid: z.string(), groupName: z.string(), permission: DeviceRoleSchema, devices: z.number() }),
  ),
});
export type StaffUserResponse = z.infer<typeof StaffUserResponseSchema>;

// ---- Statistics (GET /billing-admin-stats) ----------------------------------------------------

export const BillingAdminStatsResponseSchema = z.object({
  /** Epoch seconds. */
  generatedAt: z.number(),
  /** The configured currency of the revenue figures. */
  currency: z.string(),
  totalDevices: z.number(),
  /** Devices with a contact in the last 24 hours. */
  activeLastDay: z.number(),
  devicesByPlan: z.object({ Hosted: z.number(), Trial: z.number(), Basic: z.number() }),
  devicesByModel: z.array(z.object({ model: z.string(), count: z.number() })),
  /** Distributor null: devices assigned to none. */
  devicesByDistributor: z.array(
    z.object({ distributorId: z.number().nullable(), name: z.string().nullable(), count: z.number() }),
  ),
  /** The last 12 months (UTC), oldest first: subscriptions started and invoices paid in each. */
  months: z.array(z.object({ month: z.string(), subscriptions: z.number(), revenue: z.number() })),
  ingest: z.object({
    /** Records stamped within the last hour (device time, up to now). */
    recordsLastHour: z.number(),
    /** recordsLastHour / 60, 2 decimals. */
    perMinute: z.number(),
    /** Records in each minute of the last hour, oldest first (60 figures). */
    minutes: z.array(z.number()),
  }),
});
export type BillingAdminStatsResponse = z.infer<typeof BillingAdminStatsResponseSchema>;
