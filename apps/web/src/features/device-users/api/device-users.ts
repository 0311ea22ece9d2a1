import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { DeviceRole, DeviceUserResult } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

const path = (deviceid: string) => `/device/${encodeURIComponent(deviceid)}/user`;

/** POST /api/device/{id}/user {targetEmail, targetPermission} (API-19, ADMIN): grant, or invite an address without an account. */
export function addDeviceUser(
  deviceid: string,
  body: { targetEmail: string; targetPermission: DeviceRole },
): Promise<DeviceUserResult> {
  return api.post<DeviceUserResult>(path(deviceid), body, { area: 'device' });
}

/** PUT /api/device/{id}/user {userid, permission} (API-21, ADMIN). */
export function updateDeviceUser(
  deviceid: string,
  body: { userid: string; permission: DeviceRole },
): Promise<DeviceUserResult> {
  return api.put<DeviceUserResult>(path(deviceid), body, { area: 'device' });
}

/** DELETE /api/device/{id}/user {userid} (API-22, ADMIN). */
export function removeDeviceUser(deviceid: string, body: { userid: string }): Promise<DeviceUserResult> {
  return api.delete<DeviceUserResult>(path(deviceid), body, { area: 'device' });
}

/** The list is read again; so are the settings, whose myPermission changes when ADMINs change their own role. */
function refresh(queryClient: QueryClient, deviceid: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.device.permissions(deviceid) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.device.settings(deviceid) }),
  ]);
}

export function useAddDeviceUser(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { targetEmail: string; targetPermission: DeviceRole }) => addDeviceUser(deviceid, body),
    onSuccess: () => refresh(queryClient, deviceid),
  });
}

export function useUpdateDeviceUser(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { userid: string; permission: DeviceRole }) => updateDeviceUser(deviceid, body),
    onSuccess: () => refresh(queryClient, deviceid),
  });
}

export function useRemoveDeviceUser(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userid: string) => removeDeviceUser(deviceid, { userid }),
    onSuccess: () => refresh(queryClient, deviceid),
  });
}
