import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { STALE_TIMES_MS, UNGROUPED_DEVICES_PAGE, type UngroupedDevicesResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { UngroupedDevicesResponse };

/** GET /api/ungrouped-devices: a page of the user's devices that none of the user's groups holds. */
export function getUngroupedDevices(offset: number, signal?: AbortSignal): Promise<UngroupedDevicesResponse> {
  return api.get<UngroupedDevicesResponse>(`/ungrouped-devices?offset=${offset}&limit=${UNGROUPED_DEVICES_PAGE}`, {
    area: 'group',
    ...(signal ? { signal } : {}),
  });
}

export function ungroupedDevicesQueryOptions(offset: number) {
  return queryOptions({
    queryKey: queryKeys.groups.ungroupedPage(offset),
    queryFn: ({ signal }) => getUngroupedDevices(offset, signal),
    // Last contact ages as fresh as the group table's.
    staleTime: STALE_TIMES_MS.data,
    // The list says so itself, with a retry (no toast).
    meta: { silent: true },
  });
}

/** One page; the page before stays shown while the next loads. */
export function useUngroupedDevices(offset: number, enabled = true) {
  return useQuery({ ...ungroupedDevicesQueryOptions(offset), enabled, placeholderData: keepPreviousData });
}
