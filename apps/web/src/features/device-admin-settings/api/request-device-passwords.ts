import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

export interface DevicePasswords {
  deviceid: string;
  setupPassword: string;
}

/** POST /api/device/{id}/passwords with an optional MFA code (ADMIN): the device's setup password. */
export function requestDevicePasswords(deviceid: string, code?: string): Promise<DevicePasswords> {
  return api.post<DevicePasswords>(
    `/device/${encodeURIComponent(deviceid)}/passwords`,
    code === undefined ? {} : { code },
    { area: 'device' },
  );
}

export function useRequestDevicePasswords(deviceid: string) {
  return useMutation({
    mutationFn: (code: string | undefined) => requestDevicePasswords(deviceid, code),
  });
}
