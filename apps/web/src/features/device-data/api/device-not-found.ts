import { ApiError } from '@/lib/api';

/**
 * True for the answer every device call gives a device that does not exist or that the caller
 * holds no role on: 404 'Device not found', the same for both (docs/decisions.md 'Strangers and
 * devices'). Such a call is not retried or polled again.
 */
export function isDeviceNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
