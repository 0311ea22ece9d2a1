import { ApiError } from '@/lib/api';

/**
 * True for the answer every device call gives a device that does not exist or that the caller
 * holds no role on: 404 'Device not found', the same for both (docs/decisions.md 'Strangers and
 * devices'). Such a call is not retried or polled again.
 */
export function isDeviceNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * The navigation state a device route's redirect to the upper-case id carries (/data/demo00001 to
 * /data/DEMO00001): the id as the user typed it, so a 'Device not found' page names it as typed.
 */
export function typedDeviceIdState(typed: string): { typedDeviceId: string } {
  return { typedDeviceId: typed };
}

/** The id as the user typed it (from the redirect's state) when it names this device, else the device id itself. */
export function deviceIdAsTyped(state: unknown, deviceid: string): string {
  const typed =
    typeof state === 'object' && state !== null ? (state as { typedDeviceId?: unknown }).typedDeviceId : undefined;
  return typeof typed === 'string' && typed.toUpperCase() === deviceid ? typed : deviceid;
}
