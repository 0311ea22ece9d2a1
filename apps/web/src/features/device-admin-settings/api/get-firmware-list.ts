import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FirmwareListResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** The known firmware changes only with the server's configuration. */
const FIRMWARE_LIST_STALE_MS = 10 * 60_000;

/** GET /api/firmware: the firmware strings a firmware update may name. */
export function getFirmwareList(signal?: AbortSignal): Promise<FirmwareListResponse> {
  return api.get<FirmwareListResponse>('/firmware', { area: 'device', signal });
}

export function firmwareListQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.firmware,
    queryFn: ({ signal }) => getFirmwareList(signal),
    staleTime: FIRMWARE_LIST_STALE_MS,
    meta: { silent: true },
  });
}

export function useFirmwareList() {
  return useQuery(firmwareListQueryOptions());
}
