import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DevicePermissionsResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { DevicePermissionsResponse };

/** Read again when the page opens after half a minute: others change the list too. */
const PERMISSIONS_STALE_MS = 30_000;

/**
 * GET /api/device/{id}/permissions?flattenGroups=true (SUB-17, API-23): the direct users, the
 * members of the device's groups (with the groups' names) and the pending invitations.
 */
export function getDevicePermissions(deviceid: string, signal?: AbortSignal): Promise<DevicePermissionsResponse> {
  return api.get<DevicePermissionsResponse>(`/device/${encodeURIComponent(deviceid)}/permissions?flattenGroups=true`, {
    area: 'device',
    signal,
  });
}

export function devicePermissionsQueryOptions(deviceid: string) {
  return queryOptions({
    queryKey: queryKeys.device.permissions(deviceid),
    queryFn: ({ signal }) => getDevicePermissions(deviceid, signal),
    staleTime: PERMISSIONS_STALE_MS,
    // The page shows a failure in place (a refusal for OPERATOR and VIEW, SUB-14).
    meta: { silent: true },
  });
}

export function useDevicePermissions(deviceid: string) {
  return useQuery(devicePermissionsQueryOptions(deviceid));
}
