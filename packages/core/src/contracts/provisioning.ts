/**
 * Device labels and packing slips (DESIGN.md section 5, 'Device labels'): the label formats, the
 * batch label call and the packing slip call (spec 2 section 7: GET /prov-portal-get-device-label
 * answers a blob, POST /billing-packing-slip).
 */
import { z } from 'zod';
import { DeviceIdSchema } from './devices';
import { safeString } from './fields';

/** What the label call answers: a printable PDF (the default) or a PNG of the same drawing. */
export const LABEL_FORMATS = ['pdf', 'png'] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];

export const LABEL_CONTENT_TYPES = {
  pdf: 'application/pdf',
  png: 'image/png',
} as const satisfies Record<LabelFormat, string>;

/** GET /prov-portal-get-device-label/{id}?format=pdf|png. */
export const ProvLabelQuerySchema = z.strictObject({
  format: z.enum(LABEL_FORMATS, { message: `format must be one of ${LABEL_FORMATS.join(', ')}` }).default('pdf'),
});
export type ProvLabelQuery = z.infer<typeof ProvLabelQuerySchema>;

export const PROV_LIMITS = {
  /** Devices in one batch (labels in one PDF, devices provisioned by the batch mode, lines of a packing slip). */
  batchMax: 200,
  packingReferenceMax: 100,
  packingAddressMax: 500,
} as const;

export const PROV_LIST_MESSAGES = {
  listEmpty: 'give at least one device id',
  listTooLong: `at most ${PROV_LIMITS.batchMax} devices at a time`,
  listRepeats: 'each device once',
} as const;

/** 1 to 200 device ids, each once. */
export const ProvDeviceListSchema = z
  .array(DeviceIdSchema, { message: 'deviceList must be a list of device ids' })
  .min(1, PROV_LIST_MESSAGES.listEmpty)
  .max(PROV_LIMITS.batchMax, PROV_LIST_MESSAGES.listTooLong)
  .refine((ids) => new Set(ids).size === ids.length, PROV_LIST_MESSAGES.listRepeats);

/** POST /prov-portal-labels: the labels of these devices as one PDF, one page each, in this order. */
export const ProvLabelsBodySchema = z.strictObject({ deviceList: ProvDeviceListSchema });
export type ProvLabelsBody = z.infer<typeof ProvLabelsBodySchema>;

/** POST /billing-packing-slip: the devices shipped, and optionally the order reference and the address shipped to. */
export const PackingSlipBodySchema = z.strictObject({
  deviceList: ProvDeviceListSchema,
  reference: safeString({ message: 'reference must be text' })
    .trim()
    .max(PROV_LIMITS.packingReferenceMax, `at most ${PROV_LIMITS.packingReferenceMax} characters`)
    .optional(),
  address: safeString({ message: 'address must be text' })
    .trim()
    .max(PROV_LIMITS.packingAddressMax, `at most ${PROV_LIMITS.packingAddressMax} characters`)
    .optional(),
});
export type PackingSlipBody = z.infer<typeof PackingSlipBodySchema>;

/** Files the label and packing slip calls name in content-disposition. */
export const labelFileName = (deviceid: string, format: LabelFormat): string => `${deviceid}.${format}`;
/** The batch label PDF: labels-{count}-{first id}.pdf. */
export const labelsFileName = (deviceList: readonly string[]): string =>
  `labels-${deviceList.length}-${deviceList[0] ?? 'none'}.pdf`;
/** The packing slip: packing-slip-{YYYY-MM-DD}.pdf. */
export const packingSlipFileName = (date: string): string => `packing-slip-${date}.pdf`;
