/**
 * The known firmware (DESIGN.md section 5): a firmware update names a firmware string
 * (SFW{3}-{x.y.z}, FIRMWARE_PATTERN) from the list the configuration holds (FIRMWARE_VERSIONS).
 */
import { z } from 'zod';
import { FIRMWARE_PATTERN } from './devices';

/**
 * The list when FIRMWARE_VERSIONS is unset: firmware doc 003 releases, and the next release of
 * each simulator model's family (the demo fleet), so every demo device has an update to take.
 */
export const DEFAULT_FIRMWARE_VERSIONS: readonly string[] = [
  'SFW003-1.0.0',
  'SFW003-1.2.3',
  'SFW003-1.3.0',
  'SFW100-2.5.0',
  'SFW110-3.2.0',
  'SFW200-1.9.0',
  'SFW210-2.1.0',
];

/** GET /api/firmware: the firmware strings a firmware update may name, in configuration order. */
export const FirmwareListResponseSchema = z.object({ firmware: z.array(z.string()) });
export type FirmwareListResponse = z.infer<typeof FirmwareListResponseSchema>;

export const FIRMWARE_MESSAGES = {
  /** POST /device/{id}/firmware with a well-formed name that the configuration does not list. */
  unknown: (name: string) => `Unknown firmware ${name}: choose one of the known firmware versions.`,
} as const;

/**
 * The configured list from its comma-separated text: each entry trimmed, blanks and repeats
 * dropped. Throws naming the first entry that is not a firmware string, or an empty list.
 */
export function parseFirmwareList(text: string): string[] {
  const entries = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const bad = entries.find((entry) => !FIRMWARE_PATTERN.test(entry));
  if (bad !== undefined) throw new Error(`'${bad}' is not a firmware string such as SFW003-1.2.3`);
  if (entries.length === 0) throw new Error('must name at least one firmware string such as SFW003-1.2.3');
  return entries;
}
