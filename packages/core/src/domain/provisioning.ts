/**
 * The batch mode of /sqprov: new device ids for a batch, what each provisioning call came to, and
 * the results as a CSV table (the only copy of the setup passwords and device keys staff get).
 */
import { DEVICE_ID_ALPHABET, charsFromBytes, isDeviceIdPrefix, newDeviceId } from './ids';
import type { ExportTable } from './table-export';

/** A new device id from the prefix and random bytes (one byte per character, DEVICE_ID_ALPHABET). */
export function randomDeviceId(prefix: string, randomBytes: (n: number) => ArrayLike<number>): string {
  return newDeviceId(prefix, (n) => charsFromBytes(randomBytes(n), DEVICE_ID_ALPHABET));
}

/** How many devices a batch makes: a whole number from 1 to `max`, or null. */
export function batchCount(value: unknown, max: number): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= max ? n : null;
}

/** The message for a prefix isDeviceIdPrefix refuses, or null. */
export function prefixError(prefix: string): string | null {
  return isDeviceIdPrefix(prefix) ? null : 'Prefix: at most 6 uppercase letters or digits';
}

/** One device of a batch: made (with its credentials, shown once) or failed (with the server's message). */
export type BatchResult =
  | {
      ok: true;
      deviceid: string;
      model: string;
      fw: string;
      name: string;
      setupPassword: string;
      deviceKey: string;
    }
  | { ok: false; deviceid: string; message: string };

/** The batch's results as a table: one row per device, failures with their message. */
export function batchResultsTable(results: readonly BatchResult[]): ExportTable {
  return {
    columns: ['Device ID', 'Model', 'Firmware', 'Name', 'Setup password', 'Device key', 'Result'],
    rows: results.map((r) =>
      r.ok
        ? [r.deviceid, r.model, r.fw, r.name, r.setupPassword, r.deviceKey, 'Created']
        : [r.deviceid, null, null, null, null, null, r.message],
    ),
  };
}

/** batch-{YYYY-MM-DD}-{count}.csv for a batch of `count` devices made on `date`. */
export const batchCsvFileName = (date: string, count: number): string => `batch-${date}-${count}.csv`;
