import { useQuery } from '@tanstack/react-query';
import { STALE_TIMES_MS, type DeviceConfigResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { DeviceConfigResponse };

/** While a saved change waits for the device, the page asks again this often (ms). */
export const PENDING_POLL_MS = 4000;

/** GET /api/device/{id}/config: the config the device runs, and the changes waiting for it. */
export function getDeviceConfig(deviceid: string, signal?: AbortSignal): Promise<DeviceConfigResponse> {
  return api.get<DeviceConfigResponse>(`/device/${encodeURIComponent(deviceid)}/config`, { area: 'device', signal });
}

/**
 * The device's config, in the cache the device header shares (fresh for STALE_TIMES_MS.config).
 * With `watchPending` (after a save) it is asked again every few seconds while a change is
 * pending, so the page sees the device apply it. The page shows a failure itself.
 */
export function useDeviceConfig(deviceid: string, watchPending: boolean) {
  return useQuery({
    queryKey: queryKeys.device.config(deviceid),
    queryFn: ({ signal }) => getDeviceConfig(deviceid, signal),
    staleTime: STALE_TIMES_MS.config,
    refetchInterval: (query) => (watchPending && query.state.data?.pending ? PENDING_POLL_MS : false),
    // A failed config is shown with its retry button, not fetched again by mounting the form.
    retryOnMount: false,
    meta: { silent: true },
  });
}
