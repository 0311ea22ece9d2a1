/** Bodies of the device data calls: delete-data, transfer-data and import (spec 2 section 7). */
import { z } from 'zod';
import { safeString } from './fields';

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
