/** The counters a simulated device keeps, which a fleet adds up (stats of a run, not device behaviour). */
export const DEVICE_COUNTERS = [
  'samples',
  'records',
  'contacts',
  'diags',
  'commands',
  'acks',
  'triggers',
  'configs',
  'files',
  'firmware',
  'errors',
  'connects',
  'reconnects',
  'dropped',
] as const;
export type DeviceCounter = (typeof DEVICE_COUNTERS)[number];

export type DeviceStats = Record<DeviceCounter, number> & { lastError: string | null };

/** Every counter at zero, no error. */
export function emptyDeviceStats(): DeviceStats {
  return {
    ...(Object.fromEntries(DEVICE_COUNTERS.map((c) => [c, 0])) as Record<DeviceCounter, number>),
    lastError: null,
  };
}
