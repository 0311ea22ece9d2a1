import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  STALE_TIMES_MS,
  type DeviceSettingsPutBody,
  type DeviceSettingsResponse,
  type DeviceSettingsSaved,
} from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { DeviceSettingsResponse };

/** GET /api/device/{id}/settings: the settings record, the caller's permission and the plan tier. */
export function getDeviceSettings(deviceid: string, signal?: AbortSignal): Promise<DeviceSettingsResponse> {
  return api.get<DeviceSettingsResponse>(`/device/${encodeURIComponent(deviceid)}/settings`, {
    area: 'device',
    signal,
  });
}

export function deviceSettingsQueryOptions(deviceid: string) {
  return queryOptions({
    queryKey: queryKeys.device.settings(deviceid),
    queryFn: ({ signal }) => getDeviceSettings(deviceid, signal),
    staleTime: STALE_TIMES_MS.settings,
    // A device that is not found: the page says so itself ('Device not found'), without a toast over it.
    meta: { notFoundShown: true },
  });
}

export function useDeviceSettings(deviceid: string) {
  return useQuery(deviceSettingsQueryOptions(deviceid));
}

/** PUT /api/device/{id}/settings (display settings, notes or name; the answer says what was saved); refreshes the settings after. */
export function useUpdateDeviceSettings(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeviceSettingsPutBody) =>
      api.put<DeviceSettingsSaved>(`/device/${encodeURIComponent(deviceid)}/settings`, body, { area: 'device' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.device.settings(deviceid) }),
  });
}
