import { DEVICE_ID_PATTERN, ID_LENGTHS } from '@portal/core';

/** A device id as typed or pasted: upper-cased, letters and digits only, at most 9 characters. */
export function normaliseDeviceIdInput(input: string): string {
  return input
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, ID_LENGTHS.device);
}

/** The device id field's message, or undefined when it holds a whole id. */
export function deviceIdError(deviceid: string): string | undefined {
  if (deviceid === '') return 'Enter the device ID';
  return DEVICE_ID_PATTERN.test(deviceid) ? undefined : `The device ID has ${ID_LENGTHS.device} letters or digits`;
}
