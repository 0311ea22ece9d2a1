import { DEVICE_ID_PATTERN, ID_LENGTHS } from '@portal/core';

/** The device id field's message, or undefined when it holds a whole id. */
export function deviceIdError(deviceid: string): string | undefined {
  if (deviceid === '') return 'Enter the device ID';
  return DEVICE_ID_PATTERN.test(deviceid) ? undefined : `The device ID has ${ID_LENGTHS.device} letters or digits`;
}
