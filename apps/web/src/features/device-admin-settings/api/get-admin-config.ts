import { queryOptions, useQuery } from '@tanstack/react-query';
import { STALE_TIMES_MS, type DeviceConfigResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** GET /api/device/{id}/config (the device page's query, shared through its key): the device's fw and the config an import compares with. */
export function getAdminConfig(deviceid: string, signal?: AbortSignal): Promise<DeviceConfigResponse> {
  return api.get<DeviceConfigResponse>(`/device/${encodeURIComponent(deviceid)}/config`, { area: 'device', signal });
}

export function useAdminConfig(deviceid: string) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.device.config(deviceid),
      queryFn: ({ signal }) => getAdminConfig(deviceid, signal),
      staleTime: STALE_TIMES_MS.config,
    }),
  );
}
